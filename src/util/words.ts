/**
 * Splits identifiers into lower-case words for search: `handleRequest`,
 * `handle_request`, `HTTPServer` and `Class.method` all yield their parts.
 */
export function identifierWords(...names: string[]): string {
  const words = new Set<string>();
  for (const name of names) {
    const spaced = name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .split(/[^A-Za-z0-9]+/);
    for (const w of spaced) if (w) words.add(w.toLowerCase());
  }
  return [...words].join(' ');
}
