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

/**
 * `files.base`, a virtual column of each path that `files_base` indexes: its last segment, the file's name (the whole
 * path when it holds no `/`). `rtrim(path, <path without '/'>)` drops every trailing character but `/`: the folder part.
 */
export const BASE_SQL = `substr(path, length(rtrim(path, replace(path, '/', ''))) + 1)`;

/**
 * A file look-up's names as [name, file name] pairs (the name's last segment: `cjs/context.js` → `context.js`), for
 * filesNamedSql. A file path never ends in `/`, so a name that does finds nothing.
 */
export function fileNameSeeks(names: readonly string[]): [string, string][] {
  return names.map((name) => [name, name.slice(name.lastIndexOf('/') + 1)]);
}

/**
 * SELECT of the project's (`project`, an SQL expression) files named as listed, each row `name, path`: `seeks` a JSON
 * parameter of fileNameSeeks' pairs. Each name seeks its file name in `files_base` (project, base), so only the
 * paths of that file name are read, and keeps those that are the name or end in `/` and the name.
 */
export function filesNamedSql(project: string, seeks: string): string {
  // Bracketed: `||` binds as tightly as `->>`, so `'/' || n.value ->> 0` would read a JSON path out of `'/' || n.value`.
  return `SELECT n.value ->> 0 AS name, f.path AS path FROM json_each(${seeks}) n
         CROSS JOIN files f ON f.project_id = ${project} AND f.base = (n.value ->> 1)
           AND (f.path = (n.value ->> 0) OR substr(f.path, -length((n.value ->> 0)) - 1) = '/' || (n.value ->> 0))`;
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

/** Characters at the end of a path that `files.ext` reads (schema.ts): an ending seeks it when its text after the last `.` is shorter. */
const EXT_SPAN = 16;

/**
 * `files.ext`, a virtual column of each path that `files_ext` indexes: the text after the last `.` among the path's
 * last 16 characters, null when none is a `.`. `rtrim` drops every trailing character but `.`; the cost is bounded by
 * the span, however long the path.
 */
const TAIL = `substr(path, -${EXT_SPAN})`;
export const EXT_SQL = `CASE WHEN instr(${TAIL}, '.') > 0 THEN substr(${TAIL}, length(rtrim(${TAIL}, replace(${TAIL}, '.', ''))) + 1) END`;

/** A path with a `.` before a `/` (some folder's name holds a `.`): the paths `files_dotted_folders` holds (schema.ts). */
export const DOTTED_FOLDER_SQL = `path GLOB '*.*/*'`;

/**
 * The ext every path ending in `ending` has: its text after its last `.`. Null when the ending holds no `.` or that text
 * is too long for the column. `exact`: the ending is that `.` and text, so the ext alone says the path ends with it.
 */
export function endingExt(ending: string): { ext: string; exact: boolean } | null {
  const dot = ending.lastIndexOf('.');
  if (dot < 0 || ending.includes('/')) return null;
  const ext = ending.slice(dot + 1);
  if ([...ext].length >= EXT_SPAN) return null;
  return { ext, exact: dot === 0 };
}

/**
 * The ending condition (pathConditions' `ending`: a segment of the path ends with it) on the files table as two
 * disjoint conditions that each seek an index instead of testing every path: the path itself ends with it (a range
 * of `files_ext`), or it does not and a folder's name does (only the paths of `files_dotted_folders` can: the
 * ending holds a `.`). `bind` adds a parameter and returns its placeholder. Null when the ending cannot seek (endingExt).
 */
export function endingSeeks(ending: string, bind: (value: unknown) => string): [string, string] | null {
  const e = endingExt(ending);
  if (!e) return null;
  const ext = bind(e.ext);
  const chars = bind([...ending].length);
  const text = bind(ending);
  const ends = `substr(path, -${chars}) = ${text}`;
  return [e.exact ? `ext = ${ext}` : `ext = ${ext} AND ${ends}`, `${DOTTED_FOLDER_SQL} AND instr(path, ${text} || '/') > 0 AND NOT ${ends}`];
}
