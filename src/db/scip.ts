/**
 * SQL of SCIP ingest: the line counts of an upload's files (to check an index's ranges
 * before the commit) and the symbol rows of the files an index covers, with their extracted
 * call/inherit references (to map it onto them after the commit). Lists travel as JSON parameters.
 */
import type { ScipRefRow, ScipTargetRow } from '../graph/scip/edges';
import type { RefInput } from '../graph/types';
import { jsonChunks } from './json-param';
import { symbolsOfFilesSql } from './symbol-range';

/**
 * Line count (newlines + 1) of each listed path of the upload that is not deleted, counted
 * inside D1 so no content crosses to the Worker; null when no text content is stored for it.
 */
export async function uploadLineCounts(d1: D1Database, uploadId: string, paths: readonly string[]): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  for (const chunk of jsonChunks([...new Set(paths)])) {
    const rows = await d1
      .prepare(
        `SELECT u.path, CASE WHEN b.content IS NULL THEN NULL ELSE length(b.content) - length(replace(b.content, char(10), '')) + 1 END AS lines
         FROM upload_files u LEFT JOIN blobs b ON b.hash = u.hash
         WHERE u.upload_id = ?1 AND u.change <> 'deleted' AND u.path IN (SELECT value FROM json_each(?2))`,
      )
      .bind(uploadId, chunk)
      .all<{ path: string; lines: number | null }>();
    for (const r of rows.results) out.set(r.path, r.lines);
  }
  return out;
}

/** Up to `limit` paths of the upload that are not deleted. */
export async function uploadPaths(d1: D1Database, uploadId: string, limit: number): Promise<string[]> {
  const rows = await d1.prepare("SELECT path FROM upload_files WHERE upload_id = ?1 AND change <> 'deleted' LIMIT ?2").bind(uploadId, limit).all<{ path: string }>();
  return rows.results.map((r) => r.path);
}

/** Files per read: each read's result crosses from D1 as one message (as in resolution.ts). */
const FILES_PER_READ = 200;

/**
 * Symbol rows and call/inherit references of `files` (the documents an index covers). The references are
 * picked from `refs`, those resolution read already (every file it resolves, the covered ones among them),
 * in their order: a file's as stored. `read`: the symbol rows of `files` when resolution read them already
 * (each file's in id order, as read here); else they are read here.
 */
export async function scipTargets(
  d1: D1Database,
  projectId: string,
  files: readonly string[],
  refs: readonly RefInput[],
  read?: ScipTargetRow[],
): Promise<{ symbols: ScipTargetRow[]; refs: ScipRefRow[] }> {
  const symbols = read ?? (await readTargets(d1, projectId, files));
  const covered = new Set(files);
  const picked: ScipRefRow[] = [];
  for (const r of refs) {
    if (r.target === null || (r.kind !== 'call' && r.kind !== 'inherit') || !covered.has(r.file)) continue;
    picked.push({ file: r.file, kind: r.kind, target: r.target, enclosing: r.enclosing, line: r.line });
  }
  return { symbols, refs: picked };
}

/** The symbol rows of `files`, each file's in id order. */
async function readTargets(d1: D1Database, projectId: string, files: readonly string[]): Promise<ScipTargetRow[]> {
  const symbols: ScipTargetRow[] = [];
  for (let i = 0; i < files.length; i += FILES_PER_READ) {
    const chunk = JSON.stringify(files.slice(i, i + FILES_PER_READ));
    const s = await d1
      .prepare(`SELECT id, file_path AS file, name, kind, start_line AS startLine, end_line AS endLine, signature FROM ${symbolsOfFilesSql('?1', '?2')}`)
      .bind(projectId, chunk)
      .all<ScipTargetRow>();
    symbols.push(...s.results);
  }
  return symbols;
}
