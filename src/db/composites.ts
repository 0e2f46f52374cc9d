/**
 * Statements the composite tools need beyond src/db/source.ts and
 * src/db/graph.ts: symbols overlapping line ranges, file facts and contents
 * by path, paths by file name, and which files hold test code. Every list
 * travels as one JSON parameter read with json_each, joined with CROSS JOIN
 * so SQLite seeks an index per item (a file's range of `symbols_project_id`, the `files` key).
 */
import { jsonChunks } from './json-param';
import type { SymbolRow } from './source';
import { symbolInFileSql } from './symbol-range';
import { fileNameSeeks, filesNamedSql } from './path-filter';

/** A symbol as the composites show it (snake_case, as stored). */
export type SpanSymbol = Pick<SymbolRow, 'id' | 'file_path' | 'name' | 'qualified_name' | 'kind' | 'signature' | 'language' | 'start_line' | 'end_line' | 'is_test' | 'is_exported'> & {
  /** The caller's key of the range this row overlaps. */
  k: string;
  corpus: string;
};

export interface LineProbe {
  /** Caller's key, returned as `k`. */
  k: string;
  path: string;
  start: number;
  end: number;
}

/** For each probe, every symbol of its file whose lines overlap start..end (any corpus unless `codeOnly`). */
export async function symbolsOverlapping(d1: D1Database, projectId: string, probes: readonly LineProbe[], codeOnly = false): Promise<SpanSymbol[]> {
  const out: SpanSymbol[] = [];
  for (const chunk of jsonChunks(probes.map((p) => ({ k: p.k, f: p.path, s: p.start, e: p.end })))) {
    const rows = await d1
      .prepare(
        `SELECT json_extract(p.value, '$.k') AS k, s.id, s.file_path, s.name, s.qualified_name, s.kind, s.signature, s.language, s.corpus,
                s.start_line, s.end_line, s.is_test, s.is_exported
         FROM json_each(?2) p
         CROSS JOIN symbols s ON s.project_id = ?1 AND ${symbolInFileSql('s', "json_extract(p.value, '$.f')")}
         WHERE s.start_line <= json_extract(p.value, '$.e') AND s.end_line >= json_extract(p.value, '$.s')
           AND (?3 = 0 OR s.corpus = 'code')
         ORDER BY s.file_path, s.start_line, s.end_line DESC`,
      )
      .bind(projectId, chunk, codeOnly ? 1 : 0)
      .all<SpanSymbol>();
    out.push(...rows.results);
  }
  return out;
}

/** What the composites need to know about one stored file. */
export interface FileFacts {
  path: string;
  size: number;
  language: string;
  status: string;
  reason: string | null;
  symbol_count: number;
  /** Lines of the stored content (a final line without a newline counts); null when the content is not stored. */
  lines: number | null;
}

/** Facts of the files of a project among `paths` (unknown paths are left out). Line counts are computed in SQL. */
export async function filesByPaths(d1: D1Database, projectId: string, paths: readonly string[]): Promise<FileFacts[]> {
  const distinct = [...new Set(paths)];
  const out: FileFacts[] = [];
  for (const chunk of jsonChunks(distinct)) {
    const rows = await d1
      .prepare(
        `SELECT f.path, f.size, f.language, f.status, f.reason, f.symbol_count,
                CASE WHEN b.content IS NULL THEN NULL
                     WHEN length(b.content) = 0 THEN 0
                     ELSE length(b.content) - length(replace(b.content, char(10), '')) + (substr(b.content, -1) != char(10))
                END AS lines
         FROM json_each(?2) j
         CROSS JOIN files f ON f.project_id = ?1 AND f.path = j.value
         LEFT JOIN blobs b ON b.hash = f.hash`,
      )
      .bind(projectId, chunk)
      .all<FileFacts>();
    out.push(...rows.results);
  }
  return out;
}

/** A diff file both of whose sides may be stored: its content decides which side the index holds (tools/changes.ts). */
export interface ContestedPair {
  old: string;
  new: string;
}

/**
 * The contents of the pairs whose two paths are both stored, in the pairs' order while at most `maxPairs` pairs and
 * `maxBytes` bytes are taken (a modified file counts its size once, a rename both sizes): what changes reads to
 * choose a side, asked in the round trip that learns which paths are stored. Pairs past the caps are left out; pairs
 * too many to send in one statement read nothing.
 */
export async function contestedContents(d1: D1Database, projectId: string, pairs: readonly ContestedPair[], maxPairs: number, maxBytes: number): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const [chunk, ...more] = jsonChunks(pairs.map((p) => ({ o: p.old, n: p.new })));
  if (!chunk || more.length > 0) return out;
  const rows = await d1
    .prepare(
      `WITH both_sides AS (
         SELECT j.key AS k, fo.path AS o, fn.path AS n, fo.size + CASE WHEN fo.path = fn.path THEN 0 ELSE fn.size END AS bytes
         FROM json_each(?2) j
         CROSS JOIN files fo ON fo.project_id = ?1 AND fo.path = json_extract(j.value, '$.o')
         CROSS JOIN files fn ON fn.project_id = ?1 AND fn.path = json_extract(j.value, '$.n')
       ), taken AS (
         SELECT o, n, row_number() OVER w AS r, sum(bytes) OVER w AS upto FROM both_sides WINDOW w AS (ORDER BY k ROWS UNBOUNDED PRECEDING)
       )
       SELECT f.path, b.content FROM taken t
       CROSS JOIN files f ON f.project_id = ?1 AND f.path IN (t.o, t.n)
       JOIN blobs b ON b.hash = f.hash
       WHERE t.r <= ?3 AND t.upto <= ?4`,
    )
    .bind(projectId, chunk, maxPairs, maxBytes)
    .all<{ path: string; content: string }>();
  for (const r of rows.results) out.set(r.path, r.content);
  return out;
}

/** Stored contents of `paths` (files whose content was not stored are left out). */
export async function fileContents(d1: D1Database, projectId: string, paths: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const chunk of jsonChunks([...new Set(paths)])) {
    const rows = await d1
      .prepare(
        `SELECT f.path, b.content FROM json_each(?2) j
         CROSS JOIN files f ON f.project_id = ?1 AND f.path = j.value
         JOIN blobs b ON b.hash = f.hash`,
      )
      .bind(projectId, chunk)
      .all<{ path: string; content: string }>();
    for (const r of rows.results) out.set(r.path, r.content);
  }
  return out;
}

/**
 * Paths of a project whose file name is one of `names` (exact, case-sensitive),
 * at most `perName` per name, shortest first: the candidates a trace path is
 * matched against. Each name seeks its paths in `files_base` (filesNamedSql).
 */
export async function pathsByFileNames(d1: D1Database, projectId: string, names: readonly string[], perName: number): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  // A file name holds no '/': such a name matches no path.
  const distinct = [...new Set(names)].filter((n) => n.length > 0 && !n.includes('/'));
  if (distinct.length === 0) return out;
  const rows = await d1
    .prepare(`SELECT name, path FROM (SELECT name, path, row_number() OVER (PARTITION BY name ORDER BY length(path), path) AS n FROM (${filesNamedSql('?1', '?2')})) WHERE n <= ?3`)
    .bind(projectId, JSON.stringify(fileNameSeeks(distinct)), perName)
    .all<{ name: string; path: string }>();
  for (const r of rows.results) out.set(r.name, [...(out.get(r.name) ?? []), r.path]);
  return out;
}

/** Which of `paths` hold at least one symbol the extractor marked as test code. */
export async function filesWithTests(d1: D1Database, projectId: string, paths: readonly string[]): Promise<Set<string>> {
  const distinct = [...new Set(paths)];
  if (distinct.length === 0) return new Set();
  const rows = await d1
    .prepare(
      `SELECT j.value AS path FROM json_each(?2) j
       WHERE EXISTS (SELECT 1 FROM symbols s WHERE s.project_id = ?1 AND ${symbolInFileSql('s', 'j.value')} AND s.is_test = 1)`,
    )
    .bind(projectId, JSON.stringify(distinct))
    .all<{ path: string }>();
  return new Set(rows.results.map((r) => r.path));
}
