import { Hono } from 'hono';
import type { AppEnv, Env } from '../env';
import { schemaState } from '../db/migrations';
import { callTotalsByTool } from '../db/calls';
import { listProjectsAcross } from '../db/project-listing';
import { shardAt, shardsOf } from '../db/shards';
import { PincherError } from '../errors';
import { computeCapabilities } from '../envelope/capabilities';
import { tokenAccountingProblem } from '../envelope/tokens';
import { otlpProblem } from '../telemetry/otlp';
import { jsonWithMeta } from '../http/respond';
import { SCHEMA_VERSION, VERSION } from '../version';
import { prometheusText } from './metrics';
import { openApiDocument } from './openapi';
import { projectView } from '../tools/list';

/** Health, readiness, capabilities, projects, metrics and the OpenAPI document. */
export const probeRoutes = new Hono<AppEnv>();

probeRoutes.get('/health', (c) =>
  c.json({
    ok: true,
    version: VERSION,
    schema_version: SCHEMA_VERSION,
    auth_required: !(c.env.PINCHER_ALLOW_OPEN === '1' && !c.env.PINCHER_HTTP_KEY && !c.env.PINCHER_READ_KEY),
  }),
);

/**
 * `?shard=N` checks that shard alone (one D1 round trip: a monitor per shard, and the bench's
 * one-round-trip floor); absent, every shard.
 */
function shardsToCheck(env: Env, raw: string | undefined) {
  if (raw === undefined) return shardsOf(env);
  if (!/^\d{1,3}$/.test(raw)) {
    throw new PincherError('invalid_params', `shard must be a shard number (0 is the primary), got '${raw.slice(0, 20)}'`, {
      suggestion: 'omit shard to check every shard, or pass one of the numbers GET /v1/admin/shards lists',
    });
  }
  return [shardAt(env, Number(raw))];
}

probeRoutes.get('/ready', async (c) => {
  // Every shard must carry this Worker's schema: a project on a shard behind it could not be read.
  const shards = shardsToCheck(c.env, c.req.query('shard'));
  const states = await Promise.all(shards.map((s) => schemaState(s.db, { fresh: true })));
  const state = states[0];
  const reasons: string[] = [];
  states.forEach((st, i) => {
    const { binding } = shards[i];
    const where = shards.length > 1 || binding !== 'DB' ? ` on ${binding}` : '';
    if (st.applied === null) reasons.push(`d1_unreachable${where}`);
    else if (st.applied < SCHEMA_VERSION) reasons.push(`migrations_pending${where}: ${SCHEMA_VERSION - st.applied} not applied (run wrangler d1 migrations apply ${binding})`);
    else if (st.applied > SCHEMA_VERSION) reasons.push(`schema_ahead${where}: D1 has ${st.applied} migrations, this Worker knows ${SCHEMA_VERSION}`);
  });
  // Configuration that works but not as configured: reported, never a reason to refuse traffic.
  const warnings = [tokenAccountingProblem(c.env.PINCHER_TOKEN_ACCOUNTING), otlpProblem(c.env)].filter((w): w is string => w !== null);
  const body = { ready: reasons.length === 0, schema_version: SCHEMA_VERSION, applied_migrations: state.applied, reasons, warnings };
  return jsonWithMeta(c, body, reasons.length ? 503 : 200);
});

probeRoutes.get('/openapi.json', (c) => c.json(openApiDocument(new URL(c.req.url).origin)));

probeRoutes.get('/capabilities', (c) => jsonWithMeta(c, { capabilities: computeCapabilities(c.env) }));

probeRoutes.get('/projects', async (c) => {
  const page = await listProjectsAcross(shardsOf(c.env), { limit: 1000, offset: 0 });
  return jsonWithMeta(c, {
    projects: page.rows.map(projectView),
    total: page.total,
  });
});

probeRoutes.get('/metrics', async (c) => {
  const [totals, projects] = await Promise.all([callTotalsByTool(c.env.DB), listProjectsAcross(shardsOf(c.env), { limit: 1, offset: 0 })]);
  return c.text(prometheusText(totals, projects.total), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
});
