import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { PincherError } from '../errors';
import { requireAdmin } from '../http/auth';
import { readJsonBody } from '../http/body';
import { jsonWithMeta } from '../http/respond';
import { cancelProjectMove, moveStep } from '../shards/move';
import { shardsStatus } from '../shards/status';
import { checkProjectName } from '../upload/paths';

/** Operator routes (admin key): the shards with their stored bytes and projects, and moving a project between them, a bounded step per request (docs/capacity.md). */
export const adminRoutes = new Hono<AppEnv>();

/** A move id (src/shards/move.ts): what a move's answers carry, or a client's own for a new move. */
const MOVE_ID = /^[0-9a-f]{32}$/;

adminRoutes.use('*', async function adminOnly(c, next) {
  await requireAdmin(c.env, c.req.header('authorization'));
  await next();
});

adminRoutes.get('/shards', async (c) => jsonWithMeta(c, { ...(await shardsStatus(c.env)) }));

adminRoutes.post('/projects/:project/move', async (c) => {
  const project = checkProjectName(c.req.param('project'));
  const body = (await readJsonBody(c)) as { shard?: unknown; move?: unknown } | null;
  const shard = body && typeof body === 'object' ? body.shard : undefined;
  if (typeof shard !== 'number' || !Number.isInteger(shard) || shard < 0) {
    throw new PincherError('invalid_params', 'shard must be a non-negative integer (the target shard index)', {
      suggestion: 'send {"shard": 1}; GET /v1/admin/shards lists the shards',
    });
  }
  const move = body && typeof body === 'object' ? body.move : undefined;
  if (move !== undefined && (typeof move !== 'string' || !MOVE_ID.test(move))) {
    throw new PincherError('invalid_params', 'move must be a move id: 32 lowercase hex digits', {
      suggestion: "send the `move` of the move's last answer (its `next` carries it), 32 hex digits of your own for a new move (a random UUID without its dashes), or none",
    });
  }
  return jsonWithMeta(c, { ...(await moveStep(c.env, project, shard, { move })) });
});

adminRoutes.delete('/projects/:project/move', async (c) => {
  const project = checkProjectName(c.req.param('project'));
  const move = c.req.query('move');
  if (move !== undefined && !MOVE_ID.test(move)) {
    throw new PincherError('invalid_params', 'move must be a move id: 32 lowercase hex digits', {
      suggestion: 'send the `move` of the move to cancel (its answers and GET /v1/admin/shards carry it), or none to cancel the move in progress whichever it is',
    });
  }
  return jsonWithMeta(c, { ...(await cancelProjectMove(c.env, project, { move })) });
});
