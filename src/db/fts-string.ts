/**
 * A string inside an FTS5 MATCH expression (a search term, a qualified-name
 * phrase, a trigram): in double quotes, each `"` doubled, each NUL a space.
 * FTS5 reads the expression as a C string, so a NUL would end it inside the
 * quotes and SQLite would refuse the whole statement ("unterminated
 * string"). Both indexes read a NUL as a space does: `symbols_fts`
 * (unicode61) splits words at it, and `blob_grams` (trigram) holds none, as
 * stored content never has one (src/extract/guards.ts), so a trigram with a
 * space in its place finds a superset that the content check then narrows.
 */
export function ftsString(text: string): string {
  return `"${text.replaceAll('\u0000', ' ').replaceAll('"', '""')}"`;
}
