import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { cachedAggregate } from '../../../src/db/aggregates';
import { getProjectByName } from '../../../src/db/projects';
import { rest, type Json } from '../helpers';
import { DB, indexProject, runStep, seedEdges, type EdgeSeed } from './support';

const PROJECT = 'arch-proj';

const ARCH_FILES: Record<string, string> = {
  'src/app.ts': "import { helper } from './lib/util';\nexport function main(): void {\n  helper();\n  run();\n}\nexport function run(): void {\n  helper();\n  run();\n}\n",
  'src/lib/util.ts': 'export function helper(): number {\n  return 1;\n}\nexport function unused(): number {\n  return 2;\n}\n',
  'src/api/index.ts':
    "import { helper } from '../lib/util';\nexport function handler(): number {\n  return helper();\n}\nexport const routes = ['/'];\nfunction internal(): void {}\nexport class Api {\n  main(): void {}\n}\n",
  'test/app.test.ts': 'export function main(): void {}\n',
  'scripts/deploy.rb': 'def main\n  puts 1\nend\n',
  'py/__main__.py': 'def run():\n    pass\n',
  'README.md': '# Arch\n\ntext\n',
};

const MAIN = 'src/app.ts::main#Function';
const RUN = 'src/app.ts::run#Function';
const HELPER = 'src/lib/util.ts::helper#Function';
const HANDLER = 'src/api/index.ts::handler#Function';

const ARCH_EDGES: EdgeSeed[] = [
  { kind: 'CALLS', src: MAIN, srcFile: 'src/app.ts', dst: HELPER, dstFile: 'src/lib/util.ts', name: 'helper', line: 3 },
  { kind: 'CALLS', src: MAIN, srcFile: 'src/app.ts', dst: RUN, dstFile: 'src/app.ts', name: 'run', line: 4, confidence: 0.95, provenance: 'same_file' },
  { kind: 'CALLS', src: RUN, srcFile: 'src/app.ts', dst: HELPER, dstFile: 'src/lib/util.ts', name: 'helper', line: 7 },
  { kind: 'CALLS', src: RUN, srcFile: 'src/app.ts', dst: RUN, dstFile: 'src/app.ts', name: 'run', line: 8, confidence: 0.95, provenance: 'same_file' },
  { kind: 'CALLS', src: HANDLER, srcFile: 'src/api/index.ts', dst: HELPER, dstFile: 'src/lib/util.ts', name: 'helper', line: 3 },
  { kind: 'IMPORTS', src: null, srcFile: 'src/app.ts', dst: null, dstFile: 'src/lib/util.ts', name: './lib/util', line: 1, provenance: 'module' },
  { kind: 'IMPORTS', src: null, srcFile: 'src/api/index.ts', dst: null, dstFile: 'src/lib/util.ts', name: '../lib/util', line: 1, provenance: 'module' },
  { kind: 'IMPORTS', src: null, srcFile: 'src/app.ts', dst: null, dstFile: null, name: 'react', line: 2, confidence: 0.5, provenance: 'ambiguous' },
];

let projectId = '';

beforeAll(async () => {
  projectId = await indexProject(PROJECT, ARCH_FILES);
  await seedEdges(projectId, ARCH_EDGES);
});

const arch = (args: Json = {}) => rest('architecture', { project: PROJECT, ...args });

describe('architecture', () => {
  it('counts files, symbols and edges, per language with each language’s edge reach', async () => {
    const { status, body } = await arch();
    expect(status).toBe(200);
    const r = body.result;
    expect(r.project).toBe(PROJECT);
    expect(r.files).toBe(7);
    expect(r.edges).toBe(ARCH_EDGES.length);
    const symbols = await DB.prepare('SELECT count(*) AS n FROM symbols WHERE project_id = ?1').bind(projectId).first<{ n: number }>();
    expect(r.symbols).toBe(symbols?.n);
    expect(r.languages).toEqual([
      { language: 'typescript', files: 4, symbols: 10, graph: 'cross_file' },
      { language: 'ruby', files: 1, symbols: 1, graph: 'same_file' },
      { language: 'python', files: 1, symbols: 1, graph: 'cross_file' },
      { language: 'markdown', files: 1, symbols: 1, graph: 'none' },
    ]);
    expect(r.symbol_kinds).toEqual([
      { kind: 'Function', count: 9 },
      { kind: 'Class', count: 1 },
      { kind: 'Constant', count: 1 },
      { kind: 'Method', count: 1 },
      { kind: 'Section', count: 1 },
    ]);
  });

  it('counts edges by kind and by provenance', async () => {
    const r = (await arch()).body.result;
    expect(r.edge_kinds).toEqual([
      { kind: 'CALLS', count: 5 },
      { kind: 'IMPORTS', count: 3 },
    ]);
    expect(r.edge_provenance).toEqual([
      { provenance: 'import', count: 3 },
      { provenance: 'module', count: 2 },
      { provenance: 'same_file', count: 2 },
      { provenance: 'ambiguous', count: 1 },
    ]);
  });

  it('lists entry points: main/Main callables first, then exported top-level symbols of index/main/__main__ files, never tests', async () => {
    const r = (await arch()).body.result;
    expect(r.entry_points.map((e: Json) => [e.id, e.rule])).toEqual([
      ['scripts/deploy.rb::main#Function', 'main'],
      ['src/api/index.ts::Api.main#Method', 'main'],
      [MAIN, 'main'],
      ['py/__main__.py::run#Function', 'entry_file_export'],
      [HANDLER, 'entry_file_export'],
      ['src/api/index.ts::routes#Constant', 'entry_file_export'],
      ['src/api/index.ts::Api#Class', 'entry_file_export'],
    ]);
    expect(r.entry_points[2]).toEqual({ id: MAIN, name: 'main', kind: 'Function', file_path: 'src/app.ts', line: 2, rule: 'main' });
    expect(r.entry_points_total).toBe(7);
    // Not exported (internal), not top level of an entry file (run in src/app.ts), or test code (test/app.test.ts).
    const ids = r.entry_points.map((e: Json) => e.id);
    expect(ids).not.toContain('src/api/index.ts::internal#Function');
    expect(ids).not.toContain(RUN);
    expect(ids.some((id: string) => id.startsWith('test/'))).toBe(false);
  });

  it('ranks hotspots by inbound CALLS, leaving recursion out', async () => {
    const r = (await arch()).body.result;
    expect(r.hotspots).toEqual([
      { id: HELPER, name: 'helper', kind: 'Function', file_path: 'src/lib/util.ts', line: 1, inbound_calls: 3, caller_files: 2 },
      { id: RUN, name: 'run', kind: 'Function', file_path: 'src/app.ts', line: 6, inbound_calls: 1, caller_files: 1 },
    ]);
  });

  it('groups files into modules (first segment, second under src/, (root)) and counts cross-module edges', async () => {
    const r = (await arch()).body.result;
    expect(r.modules).toEqual([
      { module: 'src/api', files: 1, symbols: 5 },
      { module: 'src', files: 1, symbols: 2 },
      { module: 'src/lib', files: 1, symbols: 2 },
      { module: '(root)', files: 1, symbols: 1 },
      { module: 'py', files: 1, symbols: 1 },
      { module: 'scripts', files: 1, symbols: 1 },
      { module: 'test', files: 1, symbols: 1 },
    ]);
    // src → src (main → run) is inside one module; the import of 'react' has no target file.
    expect(r.dependencies).toEqual([
      { from: 'src', to: 'src/lib', edges: 3 },
      { from: 'src/api', to: 'src/lib', edges: 2 },
    ]);
    expect(r.dependencies_total).toBe(2);
  });

  it('caps entry points, hotspots and dependencies at limit, with totals counting past it', async () => {
    const r = (await arch({ limit: '1' })).body.result;
    expect(r.entry_points).toHaveLength(1);
    expect(r.entry_points_total).toBe(7);
    expect(r.hotspots.map((h: Json) => h.id)).toEqual([HELPER]);
    expect(r.dependencies).toEqual([{ from: 'src', to: 'src/lib', edges: 3 }]);
    expect(r.dependencies_total).toBe(2);
    for (const limit of [0, 101]) {
      const bad = await arch({ limit });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_params');
    }
  });

  it('warns graph_coverage for code languages whose edges stay inside one file', async () => {
    const { body } = await arch();
    const w = (body._meta.warnings_v2 as Json[]).find((x) => x.code === 'graph_coverage');
    expect(w?.data).toEqual({ same_file: ['ruby'], none: [] });
    expect(w?.message).toContain('ruby');
    expect(body._meta).not.toHaveProperty('empty_reason');
  });

  it('warns graph_pending while the edges reflect an earlier push than the index', async () => {
    await seedEdges(projectId, ARCH_EDGES, { pending: true });
    try {
      const { body } = await arch();
      expect(body.result.graph_pending).toBe(true);
      const w = (body._meta.warnings_v2 as Json[]).find((x) => x.code === 'graph_pending');
      expect(w?.data.graph_generation).toBe(w?.data.generation - 1);
    } finally {
      await seedEdges(projectId, ARCH_EDGES);
    }
    const after = await arch();
    expect(after.body.result.graph_pending).toBe(false);
    expect((after.body._meta.warnings_v2 as Json[]).map((w) => w.code)).not.toContain('graph_pending');
  });

  it('reads every number from the index as it stands after the last edges were written', async () => {
    await seedEdges(projectId, ARCH_EDGES.slice(0, 1));
    try {
      const r = (await arch()).body.result;
      expect(r.edges).toBe(1);
      expect(r.hotspots).toEqual([expect.objectContaining({ id: HELPER, inbound_calls: 1 })]);
    } finally {
      await seedEdges(projectId, ARCH_EDGES);
    }
  });

  it('keeps its aggregates once per (generation, graph_generation): later calls read them, a push recomputes them', async () => {
    const first = (await arch()).body.result;
    const row = await DB.prepare("SELECT generation, graph_generation, body FROM project_aggregates WHERE project_id = ?1 AND name = 'architecture'")
      .bind(projectId)
      .first<{ generation: number; graph_generation: number; body: string }>();
    const project = await DB.prepare('SELECT generation, graph_generation FROM projects WHERE id = ?1').bind(projectId).first<{ generation: number; graph_generation: number }>();
    expect(row).toMatchObject({ generation: project?.generation, graph_generation: project?.graph_generation });
    // The stored row answers: a marked copy of it comes back.
    const marked = JSON.parse(row?.body ?? '{}');
    marked.modules = [{ module: 'marked', files: 1, symbols: 1 }];
    await DB.prepare("UPDATE project_aggregates SET body = ?2 WHERE project_id = ?1 AND name = 'architecture'").bind(projectId, JSON.stringify(marked)).run();
    expect((await arch()).body.result.modules).toEqual([{ module: 'marked', files: 1, symbols: 1 }]);
    // A commit moves the generations: the next call computes again from the index.
    await DB.prepare('UPDATE projects SET generation = generation + 1, graph_generation = graph_generation + 1 WHERE id = ?1').bind(projectId).run();
    expect((await arch()).body.result.modules).toEqual(first.modules);
  });

  it('stores no aggregates computed for generations the project no longer holds', async () => {
    const project = await getProjectByName(env.DB, PROJECT);
    if (!project) throw new Error('project missing');
    await DB.prepare('DELETE FROM project_aggregates WHERE project_id = ?1').bind(projectId).run();
    const stale = { ...project, generation: project.generation - 1 };
    const read = await cachedAggregate(env.DB, stale, 'probe', async () => ({ n: 1 }));
    expect(read).toMatchObject({ value: { n: 1 }, cached: false });
    const rows = await DB.prepare('SELECT count(*) AS n FROM project_aggregates WHERE project_id = ?1').bind(projectId).first<{ n: number }>();
    expect(rows?.n).toBe(0);
    const fresh = await cachedAggregate(env.DB, project, 'probe', async () => ({ n: 2 }));
    expect(fresh.cached).toBe(false);
    expect((await cachedAggregate(env.DB, project, 'probe', async () => ({ n: 3 }))).value).toEqual({ n: 2 });
  });
});

describe('architecture on nothing to describe', () => {
  it('answers no_project_indexed for an unknown project and for none given, with a list step', async () => {
    for (const args of [{ project: 'arch-nowhere' }, {}]) {
      const { status, body } = await rest('architecture', args);
      expect(status).toBe(200);
      expect(body.result.project).toBeNull();
      expect(body.result.modules).toEqual([]);
      expect(body._meta.empty_reason).toBe('no_project_indexed');
      for (const step of body._meta.next_steps) await runStep(step);
    }
  });

  it('answers no_project_indexed for a project that holds no files', async () => {
    await DB.prepare(
      "INSERT INTO projects (id, name, created_at, indexed_at, generation, graph_generation) VALUES ('arch-empty-id', 'arch-empty', 1, 2, 1, 1)",
    ).run();
    const { body } = await rest('architecture', { project: 'arch-empty' });
    expect(body.result.files).toBe(0);
    expect(body._meta.empty_reason).toBe('no_project_indexed');
    expect(body._meta.diagnosis).toContain('holds no files');
    for (const step of body._meta.next_steps) await runStep(step);
  });

  it('answers extractor_emitted_nothing for files without one symbol, steering to health', async () => {
    await indexProject('arch-nosyms', { 'notes.txt': 'plain words\n', 'src/empty.ts': '// nothing declared\n' });
    const { body } = await rest('architecture', { project: 'arch-nosyms' });
    expect(body.result.files).toBe(2);
    expect(body.result.symbols).toBe(0);
    expect(body._meta.empty_reason).toBe('extractor_emitted_nothing');
    expect(body._meta.next_steps).toEqual([expect.objectContaining({ tool: 'health', args: { project: 'arch-nosyms' } })]);
    for (const step of body._meta.next_steps) await runStep(step);
  });
});
