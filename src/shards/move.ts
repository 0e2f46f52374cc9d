import type { Env } from '../env';
import { PincherError } from '../errors';
import { beginMove, cancelMove, catalogEntry, finishMove, placeEntry, touchMove } from '../db/catalog';
import { copyProjectRow, copyTable, projectVersion, PROJECT_TABLES, removeProject } from '../db/project-copy';
import { forgetShards, MOVE_STALE_MS } from '../db/project-shard';
import { getProjectByName } from '../db/projects';
import { shardAt } from '../db/shards';
import { openUploadFor } from '../db/uploads';

export interface MoveReport {
  project: string;
  from: number;
  to: number;
  /** Rows copied to the new shard, per table. */
  copied: Record<string, number>;
  /** Rows removed from the old shard, per table (content is left to the garbage collection). */
  removed: Record<string, number>;
  duration_ms: number;
}

/** Test seam: runs after the copy is complete and before the catalog flips. */
export interface MoveHooks {
  beforeFlip?: () => Promise<void>;
}

/**
 * Moves project `name` to shard `to` (docs/capacity.md): marks it moving in
 * the catalog (pushes are refused from then on, reads keep going to the old
 * shard), copies its index to the new shard, checks that nothing committed on
 * the old shard meanwhile, flips the catalog in one statement, then removes
 * the old copy. Any failure before the flip leaves the project where it was
 * (the partial copy is removed) and ends the move.
 */
export async function moveProject(env: Env, name: string, to: number, hooks: MoveHooks = {}): Promise<MoveReport> {
  const started = Date.now();
  const target = shardAt(env, to);
  let entry = await catalogEntry(env.DB, name);
  // A project stored before the catalog existed is on the primary: it is placed there first.
  if (!entry && (await getProjectByName(env.DB, name))) entry = await placeEntry(env.DB, name, 0, Date.now());
  if (!entry) {
    throw new PincherError('project_not_found', `no project named '${name.slice(0, 100)}'`, { suggestion: 'GET /v1/projects lists the projects this server holds' });
  }
  if (entry.shard === to) {
    throw new PincherError('already_on_shard', `project '${name}' is already on shard ${to}`, {
      suggestion: 'name another shard (GET /v1/admin/shards lists them with their stored bytes)',
      details: { shard: to },
    });
  }
  const source = shardAt(env, entry.shard);
  if (!(await beginMove(env.DB, name, source.index, to, Date.now(), Date.now() - MOVE_STALE_MS))) {
    throw new PincherError('project_moving', `project '${name}' is already being moved`, {
      suggestion: 'wait for that move to finish (GET /v1/admin/shards lists moves in progress); an abandoned move can be restarted after 10 minutes',
    });
  }
  let flipped = false;
  let projectId: string | undefined;
  try {
    const row = await getProjectByName(source.db, name);
    if (!row) throw new PincherError('project_not_found', `project '${name}' is placed on shard ${source.index} but not stored there`, { suggestion: 'push the project again' });
    projectId = row.id;
    const holder = await openUploadFor(source.db, row.id);
    if (holder && holder.expires_at >= Date.now()) {
      throw new PincherError('push_in_progress', `a push to '${name}' is open; a project moves between pushes`, {
        suggestion: 'move it again once the push has committed (or been aborted)',
        details: { upload_id: holder.id },
      });
    }
    const version = await projectVersion(source.db, row.id);
    // A leftover of an earlier, abandoned move is cleared first.
    await removeProject(target.db, row.id, name);
    const heartbeat = async () => {
      if (!(await touchMove(env.DB, name, to, Date.now()))) {
        throw new PincherError('project_moving', `the move of '${name}' was taken over by another`, { suggestion: 'GET /v1/admin/shards shows the move in progress' });
      }
    };
    const copied: Record<string, number> = {};
    for (const spec of PROJECT_TABLES) copied[spec.table] = await copyTable(source.db, target.db, spec, row.id, heartbeat);
    await copyProjectRow(source.db, target.db, row.id);
    copied.projects = 1;
    await hooks.beforeFlip?.();
    if ((await projectVersion(source.db, row.id)) !== version) {
      throw new PincherError('push_in_progress', `project '${name}' changed while it was copied; it stays on shard ${source.index}`, {
        suggestion: 'run the move again',
      });
    }
    if (!(await finishMove(env.DB, name, source.index, to))) {
      throw new PincherError('project_moving', `the move of '${name}' was taken over by another`, { suggestion: 'GET /v1/admin/shards shows the move in progress' });
    }
    flipped = true;
    forgetShards();
    const removed = await removeProject(source.db, row.id, name);
    console.log(JSON.stringify({ event: 'project_moved', project_id: row.id, from: source.index, to, duration_ms: Date.now() - started }));
    return { project: name, from: source.index, to, copied, removed, duration_ms: Date.now() - started };
  } catch (err) {
    if (!flipped) {
      await cancelMove(env.DB, name, to);
      if (projectId) await removeProject(target.db, projectId, name).catch(() => undefined);
    }
    throw err;
  }
}
