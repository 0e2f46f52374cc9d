/**
 * How an edge stores its ends (schema.ts `edge_ends`, `edge_rows`, the
 * `edges` view of migration 0025): an end is a file and, for a symbol, its
 * key — the symbol id minus `{file}::` (ids are `{file_path}::…`, the path
 * ending at the first `::`, src/symbols/symbol-id.ts) — stored once per
 * project in `edge_ends`; an edge names its ends by id. The view gives each
 * edge's `src_file`, `src_key`, `dst_file` and `dst_key` and the ends' ids
 * `src_end` and `dst_end`. A lookup by an end finds the end's id through
 * `edge_ends_at` (project, file, key) and the edges through `edge_rows_src`
 * or `edge_rows_dst`: these helpers write those conditions, and are the only
 * place that splits or joins ids for edges, in SQL and in code. The project
 * is `?1` in every statement that uses them unless `project` says otherwise.
 */

export type EdgeEnd = 'src' | 'dst';

/** SQL: the symbol id at `end` of edge `alias`; null when the end is a file or module (its key is null). */
export function edgeIdSql(alias: string, end: EdgeEnd): string {
  return `(${alias}.${end}_file || '::' || ${alias}.${end}_key)`;
}

/**
 * SQL: the id of the end of file `file` and key `key` (SQL expressions), null
 * when the project has none, sought in `edge_ends_at`. A null key matches
 * nothing unless `nullKey` (a write's module-level or whole-file end: `IS`
 * instead of `=`).
 */
export function edgeEndIdSql(file: string, key: string, project = '?1', nullKey = false): string {
  return `(SELECT edge_end_.id FROM edge_ends edge_end_ WHERE edge_end_.project_id = ${project} AND edge_end_.file = ${file} AND edge_end_.key ${nullKey ? 'IS' : '='} ${key})`;
}

/** SQL condition over an `edge_ends` row `t`: no edge uses it (resolution and a project's removal delete such ends). */
export function edgeEndUnusedSql(t: string): string {
  return `NOT EXISTS (SELECT 1 FROM edge_rows r WHERE r.src = ${t}.id) AND NOT EXISTS (SELECT 1 FROM edge_rows r WHERE r.dst = ${t}.id)`;
}

/**
 * SQL condition: `end` of edge `alias` is the symbol of file `file` and key
 * `key` (SQL expressions) — the end's id sought in `edge_ends_at`, the edges
 * then by the id's index.
 */
export function edgeEndAtSql(alias: string, end: EdgeEnd, file: string, key: string, project = '?1'): string {
  return `${alias}.${end}_end = ${edgeEndIdSql(file, key, project)}`;
}

/** SQL: the `edge_ends` id of the symbol with id `id` (an SQL expression), cut into file and key at its first `::`; null when the project has none. */
export function edgeEndOfIdSql(id: string, project = '?1'): string {
  return edgeEndIdSql(`substr(${id}, 1, instr(${id}, '::') - 1)`, `substr(${id}, instr(${id}, '::') + 2)`, project);
}

/** SQL: the symbol id an `edge_ends` row `alias` stands for; null for a file or module end (its key is null). */
export function endRowIdSql(alias: string): string {
  return `(${alias}.file || '::' || ${alias}.key)`;
}

/** SQL: the key part of the symbol id `id` whose file is `file` (SQL expressions): the id cut after `{file}::`. */
function keyAfterFileSql(id: string, file: string): string {
  return `substr(${id}, length(${file}) + 3)`;
}

/**
 * SQL condition: `end` of edge `alias` is the symbol with id `id` (an SQL
 * expression), by the file and key parts of the id. With `file` (an SQL
 * expression: the symbol's `file_path`) the id is cut there instead of at its
 * first `::`.
 */
export function edgeEndIsSql(alias: string, end: EdgeEnd, id: string, file?: string, project = '?1'): string {
  if (file !== undefined) return edgeEndAtSql(alias, end, file, keyAfterFileSql(id, file), project);
  return `${alias}.${end}_end = ${edgeEndOfIdSql(id, project)}`;
}

/** SQL condition: `end` of edge `alias` is the symbol row `s` (its `id` and `file_path`). */
export function edgeEndIsSymbolSql(alias: string, end: EdgeEnd, s: string, project = '?1'): string {
  return edgeEndIsSql(alias, end, `${s}.id`, `${s}.file_path`, project);
}

/**
 * SQL condition joining an `edge_ends` row `end` to the symbols row `s`: the row of the symbol's own end
 * (its file, and its id cut there), sought in `edge_ends_at`. A symbol no edge touches has none.
 */
export function symbolEndJoinSql(end: string, s: string, project = '?1'): string {
  return `${end}.project_id = ${project} AND ${end}.file = ${s}.file_path AND ${end}.key = ${keyAfterFileSql(`${s}.id`, `${s}.file_path`)}`;
}

/**
 * SQL condition: `end` of edge `alias` is a file `match` takes, whole or any
 * symbol of it; `match` is the right side of a test of the path, e.g. `= ?2`
 * or `IN (SELECT value FROM json_each(?3))`.
 */
export function edgeFileSql(alias: string, end: EdgeEnd, match: string, project = '?1'): string {
  return `${alias}.${end}_end IN (SELECT edge_end_.id FROM edge_ends edge_end_ WHERE edge_end_.project_id = ${project} AND edge_end_.file ${match})`;
}

/**
 * The stored form of one end: the file, and the key when `id` names a symbol.
 * An id always starts with its own file (the resolver takes both from one
 * symbol row); one that does not is cut at its first `::` like any id.
 */
export function edgeEnd(id: string | null, file: string | null): { file: string | null; key: string | null } {
  if (id === null) return { file, key: null };
  if (file !== null && id.startsWith(`${file}::`)) return { file, key: id.slice(file.length + 2) };
  const sep = id.indexOf('::');
  return sep < 0 ? { file, key: id } : { file: id.slice(0, sep), key: id.slice(sep + 2) };
}
