const UPPER = /[A-Z]/;

/**
 * Splits identifiers into lower-case words for search: `handleRequest`,
 * `handle_request`, `HTTPServer` and `Class.method` all yield their parts.
 */
export function identifierWords(...names: string[]): string {
  const words = new Set<string>();
  for (const name of names) {
    // Both case splits need an upper-case letter.
    const split = UPPER.test(name) ? name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2') : name;
    const spaced = split.split(/[^A-Za-z0-9]+/);
    for (const w of spaced) if (w) words.add(w.toLowerCase());
  }
  return [...words].join(' ');
}
