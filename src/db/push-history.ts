import type { UploadRow } from './uploads';

/**
 * One push of a project as the dashboard lists it: an `uploads` row (for a closed upload,
 * `updated_at` is when it closed; for an open one, its last heartbeat) with its manifest's change counts.
 */
export interface PushHistoryRow extends Omit<UploadRow, 'project_id' | 'expires_at' | 'pushed_by'> {
  /** Who pushed, as the client declared it. */
  pushed_by: string | null;
  /** Change counts of the manifest, kept on the upload row; null only for uploads older than those columns once their manifest rows are gone. */
  new_files: number | null;
  changed_files: number | null;
  unchanged_files: number | null;
  deleted_files: number | null;
}

/**
 * The newest `limit` pushes of a project, newest first, or null when no project
 * has that name. Closed uploads stay PINCHER_PUSH_HISTORY_DAYS (docs/indexing.md), with their
 * change counts on the row although their manifest rows are collected after an hour.
 */
export async function pushHistory(d1: D1Database, projectName: string, limit: number): Promise<PushHistoryRow[] | null> {
  const [project, rows] = await d1.batch([
    d1.prepare('SELECT id FROM projects WHERE name = ?1').bind(projectName),
    d1
      .prepare(
        `SELECT up.id, up.ref, up.commit_sha, up.status, up.mode, up.created_at, up.updated_at, up.manifest_count, up.pushed_by,
           coalesce(up.new_files, CASE WHEN count(f.path) = 0 THEN NULL ELSE sum(f.change = 'new') END) AS new_files,
           coalesce(up.changed_files, CASE WHEN count(f.path) = 0 THEN NULL ELSE sum(f.change = 'changed') END) AS changed_files,
           coalesce(up.unchanged_files, CASE WHEN count(f.path) = 0 THEN NULL ELSE sum(f.change = 'unchanged') END) AS unchanged_files,
           coalesce(up.deleted_files, CASE WHEN count(f.path) = 0 THEN NULL ELSE sum(f.change = 'deleted') END) AS deleted_files
         FROM uploads up
         LEFT JOIN upload_files f ON f.upload_id = up.id
         WHERE up.project_id = (SELECT id FROM projects WHERE name = ?1)
         GROUP BY up.id
         ORDER BY up.created_at DESC, up.id DESC
         LIMIT ?2`,
      )
      .bind(projectName, limit),
  ]);
  if (!project.results.length) return null;
  return rows.results as unknown as PushHistoryRow[];
}
