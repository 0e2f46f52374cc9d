import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_REASONS } from '../../../src/envelope/empty-reasons';
import { env, indexCodeProject, insertProjects, mcpPayload, mcpTool, rpc, type Json } from './support';

/**
 * A host calls only the tools tools/list showed it. Every step the server
 * emits over MCP with the default (core) list — next_steps, guide's steps,
 * why_empty's recovery steps — names an advertised tool, and runs over MCP.
 * The steps run on a server holding many projects besides this file's own:
 * server-wide answers (health without a project) must still fit a batch.
 */
const CODE = 'reach-code';
const BARE = 'reach-nosymbols';
const CROWD = Array.from({ length: 120 }, (_, i) => `reach-crowd-${String(i).padStart(3, '0')}`);
let advertised: Set<string>;

interface Step {
  tool: string;
  args: Json;
}

function emitted(result: Json): Step[] {
  const payload = mcpPayload(result);
  const steps: Step[] = [...((payload.notice?.next_steps ?? []) as Step[])];
  if (Array.isArray(payload.steps)) steps.push(...(payload.steps as Step[]));
  for (const e of (payload.entries ?? []) as Json[]) steps.push(...((e.recovery_steps ?? []) as Step[]));
  return steps;
}

async function walk(label: string, tool: string, args: Json): Promise<number> {
  const { result, rpcError } = await mcpTool('2025', tool, args);
  expect(rpcError, label).toBeUndefined();
  let n = 0;
  for (const step of emitted(result!)) {
    const where = `${label} → ${step.tool} ${JSON.stringify(step.args)}`;
    expect(advertised.has(step.tool), `${where}: not in the advertised tool list`).toBe(true);
    const next = await mcpTool('2025', step.tool, step.args);
    expect(next.rpcError, where).toBeUndefined();
    expect(next.result?.isError, `${where}: ${next.result?.content?.[0]?.text?.slice(0, 200)}`).toBeUndefined();
    for (const e of (mcpPayload(next.result!).entries ?? []) as Json[]) {
      if (e.status) expect(e.status, `${where}: batch entry ${JSON.stringify(e).slice(0, 200)}`).toBe('ok');
    }
    n++;
  }
  return n;
}

beforeAll(async () => {
  await insertProjects(CROWD.map((name) => ({ name })));
  const list = await rpc('2025', 'tools/list');
  advertised = new Set((list.body.result.tools as Json[]).map((t) => t.name as string));
  await indexCodeProject(CODE);
  await rpc('2025', 'tools/call', { name: 'index', arguments: { project: BARE, files: [{ path: 'notes.txt', content: 'hello\n' }] } });
});

afterAll(async () => {
  await env.DB.prepare("DELETE FROM projects WHERE name LIKE 'reach-crowd-%'").run();
});

const TRACE = `TypeError: Cannot read properties of undefined (reading 'port')
    at Server.start (/srv/app/src/app.ts:3:5)
    at listen (/srv/app/src/app.ts:8:10)`;

const SOURCES: [string, string, Json][] = [
  ['guide with a pasted stack trace', 'guide', { project: CODE, task: TRACE }],
  ['guide for a change impact', 'guide', { project: CODE, task: 'what breaks if I change listen' }],
  ['guide to explore', 'guide', { project: CODE, task: 'how is this project organised' }],
  ['search on a project without symbols', 'search', { project: BARE, query: 'hello' }],
  ['search for a word not in the corpus', 'search', { project: CODE, query: 'zebra' }],
  ['search on an unknown project', 'search', { project: 'reach-unknown', query: 'x' }],
  ['symbol with a misspelt id', 'symbol', { project: CODE, id: 'src/app.ts::lisen#Function' }],
  ['context with a misspelt name', 'context', { project: CODE, name: 'lisen' }],
  ['trace of a misspelt name', 'trace', { project: CODE, name: 'lisen' }],
  ['read of a missing path', 'read', { project: CODE, path: 'src/nope.ts' }],
  ['read of a stale anchor', 'read', { project: CODE, path: 'src/app.ts', anchors: ['2:0000'] }],
  ['grep with no match', 'grep', { project: CODE, pattern: 'zzzz' }],
  ['why_empty catalog', 'why_empty', {}],
];

describe('every emitted step is callable with the advertised tools only', () => {
  for (const [label, tool, args] of SOURCES) it(`walks the steps of ${label}`, () => walk(label, tool, args));

  for (const code of EMPTY_REASONS) {
    it(`walks the recovery of ${code}`, () => walk(`why_empty ${code}`, 'why_empty', { code, project: CODE }));
  }

  it('routes a pasted stack trace through batch to investigate_failure, which is not advertised', async () => {
    expect(advertised.has('investigate_failure')).toBe(false);
    const { result } = await mcpTool('2025', 'guide', { project: CODE, task: TRACE });
    const [step] = emitted(result!);
    expect(step.tool).toBe('batch');
    expect(step.args.calls[0].tool).toBe('investigate_failure');
  });
});
