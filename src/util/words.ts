/**
 * Splits identifiers into lower-case words for search: `handleRequest`,
 * `handle_request`, `HTTPServer` and `Class.method` all yield their parts.
 * Words are runs of ASCII letters and digits; a run breaks before an
 * upper-case letter that follows a lower-case letter or a digit (`handle|Request`),
 * and before the last upper-case letter of two or more that a lower-case
 * letter follows (`HTTP|Server`). Each word once, in order of first sight.
 * One pass over the characters (a push computes this for every symbol).
 */
export function identifierWords(...names: string[]): string {
  const words = new Set<string>();
  for (const name of names) {
    const n = name.length;
    let start = -1;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? name.charCodeAt(i) : 0;
      const upper = c >= 65 && c <= 90;
      if (!(upper || isLowerOrDigit(c))) {
        if (start >= 0) words.add(name.slice(start, i).toLowerCase());
        start = -1;
      } else if (start < 0) {
        start = i;
      } else if (upper) {
        const prev = name.charCodeAt(i - 1);
        const beforeLower = i + 1 < n && isLower(name.charCodeAt(i + 1));
        if (isLowerOrDigit(prev) || (prev >= 65 && prev <= 90 && beforeLower)) {
          words.add(name.slice(start, i).toLowerCase());
          start = i;
        }
      }
    }
  }
  return [...words].join(' ');
}

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}

function isLowerOrDigit(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}
