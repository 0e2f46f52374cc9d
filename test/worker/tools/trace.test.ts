import { beforeAll, describe, expect, it } from 'vitest';
import { DB, EDGES, FILES, codes, indexProject, rest, runStep, seedEdges, type Json } from '../graph/support';

const P = 'graph-trace';
let project: { id: string; ids: Set<string> };

beforeAll(async () => {
  project = await indexProject(P, FILES);
  await seedEdges(project, EDGES);
});

const trace = (args: Json) => rest('trace', { project: P, ...args });
const warning = (body: Json, code: string) => (body._meta.warnings_v2 ?? []).find((w: Json) => w.code === code);

describe('trace: topology', () => {
  it('walks callers by depth, each hop with its predecessor, call-site line, risk, confidence and provenance', async () => {
    const { status, body } = await trace({ id: 'src/core/db.ts::run#Function', depth: 3, min_confidence: 0 });
    expect(status).toBe(200);
    expect(body.result.root).toEqual({ id: 'src/core/db.ts::run#Function', name: 'run', kind: 'Function', file: 'src/core/db.ts', line: 5 });
    expect(body.result.hops).toEqual([
      {
        id: 'src/core/db.ts::query#Function', name: 'query', kind: 'Function', file: 'src/core/db.ts', line: 1,
        depth: 1, risk: 'high', via: 'src/core/db.ts::run#Function', direction: 'inbound', edge: 'CALLS', confidence: 0.95, provenance: 'same_file', call_line: 2,
      },
      {
        id: 'src/admin/audit.ts::audit#Function', name: 'audit', kind: 'Function', file: 'src/admin/audit.ts', line: 3,
        depth: 2, risk: 'medium', via: 'src/core/db.ts::query#Function', direction: 'inbound', edge: 'CALLS', confidence: 0.4, provenance: 'ambiguous', call_line: 4,
      },
      {
        id: 'src/api/users.ts::Users.list#Method', name: 'list', kind: 'Method', file: 'src/api/users.ts', line: 4,
        depth: 2, risk: 'medium', via: 'src/core/db.ts::query#Function', direction: 'inbound', edge: 'CALLS', confidence: 1, provenance: 'import', call_line: 5,
      },
      {
        id: 'src/api/users.ts::Users.get#Method', name: 'get', kind: 'Method', file: 'src/api/users.ts', line: 7,
        depth: 3, risk: 'low', via: 'src/api/users.ts::Users.list#Method', direction: 'inbound', edge: 'CALLS', confidence: 0.9, provenance: 'receiver', call_line: 8,
      },
    ]);
    expect(body.result.total).toBe(4);
    expect(body._meta.empty_reason).toBeUndefined();
    expect(body._meta.complexity_tier).toBe('standard');
  });

  it('walks callees outbound, the call line being in the predecessor file', async () => {
    const { body } = await trace({ name: 'handler', direction: 'outbound', depth: 2 });
    expect(body.result.hops.map((h: Json) => [h.id, h.via, h.call_line, h.direction])).toEqual([
      ['src/api/users.ts::Users.get#Method', 'src/api/users.ts::handler#Function', 13, 'outbound'],
      ['src/api/users.ts::Users.list#Method', 'src/api/users.ts::Users.get#Method', 8, 'outbound'],
    ]);
  });

  it('walks both directions, tagging each hop', async () => {
    const { body } = await trace({ id: 'src/core/db.ts::query#Function', direction: 'both', depth: 1, min_confidence: 0 });
    expect(body.result.hops.map((h: Json) => `${h.direction} ${h.id}`)).toEqual([
      'inbound src/admin/audit.ts::audit#Function',
      'inbound src/api/users.ts::Users.list#Method',
      'outbound src/core/db.ts::run#Function',
    ]);
  });

  it('maps direction synonyms with a direction_mapped warning', async () => {
    for (const [given, expected] of [['callers', 'inbound'], ['upstream', 'inbound'], ['callees', 'outbound'], ['DOWN', 'outbound']]) {
      const { status, body } = await trace({ id: 'src/core/db.ts::query#Function', direction: given, depth: 1 });
      expect(status).toBe(200);
      expect(warning(body, 'direction_mapped')?.data).toEqual({ given, direction: expected });
      expect(body.result.hops[0].direction).toBe(expected);
    }
    const plain = await trace({ id: 'src/core/db.ts::query#Function', direction: 'inbound', depth: 1 });
    expect(warning(plain.body, 'direction_mapped')).toBeUndefined();
  });

  it('shows a module-level caller as a hop with a null id', async () => {
    const { body } = await trace({ id: 'src/fan/hub.ts::hub#Function', depth: 1 });
    expect(body.result.hops.find((h: Json) => h.id === null)).toMatchObject({ name: 'boot.ts', kind: 'Module', file: 'src/boot.ts', call_line: 2, depth: 1 });
  });

  it('follows other edge kinds when asked', async () => {
    const { body } = await trace({ id: 'src/core/db.ts::query#Function', kinds: ['IMPORTS'], depth: 1 });
    expect(body.result.hops.map((h: Json) => `${h.edge} ${h.file}`)).toEqual(['IMPORTS src/admin/audit.ts', 'IMPORTS src/api/users.ts']);
  });

  it('states its baseline as grep -rn for the name plus the span of every hop, recomputed from the raw files', async () => {
    const { body } = await trace({ id: 'src/core/db.ts::run#Function', depth: 3 });
    const lines = (p: string) => FILES[p].replace(/\n$/, '').split('\n');
    let grep = 0;
    for (const p of Object.keys(FILES).sort()) lines(p).forEach((l, i) => (grep += /run/.test(l) ? `${p}:${i + 1}:${l}\n`.length : 0));
    // The hops' spans in the fixture: query 1–3, audit 3–5, Users.list 4–6, Users.get 7–9.
    const span = (p: string, a: number, b: number) => lines(p).slice(a - 1, b).reduce((n, l) => n + l.length + 1, 0);
    const spans = span('src/core/db.ts', 1, 3) + span('src/admin/audit.ts', 3, 5) + span('src/api/users.ts', 4, 6) + span('src/api/users.ts', 7, 9);
    expect(body._meta.baseline_method).toBe('grep_then_read');
    expect(body._meta.tokens_saved).toBe(Math.max(0, Math.ceil((grep + spans) / 4) - body._meta.tokens_used));
  });

  it('saves nothing when the walk finds no hop', async () => {
    const { body } = await trace({ id: 'src/core/db.ts::main#Function', depth: 1 });
    expect(body.result.hops).toEqual([]);
    expect([body._meta.tokens_saved, body._meta.tokens_saved_pct]).toEqual([0, 0]);
  });
});

describe('trace: depth, caps and filters', () => {
  it('trims an omitted depth to the smallest one reaching 5 hops and says so, with a step to the default depth', async () => {
    const { body } = await trace({ id: 'src/fan/hub.ts::hub#Function' });
    expect(body.result.hops).toHaveLength(7);
    expect(body.result.hops.every((h: Json) => h.depth === 1)).toBe(true);
    expect(body.result.total).toBe(7);
    expect(warning(body, 'depth_trimmed')).toMatchObject({ severity: 'info', data: { depth: 1, hops_at_default: 8 } });
    const step = body._meta.next_steps.find((s: Json) => s.tool === 'trace');
    expect(step.args).toMatchObject({ id: 'src/fan/hub.ts::hub#Function', depth: 3 });
    const full = await runStep(step);
    expect(full.result.hops).toHaveLength(8);
    expect(warning(full, 'depth_trimmed')).toBeUndefined();
  });

  it('keeps the default depth when no shallower depth reaches 5 hops', async () => {
    const { body } = await trace({ id: 'src/core/db.ts::run#Function', min_confidence: 0 });
    expect(body.result.hops.map((h: Json) => h.depth)).toEqual([1, 2, 2, 3]);
    expect(warning(body, 'depth_trimmed')).toBeUndefined();
  });

  it('hides name-guess callers under the default floor, says how many and gives the step that shows them', async () => {
    const { body } = await trace({ id: 'src/core/db.ts::run#Function', depth: 3 });
    expect(body.result.hops.map((h: Json) => h.id)).not.toContain('src/admin/audit.ts::audit#Function');
    expect(warning(body, 'low_confidence_hidden')).toMatchObject({ severity: 'info', data: { hidden: 1, min_confidence: 0.8 } });
    const step = body._meta.next_steps.find((s: Json) => s.tool === 'trace' && s.args.min_confidence === 0);
    const all = await runStep(step);
    expect(all.result.hops.map((h: Json) => h.id)).toContain('src/admin/audit.ts::audit#Function');
    expect(warning(all, 'low_confidence_hidden')).toBeUndefined();
    const explicit = await trace({ id: 'src/core/db.ts::run#Function', depth: 3, min_confidence: 0.8 });
    expect(warning(explicit.body, 'low_confidence_hidden')).toBeUndefined();
  });

  it('cuts at max_hops, reporting the total with a hops_truncated warning and a step that raises the cap', async () => {
    const { body } = await trace({ id: 'src/fan/hub.ts::hub#Function', depth: 2, max_hops: 3 });
    expect(body.result.hops).toHaveLength(3);
    expect(body.result.total).toBe(8);
    expect(warning(body, 'hops_truncated')?.data).toEqual({ total: 8, max_hops: 3 });
    const next = await runStep(body._meta.next_steps.find((s: Json) => s.tool === 'trace'));
    expect(next.result.hops).toHaveLength(8);
  });

  it('drops test callers by default and keeps them with include_tests', async () => {
    const hidden = await trace({ id: 'src/api/users.ts::handler#Function' });
    expect(hidden.body.result.hops).toEqual([]);
    expect(hidden.body._meta.empty_reason).toBe('query_too_narrow');
    expect(hidden.body._meta.diagnosis_v2[0].data).toMatchObject({ filter: 'include_tests' });
    const step = hidden.body._meta.next_steps[0];
    expect(step.args).toMatchObject({ include_tests: true });
    const shown = await runStep(step);
    expect(shown.result.hops.map((h: Json) => h.id)).toEqual(['test/users.test.ts::checkHandler#Function']);
  });

  it('skips edges under min_confidence, and names min_confidence when it excludes everything', async () => {
    const { body } = await trace({ id: 'src/core/db.ts::query#Function', depth: 1, min_confidence: 0.5 });
    expect(body.result.hops.map((h: Json) => h.id)).toEqual(['src/api/users.ts::Users.list#Method']);
    const none = await trace({ id: 'src/core/db.ts::query#Function', depth: 1, min_confidence: 1, kinds: ['CALLS'], direction: 'outbound' });
    expect(none.body._meta.empty_reason).toBe('query_too_narrow');
    expect(none.body._meta.diagnosis_v2[0].data.filter).toBe('min_confidence');
    const relaxed = await runStep(none.body._meta.next_steps[0]);
    expect(relaxed.result.hops.map((h: Json) => h.id)).toEqual(['src/core/db.ts::run#Function']);
  });

  it('names the kinds filter when only other edge kinds exist', async () => {
    const { body } = await trace({ id: 'src/core/db.ts::query#Function', depth: 1, kinds: ['INHERITS'] });
    expect(body._meta.empty_reason).toBe('query_too_narrow');
    expect(body._meta.diagnosis_v2[0].data.filter).toBe('kinds');
    const relaxed = await runStep(body._meta.next_steps[0]);
    expect(relaxed.result.hops.length).toBeGreaterThan(0);
  });
});

describe('trace: names', () => {
  it('resolves Class.method', async () => {
    const { body } = await trace({ name: 'Users.get', depth: 1 });
    expect(body.result.root.id).toBe('src/api/users.ts::Users.get#Method');
    expect(body.result.hops.map((h: Json) => h.id)).toEqual(['src/api/users.ts::handler#Function']);
  });

  it('takes the first match of an ambiguous name and lists the others in a warning, with a step per alternative', async () => {
    const { body } = await trace({ name: 'list', direction: 'inbound', depth: 1 });
    expect(body.result.root.id).toBe('src/admin/audit.ts::list#Function');
    expect(warning(body, 'ambiguous_symbol')?.data).toEqual({ chosen: 'src/admin/audit.ts::list#Function', candidates: ['src/api/users.ts::Users.list#Method'] });
    const alt = body._meta.next_steps.find((s: Json) => s.args.id === 'src/api/users.ts::Users.list#Method');
    expect(alt).toMatchObject({ tool: 'trace', args: { project: P, direction: 'inbound', depth: 1 } });
    const other = await runStep(alt);
    expect(other.result.hops.map((h: Json) => h.id)).toEqual(['src/api/users.ts::Users.get#Method']);
  });

  it('answers target_not_resolved with a search step for an unknown name or id', async () => {
    for (const args of [{ name: 'nothingLikeThis' }, { id: 'src/core/db.ts::nothingLikeThis#Function' }]) {
      const { status, body } = await trace(args);
      expect(status).toBe(200);
      expect(body.result).toEqual({ root: null, hops: [], total: 0 });
      expect(body._meta.empty_reason).toBe('target_not_resolved');
      const search = body._meta.next_steps.find((s: Json) => s.tool === 'search');
      // No name near it: a broader prefix search, never the same missing name again.
      expect(search.args).toEqual({ project: P, query: 'nothingL*' });
      await runStep(search);
    }
  });

  it('answers no_project_indexed for an unknown project', async () => {
    const { body } = await rest('trace', { project: 'graph-no-such', name: 'x' });
    expect(body._meta.empty_reason).toBe('no_project_indexed');
    expect(body._meta.next_steps).toEqual([{ tool: 'list', args: {}, why: expect.any(String) }]);
  });
});

describe('trace: empty graphs', () => {
  it('answers no_results_in_corpus when nothing calls a symbol of a cross-file language', async () => {
    const { body } = await trace({ id: 'src/core/db.ts::orphan#Function' });
    expect(body.result.hops).toEqual([]);
    expect(body._meta.empty_reason).toBe('no_results_in_corpus');
    await runStep(body._meta.next_steps[0]);
  });

  it('answers same_file_only for a language resolved within a file, pointing at neighborhood', async () => {
    const { body } = await trace({ name: 'other' });
    expect(body.result.root.id).toBe('lib/legacy.rb::other#Function');
    expect(body._meta.empty_reason).toBe('same_file_only');
    const steps = body._meta.next_steps as Json[];
    expect(steps.map((s) => s.tool)).toEqual(['neighborhood', 'grep']);
    for (const s of steps) await runStep(s);
  });

  it('warns graph_coverage on hops of a same-file-only language', async () => {
    const { body } = await trace({ name: 'lonely' });
    expect(body.result.hops.map((h: Json) => h.id)).toEqual(['lib/legacy.rb::other#Function']);
    expect(warning(body, 'graph_coverage')).toMatchObject({ severity: 'info', data: { language: 'ruby', coverage: 'same_file' } });
  });

  it('answers cross_file_unavailable for a symbol of a language without edges', async () => {
    const { body } = await trace({ name: 'server' });
    expect(body.result.root.file).toBe('config/app.yaml');
    expect(body._meta.empty_reason).toBe('cross_file_unavailable');
    await runStep(body._meta.next_steps[0]);
  });

  it('warns graph_pending while edges lag the index, and answers stale_index when the walk is empty then', async () => {
    const lag = await indexProject('graph-trace-lag', FILES);
    await seedEdges(lag, EDGES, { current: false });
    const some = await rest('trace', { project: 'graph-trace-lag', id: 'src/core/db.ts::run#Function' });
    expect(some.body.result.hops.length).toBeGreaterThan(0);
    expect(codes(some.body._meta.warnings_v2)).toContain('graph_pending');
    const none = await rest('trace', { project: 'graph-trace-lag', id: 'src/core/db.ts::orphan#Function' });
    expect(none.body._meta.empty_reason).toBe('stale_index');
    await runStep(none.body._meta.next_steps[0]);
    await DB.prepare('UPDATE projects SET graph_generation = generation WHERE id = ?1').bind(lag.id).run();
    const current = await rest('trace', { project: 'graph-trace-lag', id: 'src/core/db.ts::orphan#Function' });
    expect(current.body._meta.empty_reason).toBe('no_results_in_corpus');
    expect(codes(current.body._meta.warnings_v2)).not.toContain('graph_pending');
  });
});

describe('trace: bad input', () => {
  const bad: [string, Json][] = [
    ['neither id nor name', {}],
    ['both id and name', { id: 'a.ts::f#Function', name: 'f' }],
    ['an unknown direction', { name: 'f', direction: 'sideways' }],
    ['depth 0', { name: 'f', depth: 0 }],
    ['depth 6', { name: 'f', depth: 6 }],
    ['a fractional depth', { name: 'f', depth: 1.5 }],
    ['an unknown edge kind', { name: 'f', kinds: ['CALL'] }],
    ['an empty kinds list', { name: 'f', kinds: [] }],
    ['min_confidence over 1', { name: 'f', min_confidence: 1.5 }],
    ['max_hops 0', { name: 'f', max_hops: 0 }],
    ['max_hops 201', { name: 'f', max_hops: 201 }],
    ['a blank name', { name: '   ' }],
    ['include_tests as a word', { name: 'f', include_tests: 'yes' }],
  ];
  for (const [label, args] of bad) {
    it(`rejects ${label} with invalid_params and a suggestion`, async () => {
      const { status, body } = await trace(args);
      expect(status).toBe(400);
      expect(body.error.code).toBe('invalid_params');
      expect(body.error.suggestion).toBeTruthy();
    });
  }

  it('accepts obvious base-10 strings for numbers', async () => {
    const { status, body } = await trace({ id: 'src/core/db.ts::run#Function', depth: '1', max_hops: '5', min_confidence: '0.5' });
    expect(status).toBe(200);
    expect(body.result.hops).toHaveLength(1);
  });
});

describe('trace on the edges a push resolves', () => {
  it('walks the graph the commit-time resolution pass wrote, without seeded edges', async () => {
    const r = await rest('index', {
      project: 'graph-trace-pushed',
      files: [
        { path: 'src/util.ts', content: 'export function helper(): number {\n  return 1;\n}\n' },
        { path: 'src/app.ts', content: "import { helper } from './util';\n\nexport function main(): number {\n  return helper();\n}\n" },
      ],
    });
    expect(r.status).toBe(200);
    const { body } = await rest('trace', { project: 'graph-trace-pushed', name: 'helper' });
    expect(body.result.hops).toEqual([
      expect.objectContaining({ id: 'src/app.ts::main#Function', depth: 1, via: 'src/util.ts::helper#Function', edge: 'CALLS', provenance: 'import', call_line: 4 }),
    ]);
    expect(codes(body._meta.warnings_v2)).not.toContain('graph_pending');
  });
});
