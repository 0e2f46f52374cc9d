/**
 * Path filters as SQL conditions on a path column, shared by search (symbols'
 * file paths) and find (files): a folder range, a folder or file, a name
 * ending. Paths compare with SQLite's binary collation (UTF-8 byte order,
 * which is code point order).
 */
export interface PathFilter {
  /** Every path under this folder (with its trailing `/`). */
  prefix?: string;
  /** The exact matching paths (when the glob keeps only some of the folder's files). */
  paths?: string[];
  /** This path, or any under it as a folder. */
  under?: string;
  /** Paths with a segment ending in this text. */
  ending?: string;
}

/** The smallest string greater than every string starting with `prefix` (UTF-8 byte order = code point order). */
export function prefixEnd(prefix: string): string {
  const cps = [...prefix];
  const last = cps.pop() as string;
  return cps.join('') + String.fromCodePoint((last.codePointAt(0) as number) + 1);
}

/** The prefix, under and ending parts of a path filter as conditions on `column`, their values pushed on `params` (`?` placeholders, in order). */
export function pathConditions(column: string, f: Omit<PathFilter, 'paths'>, params: unknown[]): string[] {
  const cond: string[] = [];
  if (f.prefix) {
    cond.push(`${column} >= ? AND ${column} < ?`);
    params.push(f.prefix, prefixEnd(f.prefix));
  }
  if (f.under !== undefined) {
    cond.push(`(${column} = ? OR (${column} >= ? AND ${column} < ?))`);
    params.push(f.under, `${f.under}/`, prefixEnd(`${f.under}/`));
  }
  if (f.ending !== undefined) {
    // substr counts characters (code points) from the end; a segment ends at a `/` or at the end of the path.
    cond.push(`(substr(${column}, -?) = ? OR instr(${column}, ? || '/') > 0)`);
    params.push([...f.ending].length, f.ending, f.ending);
  }
  return cond;
}

