import { beforeAll, describe, expect, it } from 'vitest';
import { mcp, rest, type Json } from '../helpers';
import { ID, runStep, seedProject } from './composite-fixture';

const P = 'comp-guide';
const call = (task: string, extra: Json = {}) => rest('guide', { project: P, task, ...extra });

beforeAll(async () => {
  await seedProject(P);
});

/** Runs every planned step and returns the tools in order. */
async function executeAll(steps: Json[]): Promise<string[]> {
  for (const s of steps) await runStep(s);
  return steps.map((s) => s.tool);
}

describe('guide: plans with real arguments', () => {
  it('plans who-calls as a trace from the resolved symbol id', async () => {
    const { status, body } = await call('who calls listen?');
    expect(status).toBe(200);
    expect(body.result.intent).toBe('callers');
    expect(body.result.steps[0]).toEqual({ tool: 'trace', args: { project: P, id: ID.listen, direction: 'inbound' }, why: expect.any(String) });
    expect(body.result.seeds[0]).toBe(ID.listen);
    expect(await executeAll(body.result.steps)).toEqual(['trace', 'grep']);
  });

  it('plans what-breaks as changes over the symbol lines, then a trace', async () => {
    const { body } = await call('what breaks if I change `Server.start`');
    expect(body.result.intent).toBe('impact');
    expect(body.result.steps[0]).toMatchObject({ tool: 'changes', args: { project: P, ranges: [{ path: 'src/app.ts', start_line: 4, end_line: 6 }] } });
    expect(await executeAll(body.result.steps)).toEqual(['changes', 'trace']);
  });

  it('plans find-definition as the symbol itself', async () => {
    const { body } = await call('where is bind defined');
    expect(body.result.intent).toBe('definition');
    expect(body.result.steps[0]).toMatchObject({ tool: 'symbol', args: { project: P, id: ID.bind } });
    await executeAll(body.result.steps);
  });

  it('plans understanding as context of the symbol, then context_for_task', async () => {
    const { body } = await call('explain `Server.start`');
    expect(body.result.intent).toBe('understand');
    expect(await executeAll(body.result.steps)).toEqual(['context', 'context_for_task']);
    expect(body.result.steps[0].args.id).toBe(ID.start);
  });

  it('plans a text search as a literal grep of the quoted phrase', async () => {
    const { body } = await call('grep for the message "only a comment"');
    expect(body.result.intent).toBe('find_text');
    expect(body.result.steps).toEqual([{ tool: 'grep', args: { project: P, pattern: 'only a comment', literal: true }, why: expect.any(String) }]);
    const out = await runStep(body.result.steps[0]);
    expect(out.result.matches[0].path).toBe('src/empty.ts');
  });

  it('plans exploring as a listing, or the map of a mentioned file', async () => {
    const general = await call('give me an overview of the structure');
    expect(general.body.result.intent).toBe('explore');
    expect(await executeAll(general.body.result.steps)).toContain('ls');
    const file = await call('overview of the structure of src/net.ts');
    expect(file.body.result.steps).toEqual([{ tool: 'read', args: { project: P, path: 'src/net.ts', map: true }, why: expect.any(String) }]);
    await executeAll(file.body.result.steps);
  });

  it('routes a pasted stack trace to investigate_failure with the trace as given', async () => {
    const task = 'this fails:\nTypeError: x\n    at listen (/srv/src/net.ts:2:10)';
    const { body } = await call(task);
    expect(body.result.intent).toBe('debug_failure');
    expect(body.result.steps).toEqual([{ tool: 'investigate_failure', args: { project: P, trace: task }, why: expect.any(String) }]);
    const out = await runStep(body.result.steps[0]);
    expect(out.result.implicated[0].id).toBe(ID.listen);
  });

  it('routes a pasted diff to changes with the diff from its first header', async () => {
    const diff = 'diff --git a/src/net.ts b/src/net.ts\n--- a/src/net.ts\n+++ b/src/net.ts\n@@ -5 +5 @@\n-  return port;\n+  return port * 2;\n';
    const { body } = await call(`please review\n${diff}`);
    expect(body.result.intent).toBe('review_diff');
    expect(body.result.steps).toEqual([{ tool: 'changes', args: { project: P, diff }, why: expect.any(String) }]);
    const out = await runStep(body.result.steps[0]);
    expect(out.result.changed[0].id).toBe(ID.bind);
  });

  it('falls back to a search when the task resolves to no symbol', async () => {
    const { body } = await call('who calls frobnicateWidget');
    expect(body.result.seeds).toEqual([]);
    expect(body.result.steps[0]).toEqual({ tool: 'search', args: { project: P, query: 'frobnicateWidget' }, why: expect.any(String) });
    await executeAll(body.result.steps);
  });
});

describe('guide: projects', () => {
  it('steps to list first when no project is given or pinned', async () => {
    const { body } = await rest('guide', { task: 'who calls listen' });
    expect(body.result).toEqual({ intent: 'callers', steps: [{ tool: 'list', args: {}, why: expect.any(String) }], seeds: [] });
    expect(body._meta.empty_reason).toBeUndefined();
  });

  it('answers no_project_indexed for an unknown project, still with the list step', async () => {
    const { body } = await rest('guide', { project: 'comp-guide-none', task: 'who calls listen' });
    expect(body._meta.empty_reason).toBe('no_project_indexed');
    expect(body.result.steps.map((s: Json) => s.tool)).toEqual(['list']);
  });

  it('uses the project pinned on the MCP URL', async () => {
    const r = await mcp('tools/call', { name: 'guide', arguments: { task: 'who calls listen' } }, { query: `?project=${P}` });
    expect(r.body.result.structuredContent.steps[0].args).toEqual({ project: P, id: ID.listen, direction: 'inbound' });
  });
});

describe('guide: bad input and advertised size', () => {
  it('refuses a task without letters or digits, and one over 2000 characters', async () => {
    const none = await call('?? !!');
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('invalid_params');
    expect(none.body.error.suggestion).toBeTruthy();
    const long = await call('x'.repeat(2001));
    expect(long.body.error.code).toBe('invalid_params');
  });

  it('keeps its core tools/list entry within 250 tokens (chars/4)', async () => {
    const r = await mcp('tools/list');
    const entry = r.body.result.tools.find((t: Json) => t.name === 'guide');
    expect(entry).toBeDefined();
    const tokens = Math.ceil(JSON.stringify({ description: entry.description, inputSchema: entry.inputSchema, outputSchema: entry.outputSchema }).length / 4);
    expect(tokens).toBeLessThanOrEqual(250);
  });

  it('is advertised in the core list while the other composites are full-toolset only', async () => {
    const core = (await mcp('tools/list')).body.result.tools.map((t: Json) => t.name);
    expect(core).toContain('guide');
    for (const name of ['changes', 'investigate_failure', 'context_for_task']) expect(core).not.toContain(name);
    const full = (await mcp('tools/list', {}, { query: '?toolset=full' })).body.result.tools.map((t: Json) => t.name);
    for (const name of ['changes', 'investigate_failure', 'context_for_task', 'guide']) expect(full).toContain(name);
  });
});
