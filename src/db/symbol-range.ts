/**
 * How statements find symbols by file or folder. A symbol id starts with its
 * file's path and `::` (src/symbols/symbol-id.ts), so the symbols of one file
 * are one range of the index on (project_id, id), and the symbols under one
 * folder another: no index on (project_id, file_path) is kept (migration
 * 0015). The range bounds compare bytes (BINARY), and `:;` is the smallest
 * string greater than every string that starts with `::`.
 *
 * Every condition here also states the path itself, so a path that holds
 * `::` (never written by the extractors) cannot bring in another file's rows.
 */

/**
 * SQL condition: symbol row `s` belongs to the file `file` (an SQL expression,
 * evaluated once per seek), sought as the id range `file::` ..< `file:;`.
 */
export function symbolInFileSql(s: string, file: string): string {
  return `${s}.id >= ${file} || '::' AND ${s}.id < ${file} || ':;' AND ${s}.file_path = ${file}`;
}

/**
 * SQL condition: symbol row `s` is under the path range [`from`, `to`) (SQL
 * expressions: a folder `dir/` and the smallest string past its prefix). The
 * ids of those symbols lie in the same range, since each starts with its path.
 */
export function symbolInPathRangeSql(s: string, from: string, to: string): string {
  return `${s}.id >= ${from} AND ${s}.id < ${to} AND ${s}.file_path >= ${from} AND ${s}.file_path < ${to}`;
}

/**
 * SQL FROM clause: the symbols of project `project` in the files of the JSON
 * array `paths` (SQL expressions), as `symbols` joined to one seek per
 * distinct path. The path list shows only its column `file`, so the
 * statement's unqualified column names stay the symbols'.
 */
export function symbolsOfFilesSql(project: string, paths: string): string {
  return `(SELECT DISTINCT value AS file FROM json_each(${paths})) AS j
    CROSS JOIN symbols ON symbols.project_id = ${project} AND ${symbolInFileSql('symbols', 'j.file')}`;
}
