import { trigramCandidates, type FileRow } from '../../db/content';
import type { Matcher } from './pattern';
import { scanFiles, type ScanOptions, type ScanResult } from './scan';

export interface GrepRun {
  scan: ScanResult;
  /** Files of the scope the trigram prefilter kept (all of them on a full scan). */
  candidates: number;
  fullScan: boolean;
}

/**
 * Prefilter then scan: with a required literal, only files whose content
 * holds its trigrams and (checked in SQLite) the literal itself are fetched;
 * without one, every file in scope is.
 */
export async function runGrep(
  d1: D1Database,
  projectId: string,
  scope: readonly FileRow[],
  m: Matcher,
  opts: ScanOptions,
  /** The prefilter's answer when the caller already asked for it (prefilterHashes), to share a round trip. */
  hashes: Promise<Map<string, string | null> | null> = prefilterHashes(d1, projectId, m),
): Promise<GrepRun> {
  let candidates = scope;
  const kept = await hashes;
  if (kept) candidates = scope.filter((f) => kept.has(f.hash));
  const scan = await scanFiles(d1, candidates, m, opts, kept ?? undefined);
  return { scan, candidates: candidates.length, fullScan: m.prefilter === null };
}

/** Candidate content the prefilter's own round trip carries (in path order); the rest comes in scan batches. */
const PREFILTER_CONTENT_BYTES = 8 * 1024 * 1024;

/**
 * The contents the trigram prefilter keeps for `m`, by hash, with the text of
 * the first PREFILTER_CONTENT_BYTES of them (null: no required literal, every
 * file is a candidate). Asking for it alongside the scope's file list puts
 * both, and most often every candidate's content, in one D1 round trip.
 */
export function prefilterHashes(d1: D1Database, projectId: string, m: Matcher, under?: string): Promise<Map<string, string | null> | null> {
  if (!m.prefilter) return Promise.resolve(null);
  const asked = trigramCandidates(d1, projectId, m.prefilter.match, m.check, { withContentBytes: PREFILTER_CONTENT_BYTES, under });
  // A caller that returns before scanning never awaits it: its failure is the scan's to report.
  asked.catch(() => undefined);
  return asked;
}

/** Whether any line of the scope matches, within its own small budget (for verified next steps). */
export async function anyMatch(d1: D1Database, projectId: string, scope: readonly FileRow[], m: Matcher, budgetMs = 1_000): Promise<boolean> {
  const run = await runGrep(d1, projectId, scope, m, { limit: 1, context: 0, summary: true, stopAtFirst: true, deadline: Date.now() + budgetMs });
  return run.scan.totalMatches > 0;
}
