import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { PincherError } from '../errors';
import { readJsonBody } from '../http/body';
import { sessionHeader } from '../http/session';
import { errorWithMeta, jsonWithMeta } from '../http/respond';
import { REGISTRY, TOOLS, findTool, unknownTool } from '../tools/registry';
import { advertisedAnnotations, advertisedInputSchema, outputJsonSchema } from '../tools/describe';
import { runTool } from '../tools/run';
import { BOOKMARK_HEADER, bookmarkArg, setReadHeaders } from '../http/bookmark';

/** The REST twin: `POST /v1/tools/{tool}` with the arguments as the JSON body. */
export const toolRoutes = new Hono<AppEnv>();

toolRoutes.get('/', (c) =>
  jsonWithMeta(c, {
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      toolset: t.toolset,
      tier: t.tier,
      idempotent: t.idempotent,
      annotations: advertisedAnnotations(t),
      baseline_method: t.baseline,
      input_schema: advertisedInputSchema(t),
      output_schema: outputJsonSchema(t, false),
    })),
  }),
);

toolRoutes.post('/:tool', async (c) => {
  const name = c.req.param('tool');
  const tool = findTool(name);
  if (!tool) throw unknownTool(name);
  const args = await readJsonBody(c);
  const outcome = await runTool(tool, args, {
    env: c.env,
    requestId: c.get('requestId'),
    clientRequestId: c.get('clientRequestId'),
    startedAt: c.get('startedAt'),
    scope: c.get('scope'),
    surface: 'rest',
    defaultProject: c.req.query('project') || undefined,
    sessionId: sessionHeader(c.req.header('x-pincher-session')),
    registry: REGISTRY,
    traceparent: c.req.header('traceparent'),
    waitUntil: (p) => c.executionCtx.waitUntil(p),
    bookmark: bookmarkArg(c.req.header(BOOKMARK_HEADER)),
  });
  // `{result, _meta}` or `{error, _meta}` as c.json writes it, with the payload's JSON text the envelope already made.
  const meta = JSON.stringify(outcome.meta);
  const body = outcome.ok ? `{"result":${outcome.payloadText},"_meta":${meta}}` : `${outcome.payloadText.slice(0, -1)},"_meta":${meta}}`;
  const res = c.body(body, outcome.ok ? 200 : outcome.error.status, { 'Content-Type': 'application/json' });
  if (!outcome.ok) for (const [k, v] of Object.entries(outcome.error.headers ?? {})) res.headers.set(k, v);
  setReadHeaders(res.headers, outcome.reads);
  return res;
});

toolRoutes.all('/:tool', (c) =>
  errorWithMeta(
    c,
    new PincherError('method_not_allowed', `${c.req.method} is not allowed on /v1/tools/{tool}`, {
      suggestion: 'call tools with POST and the arguments as a JSON body; GET /v1/tools lists them',
      headers: { Allow: 'POST' },
    }),
  ),
);
