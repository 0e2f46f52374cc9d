import { jsonChunks } from './json-param';

/** How long a session remembers the files it was credited for. */
export const CREDIT_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Of `paths`, the ones not yet credited to this session for this project;
 * records them as credited (with an expiry) in the same round trip set.
 */
export async function claimCredits(
  d1: D1Database,
  sessionId: string,
  projectId: string,
  paths: readonly string[],
  now: number,
): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const fresh = new Set(paths);
  for (const chunk of jsonChunks(paths)) {
    const rows = await d1
      .prepare(
        `SELECT file_path FROM session_credits
         WHERE session_id = ?1 AND project_id = ?2 AND expires_at > ?3 AND file_path IN (SELECT value FROM json_each(?4))`,
      )
      .bind(sessionId, projectId, now, chunk)
      .all<{ file_path: string }>();
    for (const r of rows.results) fresh.delete(r.file_path);
  }
  const stmts = [d1.prepare('DELETE FROM session_credits WHERE expires_at <= ?1').bind(now)];
  for (const chunk of jsonChunks([...fresh])) {
    stmts.push(
      d1
        .prepare(
          `INSERT INTO session_credits (session_id, project_id, file_path, expires_at)
           SELECT ?1, ?2, value, ?3 FROM json_each(?4) WHERE true
           ON CONFLICT(session_id, project_id, file_path) DO UPDATE SET expires_at = excluded.expires_at`,
        )
        .bind(sessionId, projectId, now + CREDIT_TTL_MS, chunk),
    );
  }
  await d1.batch(stmts);
  return fresh;
}
