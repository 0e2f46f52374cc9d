/**
 * SQL of the push protocol: opening an upload (manifest classification),
 * recording extraction output, and the atomic commit. Bulk rows travel as one
 * JSON parameter read with json_each, which keeps every statement far under
 * D1's 100-parameter limit.
 */

import { jsonChunks } from './json-param';

export interface ManifestRow {
  path: string;
  hash: string;
  size: number;
  language: string;
}

export interface UploadRow {
  id: string;
  project_id: string;
  ref: string | null;
  commit_sha: string | null;
  status: string;
  mode: string;
  created_at: number;
  updated_at: number;
  expires_at: number;
  manifest_count: number;
  /** Who pushed, as the client declared it; absent on rows read for other purposes. */
  pushed_by?: string | null;
}

export interface ProjectIdRow {
  id: string;
  name: string;
}

/** Returns the project's id, creating the (not yet indexed) project row when needed. */
export async function ensureProject(d1: D1Database, name: string, newId: string, now: number): Promise<ProjectIdRow> {
  // One round trip: the insert and the read run in one batch.
  const [, read] = await d1.batch(ensureProjectStatements(d1, name, newId, now));
  return ensuredProject(read);
}

/** ensureProject's statements (the insert when missing, then the read), for a batch. */
function ensureProjectStatements(d1: D1Database, name: string, newId: string, now: number): [D1PreparedStatement, D1PreparedStatement] {
  return [
    d1.prepare('INSERT INTO projects (id, name, created_at) VALUES (?1, ?2, ?3) ON CONFLICT(name) DO NOTHING').bind(newId, name, now),
    d1.prepare('SELECT id, name FROM projects WHERE name = ?1').bind(name),
  ];
}

/** The project's row out of ensureProjectStatements' read. */
function ensuredProject(read: D1Result): ProjectIdRow {
  const row = (read.results as ProjectIdRow[])[0];
  if (!row) throw new Error('project row vanished after insert');
  return row;
}

/** What openUploadRows did: the project's row, the uploads it released, and whether the new upload holds the lock. */
export interface OpenedRows {
  project: ProjectIdRow;
  released: { id: string; status: 'expired' | 'superseded' }[];
  inserted: boolean;
}

/**
 * Opens an upload's rows in one batch (one round trip, one transaction, in this order): the project row made when
 * missing (ensureProject); the project's push lock released when its holder is gone: an open upload past its expiry
 * becomes `expired`, one whose heartbeat (`updated_at`, touched by every request of the upload) is older than
 * `staleMs`, or any open upload when `takeOver`, becomes `superseded` (a superseded upload can no longer send content
 * or commit: its commit batch is guarded by `status = 'open'`, so two commits never race); then `row` inserted for
 * the project unless an open upload still holds the lock (`uploads_one_open`: the insert does nothing, and
 * `inserted` is false). `row.project_id` is not read: the project is named by `name`.
 */
export async function openUploadRows(d1: D1Database, name: string, newProjectId: string, row: UploadRow, staleMs: number, takeOver: boolean): Promise<OpenedRows> {
  const now = row.created_at;
  const projectOf = 'SELECT id FROM projects WHERE name = ?1';
  const [, read, released, insert] = await d1.batch([
    ...ensureProjectStatements(d1, name, newProjectId, now),
    d1
      .prepare(
        `UPDATE uploads SET status = CASE WHEN expires_at < ?2 THEN 'expired' ELSE 'superseded' END, updated_at = ?2
         WHERE project_id = (${projectOf}) AND status = 'open' AND (expires_at < ?2 OR updated_at < ?3 OR ?4)
         RETURNING id, status`,
      )
      .bind(name, now, now - staleMs, takeOver ? 1 : 0),
    d1
      .prepare(
        `INSERT INTO uploads (id, project_id, ref, commit_sha, status, mode, created_at, updated_at, expires_at, manifest_count, pushed_by,
           new_files, changed_files, unchanged_files, deleted_files)
         SELECT ?2, p.id, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0, 0, 0, 0 FROM projects p WHERE p.name = ?1
         ON CONFLICT DO NOTHING`,
      )
      .bind(name, row.id, row.ref, row.commit_sha, row.status, row.mode, row.created_at, row.updated_at, row.expires_at, row.manifest_count, row.pushed_by ?? null),
  ]);
  return { project: ensuredProject(read), released: released.results as OpenedRows['released'], inserted: insert.meta.changes === 1 };
}

/**
 * The upload `uploadId` of project `projectName` when it is open and not
 * expired, with its heartbeat and expiry renewed in the same statement; null
 * otherwise (the caller then finds out why).
 */
export async function claimOpenUpload(d1: D1Database, uploadId: string, projectName: string, now: number, ttlMs: number): Promise<UploadRow | null> {
  return claimOpenUploadStatement(d1, uploadId, projectName, now, ttlMs).first<UploadRow>();
}

/** `claimOpenUpload`'s statement, for a batch (its one row, or none). */
export function claimOpenUploadStatement(d1: D1Database, uploadId: string, projectName: string, now: number, ttlMs: number): D1PreparedStatement {
  return d1
    .prepare(
      `UPDATE uploads SET updated_at = ?3, expires_at = ?4
       WHERE id = ?1 AND status = 'open' AND expires_at >= ?3 AND project_id = (SELECT id FROM projects WHERE name = ?2)
       RETURNING *`,
    )
    .bind(uploadId, projectName, now, now + ttlMs);
}

/**
 * The project's stored paths whose ASCII-lowercased form is one of `folded`
 * (one scan of the project's paths; the caller compares).
 */
export async function pathsFoldedTo(d1: D1Database, projectId: string, folded: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const chunk of jsonChunks(folded)) {
    const rows = await d1
      .prepare('SELECT path FROM files WHERE project_id = ?1 AND lower(path) IN (SELECT value FROM json_each(?2))')
      .bind(projectId, chunk)
      .all<{ path: string }>();
    out.push(...rows.results.map((r) => r.path));
  }
  return out;
}

export interface SizeConflict {
  path: string;
  declared: number;
  stored: number;
}

/**
 * A new or changed manifest entry whose declared size differs from the bytes
 * already stored for its hash (at most one row).
 */
function sizeConflictStatement(d1: D1Database, uploadId: string): D1PreparedStatement {
  return d1
    .prepare(
      `SELECT u.path, u.size AS declared, b.size AS stored FROM upload_files u JOIN blobs b ON b.hash = u.hash
       WHERE u.upload_id = ?1 AND u.change IN ('new', 'changed') AND u.size != b.size LIMIT 1`,
    )
    .bind(uploadId);
}

export async function openUploadFor(d1: D1Database, projectId: string): Promise<UploadRow | null> {
  return d1.prepare("SELECT * FROM uploads WHERE project_id = ?1 AND status = 'open'").bind(projectId).first<UploadRow>();
}


/**
 * Classifies the manifest against the visible index: `new`, `changed`
 * (different hash, or extracted by an older extractor), `unchanged`; with
 * mode `replace`, indexed files absent from the manifest become `deleted`.
 */
export function classifyStatements(
  d1: D1Database,
  uploadId: string,
  projectId: string,
  manifest: readonly ManifestRow[],
  extractorVersion: number,
  mode: 'replace' | 'merge',
  forceChanged = false,
): D1PreparedStatement[] {
  // forceChanged: every listed file is rebuilt (server-side re-extraction).
  const same = forceChanged ? "'changed'" : "'unchanged'";
  const stmts = jsonChunks(manifest).map((chunk) =>
    d1
      .prepare(
        `INSERT INTO upload_files (upload_id, path, hash, size, language, change)
         SELECT ?1, json_extract(j.value, '$.path'), json_extract(j.value, '$.hash'), json_extract(j.value, '$.size'),
                json_extract(j.value, '$.language'),
                CASE WHEN f.hash IS NULL THEN 'new'
                     WHEN f.hash = json_extract(j.value, '$.hash') AND f.extractor_version = ?3
                          AND f.language = json_extract(j.value, '$.language') THEN ${same}
                     ELSE 'changed' END
         FROM json_each(?4) j
         LEFT JOIN files f ON f.project_id = ?2 AND f.path = json_extract(j.value, '$.path')`,
      )
      .bind(uploadId, projectId, extractorVersion, chunk),
  );
  if (mode === 'replace') {
    stmts.push(
      d1
        .prepare(
          `INSERT INTO upload_files (upload_id, path, hash, size, language, change)
           SELECT ?1, f.path, f.hash, f.size, f.language, 'deleted' FROM files f
           WHERE f.project_id = ?2 AND NOT EXISTS (SELECT 1 FROM upload_files u WHERE u.upload_id = ?1 AND u.path = f.path)`,
        )
        .bind(uploadId, projectId),
    );
  }
  return stmts;
}

export interface ChangeCounts {
  new: number;
  changed: number;
  unchanged: number;
  deleted: number;
}

export async function changeCounts(d1: D1Database, uploadId: string): Promise<ChangeCounts> {
  return readChangeCounts((await changeCountsStatement(d1, uploadId).all<{ change: keyof ChangeCounts; n: number }>()).results);
}

export function changeCountsStatement(d1: D1Database, uploadId: string): D1PreparedStatement {
  return d1.prepare('SELECT change, count(*) AS n FROM upload_files WHERE upload_id = ?1 GROUP BY change').bind(uploadId);
}

export function readChangeCounts(rows: readonly { change: keyof ChangeCounts; n: number }[]): ChangeCounts {
  const out: ChangeCounts = { new: 0, changed: 0, unchanged: 0, deleted: 0 };
  for (const r of rows) out[r.change] = r.n;
  return out;
}

/**
 * Hashes of new or changed files the server cannot build from what it holds:
 * no extraction of that content for that language by the current extractor.
 */
export async function missingHashes(d1: D1Database, uploadId: string, extractorVersion: number): Promise<string[]> {
  const rows = await missingHashesStatement(d1, uploadId, extractorVersion).all<{ hash: string }>();
  return rows.results.map((r) => r.hash);
}

function missingHashesStatement(d1: D1Database, uploadId: string, extractorVersion: number): D1PreparedStatement {
  return d1
    .prepare(
      `SELECT DISTINCT u.hash FROM upload_files u
       WHERE u.upload_id = ?1 AND u.change IN ('new', 'changed')
         AND NOT EXISTS (SELECT 1 FROM extractions e WHERE e.hash = u.hash AND e.language = u.language AND e.extractor_version = ?2)
       ORDER BY u.hash`,
    )
    .bind(uploadId, extractorVersion);
}

/**
 * What opening an upload answers once its manifest is classified: `changeCounts`,
 * `missingHashes` and `sizeConflict` read in one D1 batch (one round trip instead of three,
 * and one snapshot of the upload's rows).
 */
export async function openedUploadState(d1: D1Database, uploadId: string, extractorVersion: number): Promise<OpenedUploadState> {
  return readOpenedUploadState(await d1.batch(openedUploadStatements(d1, uploadId, extractorVersion)));
}

/** What openedUploadState answers. */
export interface OpenedUploadState {
  plan: ChangeCounts;
  missing: string[];
  conflict: SizeConflict | null;
}

/** openedUploadState's statements, to send at the end of a batch that writes the manifest (they read what it wrote). */
export function openedUploadStatements(d1: D1Database, uploadId: string, extractorVersion: number): D1PreparedStatement[] {
  return [changeCountsStatement(d1, uploadId), missingHashesStatement(d1, uploadId, extractorVersion), sizeConflictStatement(d1, uploadId)];
}

/** openedUploadState out of its statements' results (openedUploadStatements, in order). */
export function readOpenedUploadState([counts, hashes, conflicts]: readonly D1Result[]): OpenedUploadState {
  return {
    plan: readChangeCounts(counts.results as { change: keyof ChangeCounts; n: number }[]),
    missing: (hashes.results as { hash: string }[]).map((r) => r.hash),
    conflict: (conflicts.results as SizeConflict[])[0] ?? null,
  };
}

/** Missing (path, hash) pairs, for error details. */
export function missingFilesStatement(d1: D1Database, uploadId: string, extractorVersion: number, limit = 50): D1PreparedStatement {
  return d1
    .prepare(
      `SELECT u.path, u.hash FROM upload_files u
       WHERE u.upload_id = ?1 AND u.change IN ('new', 'changed')
         AND NOT EXISTS (SELECT 1 FROM extractions e WHERE e.hash = u.hash AND e.language = u.language AND e.extractor_version = ?2)
       ORDER BY u.path LIMIT ?3`,
    )
    .bind(uploadId, extractorVersion, limit);
}

export async function getUpload(d1: D1Database, uploadId: string): Promise<UploadRow | null> {
  return d1.prepare('SELECT * FROM uploads WHERE id = ?1').bind(uploadId).first<UploadRow>();
}

/** Upload `uploadId` when it belongs to the project named `project` (any status), else null. */
export async function getProjectUpload(d1: D1Database, project: string, uploadId: string): Promise<UploadRow | null> {
  return d1
    .prepare('SELECT u.* FROM uploads u JOIN projects p ON p.id = u.project_id WHERE u.id = ?1 AND p.name = ?2')
    .bind(uploadId, project)
    .first<UploadRow>();
}

/** Marks an upload aborted if it is still open (a closed upload stays as it is). */
export async function abortOpenUpload(d1: D1Database, uploadId: string): Promise<void> {
  await d1.prepare("UPDATE uploads SET status = 'aborted' WHERE id = ?1 AND status = 'open'").bind(uploadId).run();
}

/** Renews an open upload's heartbeat and expiry (a closed upload stays as it is). */
/**
 * Copies the classified manifest's change counts onto the upload row, where push history
 * reads them after garbage collection has dropped the manifest rows.
 */
export function recordPlanStatement(d1: D1Database, uploadId: string): D1PreparedStatement {
  return d1
    .prepare(
      `UPDATE uploads SET
         new_files = (SELECT count(*) FROM upload_files WHERE upload_id = ?1 AND change = 'new'),
         changed_files = (SELECT count(*) FROM upload_files WHERE upload_id = ?1 AND change = 'changed'),
         unchanged_files = (SELECT count(*) FROM upload_files WHERE upload_id = ?1 AND change = 'unchanged'),
         deleted_files = (SELECT count(*) FROM upload_files WHERE upload_id = ?1 AND change = 'deleted')
       WHERE id = ?1`,
    )
    .bind(uploadId);
}

export function touchUploadStatement(d1: D1Database, uploadId: string, now: number, ttlMs: number): D1PreparedStatement {
  return d1.prepare("UPDATE uploads SET updated_at = ?2, expires_at = ?3 WHERE id = ?1 AND status = 'open'").bind(uploadId, now, now + ttlMs);
}

export async function touchUpload(d1: D1Database, uploadId: string, now: number, ttlMs: number): Promise<void> {
  await touchUploadStatement(d1, uploadId, now, ttlMs).run();
}

export async function setUploadStatus(d1: D1Database, uploadId: string, status: string, now: number): Promise<void> {
  await d1.prepare('UPDATE uploads SET status = ?2, updated_at = ?3 WHERE id = ?1').bind(uploadId, status, now).run();
}

export interface ManifestEntryRow {
  hash: string;
  language: string;
  change: string;
  /** Size the manifest declared, in bytes. */
  size: number;
}

/** A (content, language) pair an upload still needs extracted, with one of its paths. */
export interface NeededExtraction {
  hash: string;
  language: string;
  path: string;
}

/**
 * What a content batch needs, in one round trip: the manifest entries of the
 * sent paths, and every (content, language) pair of the sent hashes that the
 * upload needs and no extraction covers yet. Identical bytes under paths of
 * several languages (an empty `__init__.py` and an empty `py.typed`) travel
 * once and are extracted once per language.
 */
export async function batchPlan(
  d1: D1Database,
  uploadId: string,
  paths: readonly string[],
  hashes: readonly string[],
  extractorVersion: number,
  claim?: D1PreparedStatement,
): Promise<{ entries: Map<string, ManifestEntryRow>; needed: NeededExtraction[]; claimed: UploadRow | null }> {
  const pathChunks = jsonChunks(paths);
  const stmts = [
    ...pathChunks.map((chunk) =>
      d1
        .prepare('SELECT path, hash, language, change, size FROM upload_files WHERE upload_id = ?1 AND path IN (SELECT value FROM json_each(?2))')
        .bind(uploadId, chunk),
    ),
    ...jsonChunks([...new Set(hashes)]).map((chunk) =>
      d1
        .prepare(
          `SELECT u.hash, u.language, min(u.path) AS path FROM upload_files u
           WHERE u.upload_id = ?1 AND u.change IN ('new', 'changed') AND u.hash IN (SELECT value FROM json_each(?2))
             AND NOT EXISTS (SELECT 1 FROM extractions e WHERE e.hash = u.hash AND e.language = u.language AND e.extractor_version = ?3)
           GROUP BY u.hash, u.language`,
        )
        .bind(uploadId, chunk, extractorVersion),
    ),
  ];
  // `claim` (the upload's claim, `claimOpenUploadStatement`) rides first in the same round trip.
  const all = claim ? [claim, ...stmts] : stmts;
  const ran = all.length ? await d1.batch(all) : [];
  const claimed = claim ? ((ran[0].results as UploadRow[])[0] ?? null) : null;
  const results = claim ? ran.slice(1) : ran;
  const entries = new Map<string, ManifestEntryRow>();
  for (const r of results.slice(0, pathChunks.length)) {
    for (const row of r.results as (ManifestEntryRow & { path: string })[]) {
      entries.set(row.path, { hash: row.hash, language: row.language, change: row.change, size: row.size });
    }
  }
  const needed = results.slice(pathChunks.length).flatMap((r) => r.results as NeededExtraction[]);
  return { entries, needed, claimed };
}
