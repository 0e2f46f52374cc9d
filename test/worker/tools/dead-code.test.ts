import { beforeAll, describe, expect, it } from 'vitest';
import { deadConfidence, isEntryPoint } from '../../../src/tools/dead-code';
import { DB, EDGES, FILES, ORPHAN_REFERENCE, codes, indexProject, rest, runStep, seedEdges, type Json } from '../graph/support';

const P = 'graph-dead';

beforeAll(async () => {
  const project = await indexProject(P, FILES);
  await seedEdges(project, EDGES);
});

const dead = (args: Json) => rest('dead_code', { project: P, ...args });
const ids = (body: Json) => (body.result.dead as Json[]).map((d) => d.id);
const warning = (body: Json, code: string) => (body._meta.warnings_v2 ?? []).find((w: Json) => w.code === code);

describe('dead_code', () => {
  it('lists non-exported, non-test callables without a caller at 0.95, with confidence and the weak caller', async () => {
    const { status, body } = await dead({});
    expect(status).toBe(200);
    expect(body.result.dead).toEqual([
      {
        id: 'src/admin/audit.ts::helperLow#Function', name: 'helperLow', kind: 'Function', file: 'src/admin/audit.ts', line: 7, end_line: 9,
        language: 'typescript', signature: expect.stringContaining('helperLow()'), confidence: 0.27, weak_caller: 0.7,
      },
      {
        id: 'src/core/db.ts::orphan#Function', name: 'orphan', kind: 'Function', file: 'src/core/db.ts', line: 9, end_line: 11,
        language: 'typescript', signature: expect.stringContaining('orphan()'), confidence: 0.9,
      },
    ]);
    expect(body.result).toMatchObject({ total: 2, has_more: false });
    expect(body._meta.complexity_tier).toBe('heavy');
    expect(body._meta.empty_reason).toBeUndefined();
  });

  it('leaves out languages whose edges stay in a file, with a warning and a step that lists them', async () => {
    const { body } = await dead({});
    expect(warning(body, 'graph_coverage')?.data).toEqual({ excluded: { c: 1 } });
    const step = body._meta.next_steps.find((s: Json) => s.args.language === 'c');
    const c = await runStep(step);
    expect(ids(c)).toEqual(['lib/util.c::used#Function']);
    expect(c.result.dead[0].confidence).toBe(0.4);
    expect(warning(c, 'graph_coverage')?.data).toEqual({ language: 'c', coverage: 'same_file' });
  });

  it('counts only callers at min_confidence', async () => {
    expect(ids((await dead({ min_confidence: 0.5 })).body)).toEqual(['src/core/db.ts::orphan#Function']);
    const strict = await dead({ min_confidence: 1 });
    expect(ids(strict.body)).toEqual(['src/admin/audit.ts::helperLow#Function', 'src/core/db.ts::run#Function', 'src/core/db.ts::orphan#Function']);
    expect(strict.body.result.dead[1]).toMatchObject({ weak_caller: 0.95, confidence: 0.05 });
  });

  it('never lists entry points by convention', async () => {
    expect(ids((await dead({ min_confidence: 1 })).body)).not.toContain('src/core/db.ts::main#Function');
    for (const n of ['main', 'init', 'constructor', '__init__', '__str__', 'onClick', 'handleSubmit']) expect(isEntryPoint(n), n).toBe(true);
    for (const n of ['mainly', 'initialize', 'on', 'handler', 'once', '_private']) expect(isEntryPoint(n), n).toBe(false);
  });

  it('lowers confidence for methods, same-file-only languages and weak callers', () => {
    expect(deadConfidence({ kind: 'Function', best_below: null }, 'cross_file')).toBe(0.9);
    expect(deadConfidence({ kind: 'Method', best_below: null }, 'cross_file')).toBe(0.75);
    expect(deadConfidence({ kind: 'Function', best_below: null }, 'same_file')).toBe(0.4);
    expect(deadConfidence({ kind: 'Function', best_below: 0.5 }, 'cross_file')).toBe(0.45);
  });

  it('filters by path glob, and names the path filter when it excludes everything', async () => {
    expect(ids((await dead({ path: 'src/core/**' })).body)).toEqual(['src/core/db.ts::orphan#Function']);
    expect(ids((await dead({ path: 'audit.ts' })).body)).toEqual(['src/admin/audit.ts::helperLow#Function']);
    const none = await dead({ path: 'nope/**' });
    expect(none.body._meta.empty_reason).toBe('query_too_narrow');
    expect(none.body._meta.diagnosis_v2[0].data.filter).toBe('path');
    const step = none.body._meta.next_steps[0];
    expect(step.args.path).toBeUndefined();
    expect(ids(await runStep(step))).toHaveLength(2);
  });

  it('reads path globs as grep and find do: braces, classes, a bare name for a folder, the same files', async () => {
    const files = async (glob: string) => {
      const found = ((await rest('find', { project: P, pattern: glob, limit: 1000 })).body.result.files as Json[]).map((f) => f.path).sort();
      const grepped = ((await rest('grep', { project: P, pattern: '.', path: glob, summary: true, limit: 1000 })).body.result.files as Json[]).map((f) => f.path).sort();
      const dead = ((await rest('dead_code', { project: P, path: glob, min_confidence: 0 })).body.result.dead as Json[]).map((d) => d.file);
      return { found, grepped, dead };
    };
    for (const glob of ['src/{core,admin}/*.ts', 'core', 'src/[a]dmin', '**/db.ts']) {
      const { found, grepped, dead } = await files(glob);
      expect(found.length, glob).toBeGreaterThan(0);
      expect(grepped, glob).toEqual(found);
      for (const f of dead) expect(found, `${glob}: ${f}`).toContain(f);
    }
    expect(ids((await dead({ path: 'src/{core,admin}/*.ts' })).body).sort()).toEqual(['src/admin/audit.ts::helperLow#Function', 'src/core/db.ts::orphan#Function']);
    expect(ids((await dead({ path: 'core' })).body)).toEqual(['src/core/db.ts::orphan#Function']);
    for (const tool of ['dead_code', 'grep', 'find']) {
      const arg = tool === 'find' ? { pattern: 'src/{core' } : { path: 'src/{core', ...(tool === 'grep' ? { pattern: '.' } : {}) };
      expect((await rest(tool, { project: P, ...arg })).body.error.code, tool).toBe('invalid_params');
    }
  });

  it('names the kind filter when it excludes everything', async () => {
    const { body } = await dead({ kind: 'Method' });
    expect(body.result.dead).toEqual([]);
    expect(body._meta.empty_reason).toBe('query_too_narrow');
    const relaxed = await runStep(body._meta.next_steps[0]);
    expect(ids(relaxed)).toHaveLength(2);
  });

  it('answers unsupported_language for a language without an extractor and cross_file_unavailable for one without edges', async () => {
    const cobol = await dead({ language: 'cobol' });
    expect(cobol.body._meta.empty_reason).toBe('unsupported_language');
    await runStep(cobol.body._meta.next_steps[0]);
    const yaml = await dead({ language: 'YAML' });
    expect(yaml.body._meta.empty_reason).toBe('cross_file_unavailable');
    await runStep(yaml.body._meta.next_steps[0]);
  });

  it('paginates with limit and offset, and answers cap_dropped_all past the end', async () => {
    const page = await dead({ limit: 1 });
    expect(ids(page.body)).toEqual(['src/admin/audit.ts::helperLow#Function']);
    expect(page.body.result).toMatchObject({ total: 2, has_more: true, next_offset: 1 });
    const next = await runStep(page.body._meta.next_steps.find((s: Json) => s.args.offset === 1));
    expect(ids(next)).toEqual(['src/core/db.ts::orphan#Function']);
    const past = await dead({ offset: 10 });
    expect(past.body._meta.empty_reason).toBe('cap_dropped_all');
    expect(ids(await runStep(past.body._meta.next_steps.find((s: Json) => s.args.offset === 0)))).toHaveLength(2);
  });

  it('answers no_results_in_corpus when everything is called, stepping to a stricter floor', async () => {
    const clean = await indexProject('graph-dead-clean', { 'a.ts': 'export function a(): number {\n  return b();\n}\nfunction b(): number {\n  return 1;\n}\n' });
    await seedEdges(clean, [{ src: 'a.ts::a#Function', dst: 'a.ts::b#Function', line: 2, confidence: 0.95, provenance: 'same_file' }]);
    const { body } = await rest('dead_code', { project: 'graph-dead-clean' });
    expect(body.result.dead).toEqual([]);
    expect(body._meta.empty_reason).toBe('no_results_in_corpus');
    const strict = await runStep(body._meta.next_steps[0]);
    expect(ids(strict)).toEqual(['a.ts::b#Function']);
  });

  it('counts a method called only through self/this in its own file as called (receiver edges in the calling file are 0.95)', async () => {
    await indexProject('graph-dead-self', {
      'pkg/store.py': 'class Store:\n    def put(self, k):\n        return self._check(k)\n\n    def _check(self, k):\n        return k\n',
      'src/box.ts': 'export class Box {\n  open(): number {\n    return this.seal();\n  }\n  private seal(): number {\n    return 1;\n  }\n}\n',
    });
    const { body } = await rest('dead_code', { project: 'graph-dead-self' });
    const listed = ids(body);
    expect(listed).not.toContain('pkg/store.py::Store._check#Method');
    expect(listed).not.toContain('src/box.ts::Box.seal#Method');
    const edges = await DB.prepare("SELECT e.dst_file || '::' || e.dst_key AS dst_id, provenance, confidence FROM edges e JOIN projects p ON p.id = e.project_id WHERE p.name = 'graph-dead-self' AND e.kind = 'CALLS' ORDER BY dst_id").all();
    expect(edges.results).toEqual([
      { dst_id: 'pkg/store.py::Store._check#Method', provenance: 'receiver', confidence: 0.95 },
      { dst_id: 'src/box.ts::Box.seal#Method', provenance: 'receiver', confidence: 0.95 },
    ]);
  });

  it('answers same_file_only when the only candidates are in languages resolved within a file', async () => {
    const c = await indexProject('graph-dead-c', { 'x.c': 'static int alone(void) {\n  return 1;\n}\n' });
    await seedEdges(c, []);
    const { body } = await rest('dead_code', { project: 'graph-dead-c' });
    expect(body._meta.empty_reason).toBe('same_file_only');
    const step = body._meta.next_steps.find((s: Json) => s.args.language === 'c');
    expect(ids(await runStep(step))).toEqual(['x.c::alone#Function']);
  });

  it('refuses to call everything dead before the graph is built (stale_index), and warns graph_pending when it lags', async () => {
    const lag = await indexProject('graph-dead-lag', FILES);
    await DB.batch([DB.prepare('DELETE FROM edges WHERE project_id = ?1').bind(lag.id), DB.prepare('UPDATE projects SET graph_generation = 0 WHERE id = ?1').bind(lag.id)]);
    const unbuilt = await rest('dead_code', { project: 'graph-dead-lag' });
    expect(unbuilt.body.result.dead).toEqual([]);
    expect(unbuilt.body._meta.empty_reason).toBe('stale_index');
    await runStep(unbuilt.body._meta.next_steps[0]);
    await seedEdges(lag, EDGES, { current: false });
    const lagging = await rest('dead_code', { project: 'graph-dead-lag' });
    expect(ids(lagging.body)).toHaveLength(2);
    expect(codes(lagging.body._meta.warnings_v2)).toContain('graph_pending');
  });

  it('answers no_project_indexed for an unknown project', async () => {
    const { body } = await rest('dead_code', { project: 'graph-no-such' });
    expect(body._meta.empty_reason).toBe('no_project_indexed');
  });

  const bad: [string, Json][] = [
    ['min_confidence over 1', { min_confidence: 1.5 }],
    ['a negative min_confidence', { min_confidence: -0.1 }],
    ['a kind that is not callable', { kind: 'Class' }],
    ['limit 0', { limit: 0 }],
    ['limit 201', { limit: 201 }],
    ['offset over 10000', { offset: 10_001 }],
  ];
  for (const [label, args] of bad) {
    it(`rejects ${label} with invalid_params and a suggestion`, async () => {
      const { status, body } = await dead(args);
      expect(status).toBe(400);
      expect(body.error.code).toBe('invalid_params');
      expect(body.error.suggestion).toBeTruthy();
    });
  }
});

describe('dead_code with references from a SCIP index', () => {
  const R = 'graph-dead-refs';
  beforeAll(async () => {
    const project = await indexProject(R, FILES);
    await seedEdges(project, [
      ...EDGES,
      ORPHAN_REFERENCE,
      // A function naming itself (recursion through a value) is still unused from outside.
      { kind: 'REFERENCES', src: 'src/admin/audit.ts::helperLow#Function', dst: 'src/admin/audit.ts::helperLow#Function', line: 8, confidence: 1, provenance: 'scip' },
    ]);
  });

  it('leaves out a symbol another symbol references, and keeps one only referenced by itself', async () => {
    const { body } = await rest('dead_code', { project: R });
    expect(ids(body)).toEqual(['src/admin/audit.ts::helperLow#Function']);
  });
});
