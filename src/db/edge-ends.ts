/**
 * How an edge stores its ends (schema.ts `edges`): a file and, for a symbol,
 * its key — the symbol id minus `{file}::` (ids are `{file_path}::…`, the path
 * ending at the first `::`, src/symbols/symbol-id.ts). The ids' paths are not
 * stored twice, and the index on (project, file, key) of each end serves
 * lookups by file and by symbol. These helpers are the only place that splits
 * or joins ids for edges, in SQL and in code.
 */

export type EdgeEnd = 'src' | 'dst';

/** SQL: the symbol id at `end` of edge `alias`; null when the end is a file or module (its key is null). */
export function edgeIdSql(alias: string, end: EdgeEnd): string {
  return `(${alias}.${end}_file || '::' || ${alias}.${end}_key)`;
}

/**
 * SQL condition: `end` of edge `alias` is the symbol with id `id` (an SQL
 * expression), by the file and key parts of the id, so the edge index is
 * sought. With `file` (an SQL expression: the symbol's `file_path`) the id is
 * cut there instead of at its first `::`.
 */
export function edgeEndIsSql(alias: string, end: EdgeEnd, id: string, file?: string): string {
  if (file !== undefined) return `${alias}.${end}_file = ${file} AND ${alias}.${end}_key = substr(${id}, length(${file}) + 3)`;
  return `${alias}.${end}_file = substr(${id}, 1, instr(${id}, '::') - 1) AND ${alias}.${end}_key = substr(${id}, instr(${id}, '::') + 2)`;
}

/** SQL condition: `end` of edge `alias` is the symbol row `s` (its `id` and `file_path`). */
export function edgeEndIsSymbolSql(alias: string, end: EdgeEnd, s: string): string {
  return edgeEndIsSql(alias, end, `${s}.id`, `${s}.file_path`);
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
