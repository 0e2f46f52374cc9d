import { describe, expect, it } from 'vitest';
import { EXTRACTOR_VERSION } from '../../../src/extract';
import { indexTool, INLINE_MAX_BYTES } from '../../../src/tools/index-tool';
import { runTool } from '../../../src/tools/run';
import { REGISTRY } from '../../../src/tools/registry';
import { UPLOAD_TTL_MS } from '../../../src/upload/service';
import {
  env,
  fileRows,
  type Json,
  mcpCall,
  open,
  projectRow,
  push,
  pySource,
  request,
  rows,
  symbolIds,
  symbolRowids,
  tableCounts,
  tool,
  tsSource,
  uploadRow,
} from '../upload/support';

type Step = { tool: string; args: Json; why: string };

/** Runs a next_step exactly as the server wrote it, over REST, and returns the answer. */
async function execute(step: Step) {
  const r = await tool(step.tool, step.args);
  expect(r.status, `${step.tool} ${JSON.stringify(step.args)}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
  expect(r.body.error).toBeUndefined();
  expect(r.body._meta.warnings_v2 ?? []).toEqual([]);
  return r;
}

function index(args: Json) {
  return tool('index', args);
}

describe('index with inline files', () => {
  it('creates a project and makes its symbols visible', async () => {
    const r = await index({ project: 'idx-create', files: [{ path: 'src/calc.ts', content: tsSource('idx create') }, { path: 'lib/greet.py', content: pySource('idx create') }], ref: 'main' });
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({
      project: 'idx-create',
      ref: 'main',
      done: true,
      files: { new: 2, changed: 0, unchanged: 0, deleted: 0, skipped: 0, failed: 0, blocked: 0 },
    });
    expect(r.body._meta.empty_reason).toBeUndefined();
    const ids = await symbolIds('idx-create');
    expect(ids).toEqual(expect.arrayContaining(['src/calc.ts::Calc.plus#Method', 'lib/greet.py::greet#Function']));
    expect(r.body.result.symbols).toBe(ids.length);
    expect(r.body.result.symbols_added).toBe(ids.length);
    expect(await projectRow('idx-create')).toMatchObject({ generation: 1, file_count: 2, ref: 'main' });
    // The inline upload is closed: the project is free for the next push.
    expect(await rows("SELECT u.status FROM uploads u JOIN projects p ON p.id = u.project_id WHERE p.name = 'idx-create'")).toEqual([{ status: 'committed' }]);
  });

  it('merges by default: files not listed are kept', async () => {
    await index({ project: 'idx-merge', files: [{ path: 'a.py', content: pySource('idx merge a', 'alpha') }] });
    const r = await index({ project: 'idx-merge', files: [{ path: 'b.py', content: pySource('idx merge b', 'beta') }] });
    expect(r.body.result.files).toMatchObject({ new: 1, deleted: 0 });
    expect(await symbolIds('idx-merge')).toEqual(['a.py::alpha#Function', 'b.py::beta#Function']);
  });

  it('replace: true deletes the files it does not list', async () => {
    await index({ project: 'idx-replace', files: [{ path: 'a.py', content: pySource('idx replace a', 'alpha') }, { path: 'b.py', content: pySource('idx replace b', 'beta') }] });
    const r = await index({ project: 'idx-replace', replace: true, files: [{ path: 'c.py', content: pySource('idx replace c', 'gamma') }] });
    expect(r.body.result.files).toMatchObject({ new: 1, deleted: 2 });
    expect(await symbolIds('idx-replace')).toEqual(['c.py::gamma#Function']);
    expect((await fileRows('idx-replace')).map((f) => f.path)).toEqual(['c.py']);
  });

  it('works over MCP tools/call the same way', async () => {
    const m = await mcpCall('index', { project: 'idx-mcp', files: [{ path: 'm.py', content: pySource('idx mcp', 'viaMcp') }] });
    expect(m.status).toBe(200);
    expect(m.body.result.isError).toBeUndefined();
    expect(m.body.result.structuredContent).toMatchObject({ project: 'idx-mcp', done: true, files: { new: 1 } });
    expect(await symbolIds('idx-mcp')).toEqual(['m.py::viaMcp#Function']);

    const again = await mcpCall('index', { project: 'idx-mcp', files: [{ path: 'm.py', content: pySource('idx mcp', 'viaMcp') }] });
    expect(again.body.result._meta.empty_reason).toBe('incremental_no_change');
  });

  it('skips blocked files but indexes the rest, counting them by family', async () => {
    const r = await index({
      project: 'idx-some-blocked',
      files: [
        { path: 'src/ok.py', content: pySource('idx some blocked', 'kept') },
        { path: 'node_modules/lib/index.js', content: 'export function vendored() {}\n' },
      ],
    });
    expect(r.body.result.files).toMatchObject({ new: 1, blocked: 1 });
    expect(r.body.result.blocked_by_family).toEqual({ folder: 1 });
    expect(r.body._meta.empty_reason).toBeUndefined();
    expect((await fileRows('idx-some-blocked')).map((f) => f.path)).toEqual(['src/ok.py']);
  });
});

describe('index: every empty reason it emits', () => {
  it('all_files_blocked: only lockfiles, minified bundles, vendored folders and generated code', async () => {
    const before = await tableCounts();
    const r = await index({
      project: 'idx-blocked',
      files: [
        { path: 'package-lock.json', content: '{"lockfileVersion": 3}\n' },
        { path: 'web/app.min.js', content: 'function a(){return 1}' },
        { path: 'node_modules/left-pad/index.js', content: 'module.exports = function leftPad() {};\n' },
        { path: 'src/models_pb2.py', content: 'class Model:\n    pass\n' },
        { path: 'src/schema.py', content: '# @generated by tool\nclass Schema:\n    pass\n' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body._meta.empty_reason).toBe('all_files_blocked');
    expect(r.body._meta.diagnosis).toMatch(/all 5 file\(s\) were blocked/);
    expect(r.body._meta.diagnosis).toMatch(/lockfile: 1/);
    expect(r.body.result.files).toMatchObject({ new: 0, blocked: 5 });
    expect(r.body.result.blocked_by_family).toEqual({ lockfile: 1, minified: 1, folder: 1, generated: 2 });
    expect(r.body._meta.next_steps).toBeUndefined();
    // Nothing to index means nothing written: no project, no upload.
    expect(await projectRow('idx-blocked')).toBeNull();
    const after = await tableCounts();
    expect(after).toEqual(before);
  });

  it('incremental_no_change: the same files twice', async () => {
    const files = [{ path: 'a.py', content: pySource('idx same', 'same') }];
    const first = await index({ project: 'idx-same', files });
    expect(first.body._meta.empty_reason).toBeUndefined();
    const rowids = await symbolRowids('idx-same');
    const second = await index({ project: 'idx-same', files });
    expect(second.status).toBe(200);
    expect(second.body._meta.empty_reason).toBe('incremental_no_change');
    expect(second.body._meta.diagnosis).toMatch(/1 file\(s\) was unchanged|every one of the 1 file/);
    expect(second.body.result.files).toMatchObject({ new: 0, changed: 0, unchanged: 1 });
    expect(second.body.result.symbols_added).toBe(0);
    expect(await symbolRowids('idx-same')).toEqual(rowids);
  });

  it('unsupported_language: only files without an extractor; the health step shows the project', async () => {
    const r = await index({
      project: 'idx-unsupported',
      files: [
        { path: 'notes.txt', content: 'idx unsupported notes\n' },
        { path: 'data.csv', content: 'a,b\n1,2\n' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body._meta.empty_reason).toBe('unsupported_language');
    expect(r.body._meta.diagnosis).toMatch(/none of the 2 new or changed file\(s\)/);
    expect(r.body.result.files).toMatchObject({ new: 2, skipped: 2 });
    expect(r.body.result.skipped_by_reason).toEqual({ unsupported_language: 2 });
    expect((await fileRows('idx-unsupported')).map((f) => [f.path, f.status, f.reason])).toEqual([
      ['data.csv', 'skipped', 'unsupported_language'],
      ['notes.txt', 'skipped', 'unsupported_language'],
    ]);

    const steps = r.body._meta.next_steps as Step[];
    expect(steps).toEqual([{ tool: 'health', args: { project: 'idx-unsupported' }, why: expect.any(String) }]);
    const h = await execute(steps[0]);
    expect(h.body.result.projects).toEqual([expect.objectContaining({ name: 'idx-unsupported', files: 2, symbols: 0 })]);
  });

  it('extractor_emitted_nothing: a comments-only Python file and a JSON file holding []; the health step runs', async () => {
    const r = await index({
      project: 'idx-nothing',
      files: [
        { path: 'src/notes.py', content: '# idx nothing\n# only comments here\n' },
        { path: 'config/empty.json', content: '[]\n' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body._meta.empty_reason).toBe('extractor_emitted_nothing');
    expect(r.body._meta.diagnosis).toMatch(/2 file\(s\) were processed but the extractor found no symbols \(0 failed to parse\)/);
    expect(r.body.result.files).toMatchObject({ new: 2, skipped: 0, failed: 0 });
    expect(r.body.result.symbols).toBe(0);
    expect((await fileRows('idx-nothing')).map((f) => [f.path, f.status, f.symbol_count])).toEqual([
      ['config/empty.json', 'indexed', 0],
      ['src/notes.py', 'indexed', 0],
    ]);

    const steps = r.body._meta.next_steps as Step[];
    expect(steps).toEqual([{ tool: 'health', args: { project: 'idx-nothing' }, why: expect.any(String) }]);
    const h = await execute(steps[0]);
    expect(h.body.result.projects).toEqual([expect.objectContaining({ name: 'idx-nothing', files: 2, symbols: 0 })]);
  });

  it('no_project_indexed: force on an unknown project; the list step runs', async () => {
    const before = await tableCounts();
    const r = await index({ project: 'idx-ghost', force: true });
    expect(r.status).toBe(200);
    expect(r.body._meta.empty_reason).toBe('no_project_indexed');
    expect(r.body._meta.diagnosis).toMatch(/'idx-ghost' has no stored index/);
    expect(r.body.result).toMatchObject({ project: 'idx-ghost', done: true, symbols: 0 });
    expect(await tableCounts()).toEqual(before);

    const steps = r.body._meta.next_steps as Step[];
    expect(steps).toEqual([{ tool: 'list', args: {}, why: expect.any(String) }]);
    const l = await execute(steps[0]);
    expect(JSON.stringify(l.body.result)).not.toContain('idx-ghost');
  });

  it('no_project_indexed: force on a project that exists but was never committed', async () => {
    // An abandoned first push leaves a project row with no index.
    const o = await open('idx-never', { 'a.py': pySource('idx never') });
    expect(o.status).toBe(201);
    expect((await request('DELETE', `/v1/projects/idx-never/uploads/${o.body.upload_id}`)).status).toBe(200);
    expect(await projectRow('idx-never')).toMatchObject({ indexed_at: null, generation: 0 });

    const r = await index({ project: 'idx-never', force: true });
    expect(r.status).toBe(200);
    expect(r.body._meta.empty_reason).toBe('no_project_indexed');
    expect((r.body._meta.next_steps as Step[]).map((s) => s.tool)).toEqual(['list']);
    expect(await rows("SELECT u.status FROM uploads u JOIN projects p ON p.id = u.project_id WHERE p.name = 'idx-never'")).toEqual([{ status: 'aborted' }]);
  });
});

describe('index refuses bad arguments with typed errors and writes nothing', () => {
  async function refused(args: unknown) {
    const before = await tableCounts();
    const r = await tool('index', args);
    expect(await tableCounts()).toEqual(before);
    return r;
  }

  it('files and force together → invalid_params', async () => {
    const r = await refused({ project: 'idx-bad', force: true, files: [{ path: 'a.py', content: 'x = 1\n' }] });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_params');
    expect(r.body.error.message).toMatch(/files and force/);
  });

  it('neither files nor force → invalid_params', async () => {
    const r = await refused({ project: 'idx-bad' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_params');
    expect(r.body.error.message).toMatch(/needs files or force/);
  });

  it('more than 200 files → invalid_params naming files', async () => {
    const files = Array.from({ length: 201 }, (_, i) => ({ path: `f${i}.py`, content: `x${i} = ${i}\n` }));
    const r = await refused({ project: 'idx-bad', files });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_params');
    expect(r.body.error.message).toMatch(/files/);
  });

  it('a request body over 1 MiB → 413 body_too_large', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const files = [0, 1, 2].map((i) => ({ path: `big${i}.py`, content: big }));
    const r = await refused({ project: 'idx-bad', files });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('body_too_large');
  });

  it("the tool's own 768 KiB content cap answers body_too_large, whatever the transport lets through", async () => {
    const content = 'y'.repeat(INLINE_MAX_BYTES / 2 + 1);
    const before = await tableCounts();
    const outcome = await runTool(
      indexTool,
      { project: 'idx-bad', files: [{ path: 'a.py', content }, { path: 'b.py', content }] },
      { env, requestId: 'test', startedAt: Date.now(), scope: 'write', surface: 'rest', waitUntil: () => {}, registry: REGISTRY },
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('body_too_large');
      expect(outcome.error.status).toBe(413);
    }
    expect(await tableCounts()).toEqual(before);
  });

  it('an unsafe path → invalid_manifest naming it, and the inline upload does not hold the project', async () => {
    const r = await refused({ project: 'idx-bad-path', files: [{ path: '../etc/passwd', content: 'x' }] });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('invalid_manifest');
    expect(r.body.error.details.path).toBe('../etc/passwd');
    const ok = await index({ project: 'idx-bad-path', files: [{ path: 'a.py', content: pySource('idx bad path') }] });
    expect(ok.status).toBe(200);
  });
});

describe('index force: server-side re-extraction', () => {
  it('re-extracts a project from stored content and commits: same symbols, generation + 1', async () => {
    const files = { 'src/calc.ts': tsSource('idx force'), 'lib/greet.py': pySource('idx force'), 'README.md': '# Force\n\n## Part\n' };
    await push('idx-force', files);
    const ids = await symbolIds('idx-force');
    const before = (await projectRow('idx-force'))!;

    const r = await index({ project: 'idx-force', force: true });
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ project: 'idx-force', done: true, files: { changed: 3, new: 0, deleted: 0 } });
    expect(r.body.result.upload_id).toBeUndefined();
    expect(await symbolIds('idx-force')).toEqual(ids);
    const after = (await projectRow('idx-force'))!;
    expect(after.generation).toBe(before.generation + 1);
    expect(after).toMatchObject({ file_count: 3, symbol_count: ids.length, extractor_version: EXTRACTOR_VERSION });
    expect(await rows("SELECT u.status FROM uploads u JOIN projects p ON p.id = u.project_id WHERE p.name = 'idx-force' AND u.status = 'open'")).toEqual([]);
  });

  it('reads references stored in the layout before migration 0024 as before: a re-resolved graph is the same; a changed file is stored as runs', async () => {
    const files = { 'src/calc.ts': tsSource('idx layout'), 'lib/greet.py': pySource('idx layout') };
    await push('idx-layout', files);
    const p = (await projectRow('idx-layout'))!;
    const refsOf = () => rows('SELECT file_path, kind, name, target, imported_names, enclosing, line FROM refs WHERE project_id = ?1 ORDER BY file_path, line, name', p.id);
    const edgesOf = () => rows('SELECT src_file, src_key, dst_file, dst_key, name, line, kind, provenance, confidence FROM edges WHERE project_id = ?1 ORDER BY src_file, line, name, dst_key', p.id);
    const layouts = () =>
      rows<{ path: string; old: number }>("SELECT f.path, json_type(e.refs_json, '$[0][0]') = 'integer' AS old FROM files f JOIN extractions e ON e.hash = f.hash WHERE f.project_id = ?1 AND e.refs_json <> '[]' ORDER BY f.path", p.id);
    const refs = await refsOf();
    const edges = await edgesOf();
    expect(refs.length).toBeGreaterThan(0);
    expect(edges.length).toBeGreaterThan(0);
    // As if extracted before migration 0024: one item per reference, its enclosing key on each.
    const stored = await rows<{ hash: string; refs_json: string }>('SELECT DISTINCT e.hash, e.refs_json FROM extractions e JOIN files f ON f.hash = e.hash WHERE f.project_id = ?1', p.id);
    for (const { hash, refs_json } of stored) {
      const old = (JSON.parse(refs_json) as unknown[][]).flatMap(([enclosing, ...items]) =>
        (items as unknown[][]).map(([kind, line, name, target, imported]) => {
          const full = typeof target === 'number' && target < 0 ? (name as string).slice(-target) : target;
          const item = [kind, line, name, full ?? null, enclosing, imported ?? null];
          while (item.length > 3 && item[item.length - 1] === null) item.pop();
          return item;
        }),
      );
      await env.DB.prepare('UPDATE extractions SET refs_json = ?2 WHERE hash = ?1').bind(hash, JSON.stringify(old)).run();
    }
    expect(await layouts()).toEqual([{ path: 'src/calc.ts', old: 1 }]);
    expect(await refsOf()).toEqual(refs);

    // index force commits again and resolves the graph from the stored references, in the old layout.
    const r = await index({ project: 'idx-layout', force: true });
    expect(r.body.result).toMatchObject({ done: true });
    expect(await refsOf()).toEqual(refs);
    expect(await edgesOf()).toEqual(edges);

    // A changed file's new extraction is stored as runs.
    await push('idx-layout', { ...files, 'src/calc.ts': tsSource('idx layout 2') });
    expect(await layouts()).toEqual([{ path: 'src/calc.ts', old: 0 }]);
  });

  it('a project over 150 files needs several calls: each answer until the last carries done=false, upload_id, remaining and the next call', async () => {
    const N = 310;
    const files: Record<string, string> = {};
    for (let i = 0; i < N; i++) files[`pkg/m${String(i).padStart(3, '0')}.py`] = `# idx chunks ${i}\ndef fn${i}(x):\n    return x + ${i}\n`;
    const pushed = await push('idx-chunks', files);
    expect(pushed.commit?.status).toBe(200);
    const ids = await symbolIds('idx-chunks');
    expect(ids).toHaveLength(N);
    const gen = (await projectRow('idx-chunks'))!.generation;

    // As if the project had been indexed by an older extractor.
    const p = (await projectRow('idx-chunks'))!;
    await env.DB.batch([
      env.DB.prepare('UPDATE extractions SET extractor_version = 0 WHERE hash IN (SELECT hash FROM files WHERE project_id = ?1)').bind(p.id),
      env.DB.prepare('UPDATE files SET extractor_version = 0 WHERE project_id = ?1').bind(p.id),
    ]);
    const rowids = await symbolRowids('idx-chunks');

    const first = await index({ project: 'idx-chunks', force: true });
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ done: false, remaining: N - 150, upload_id: expect.any(String) });
    const uploadId = first.body.result.upload_id as string;
    let steps = first.body._meta.next_steps as Step[];
    expect(steps).toEqual([{ tool: 'index', args: { project: 'idx-chunks', force: true, upload_id: uploadId }, why: expect.stringContaining(`${N - 150}`) }]);
    // Readers still see the previous index while the run is unfinished.
    expect(await symbolRowids('idx-chunks')).toEqual(rowids);
    expect((await projectRow('idx-chunks'))!.generation).toBe(gen);

    // Each chunk is activity: an upload close to its idle expiry is given a fresh 15 minutes.
    await env.DB.prepare('UPDATE uploads SET expires_at = ?2 WHERE id = ?1').bind(uploadId, Date.now() + 5_000).run();
    const t0 = Date.now();
    const second = await execute(steps[0]);
    expect(second.body.result).toMatchObject({ done: false, remaining: N - 300, upload_id: uploadId });
    expect((await uploadRow(uploadId))!.expires_at).toBeGreaterThanOrEqual(t0 + UPLOAD_TTL_MS);
    steps = second.body._meta.next_steps as Step[];
    expect(steps[0].args).toEqual({ project: 'idx-chunks', force: true, upload_id: uploadId });

    const last = await execute(steps[0]);
    expect(last.body.result).toMatchObject({ done: true, files: { changed: N, new: 0, deleted: 0 } });
    expect(last.body.result.upload_id).toBeUndefined();
    expect(last.body._meta.next_steps).toBeUndefined();

    expect(await symbolIds('idx-chunks')).toEqual(ids);
    expect((await projectRow('idx-chunks'))!.generation).toBe(gen + 1);
    expect(await rows('SELECT DISTINCT extractor_version FROM files WHERE project_id = ?1', p.id)).toEqual([{ extractor_version: EXTRACTOR_VERSION }]);
    expect(await rows('SELECT count(*) AS n FROM extractions WHERE extractor_version = ?2 AND hash IN (SELECT hash FROM files WHERE project_id = ?1)', p.id, EXTRACTOR_VERSION)).toEqual([{ n: N }]);
    expect((await uploadRow(uploadId))!.status).toBe('committed');
  }, 60_000);
});
