import { beforeAll, describe, expect, it } from 'vitest';
import { rest, type Json } from '../helpers';
import { indexProject, runStep, seedEdges } from './support';

const PROJECT = 'schema-proj';
const KINDS = ['Function', 'Method', 'Class', 'Interface', 'Enum', 'Type', 'Struct', 'Trait', 'Module', 'Field', 'Variable', 'Constant', 'Section', 'Setting'];

let projectId = '';

beforeAll(async () => {
  projectId = await indexProject(PROJECT, {
    'src/a.ts': 'export class A {\n  go(): void {\n    b();\n  }\n}\nexport function b(): void {}\n',
    'lib/x.rb': 'def x\n  1\nend\n',
    'config/app.yaml': 'port: 1\n',
  });
  await seedEdges(projectId, [
    { kind: 'CALLS', src: 'src/a.ts::A.go#Method', srcFile: 'src/a.ts', dst: 'src/a.ts::b#Function', dstFile: 'src/a.ts', name: 'b', line: 3, provenance: 'same_file', confidence: 0.95 },
    { kind: 'INHERITS', src: 'src/a.ts::A#Class', srcFile: 'src/a.ts', dst: null, dstFile: null, name: 'Base', line: 1, provenance: 'ambiguous', confidence: 0.4 },
  ]);
});

describe('schema', () => {
  it('lists every symbol kind and edge kind with its count in the project', async () => {
    const { status, body } = await rest('schema', { project: PROJECT });
    expect(status).toBe(200);
    const r = body.result;
    expect(r.project).toBe(PROJECT);
    expect(r.symbol_kinds.map((k: Json) => k.kind)).toEqual(KINDS);
    const count = (kind: string) => r.symbol_kinds.find((k: Json) => k.kind === kind).count;
    expect([count('Class'), count('Method'), count('Function'), count('Setting'), count('Trait')]).toEqual([1, 1, 2, 1, 0]);
    expect(r.edge_kinds).toEqual([
      { kind: 'CALLS', count: 1 },
      { kind: 'IMPORTS', count: 0 },
      { kind: 'INHERITS', count: 1 },
      { kind: 'IMPLEMENTS', count: 0 },
      { kind: 'REFERENCES', count: 0 },
    ]);
    expect(r.totals).toEqual({ files: 3, symbols: 5, edges: 2 });
    expect(r.languages).toContainEqual({ language: 'ruby', files: 1, symbols: 1, graph: 'same_file' });
  });

  it('names the node and edge properties a graph query can use, with closed value sets', async () => {
    const r = (await rest('schema', { project: PROJECT })).body.result;
    expect(r.node_properties.map((p: Json) => p.name).sort()).toEqual(
      ['id', 'name', 'qualified_name', 'kind', 'file', 'line', 'end_line', 'signature', 'language', 'is_exported', 'is_test'].sort(),
    );
    expect(r.edge_properties.map((p: Json) => p.name)).toEqual(['kind', 'confidence', 'provenance', 'line']);
    expect(r.node_properties.find((p: Json) => p.name === 'kind').values).toEqual(KINDS);
    expect(r.edge_properties.find((p: Json) => p.name === 'kind').values).toEqual(['CALLS', 'IMPORTS', 'INHERITS', 'IMPLEMENTS', 'REFERENCES']);
    expect(r.edge_properties.find((p: Json) => p.name === 'provenance').values).toEqual(['scip', 'import', 'same_file', 'receiver', 'package', 'unique_name', 'ambiguous', 'module']);
    expect(r.node_properties.find((p: Json) => p.name === 'is_test').type).toBe('boolean');
    expect(r.edge_properties.find((p: Json) => p.name === 'confidence').type).toBe('number');
  });

  it('warns graph_coverage for same-file languages and graph_pending while edges lag the index', async () => {
    const current = await rest('schema', { project: PROJECT });
    expect((current.body._meta.warnings_v2 as Json[]).map((w) => w.code)).toEqual(['graph_coverage']);
    await seedEdges(projectId, [], { pending: true });
    const pending = await rest('schema', { project: PROJECT });
    expect((pending.body._meta.warnings_v2 as Json[]).map((w) => w.code)).toEqual(['graph_coverage', 'graph_pending']);
    expect(pending.body._meta.warnings_v2[1].message).toContain('no edges yet');
    expect(pending.body.result.totals.edges).toBe(0);
  });

  it('gives the properties without counts when no project resolves (no_project_indexed)', async () => {
    const { body } = await rest('schema', { project: 'schema-nowhere' });
    expect(body.result.project).toBeNull();
    expect(body.result.totals).toBeNull();
    expect(body.result.symbol_kinds).toEqual([]);
    expect(body.result.node_properties.length).toBe(11);
    expect(body._meta.empty_reason).toBe('no_project_indexed');
    for (const step of body._meta.next_steps) await runStep(step);
  });

  it('answers extractor_emitted_nothing for a project whose files hold no symbol', async () => {
    await indexProject('schema-nosyms', { 'notes.txt': 'words\n' });
    const { body } = await rest('schema', { project: 'schema-nosyms' });
    expect(body.result.totals).toEqual({ files: 1, symbols: 0, edges: 0 });
    expect(body._meta.empty_reason).toBe('extractor_emitted_nothing');
    for (const step of body._meta.next_steps) await runStep(step);
  });
});
