import { beforeAll, describe, expect, it } from 'vitest';
import { mcpTool, restCall, type Json } from './support';

/** Each recovery step, executed, changes the outcome: its result is not empty. Real code as the corpus. */
const raw = import.meta.glob(['../../../src/util/*.ts'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const FILES = Object.entries(raw).map(([k, content]) => ({ path: k.replace('../../../', ''), content }));
const P = 'recover-real';

async function run(step: Json): Promise<Json> {
  const reply = await restCall(step.tool, step.args);
  expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  return reply.body;
}

beforeAll(async () => {
  expect((await restCall('index', { project: P, files: FILES })).status).toBe(200);
});

describe('target_not_resolved offers names that exist', () => {
  it('symbol with a misspelt id: a did-you-mean step that resolves', async () => {
    const { body } = await restCall('symbol', { project: P, id: 'src/util/did-you-mean.ts::editDistanse#Function' });
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    const step = (body._meta.next_steps as Json[]).find((s) => s.tool === 'symbol');
    expect(step?.args.id).toBe('src/util/did-you-mean.ts::editDistance#Function');
    const next = await run(step!);
    expect(next._meta.empty_reason).toBeUndefined();
    expect(next.result.symbol ?? next.result).toBeTruthy();
  });

  it('context with a misspelt name: the nearest name, ready to call', async () => {
    const { body } = await restCall('context', { project: P, name: 'didYouMaen' });
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    const step = (body._meta.next_steps as Json[]).find((s) => s.tool === 'context');
    expect(step?.args.id).toBe('src/util/did-you-mean.ts::didYouMean#Function');
    expect((await run(step!))._meta.empty_reason).toBeUndefined();
  });

  it('never suggests searching again for the same missing name', async () => {
    const { body } = await restCall('trace', { project: P, name: 'editDistanse' });
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    const steps = body._meta.next_steps as Json[];
    expect(steps.some((s) => s.tool === 'search' && s.args.query === 'editDistanse')).toBe(false);
    expect(steps.some((s) => s.args.id === 'src/util/did-you-mean.ts::editDistance#Function')).toBe(true);
  });
});

describe('stale_anchor says where the line went', () => {
  const path = 'src/moved.ts';
  const v1 = ['export function alpha(): number {', '  return 1;', '}', '', 'export function beta(): number {', '  return 2;', '}', ''].join('\n');
  const v2 = ['// header added', '// and another', v1].join('\n');

  it('relocates a moved line by its hash and offers a read of the current lines', async () => {
    const project = 'recover-anchors';
    expect((await restCall('index', { project, files: [{ path, content: v1 }] })).status).toBe(200);
    const first = await restCall('read', { project, path, offset: 5, limit: 1 });
    const anchor = (first.body.result.text as string).split('|')[0];
    expect(anchor.startsWith('5:')).toBe(true);
    expect((await restCall('index', { project, files: [{ path, content: v2 }] })).status).toBe(200);

    const { body } = await restCall('read', { project, path, anchors: [anchor] });
    expect(body.result.anchors.stale).toEqual([{ anchor, current: expect.any(String), moved_to: 7 }]);
    const step = (body._meta.next_steps as Json[]).find((s) => s.tool === 'read');
    expect(step?.args).toMatchObject({ path, offset: 7, limit: 1 });
    const next = await run(step!);
    expect(next.result.text).toContain('export function beta(): number {');
    expect((next.result.text as string).startsWith('7:')).toBe(true);
  });
});

describe('a project without symbols', () => {
  it('search says extractor_emitted_nothing and steps to a grep that finds the text', async () => {
    const project = 'recover-nosymbols';
    expect((await restCall('index', { project, files: [{ path: 'notes.txt', content: 'hello world\nmore hello here\n' }] })).status).toBe(200);
    const { body } = await restCall('search', { project, query: 'hello' });
    expect(body._meta.empty_reason).toBe('extractor_emitted_nothing');
    const step = (body._meta.next_steps as Json[]).find((s) => s.tool === 'grep');
    const next = await run(step!);
    expect(next.result.total_matches).toBe(2);
  });
});

describe('every lookup on a project without symbols', () => {
  const project = 'recover-nosymbols-all';
  const files = [
    { path: 'notes.txt', content: 'hello world\nmore hello here\n' },
    { path: 'src/empty.ts', content: '// only a comment: hello\n' },
  ];
  const LOOKUPS: [string, Json][] = [
    ['search', { query: 'hello' }],
    ['symbol', { id: 'src/empty.ts::hello#Function' }],
    ['symbols', { ids: ['src/empty.ts::hello#Function'] }],
    ['context', { name: 'hello' }],
    ['context', { id: 'src/empty.ts::hello#Function' }],
    ['trace', { name: 'hello' }],
    ['plan_change', { name: 'hello' }],
    ['neighborhood', { name: 'hello' }],
    ['dead_code', {}],
    ['context_for_task', { task: 'fix the hello greeting' }],
  ];

  beforeAll(async () => {
    expect((await restCall('index', { project, files })).status).toBe(200);
  });

  for (const [tool, args] of LOOKUPS) {
    it(`${tool} ${JSON.stringify(args)}: extractor_emitted_nothing, and each step finds something`, async () => {
      const { body } = await restCall(tool, { project, ...args });
      expect(body._meta.empty_reason).toBe('extractor_emitted_nothing');
      const steps = body._meta.next_steps as Json[];
      expect(steps.map((s) => s.tool)).toContain('health');
      for (const step of steps) {
        const next = await run(step);
        expect(next._meta.empty_reason, `${step.tool} ${JSON.stringify(step.args)}`).toBeUndefined();
        if (step.tool === 'grep') expect(next.result.total_matches).toBe(3);
        if (step.tool === 'health') expect(next.result.projects.map((p: Json) => p.name)).toEqual([project]);
      }
    });
  }
});

describe('protocol errors carry _meta', () => {
  it('an unknown tool over MCP is a JSON-RPC error whose data holds the envelope', async () => {
    const { rpcError } = await mcpTool('2025', 'no_such_tool', {});
    expect(rpcError?.data?.error?.code).toBeDefined();
    expect(rpcError?.data?._meta?.request_id).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
  });
});

describe('request ids', () => {
  it('keeps the ULID and the client id side by side', async () => {
    const reply = await restCall('why_empty', {}, { headers: { 'x-request-id': 'client-abc-1' } });
    expect(reply.body._meta.request_id).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
    expect(reply.body._meta.client_request_id).toBe('client-abc-1');
    expect(reply.headers.get('x-request-id')).toBe(reply.body._meta.request_id);
    expect(reply.headers.get('x-client-request-id')).toBe('client-abc-1');
  });
});
