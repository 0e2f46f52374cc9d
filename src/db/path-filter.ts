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
 * SQL true when the path `path` is a file named `name` (both SQL expressions): the path itself, or its last segment.
 * `instr` first: most paths do not hold the name at all, and it needs no concatenation.
 */
function fileNamedSql(path: string, name: string): string {
  return `instr(${path}, ${name}) > 0 AND (${path} = ${name} OR substr(${path}, -length(${name}) - 1) = '/' || ${name})`;
}

/**
 * The `files.ext` of every path a file named `name` ends (fileNamedSql): the name's text after its last `.`, when that
 * `.` is among the characters the column reads (so the path's last `.` is the name's). Null when the name has none
 * (then a folder's name may decide a path's ext) or holds a `/` (it names no file).
 */
function fileNameExt(name: string): string | null {
  return endingExt(name)?.ext ?? null;
}

/**
 * SQL true when the files row `alias` is a file named `name` whose ext (fileNameExt, never null) is `ext` (both SQL
 * expressions), sought through `files_ext` (project, ext, path): only the project's paths of that ext are tested,
 * not every path.
 */
function fileNamedByExtSql(alias: string, name: string, ext: string): string {
  // Bracketed: `||` binds as tightly as `->>`, so `'/' || j.value ->> 0` would read a JSON path out of `'/' || j.value`.
  return `${alias}.ext = (${ext}) AND ${fileNamedSql(`${alias}.path`, `(${name})`)}`;
}

/**
 * SELECTs of the project's (`project`, an SQL expression) files named as listed, each row `name, path`, to be joined
 * with UNION ALL: `byExt` a JSON parameter of fileNamesByExt's [name, ext] pairs (sought through `files_ext`),
 * `scanned` one of its other names (each a pass over the project's paths). A list that is null sends no part.
 */
export function filesNamedParts(project: string, byExt: string | null, scanned: string | null): string[] {
  const parts: string[] = [];
  if (byExt !== null) {
    parts.push(`SELECT n.value ->> 0 AS name, f.path AS path FROM json_each(${byExt}) n
         CROSS JOIN files f ON f.project_id = ${project} AND ${fileNamedByExtSql('f', 'n.value ->> 0', 'n.value ->> 1')}`);
  }
  if (scanned !== null) {
    parts.push(`SELECT n.value AS name, f.path AS path FROM json_each(${scanned}) n
         CROSS JOIN files f ON f.project_id = ${project} AND ${fileNamedSql('f.path', 'n.value')}`);
  }
  return parts;
}

/**
 * File names split by how a look-up finds their files: `byExt` as [name, ext] pairs (fileNameExt) for
 * fileNamedByExtSql, `scanned` (no ext to seek) for a test of every path with fileNamedSql.
 */
export function fileNamesByExt(names: readonly string[]): { byExt: [string, string][]; scanned: string[] } {
  const byExt: [string, string][] = [];
  const scanned: string[] = [];
  for (const name of names) {
    const ext = fileNameExt(name);
    if (ext === null) scanned.push(name);
    else byExt.push([name, ext]);
  }
  return { byExt, scanned };
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
