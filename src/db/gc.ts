/**
 * Garbage collection of what no index needs any more: closed uploads and
 * their manifests, extraction output and content no file references, old
 * telemetry. Every delete is one bounded statement whose reference checks run
 * inside it, so a push in flight is never robbed: content or extraction whose
 * hash an open upload lists is kept whatever its age, and a content is
 * deleted only once no extraction of it remains (a push that finds an
 * extraction always finds its content too).
 */

/** Hashes an open upload lists: what it may still extract or commit. */
const OPEN_UPLOAD_HASHES = `SELECT u.hash FROM uploads up JOIN upload_files u ON u.upload_id = up.id WHERE up.status = 'open'`;

async function changes(stmt: D1PreparedStatement): Promise<number> {
  return (await stmt.run()).meta.changes ?? 0;
}

/**
 * One bounded delete: the rows of `table` whose `key` the `select` picks, at
 * most `limit` (`?2`) of them; `?1` is the select's own bound value.
 */
function deleteChosen(d1: D1Database, table: string, key: string, select: string, first: number, limit: number): Promise<number> {
  return changes(d1.prepare(`DELETE FROM ${table} WHERE ${key} IN (${select} LIMIT ?2)`).bind(first, limit));
}

/** Marks open uploads past their expiry as expired (they can no longer commit). */
export function expireUploads(d1: D1Database, now: number): Promise<number> {
  return changes(d1.prepare("UPDATE uploads SET status = 'expired', updated_at = ?1 WHERE status = 'open' AND expires_at < ?1").bind(now));
}

/** Deletes up to `limit` manifest rows of uploads closed before `closedBefore`. */
export function deleteClosedUploadFiles(d1: D1Database, closedBefore: number, limit: number): Promise<number> {
  return deleteChosen(
    d1,
    'upload_files',
    'rowid',
    `SELECT u.rowid FROM uploads up JOIN upload_files u ON u.upload_id = up.id
     WHERE up.status <> 'open' AND up.updated_at < ?1`,
    closedBefore,
    limit,
  );
}

/** Deletes up to `limit` uploads closed before `closedBefore` whose manifest rows are gone. */
export function deleteClosedUploads(d1: D1Database, closedBefore: number, limit: number): Promise<number> {
  return deleteChosen(
    d1,
    'uploads',
    'id',
    `SELECT up.id FROM uploads up
     WHERE up.status <> 'open' AND up.updated_at < ?1
       AND NOT EXISTS (SELECT 1 FROM upload_files u WHERE u.upload_id = up.id)`,
    closedBefore,
    limit,
  );
}

/** Rows of `alias` created before `?1` whose content no open upload lists: what a push in flight cannot need. */
function settled(alias: string): string {
  return `${alias}.created_at < ?1 AND ${alias}.hash NOT IN (${OPEN_UPLOAD_HASHES})`;
}

/**
 * Deletes up to `limit` extraction rows created before `createdBefore` that no
 * file uses (same content, language and extractor version) and whose content
 * no open upload lists.
 */
export function deleteUnusedExtractions(d1: D1Database, createdBefore: number, limit: number): Promise<number> {
  const unused = 'NOT EXISTS (SELECT 1 FROM files f WHERE f.hash = e.hash AND f.language = e.language AND f.extractor_version = e.extractor_version)';
  return deleteChosen(d1, 'extractions', 'rowid', `SELECT e.rowid FROM extractions e WHERE ${settled('e')} AND ${unused}`, createdBefore, limit);
}

/**
 * Deletes up to `limit` contents created before `createdBefore` that no file
 * uses, no open upload lists and no extraction describes any more.
 */
export function deleteUnusedBlobs(d1: D1Database, createdBefore: number, limit: number): Promise<number> {
  const unused = 'NOT EXISTS (SELECT 1 FROM files f WHERE f.hash = b.hash) AND NOT EXISTS (SELECT 1 FROM extractions e WHERE e.hash = b.hash)';
  return deleteChosen(d1, 'blobs', 'rowid', `SELECT b.rowid FROM blobs b WHERE ${settled('b')} AND ${unused}`, createdBefore, limit);
}

/** Deletes up to `limit` events (`GET /v1/events`) older than `before`. */
export function deleteOldEvents(d1: D1Database, before: number, limit: number): Promise<number> {
  return deleteChosen(d1, 'events', 'id', 'SELECT id FROM events WHERE ts < ?1 ORDER BY ts', before, limit);
}

/** Deletes up to `limit` telemetry rows older than `before`. */
export function deleteOldCalls(d1: D1Database, before: number, limit: number): Promise<number> {
  return deleteChosen(d1, 'call_log', 'id', 'SELECT id FROM call_log WHERE ts < ?1 ORDER BY ts', before, limit);
}

/** Deletes up to `limit` of the oldest telemetry rows beyond the newest `keep`. */
export function deleteCallsBeyond(d1: D1Database, keep: number, limit: number): Promise<number> {
  return deleteChosen(
    d1,
    'call_log',
    'id',
    'SELECT id FROM call_log WHERE id <= (SELECT id FROM call_log ORDER BY id DESC LIMIT 1 OFFSET ?1) ORDER BY id',
    keep,
    limit,
  );
}
