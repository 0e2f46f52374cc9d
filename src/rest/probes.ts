import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { schemaState } from '../db/migrations';
import { callStats, latencyBuckets } from '../db/calls';
import { listProjects } from '../db/projects';
import { computeCapabilities } from '../envelope/capabilities';
import { jsonWithMeta } from '../http/respond';
import { SCHEMA_VERSION, VERSION } from '../version';
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

probeRoutes.get('/ready', async (c) => {
  const state = await schemaState(c.env.DB, true);
  const reasons: string[] = [];
  if (state.applied === null) reasons.push('d1_unreachable');
  else if (state.applied < SCHEMA_VERSION) reasons.push(`migrations_pending: ${SCHEMA_VERSION - state.applied} not applied (run wrangler d1 migrations apply DB)`);
  else if (state.applied > SCHEMA_VERSION) reasons.push(`schema_ahead: D1 has ${state.applied} migrations, this Worker knows ${SCHEMA_VERSION}`);
  const body = { ready: reasons.length === 0, schema_version: SCHEMA_VERSION, applied_migrations: state.applied, reasons };
  return jsonWithMeta(c, body, reasons.length ? 503 : 200);
});

probeRoutes.get('/openapi.json', (c) => c.json(openApiDocument(new URL(c.req.url).origin)));

probeRoutes.get('/capabilities', (c) => jsonWithMeta(c, { capabilities: computeCapabilities(c.env) }));

probeRoutes.get('/projects', async (c) => {
  const page = await listProjects(c.env.DB, { limit: 1000, offset: 0 });
  return jsonWithMeta(c, {
    projects: page.rows.map(projectView),
    total: page.total,
  });
});

const BUCKETS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10000];

probeRoutes.get('/metrics', async (c) => {
  const [stats, buckets, projects] = await Promise.all([
    callStats(c.env.DB),
    latencyBuckets(c.env.DB, BUCKETS),
    listProjects(c.env.DB, { limit: 1, offset: 0 }),
  ]);
  const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  const lines = [
    '# HELP pincher_tool_calls_total Tool calls recorded in the call log, by tool and status.',
    '# TYPE pincher_tool_calls_total counter',
    ...stats.map((s) => `pincher_tool_calls_total{tool="${esc(s.tool)}",status="${esc(s.status)}"} ${s.calls}`),
    '# HELP pincher_tokens_used_total Tokens returned to callers.',
    '# TYPE pincher_tokens_used_total counter',
    ...stats.map((s) => `pincher_tokens_used_total{tool="${esc(s.tool)}",status="${esc(s.status)}"} ${s.tokensUsed}`),
    '# HELP pincher_tokens_saved_total Tokens saved against each tool baseline.',
    '# TYPE pincher_tokens_saved_total counter',
    ...stats.map((s) => `pincher_tokens_saved_total{tool="${esc(s.tool)}",status="${esc(s.status)}"} ${s.tokensSaved}`),
    '# HELP pincher_tool_latency_ms Server latency of tool calls in milliseconds.',
    '# TYPE pincher_tool_latency_ms histogram',
  ];
  const perTool = new Map<string, { count: number; sum: number }>();
  for (const s of stats) {
    const t = perTool.get(s.tool) ?? { count: 0, sum: 0 };
    t.count += s.calls;
    t.sum += s.latencySum;
    perTool.set(s.tool, t);
  }
  for (const [tool, counts] of buckets) {
    BUCKETS.forEach((b, i) => lines.push(`pincher_tool_latency_ms_bucket{tool="${esc(tool)}",le="${b}"} ${counts[i]}`));
    const t = perTool.get(tool) ?? { count: 0, sum: 0 };
    lines.push(`pincher_tool_latency_ms_bucket{tool="${esc(tool)}",le="+Inf"} ${t.count}`);
    lines.push(`pincher_tool_latency_ms_sum{tool="${esc(tool)}"} ${t.sum}`);
    lines.push(`pincher_tool_latency_ms_count{tool="${esc(tool)}"} ${t.count}`);
  }
  lines.push('# HELP pincher_projects Indexed projects.', '# TYPE pincher_projects gauge', `pincher_projects ${projects.total}`);
  return c.text(lines.join('\n') + '\n', 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
});
