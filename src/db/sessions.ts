/**
 * D1 read replication through the Sessions API. Tool calls read through a
 * session: without a bookmark any replica may answer (`first-unconstrained`),
 * and every later statement of the call sees at least what the first one
 * saw; with a bookmark the call reads a state at least that recent, which is
 * how a client reads its own push. A commit hands out the primary's bookmark
 * once the new index is in (`latestBookmark`).
 */

/** A session for a call's reads: at `bookmark` or later, else wherever is nearest. */
export function openReadSession(d1: D1Database, bookmark: string | undefined): D1DatabaseSession {
  return d1.withSession(bookmark ?? 'first-unconstrained');
}

/** The primary's bookmark now: a state that includes every write committed before this call. */
export async function latestBookmark(d1: D1Database): Promise<string | null> {
  const session = d1.withSession('first-primary');
  await session.prepare('SELECT 1').first();
  return session.getBookmark();
}
