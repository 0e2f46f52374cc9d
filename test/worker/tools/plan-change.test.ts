import { beforeAll, describe, expect, it } from 'vitest';
import { moduleOf, riskLevel } from '../../../src/tools/plan-change';
import { EDGES, FILES, ORPHAN_REFERENCE, codes, indexProject, rest, runStep, seedEdges, type Json } from '../graph/support';

const P = 'graph-plan';

beforeAll(async () => {
  const project = await indexProject(P, { ...FILES, 'src/empty.ts': '// nothing defined here\n' });
  await seedEdges(project, EDGES);
});

const plan = (args: Json) => rest('plan_change', { project: P, ...args });
const impactIds = (body: Json) => (body.result.impact as Json[]).map((h) => `${h.depth} ${h.id ?? h.file}`);

describe('plan_change', () => {
  it('walks callers of a symbol by depth with modules, affected tests and a risk summary', async () => {
    const { status, body } = await plan({ id: 'src/api/users.ts::Users.list#Method' });
    expect(status).toBe(200);
    expect(body.result.target).toEqual({
      kind: 'symbol',
      file: 'src/api/users.ts',
      module: 'src/api',
      symbol: { id: 'src/api/users.ts::Users.list#Method', name: 'list', kind: 'Method', file: 'src/api/users.ts', line: 4 },
      symbols: 1,
    });
    expect(impactIds(body)).toEqual(['1 src/api/users.ts::Users.get#Method', '2 src/api/users.ts::handler#Function']);
    expect(body.result.impact[0]).toMatchObject({ risk: 'high', via: 'src/api/users.ts::Users.list#Method', call_line: 8, edge: 'CALLS', module: 'src/api', cross_module: false });
    expect(body.result.impact[1]).toMatchObject({ risk: 'medium', via: 'src/api/users.ts::Users.get#Method', call_line: 13 });
    expect(body.result.modules).toEqual([{ module: 'src/api', hops: 2, cross_module: false }]);
    expect(body.result.tests).toEqual([
      { id: 'test/users.test.ts::checkHandler#Function', file: 'test/users.test.ts', name: 'checkHandler', reason: 'calls', depth: 3, via: 'src/api/users.ts::handler#Function' },
    ]);
    expect(body.result.risk).toEqual({ level: 'medium', direct: 1, indirect: 1, other_modules: 0, tests: 1, untested: false });
    expect(body.result.total).toBe(2);
    expect(body._meta.complexity_tier).toBe('heavy');
    expect(body._meta.baseline_method).toBe('grep_then_read');
    const trace = body._meta.next_steps.find((s: Json) => s.tool === 'trace');
    expect((await runStep(trace)).result.hops.length).toBe(3);
  });

  it('marks callers in other modules and rates them high risk, flagging an untested target', async () => {
    const { body } = await plan({ name: 'query', min_confidence: 0 });
    expect(impactIds(body)).toEqual([
      '1 src/admin/audit.ts::audit#Function',
      '1 src/api/users.ts::Users.list#Method',
      '2 src/api/users.ts::Users.get#Method',
      '3 src/api/users.ts::handler#Function',
    ]);
    expect(body.result.impact.every((h: Json) => h.cross_module)).toBe(true);
    expect(body.result.modules).toEqual([
      { module: 'src/api', hops: 3, cross_module: true },
      { module: 'src/admin', hops: 1, cross_module: true },
    ]);
    expect(body.result.tests).toEqual([]);
    expect(body.result.risk).toEqual({ level: 'high', direct: 2, indirect: 2, other_modules: 2, tests: 0, untested: true });
  });

  it('rates five or more direct callers high risk, counting a module-level caller', async () => {
    const { body } = await plan({ name: 'hub', depth: 1 });
    expect(body.result.risk).toMatchObject({ level: 'high', direct: 7, indirect: 0 });
    expect(body.result.impact.find((h: Json) => h.id === null)).toMatchObject({ file: 'src/boot.ts', kind: 'Module', module: 'src', cross_module: true });
  });

  it('takes a file path as the target: every symbol it defines, its own internal calls left out', async () => {
    const { body } = await plan({ path: 'src/core/db.ts', depth: 1, min_confidence: 0 });
    expect(body.result.target).toEqual({ kind: 'file', file: 'src/core/db.ts', module: 'src/core', symbols: 4 });
    expect(impactIds(body)).toEqual(['1 src/admin/audit.ts::audit#Function', '1 src/api/users.ts::Users.list#Method']);
    const dotted = await plan({ path: './src/core/db.ts', depth: 1 });
    expect(dotted.body.result.target.file).toBe('src/core/db.ts');
  });

  it('lists test files that import the target file, even when they call nothing in it', async () => {
    const proj = await indexProject('graph-plan-imports', {
      'src/lib/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
      'test/math.test.ts': "import * as math from '../src/lib/math';\nexport const m = math;\n",
    });
    await seedEdges(proj, [{ kind: 'IMPORTS', src: null, srcFile: 'test/math.test.ts', dst: null, dstFile: 'src/lib/math.ts', line: 1, confidence: 1, provenance: 'module' }]);
    const { body } = await rest('plan_change', { project: 'graph-plan-imports', name: 'add' });
    expect(body.result.tests).toEqual([{ id: null, file: 'test/math.test.ts', name: 'math.test.ts', reason: 'imports', depth: 1, via: 'src/lib/math.ts' }]);
    expect(body.result.impact).toEqual([]);
    expect(body.result.risk).toEqual({ level: 'low', direct: 0, indirect: 0, other_modules: 0, tests: 1, untested: false });
    expect(body._meta.empty_reason).toBeUndefined();
  });

  it('cuts impact at max_hops while modules and risk count everything', async () => {
    const { body } = await plan({ name: 'hub', max_hops: 3 });
    expect(body.result.impact).toHaveLength(3);
    expect(body.result.total).toBe(8);
    expect(body.result.risk.direct + body.result.risk.indirect).toBe(8);
    expect(codes(body._meta.warnings_v2)).toContain('hops_truncated');
    const more = await runStep(body._meta.next_steps.find((s: Json) => s.args.max_hops === 500));
    expect(more.result.impact).toHaveLength(8);
  });

  it('answers no_results_in_corpus when nothing depends on the target', async () => {
    const { body } = await plan({ name: 'orphan' });
    expect(body.result.impact).toEqual([]);
    expect(body.result.risk.level).toBe('low');
    expect(body._meta.empty_reason).toBe('no_results_in_corpus');
    await runStep(body._meta.next_steps[0]);
  });

  it('answers query_too_narrow when min_confidence drops every caller, with a relaxed step', async () => {
    const { body } = await plan({ name: 'helperLow', min_confidence: 0.8 });
    expect(body._meta.empty_reason).toBe('query_too_narrow');
    expect(body._meta.diagnosis_v2[0].data.filter).toBe('min_confidence');
    const relaxed = await runStep(body._meta.next_steps[0]);
    expect(impactIds(relaxed)).toEqual(['1 src/admin/audit.ts::audit#Function']);
  });

  it('answers same_file_only and cross_file_unavailable by the target language', async () => {
    const rb = await plan({ name: 'other' });
    expect(rb.body._meta.empty_reason).toBe('same_file_only');
    for (const s of rb.body._meta.next_steps) await runStep(s);
    const yaml = await plan({ path: 'config/app.yaml' });
    expect(yaml.body.result.target).toMatchObject({ kind: 'file', file: 'config/app.yaml' });
    expect(yaml.body._meta.empty_reason).toBe('cross_file_unavailable');
    await runStep(yaml.body._meta.next_steps[0]);
  });

  it('answers target_not_resolved for an unknown path, name or id, and extractor_emitted_nothing for a file without symbols', async () => {
    const path = await plan({ path: 'src/nope.ts' });
    expect(path.body._meta.empty_reason).toBe('target_not_resolved');
    expect(path.body._meta.next_steps[0]).toMatchObject({ tool: 'find', args: { pattern: 'nope.ts' } });
    await runStep(path.body._meta.next_steps[0]);
    for (const args of [{ name: 'nope' }, { id: 'src/core/db.ts::nope#Function' }]) {
      const r = await plan(args);
      expect(r.body._meta.empty_reason).toBe('target_not_resolved');
      for (const s of r.body._meta.next_steps) await runStep(s);
    }
    const bare = await plan({ path: 'src/empty.ts' });
    expect(bare.body._meta.empty_reason).toBe('extractor_emitted_nothing');
    await runStep(bare.body._meta.next_steps[0]);
  });

  it('warns graph_pending while edges lag the index, and answers stale_index when nothing is found then', async () => {
    const lag = await indexProject('graph-plan-lag', FILES);
    await seedEdges(lag, EDGES, { current: false });
    const some = await rest('plan_change', { project: 'graph-plan-lag', name: 'query' });
    expect(some.body.result.impact.length).toBeGreaterThan(0);
    expect(codes(some.body._meta.warnings_v2)).toContain('graph_pending');
    const none = await rest('plan_change', { project: 'graph-plan-lag', name: 'orphan' });
    expect(none.body._meta.empty_reason).toBe('stale_index');
    expect(codes(none.body._meta.warnings_v2)).not.toContain('graph_pending');
    await runStep(none.body._meta.next_steps[0]);
  });

  it('answers no_project_indexed for an unknown project', async () => {
    const { body } = await rest('plan_change', { project: 'graph-no-such', name: 'x' });
    expect(body._meta.empty_reason).toBe('no_project_indexed');
  });

  it('derives modules from the top-level folder, two levels under source containers', () => {
    expect(moduleOf('src/api/users.ts')).toBe('src/api');
    expect(moduleOf('packages/web/src/a.ts')).toBe('packages/web');
    expect(moduleOf('cli/bin.ts')).toBe('cli');
    expect(moduleOf('src/boot.ts')).toBe('src');
    expect(moduleOf('setup.py')).toBe('.');
  });

  it('rates risk high at 5 direct callers or 2 other modules, medium with any caller, low with none', () => {
    expect(riskLevel(5, 0, 5)).toBe('high');
    expect(riskLevel(1, 2, 3)).toBe('high');
    expect(riskLevel(4, 1, 9)).toBe('medium');
    expect(riskLevel(0, 0, 0)).toBe('low');
  });

  const bad: [string, Json][] = [
    ['no target', {}],
    ['two targets', { name: 'query', path: 'src/core/db.ts' }],
    ['depth 4', { name: 'query', depth: 4 }],
    ['depth 0', { name: 'query', depth: 0 }],
    ['max_hops 0', { name: 'query', max_hops: 0 }],
    ['max_hops 501', { name: 'query', max_hops: 501 }],
    ['min_confidence 2', { name: 'query', min_confidence: 2 }],
    ['a blank name', { name: ' ' }],
  ];
  for (const [label, args] of bad) {
    it(`rejects ${label} with invalid_params and a suggestion`, async () => {
      const { status, body } = await plan(args);
      expect(status).toBe(400);
      expect(body.error.code).toBe('invalid_params');
      expect(body.error.suggestion).toBeTruthy();
    });
  }
});

describe('plan_change with references from a SCIP index', () => {
  const R = 'graph-plan-refs';
  beforeAll(async () => {
    const project = await indexProject(R, FILES);
    await seedEdges(project, [
      ...EDGES,
      ORPHAN_REFERENCE,
      // The same symbol both references and calls: it is listed once, as a caller.
      { kind: 'REFERENCES', src: 'src/api/users.ts::Users.list#Method', dst: 'src/core/db.ts::query#Function', line: 4, confidence: 1, provenance: 'scip' },
    ]);
  });

  it('counts the sites that reference a symbol without calling it as impact, and a caller once as a caller', async () => {
    const orphan = (await rest('plan_change', { project: R, id: 'src/core/db.ts::orphan#Function', depth: 1 })).body;
    expect(orphan.result.impact.map((h: Json) => [h.id, h.edge, h.provenance])).toEqual([['src/admin/audit.ts::audit#Function', 'REFERENCES', 'scip']]);
    expect(orphan.result.risk).toMatchObject({ level: 'medium', direct: 1 });
    const query = (await rest('plan_change', { project: R, id: 'src/core/db.ts::query#Function', depth: 1 })).body;
    expect(query.result.impact.map((h: Json) => [h.id, h.edge])).toEqual([['src/api/users.ts::Users.list#Method', 'CALLS']]);
  });
});
