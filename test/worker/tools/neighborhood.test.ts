import { beforeAll, describe, expect, it } from 'vitest';
import { EDGES, FILES, indexProject, rest, runStep, seedEdges, type Json } from '../graph/support';

const P = 'graph-neighborhood';

beforeAll(async () => {
  const project = await indexProject(P, {
    ...FILES,
    'src/solo.ts': 'export function solo(): number {\n  return 1;\n}\n',
  });
  await seedEdges(project, EDGES);
});

const hood = (args: Json) => rest('neighborhood', { project: P, ...args });

describe('neighborhood', () => {
  it('lists the other symbols of the file in source order with their position relative to the symbol', async () => {
    const { status, body } = await hood({ id: 'src/api/users.ts::Users.get#Method' });
    expect(status).toBe(200);
    expect(body.result.symbol).toEqual({ id: 'src/api/users.ts::Users.get#Method', name: 'get', kind: 'Method', file: 'src/api/users.ts', line: 7 });
    expect(body.result.siblings.map((s: Json) => `${s.id} ${s.position}`)).toEqual([
      'src/api/users.ts::Users#Class around',
      'src/api/users.ts::Users.list#Method before',
      'src/api/users.ts::handler#Function after',
    ]);
    expect(body.result.siblings[1]).toMatchObject({ name: 'list', kind: 'Method', parent: 'Users', start_line: 4, end_line: 6 });
    expect(body.result.siblings[1].signature).toContain('list()');
    expect(body.result).toMatchObject({ total: 3, has_more: false });
    expect(body.result.next_offset).toBeUndefined();
    expect(body._meta.complexity_tier).toBe('lite');
    expect(body._meta.baseline_method).toBe('full_file_read');
  });

  it('marks nested symbols as inside', async () => {
    const { body } = await hood({ name: 'Users' });
    expect(body.result.siblings.map((s: Json) => `${s.name} ${s.position}`)).toEqual(['list inside', 'get inside', 'handler after']);
  });

  it('paginates with limit and offset, with has_more, next_offset and a next-page step', async () => {
    const page1 = await hood({ name: 'c3', limit: 2 });
    expect(page1.body.result.siblings.map((s: Json) => s.name)).toEqual(['c1', 'c2']);
    expect(page1.body.result).toMatchObject({ total: 6, has_more: true, next_offset: 2 });
    const step = page1.body._meta.next_steps[0];
    expect(step).toMatchObject({ tool: 'neighborhood', args: { project: P, id: 'src/fan/callers.ts::c3#Function', limit: 2, offset: 2 } });
    const page2 = await runStep(step);
    expect(page2.result.siblings.map((s: Json) => s.name)).toEqual(['c4', 'c5']);
    const last = await hood({ name: 'c3', limit: 2, offset: 4 });
    expect(last.body.result.siblings.map((s: Json) => s.name)).toEqual(['c6', 'top']);
    expect(last.body.result.has_more).toBe(false);
    expect(last.body._meta.next_steps).toBeUndefined();
  });

  it('answers cap_dropped_all past the last sibling, with a rewind step', async () => {
    const { body } = await hood({ name: 'c3', offset: 50 });
    expect(body.result.siblings).toEqual([]);
    expect(body.result.total).toBe(6);
    expect(body._meta.empty_reason).toBe('cap_dropped_all');
    const rewind = await runStep(body._meta.next_steps[0]);
    expect(rewind.result.siblings).toHaveLength(6);
  });

  it('answers no_results_in_corpus for the only symbol of its file, stepping to trace', async () => {
    const { body } = await hood({ name: 'solo' });
    expect(body.result.siblings).toEqual([]);
    expect(body.result.symbol.id).toBe('src/solo.ts::solo#Function');
    expect(body._meta.empty_reason).toBe('no_results_in_corpus');
    expect(body._meta.next_steps[0]).toMatchObject({ tool: 'trace', args: { id: 'src/solo.ts::solo#Function', direction: 'both' } });
    await runStep(body._meta.next_steps[0]);
  });

  it('works for languages without a cross-file graph', async () => {
    const { body } = await hood({ name: 'lonely' });
    expect(body.result.siblings.map((s: Json) => s.name)).toEqual(['other']);
  });

  it('takes the first match of an ambiguous name and steps to the others', async () => {
    const { body } = await hood({ name: 'list' });
    expect(body.result.symbol.id).toBe('src/admin/audit.ts::list#Function');
    expect((body._meta.warnings_v2 as Json[]).map((w) => w.code)).toContain('ambiguous_symbol');
    const alt = body._meta.next_steps.find((s: Json) => s.args.id === 'src/api/users.ts::Users.list#Method');
    expect((await runStep(alt)).result.symbol.id).toBe('src/api/users.ts::Users.list#Method');
  });

  it('answers target_not_resolved for an unknown symbol and no_project_indexed for an unknown project', async () => {
    const unknown = await hood({ id: 'src/api/users.ts::Nope#Function' });
    expect(unknown.body._meta.empty_reason).toBe('target_not_resolved');
    for (const s of unknown.body._meta.next_steps) await runStep(s);
    const noProject = await rest('neighborhood', { project: 'graph-no-such', name: 'x' });
    expect(noProject.body._meta.empty_reason).toBe('no_project_indexed');
  });

  const bad: [string, Json][] = [
    ['neither id nor name', {}],
    ['both id and name', { id: 'a.ts::f#Function', name: 'f' }],
    ['limit 0', { name: 'f', limit: 0 }],
    ['limit 201', { name: 'f', limit: 201 }],
    ['a negative offset', { name: 'f', offset: -1 }],
    ['offset over 10000', { name: 'f', offset: 10_001 }],
    ['a blank name', { name: ' ' }],
  ];
  for (const [label, args] of bad) {
    it(`rejects ${label} with invalid_params and a suggestion`, async () => {
      const { status, body } = await hood(args);
      expect(status).toBe(400);
      expect(body.error.code).toBe('invalid_params');
      expect(body.error.suggestion).toBeTruthy();
    });
  }
});
