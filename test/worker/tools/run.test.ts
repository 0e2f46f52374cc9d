import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { z } from 'zod';
import { MetaCollector } from '../../../src/envelope/collector';
import { findTool, REGISTRY } from '../../../src/tools/registry';
import { defineTool, type ToolContext, type ToolDef } from '../../../src/tools/define';
import { runSubTool } from '../../../src/tools/run';
import { CallDatabases } from '../../../src/db/project-shard';

function parent(over: Partial<ToolContext> = {}): ToolContext {
  const meta = new MetaCollector();
  return {
    env: env as never,
    db: (env as unknown as { DB: D1Database }).DB,
    databases: new CallDatabases(env as never, undefined),
    meta,
    requestId: 'run-sub',
    scope: 'write',
    surface: 'rest',
    waitUntil: () => {},
    registry: REGISTRY,
    ...over,
  };
}

let ran = 0;
const probe = defineTool({
  name: 'probe',
  title: 'probe',
  description: 'test only',
  tier: 'lite',
  toolset: 'full',
  writes: { idempotent: true },
  baseline: 'walk_directory',
  input: z.object({ n: z.number().int().min(1), bad: z.boolean().default(false) }),
  output: z.object({ n: z.number(), session: z.string().nullable() }),
  handler: async (args, ctx) => {
    ran++;
    ctx.meta.baseline('walk_directory', 100);
    ctx.meta.next('list', {}, 'probe step');
    if (args.bad) return { n: 'not a number' } as never;
    return { n: args.n, session: ctx.meta.sessionId ?? null };
  },
}) as unknown as ToolDef;

describe('runSubTool: one sub-call through the seam', () => {
  it('normalises arguments (base-10 strings, unknown keys as unknown_arg) and reports a slim meta', async () => {
    const sub = await runSubTool(probe, { n: '3', nn: 1 }, parent());
    expect(sub.ok).toBe(true);
    if (!sub.ok) return;
    expect(sub.result).toEqual({ n: 3, session: null });
    expect(sub.meta.tokens_used).toBe(Math.ceil(JSON.stringify(sub.result).length / 4));
    expect(sub.meta.warnings_v2?.map((w) => w.code)).toEqual(['unknown_arg']);
    expect(sub.meta).not.toHaveProperty('empty_reason');
    // Baseline and steps stay on the sub-call's own collector, for the caller to aggregate.
    expect(sub.collector.baselineTokens).toBe(100);
    expect(sub.collector.nextSteps).toEqual([{ tool: 'list', args: {}, why: 'probe step' }]);
  });

  it('applies the parent session, and an argument _meta.session_id wins', async () => {
    const p = parent();
    p.meta.sessionId = 'outer';
    const outer = await runSubTool(probe, { n: 1 }, p);
    expect(outer.ok && outer.result.session).toBe('outer');
    const inner = await runSubTool(probe, { n: 1, _meta: { session_id: 'inner' } }, p);
    expect(inner.ok && inner.result.session).toBe('inner');
    expect(p.meta.sessionId).toBe('outer');
  });

  it('refuses a write tool for a read-scoped parent before running it', async () => {
    const before = ran;
    const sub = await runSubTool(probe, { n: 1 }, parent({ scope: 'read' }));
    expect(sub.ok).toBe(false);
    if (!sub.ok) expect(sub.error.code).toBe('insufficient_scope');
    expect(ran).toBe(before);
  });

  it('turns invalid arguments into invalid_params and an output outside the schema into internal_error', async () => {
    const invalid = await runSubTool(probe, { n: 0 }, parent());
    expect(!invalid.ok && invalid.error.code).toBe('invalid_params');
    expect(invalid.meta.tokens_used).toBe(Math.ceil(JSON.stringify({ error: !invalid.ok && invalid.error.toBody() }).length / 4));
    const broken = await runSubTool(probe, { n: 1, bad: true }, parent());
    expect(!broken.ok && broken.error.code).toBe('internal_error');
  });

  it('records the empty reason of a real tool', async () => {
    const search = findTool('search') as ToolDef;
    const sub = await runSubTool(search, { project: 'run-sub-nowhere', query: 'x' }, parent());
    expect(sub.meta.empty_reason).toBe('no_project_indexed');
    expect(sub.collector.diagnosis).toContain('run-sub-nowhere');
  });

  it('counts tokens with the exact encoder when the deployment asks for it', async () => {
    const catalog = findTool('why_empty') as ToolDef;
    const exact = await runSubTool(catalog, {}, parent({ env: { ...(env as object), PINCHER_TOKEN_ACCOUNTING: 'exact' } as never }));
    const heuristic = await runSubTool(catalog, {}, parent());
    expect(exact.ok && heuristic.ok).toBe(true);
    if (exact.ok) expect(exact.meta.tokens_used).not.toBe(Math.ceil(JSON.stringify(exact.result).length / 4));
    expect(heuristic.meta.tokens_used).toBe(heuristic.ok ? Math.ceil(JSON.stringify(heuristic.result).length / 4) : -1);
  });
});
