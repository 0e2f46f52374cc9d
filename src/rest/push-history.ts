import { Hono } from 'hono';
import { projectHome } from '../db/project-shard';
import type { AppEnv } from '../env';
import { PincherError } from '../errors';
import { pushHistory, type PushHistoryRow } from '../db/push-history';
import { jsonWithMeta } from '../http/respond';
import { checkProjectName } from '../upload/paths';
import { queryInt } from '../http/query-int';

/** `GET /v1/projects/{project}/uploads`: a project's pushes, newest first (read key enough). */
export const pushHistoryRoutes = new Hono<AppEnv>();

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

function limitOf(raw: string | undefined): number {
  return queryInt(raw, 'limit', MAX_LIMIT, DEFAULT_LIMIT, `the newest ${DEFAULT_LIMIT} pushes`);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A push as the API shows it: times in ISO 8601, how long it was open, what changed. */
export function pushView(r: PushHistoryRow) {
  const closed = r.status !== 'open';
  return {
    upload_id: r.id,
    ref: r.ref,
    commit: r.commit_sha,
    status: r.status,
    mode: r.mode,
    started_at: iso(r.created_at),
    ended_at: closed ? iso(r.updated_at) : null,
    duration_ms: closed ? Math.max(0, r.updated_at - r.created_at) : null,
    files: r.manifest_count,
    pushed_by: r.pushed_by,
    changes: r.new_files === null ? null : { new: r.new_files, changed: r.changed_files ?? 0, unchanged: r.unchanged_files ?? 0, deleted: r.deleted_files ?? 0 },
  };
}

pushHistoryRoutes.get('/:project/uploads', async (c) => {
  const project = checkProjectName(c.req.param('project'));
  const limit = limitOf(c.req.query('limit'));
  const { shard } = await projectHome(c.env, project);
  const rows = await pushHistory(shard.db, project, limit);
  if (rows === null) {
    throw new PincherError('project_not_found', `no project named '${project}'`, {
      suggestion: 'GET /v1/projects lists the projects this server holds',
    });
  }
  return jsonWithMeta(c, { project, uploads: rows.map(pushView) });
});
