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
 * Up to `limit` gaps of a project, those whose content holds `text` first
 * (text null: none is checked). `corpus` and `path` narrow the files.
 */
export async function extractionGaps(
  d1: D1Database,
  projectId: string,
  opts: { text: string | null; corpus?: string; path?: string; limit: number },
): Promise<ExtractionGap[]> {
  const rows = await d1
    .prepare(
      `SELECT f.path, f.status, f.reason, coalesce(e.had_errors, 0) AS partial,
              CASE WHEN ?2 IS NULL THEN 0 ELSE coalesce(instr(b.content, ?2) > 0, 0) END AS mentions
       FROM files f
       LEFT JOIN extractions e ON e.hash = f.hash AND e.language = f.language AND e.extractor_version = f.extractor_version
       LEFT JOIN blobs b ON ?2 IS NOT NULL AND b.hash = f.hash
       WHERE f.project_id = ?1 AND (?3 IS NULL OR f.corpus = ?3) AND (?4 IS NULL OR f.path = ?4)
         AND (f.status = 'failed' OR f.reason = 'file_too_large' OR e.had_errors = 1)
       ORDER BY mentions DESC, f.path
       LIMIT ?5`,
    )
    .bind(projectId, opts.text, opts.corpus ?? null, opts.path ?? null, opts.limit)
    .all<Omit<ExtractionGap, 'partial'> & { partial: number }>();
  return rows.results.map((r) => ({ ...r, partial: r.partial === 1 }));
}

/** `path (reason)` for a diagnosis. */
export function gapLabel(g: ExtractionGap): string {
  const why = g.status === 'indexed' ? 'parsed with syntax errors: only what the parser recovered is indexed' : `${g.status}: ${g.reason ?? 'unknown'}`;
  return `${g.path} (${why})`;
}
