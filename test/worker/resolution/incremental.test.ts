import { describe, expect, it } from 'vitest';
import { push, rows, scalar, projectRow } from '../upload/support';

interface EdgeRow {
  rowid: number;
  kind: string;
  src_id: string | null;
  src_file: string;
  dst_id: string | null;
  dst_file: string | null;
  line: number;
  confidence: number;
  provenance: string;
}

async function edgesOf(project: string): Promise<EdgeRow[]> {
  return rows<EdgeRow>(
    `SELECT e.rowid, e.kind, e.src_file || '::' || e.src_key AS src_id, e.src_file, e.dst_file || '::' || e.dst_key AS dst_id, e.dst_file, e.line, e.confidence, e.provenance FROM edges e
     JOIN projects p ON p.id = e.project_id WHERE p.name = ?1 ORDER BY e.src_file, e.line, e.kind, dst_id`,
    project,
  );
}

const calls = (edges: EdgeRow[]) => edges.filter((e) => e.kind === 'CALLS').map((e) => `${e.src_id} -> ${e.dst_id}`);

const UTIL = 'export function helper(): number {\n  return 1;\n}\n\nexport function other(): number {\n  return 2;\n}\n';
const APP =
  "import { helper } from './util';\nimport { later } from './later';\n\nexport function main(): number {\n  return helper() + local() + later();\n}\n\nfunction local(): number {\n  return 3;\n}\n";
const BASE = { 'src/util.ts': UTIL, 'src/app.ts': APP, 'src/side.ts': 'export function side(): number {\n  return 4;\n}\n' };

async function pushOk(project: string, files: Record<string, string>) {
  const r = await push(project, files);
  expect(r.commit?.status, JSON.stringify(r.commit?.body).slice(0, 300)).toBe(200);
  return r.commit!.body;
}

describe('commit-time resolution', () => {
  it('resolves imports, imported calls and same-file calls on the first push, and records the graph generation', async () => {
    const body = await pushOk('res-cold', BASE);
    const edges = await edgesOf('res-cold');
    expect(calls(edges)).toEqual(expect.arrayContaining(['src/app.ts::main#Function -> src/util.ts::helper#Function', 'src/app.ts::main#Function -> src/app.ts::local#Function']));
    const imported = edges.find((e) => e.kind === 'CALLS' && e.dst_id === 'src/util.ts::helper#Function')!;
    expect(imported).toMatchObject({ src_file: 'src/app.ts', dst_file: 'src/util.ts', line: 5, confidence: 1, provenance: 'import' });
    const local = edges.find((e) => e.kind === 'CALLS' && e.dst_id === 'src/app.ts::local#Function')!;
    expect(local.provenance).toBe('same_file');
    expect(edges.some((e) => e.kind === 'IMPORTS' && e.src_file === 'src/app.ts' && e.dst_file === 'src/util.ts' && e.dst_id === null)).toBe(true);
    // './later' does not exist yet: no edge, and the reference stays stored for a later push.
    expect(edges.some((e) => e.dst_file === 'src/later.ts')).toBe(false);
    expect(await scalar(`SELECT count(*) AS n FROM refs r JOIN projects p ON p.id = r.project_id WHERE p.name = 'res-cold' AND r.name = 'later'`)).toBeGreaterThan(0);
    const project = (await projectRow('res-cold'))!;
    expect(await scalar(`SELECT graph_generation AS n FROM projects WHERE name = 'res-cold'`)).toBe(project.generation);
    expect(body.summary?.edges ?? body.edges).toBe(edges.length);
  });

  it('drops the edges into a symbol a push removes, re-resolving only the files that referenced it', async () => {
    await pushOk('res-rename', BASE);
    const before = await edgesOf('res-rename');
    const sideEdges = before.filter((e) => e.src_file === 'src/side.ts');
    await pushOk('res-rename', { ...BASE, 'src/util.ts': UTIL.replace('helper', 'helper2') });
    const after = await edgesOf('res-rename');
    expect(calls(after)).not.toContain('src/app.ts::main#Function -> src/util.ts::helper#Function');
    expect(calls(after)).toContain('src/app.ts::main#Function -> src/app.ts::local#Function');
    // side.ts neither changed nor referenced util.ts: its edge rows were not rewritten.
    expect(after.filter((e) => e.src_file === 'src/side.ts')).toEqual(sideEdges);
  });

  it('re-resolves only the changed file when a change stays inside bodies: its importers keep their edge rows', async () => {
    await pushOk('res-body', BASE);
    const before = await edgesOf('res-body');
    const changed = { ...BASE, 'src/util.ts': UTIL.replace('return 1;', 'const x = 10;\n  return x;') };
    await pushOk('res-body', changed);
    const after = await edgesOf('res-body');
    // app.ts imports util.ts and calls helper: util's symbol rows did not change, so app's rows stand as they were.
    expect(after.filter((e) => e.src_file === 'src/app.ts')).toEqual(before.filter((e) => e.src_file === 'src/app.ts'));
    // The same edges a push from scratch resolves.
    await pushOk('res-body-fresh', changed);
    const strip = (es: EdgeRow[]) => es.map(({ rowid: _r, ...e }) => e);
    expect(strip(after)).toEqual(strip(await edgesOf('res-body-fresh')));
  });

  it('re-resolves the importers of a file whose symbol rows change without a name changing', async () => {
    await pushOk('res-export', BASE);
    const before = (await edgesOf('res-export')).filter((e) => e.src_file === 'src/app.ts');
    const changed = { ...BASE, 'src/util.ts': UTIL.replace('export function other', 'function other') };
    await pushOk('res-export', changed);
    const after = (await edgesOf('res-export')).filter((e) => e.src_file === 'src/app.ts');
    // Same edges, written anew (other's export flag is part of what app.ts resolves against).
    const strip = (es: EdgeRow[]) => es.map(({ rowid: _r, ...e }) => e);
    expect(strip(after)).toEqual(strip(before));
    expect(after.map((e) => e.rowid)).not.toEqual(before.map((e) => e.rowid));
  });

  it('resolves an import of an unchanged file once a push adds the file it names', async () => {
    await pushOk('res-add', BASE);
    const untouched = (await edgesOf('res-add')).filter((e) => e.src_file === 'src/side.ts');
    await pushOk('res-add', { ...BASE, 'src/later.ts': 'export function later(): number {\n  return 5;\n}\n' });
    const edges = await edgesOf('res-add');
    expect(calls(edges)).toContain('src/app.ts::main#Function -> src/later.ts::later#Function');
    expect(edges.some((e) => e.kind === 'IMPORTS' && e.src_file === 'src/app.ts' && e.dst_file === 'src/later.ts')).toBe(true);
    expect(edges.filter((e) => e.src_file === 'src/side.ts')).toEqual(untouched);
  });

  it('removes every edge into a file a push deletes', async () => {
    await pushOk('res-delete', BASE);
    const { 'src/util.ts': _gone, ...rest } = BASE;
    await pushOk('res-delete', rest);
    const edges = await edgesOf('res-delete');
    expect(edges.filter((e) => e.dst_file === 'src/util.ts' || e.src_file === 'src/util.ts')).toEqual([]);
    expect(calls(edges)).toContain('src/app.ts::main#Function -> src/app.ts::local#Function');
  });

  it('leaves every edge row in place on a push that changes nothing', async () => {
    await pushOk('res-same', BASE);
    const before = await edgesOf('res-same');
    await pushOk('res-same', BASE);
    expect(await edgesOf('res-same')).toEqual(before);
    expect(await scalar(`SELECT graph_generation AS n FROM projects WHERE name = 'res-same'`)).toBe((await projectRow('res-same'))!.generation);
  });

  it('rebuilds the whole graph when an earlier pass did not finish', async () => {
    await pushOk('res-behind', BASE);
    const before = await edgesOf('res-behind');
    await rows(`UPDATE projects SET graph_generation = 0 WHERE name = 'res-behind'`);
    await rows(`DELETE FROM edges WHERE project_id = (SELECT id FROM projects WHERE name = 'res-behind')`);
    await pushOk('res-behind', BASE);
    const after = await edgesOf('res-behind');
    const strip = (es: EdgeRow[]) => es.map(({ rowid: _r, ...e }) => e);
    expect(strip(after)).toEqual(strip(before));
    expect(after.length).toBeGreaterThan(0);
  });

  it('re-resolves every file when a module-resolution config changes', async () => {
    const aliased = { ...BASE, 'src/app.ts': APP.replace("'./util'", "'@lib/util'") };
    await pushOk('res-config', aliased);
    expect(calls(await edgesOf('res-config'))).not.toContain('src/app.ts::main#Function -> src/util.ts::helper#Function');
    await pushOk('res-config', { ...aliased, 'tsconfig.json': '{\n  // aliases\n  "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["src/*"] } },\n}\n' });
    expect(calls(await edgesOf('res-config'))).toContain('src/app.ts::main#Function -> src/util.ts::helper#Function');
  });

  /** The project's edges as one push of `files` to a new project gives them, without row ids. */
  async function edgesOfOnePush(project: string, files: Record<string, string>): Promise<Omit<EdgeRow, 'rowid'>[]> {
    await pushOk(project, files);
    return (await edgesOf(project)).map(({ rowid: _r, ...e }) => e);
  }

  it('re-resolves an unchanged file that calls a method name a push adds, the last part of a longer callee', async () => {
    // Nothing imports widgets.py: only the lookup by called name finds the callers of the method it adds (a call on a
    // receiver of unknown type guesses among the project's methods of that name). The stored target is the callee less
    // its first characters (-k).
    const before = {
      'pkg/a.py': 'def run(thing):\n    return thing.make_widget()\n',
      'pkg/c.py': 'def build(factory):\n    return factory.parts.make_widget()\n',
      'pkg/widgets.py': 'class Shop:\n    def other(self):\n        return 1\n',
    };
    const after = { ...before, 'pkg/widgets.py': `${before['pkg/widgets.py']}\n    def make_widget(self):\n        return 2\n` };
    await pushOk('res-name-added', before);
    expect((await edgesOf('res-name-added')).filter((e) => e.dst_file === 'pkg/widgets.py')).toEqual([]);
    await pushOk('res-name-added', after);
    const incremental = (await edgesOf('res-name-added')).map(({ rowid: _r, ...e }) => e);
    const full = await edgesOfOnePush('res-name-added-full', after);
    expect(incremental).toEqual(full);
    const into = incremental.filter((e) => e.dst_id === 'pkg/widgets.py::Shop.make_widget#Method').map((e) => e.src_id);
    expect(into).toEqual(expect.arrayContaining(['pkg/a.py::run#Function', 'pkg/c.py::build#Function']));
  });

  it('re-resolves an unchanged file whose import text names a file a push adds, though it calls nothing of it', async () => {
    const before = {
      'src/a.ts': "import './setup-polyfills';\nexport function run(): number {\n  return 1;\n}\n",
      'src/b.ts': 'export function b(): number {\n  return 2;\n}\n',
    };
    const after = { ...before, 'src/setup-polyfills.ts': 'export const installed = true;\n' };
    await pushOk('res-stem-added', before);
    await pushOk('res-stem-added', after);
    const incremental = (await edgesOf('res-stem-added')).map(({ rowid: _r, ...e }) => e);
    expect(incremental).toEqual(await edgesOfOnePush('res-stem-added-full', after));
    expect(incremental.some((e) => e.kind === 'IMPORTS' && e.src_file === 'src/a.ts' && e.dst_file === 'src/setup-polyfills.ts')).toBe(true);
  });
});
