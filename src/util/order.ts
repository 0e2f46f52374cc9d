/**
 * Strings in code-unit order (JavaScript's `<`), not locale order: the order SQLite's BINARY collation gives UTF-8
 * paths, but for characters past U+FFFF against U+E000–U+FFFF. For sorting paths as the statements do.
 */
export function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
