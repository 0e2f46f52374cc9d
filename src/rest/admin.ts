import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { PincherError } from '../errors';
import { catalogEntries } from '../db/catalog';
import { isMoving } from '../db/project-shard';
import { shardsOf, shardSizes } from '../db/shards';
import { requireAdmin } from '../http/auth';
import { readJsonBody } from '../http/body';
import { jsonWithMeta } from '../http/respond';
import { cancelProjectMove, moveStep } from '../shards/move';
import { checkProjectName } from '../upload/paths';

/** Operator routes (admin key): the shards with their stored bytes and projects, and moving a project between them, a bounded step per request (docs/capacity.md). */
export const adminRoutes = new Hono<AppEnv>();

adminRoutes.use('*', async function adminOnly(c, next) {
  await requireAdmin(c.env, c.req.header('authorization'));
  await next();
});

adminRoutes.get('/shards', async (c) => {
  const [sizes, entries] = await Promise.all([shardSizes(shardsOf(c.env)), catalogEntries(c.env.DB)]);
  const now = Date.now();
  return jsonWithMeta(c, {
    shards: sizes.map(({ shard, bytes }) => ({
      shard: shard.index,
      binding: shard.binding,
      bytes,
      projects: entries.filter((e) => e.shard === shard.index).length,
    })),
    moves: entries
      .filter((e) => isMoving(e, now))
      .map((e) => ({ project: e.name, from: e.shard, to: e.moving_to, heartbeat_at: new Date(e.move_heartbeat_at ?? 0).toISOString() })),
  });
});

adminRoutes.post('/projects/:project/move', async (c) => {
  const project = checkProjectName(c.req.param('project'));
  const body = (await readJsonBody(c)) as { shard?: unknown } | null;
  const shard = body && typeof body === 'object' ? body.shard : undefined;
  if (typeof shard !== 'number' || !Number.isInteger(shard) || shard < 0) {
    throw new PincherError('invalid_params', 'shard must be a non-negative integer (the target shard index)', {
      suggestion: 'send {"shard": 1}; GET /v1/admin/shards lists the shards',
    });
  }
  return jsonWithMeta(c, { ...(await moveStep(c.env, project, shard)) });
});

adminRoutes.delete('/projects/:project/move', async (c) => {
  const project = checkProjectName(c.req.param('project'));
  return jsonWithMeta(c, { ...(await cancelProjectMove(c.env, project)) });
});
