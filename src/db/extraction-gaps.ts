import { notMovedSql, type MovedSymbol } from './names';

/**
 * Files whose symbols the index may lack: extraction failed (parse error,
 * parse budget), the file was over the size budget, or the parse met syntax
 * errors and kept only what the tree recovered. A lookup that misses names
 * them instead of claiming the symbol is absent.
 */

export interface ExtractionGap {
  path: string;
  /** files.status: 'failed', 'skipped', or 'indexed' for a partial parse. */
  status: string;
  reason: string | null;
  /** Indexed from a parse with syntax errors: the symbols the tree recovered only. */
  partial: boolean;
  /** The stored content holds the looked-up text (0/1). */
  mentions: number;
}

/**
 * What extractionGaps asks: `text` null checks no content; `corpus` and `path` narrow the files. With
 * `unlessMoved`, there are none when that symbol has moved (the question rides with the moved file's look-up).
 */
export interface ExtractionGapQuestion {
  text: string | null;
  corpus?: string;
  path?: string;
  limit: number;
  unlessMoved?: MovedSymbol;
}

/** A file row (columns prefixed `alias.`) that failed to extract or was over the size budget. */
const gapFileSql = (alias: string): string => `${alias}status = 'failed' OR ${alias}reason = 'file_too_large'`;
/** An extraction row (columns prefixed `alias.`) whose parse met syntax errors. */
const partialExtractionSql = (alias: string): string => `${alias}had_errors = 1`;
/** The conditions of the partial indexes `files_gaps` and `extractions_partial` (src/db/schema.ts). */
export const GAP_FILE_SQL = gapFileSql('');
export const PARTIAL_EXTRACTION_SQL = partialExtractionSql('');

/**
 * SQL and (positional) parameters of extractionGaps, for a statement of its
 * own or a subquery of another (search sends it with its page: src/db/search.ts).
 * The gaps are found from both small sets, each through its partial index: the
 * project's failed and oversized files (`files_gaps`), and the partial parses
 * (`extractions_partial`) joined to the project's files holding them. Testing
 * every file of the project against its extraction row read each of those rows
 * (about 7 ms for 3,000 files), and an empty answer asks this question.
 */
export function extractionGapsQuery(projectId: string, opts: ExtractionGapQuestion): { sql: string; params: unknown[] } {
  // Only the conditions a question has are written: the text is prepared with every search (src/db/search.ts).
  const text = opts.text;
  const params: unknown[] = [];
  const mentions = text === null ? '0' : 'coalesce(instr(b.content, ?) > 0, 0)';
  if (text !== null) params.push(text);
  // The outer loop, one row or none: when the symbol has moved, no gap is read (names.ts, nameCandidates).
  const guard = opts.unlessMoved ? `(SELECT 1 WHERE ${notMovedSql(opts.unlessMoved, projectId, (v) => (params.push(v), '?'))}) gg CROSS JOIN ` : '';
  const narrowed = (): string => {
    const where = ['f.project_id = ?'];
    params.push(projectId);
    for (const [column, value] of [['f.corpus', opts.corpus], ['f.path', opts.path]] as const) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      params.push(value);
    }
    return where.join(' AND ');
  };
  const sameExtraction = 'e.hash = f.hash AND e.language = f.language AND e.extractor_version = f.extractor_version';
  // A file in both sets (failed, and its parse partial) is the same row of each: UNION keeps one.
  const failed = `SELECT f.rowid AS r, EXISTS (SELECT 1 FROM extractions e WHERE ${sameExtraction} AND ${partialExtractionSql('e.')}) AS partial
          FROM files f WHERE ${narrowed()} AND (${gapFileSql('f.')})`;
  const partial = `SELECT f.rowid AS r, 1 AS partial FROM extractions e CROSS JOIN files f ON ${sameExtraction}
          WHERE ${partialExtractionSql('e.')} AND ${narrowed()}`;
  params.push(opts.limit);
  return {
    sql: `SELECT f.path, f.status, f.reason, g.partial, ${mentions} AS mentions
       FROM ${guard}(${failed} UNION ${partial}) g
       CROSS JOIN files f ON f.rowid = g.r
       ${text === null ? '' : 'LEFT JOIN blobs b ON b.hash = f.hash'}
       ORDER BY mentions DESC, f.path
       LIMIT ?`,
    params,
  };
}

/** Rows of extractionGapsQuery as gaps. */
export function gapsOf(rows: readonly (Omit<ExtractionGap, 'partial'> & { partial: number })[]): ExtractionGap[] {
  return rows.map((r) => ({ ...r, partial: r.partial === 1 }));
}

/**
 * Up to `limit` gaps of a project, those whose content holds `text` first
 * (text null: none is checked). `corpus` and `path` narrow the files.
 */
export async function extractionGaps(d1: D1Database, projectId: string, opts: ExtractionGapQuestion): Promise<ExtractionGap[]> {
  const q = extractionGapsQuery(projectId, opts);
  const rows = await d1
    .prepare(q.sql)
    .bind(...q.params)
    .all<Omit<ExtractionGap, 'partial'> & { partial: number }>();
  return gapsOf(rows.results);
}

/** `path (reason)` for a diagnosis. */
export function gapLabel(g: ExtractionGap): string {
  const why = g.status === 'indexed' ? 'parsed with syntax errors: only what the parser recovered is indexed' : `${g.status}: ${g.reason ?? 'unknown'}`;
  return `${g.path} (${why})`;
}
