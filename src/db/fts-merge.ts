/**
 * Keeps the full-text indexes (`symbols_fts` for search, `blob_grams` for grep's trigram prefilter) in
 * few segments. FTS5 writes each transaction's terms as a new segment and a term's lookup seeks every
 * segment; its automerge only merges a level once it holds four. After each commit, one bounded
 * `'merge'` per index merges segments of the same level (any two: migration 0021 sets `usermerge` to 2),
 * writing at most about `FTS_MERGE_PAGES` pages of merged data, so its cost does not grow with the
 * database (one D1 database holds every project's rows in the same indexes); a merge larger than that
 * goes on at the next commit. A merge changes how the index is stored, never what it matches.
 */
import { dbErrorMessage } from './client';

/** The full-text indexes a push writes. */
export const FTS_TABLES = ['symbols_fts', 'blob_grams'] as const;

/** Pages (4 KB each) of merged data one commit writes at most per index. */
export const FTS_MERGE_PAGES = 1000;

/** One bounded incremental merge per full-text index, as one D1 batch. */
export function ftsMergeStatements(d1: D1Database, pages = FTS_MERGE_PAGES): D1PreparedStatement[] {
  return FTS_TABLES.map((t) => d1.prepare(`INSERT INTO ${t}(${t}, rank) VALUES('merge', ?1)`).bind(pages));
}

/**
 * Runs the merge after a commit. The index is committed either way: a failure is logged, and the next
 * commit's merge picks the work up.
 */
export async function mergeFullTextIndexes(d1: D1Database): Promise<void> {
  try {
    await d1.batch(ftsMergeStatements(d1));
  } catch (err) {
    console.error(JSON.stringify({ event: 'fts_merge_failed', error: dbErrorMessage(err).slice(0, 300) }));
  }
}
