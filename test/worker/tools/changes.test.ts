import { beforeAll, describe, expect, it } from 'vitest';
import { rest, type Json } from '../helpers';
import { edgeRow, writeSeedEdges } from '../seed-edges';
import { push } from '../upload/support';
import { codes, DB, FILES, ID, projectId, runStep, seedProject } from './composite-fixture';

const P = 'comp-changes';
const call = (args: Json) => rest('changes', { project: P, ...args });
const diffOf = (path: string, hunks: string[]) => [`diff --git a/${path} b/${path}`, 'index 1111111..2222222 100644', `--- a/${path}`, `+++ b/${path}`, ...hunks, ''].join('\n');
const ids = (list: Json[]) => list.map((x) => x.id);

beforeAll(async () => {
  await seedProject(P);
});

describe('changes: changed symbols', () => {
  it('maps a -U0 replacement onto the old side and lists the method before its class (innermost first)', async () => {
    const { status, body } = await call({ diff: diffOf('src/app.ts', ['@@ -5 +5 @@ export class Server {', '-    listen(port);', '+    listen(port + 1);']) });
    expect(status).toBe(200);
    expect(body.result.files).toEqual([{ path: 'src/app.ts', status: 'modified', indexed: true, side: 'old', changed_lines: 2 }]);
    expect(body.result.changed.map((c: Json) => [c.id, c.innermost])).toEqual([[ID.start, true], [ID.server, false]]);
    expect(body.result.changed_total).toBe(2);
  });

  it('marks the method around an insertion point changed, and not the method the insertion follows', async () => {
    const inside = await call({ diff: diffOf('src/app.ts', ['@@ -4,0 +5 @@', '+    log();']) });
    expect(ids(inside.body.result.changed)).toEqual([ID.start, ID.server]);
    const after = await call({ diff: diffOf('src/app.ts', ['@@ -6,0 +7 @@', '+  // between start and stop']) });
    expect(ids(after.body.result.changed)).toEqual([ID.server]);
  });

  it('uses new-side line numbers when the index already holds the change', async () => {
    // The stored line 5 is the '+' line: the diff was pushed already.
    const { body } = await call({ diff: diffOf('src/app.ts', ['@@ -5 +5 @@', '-    listen(port - 1);', '+    listen(port);']) });
    expect(body.result.files[0].side).toBe('new');
    expect(ids(body.result.changed)).toEqual([ID.start, ID.server]);
    expect(codes(body._meta.warnings_v2)).not.toContain('diff_content_mismatch');
  });

  it('warns diff_content_mismatch when the stored content matches neither side', async () => {
    const { body } = await call({ diff: diffOf('src/app.ts', ['@@ -5 +5 @@', '-    connect(port);', '+    connect(port + 1);']) });
    expect(codes(body._meta.warnings_v2)).toContain('diff_content_mismatch');
    expect(body.result.files[0].side).toBe('old');
  });

  it('reads a -U3 diff with context lines and changes only what the +/- lines touch', async () => {
    const { body } = await call({
      diff: diffOf('src/net.ts', ['@@ -3,4 +3,4 @@ export function listen(port: number): number {', ' }', ' function bind(port: number): number {', '-  return port;', '+  return port * 2;', ' }']),
    });
    expect(body.result.files[0].side).toBe('old');
    expect(ids(body.result.changed)).toEqual([ID.bind]);
  });

  it('takes every symbol of a deleted file as changed, on the old side', async () => {
    const lines = FILES['src/net.ts'].split('\n').slice(0, -1);
    const diff = ['diff --git a/src/net.ts b/src/net.ts', 'deleted file mode 100644', '--- a/src/net.ts', '+++ /dev/null', `@@ -1,${lines.length} +0,0 @@`, ...lines.map((l) => `-${l}`), ''].join('\n');
    const { body } = await call({ diff });
    expect(body.result.files[0]).toMatchObject({ path: 'src/net.ts', status: 'deleted', indexed: true, side: 'old' });
    expect(ids(body.result.changed).sort()).toEqual([ID.bind, ID.listen].sort());
    expect(ids(body.result.impacted)).toEqual([ID.start, ID.main]);
  });

  it('follows a rename to the path the index holds and names the other path', async () => {
    const diff = ['diff --git a/src/net.ts b/src/network.ts', 'similarity index 90%', 'rename from src/net.ts', 'rename to src/network.ts', '--- a/src/net.ts', '+++ b/src/network.ts', '@@ -5 +5 @@', '-  return port;', '+  return port + 0;', ''].join('\n');
    const { body } = await call({ diff });
    expect(body.result.files[0]).toMatchObject({ path: 'src/net.ts', new_path: 'src/network.ts', status: 'renamed', indexed: true, side: 'old' });
    expect(ids(body.result.changed)).toEqual([ID.bind]);
  });

  it('takes ranges as lines of the indexed content', async () => {
    const { body } = await call({ ranges: [{ path: 'src/app.ts', start_line: 7, end_line: 7 }] });
    expect(ids(body.result.changed)).toEqual([ID.stop, ID.server]);
    expect(body.result.files).toEqual([{ path: 'src/app.ts', status: 'modified', indexed: true, changed_lines: 1 }]);
  });
});

describe('changes: impact and tests', () => {
  it('walks callers to depth 2 by default with risk by depth, keeping tests apart', async () => {
    const { body } = await call({ ranges: [{ path: 'src/net.ts', start_line: 2, end_line: 2 }] });
    expect(body.result.impacted.map((h: Json) => [h.id, h.depth, h.risk, h.via, h.call_line])).toEqual([
      [ID.start, 1, 'high', ID.listen, 5],
      [ID.main, 2, 'medium', ID.start, 3],
    ]);
    expect(body.result.impacted_total).toBe(2);
    expect(body.result.tests).toEqual([
      { path: 'test/app.test.ts', ids: [ID.testStart], reasons: ['calls_changed'] },
      { path: 'test/net.test.ts', ids: [ID.testListen], reasons: ['calls_changed', 'imports_changed_file'] },
    ]);
  });

  it('stops at depth 1 when asked', async () => {
    const { body } = await call({ ranges: [{ path: 'src/net.ts', start_line: 2, end_line: 2 }], depth: 1 });
    expect(ids(body.result.impacted)).toEqual([ID.start]);
    // testStart calls Server.start, one level further: not reached.
    expect(body.result.tests.map((t: Json) => t.path)).toEqual(['test/net.test.ts']);
  });

  it('caps impacted at limit, counts all in impacted_total and steps to a trace of the most called change', async () => {
    const { body } = await call({ ranges: [{ path: 'src/net.ts', start_line: 2, end_line: 2 }], limit: 1 });
    expect(ids(body.result.impacted)).toEqual([ID.start]);
    expect(body.result.impacted_total).toBe(2);
    const step = body._meta.next_steps.find((s: Json) => s.tool === 'trace');
    expect(step.args).toEqual({ project: P, id: ID.listen, direction: 'inbound', depth: 2, max_hops: 200 });
    await runStep(step);
  });

  it('lists a changed test as a test to run', async () => {
    const { body } = await call({ ranges: [{ path: 'test/app.test.ts', start_line: 3, end_line: 3 }] });
    expect(body.result.tests).toEqual([{ path: 'test/app.test.ts', ids: [ID.testStart], reasons: ['changed'] }]);
    expect(body.result.impacted).toEqual([]);
  });

  it('warns graph_pending while the edges lag the index', async () => {
    const id = await projectId(P);
    await DB.prepare('UPDATE projects SET graph_generation = generation - 1 WHERE id = ?1').bind(id).run();
    try {
      const { body } = await call({ ranges: [{ path: 'src/net.ts', start_line: 2, end_line: 2 }] });
      expect(codes(body._meta.warnings_v2)).toContain('graph_pending');
    } finally {
      await DB.prepare('UPDATE projects SET graph_generation = generation WHERE id = ?1').bind(id).run();
    }
  });

  it('steps to the source of the changed symbols, and the step runs', async () => {
    const { body } = await call({ ranges: [{ path: 'src/net.ts', start_line: 5, end_line: 5 }] });
    const step = body._meta.next_steps.find((s: Json) => s.tool === 'symbols');
    expect(step.args.ids).toEqual([ID.bind]);
    const fetched = await runStep(step);
    expect(fetched.result.symbols[0].source).toContain('return port;');
  });
});

describe('changes: baseline', () => {
  it('declares read_all_changed: every changed indexed file read whole, chars/4', async () => {
    const { body } = await call({ ranges: [{ path: 'src/net.ts', start_line: 2, end_line: 2 }, { path: 'src/app.ts', start_line: 5, end_line: 5 }, { path: 'src/nope.ts', start_line: 1, end_line: 1 }] });
    const bytes = new TextEncoder().encode(FILES['src/net.ts'] + FILES['src/app.ts']).length;
    expect(body._meta.baseline_method).toBe('read_all_changed');
    expect(body._meta.tokens_saved).toBe(Math.max(0, Math.ceil(bytes / 4) - body._meta.tokens_used));
  });
});

describe('changes: partial and empty answers', () => {
  it('lists files the index does not hold in unknown with an unindexed_files warning', async () => {
    const diff = diffOf('src/app.ts', ['@@ -5 +5 @@', '-    listen(port);', '+    listen(port + 1);']) + ['diff --git a/src/brand-new.ts b/src/brand-new.ts', 'new file mode 100644', '--- /dev/null', '+++ b/src/brand-new.ts', '@@ -0,0 +1 @@', '+export const x = 1;', ''].join('\n');
    const { body } = await call({ diff });
    expect(body.result.unknown).toEqual(['src/brand-new.ts']);
    expect(body.result.files[1]).toMatchObject({ path: 'src/brand-new.ts', status: 'added', indexed: false });
    expect(codes(body._meta.warnings_v2)).toContain('unindexed_files');
    expect(body._meta.empty_reason).toBeUndefined();
  });

  it('answers target_not_resolved when no file of the input is indexed, with steps that run', async () => {
    const { body } = await call({ ranges: [{ path: 'src/missing/file.ts', start_line: 1, end_line: 2 }] });
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(body._meta.diagnosis).toContain('src/missing/file.ts');
    expect(body.result.unknown).toEqual(['src/missing/file.ts']);
    expect(body._meta.next_steps.map((s: Json) => s.tool)).toEqual(['find', 'list']);
    for (const s of body._meta.next_steps) await runStep(s);
  });

  it('answers no_results_in_corpus when the changed lines touch no symbol and no test imports the file', async () => {
    const { body } = await call({ diff: diffOf('src/main.ts', ['@@ -4,0 +5 @@', '+// trailing comment']) });
    expect(body.result.changed).toEqual([]);
    expect(body._meta.empty_reason).toBe('no_results_in_corpus');
    const [step] = body._meta.next_steps;
    expect(step).toMatchObject({ tool: 'read', args: { project: P, path: 'src/main.ts', offset: 4, limit: 20 } });
    await runStep(step);
  });

  it('still lists tests importing a file whose module-level lines changed', async () => {
    const { body } = await call({ diff: diffOf('src/net.ts', ['@@ -3,0 +4 @@', '+// between listen and bind']) });
    expect(body.result.changed).toEqual([]);
    expect(body.result.tests).toEqual([{ path: 'test/net.test.ts', ids: [], reasons: ['imports_changed_file'] }]);
    expect(body._meta.empty_reason).toBeUndefined();
  });

  it('answers no_results_in_corpus when the input changes no line (a pure rename)', async () => {
    const diff = ['diff --git a/src/main.ts b/src/entry.ts', 'similarity index 100%', 'rename from src/main.ts', 'rename to src/entry.ts', ''].join('\n');
    const { body } = await call({ diff });
    expect(body._meta.empty_reason).toBe('no_results_in_corpus');
    expect(body.result.files[0]).toMatchObject({ path: 'src/main.ts', new_path: 'src/entry.ts', status: 'renamed', changed_lines: 0 });
    for (const s of body._meta.next_steps) await runStep(s);
  });

  it('answers unsupported_language when only files without an extractor changed', async () => {
    const { body } = await call({ ranges: [{ path: 'notes.txt', start_line: 1, end_line: 1 }] });
    expect(body._meta.empty_reason).toBe('unsupported_language');
    for (const s of body._meta.next_steps) await runStep(s);
  });

  it('answers extractor_emitted_nothing when the changed files hold no symbol', async () => {
    const { body } = await call({ ranges: [{ path: 'src/empty.ts', start_line: 1, end_line: 1 }] });
    expect(body._meta.empty_reason).toBe('extractor_emitted_nothing');
    expect(body._meta.next_steps.map((s: Json) => s.tool)).toEqual(['health']);
  });

  it('skips ranges past the end of the file with line_out_of_range', async () => {
    const { body } = await call({ ranges: [{ path: 'src/net.ts', start_line: 50, end_line: 60 }, { path: 'src/net.ts', start_line: 5, end_line: 5 }] });
    expect(codes(body._meta.warnings_v2)).toContain('line_out_of_range');
    expect(ids(body.result.changed)).toEqual([ID.bind]);
  });

  it('answers no_project_indexed for an unknown project', async () => {
    const { body } = await rest('changes', { project: 'comp-no-such', ranges: [{ path: 'a.ts', start_line: 1, end_line: 1 }] });
    expect(body._meta.empty_reason).toBe('no_project_indexed');
    expect(body.result.changed).toEqual([]);
  });
});

describe('changes: the importers read with the files', () => {
  const MANY = 'comp-changes-importers';
  it('reads the importers of the changed files alone when the early read of every path of the input was cut', async () => {
    // src/b.ts, named by the diff without a changed line, has 4,100 importers sorting before the test importing src/a.ts:
    // the early read of both paths' importers (4,000 rows at most) stops before it, so the call reads src/a.ts's own.
    const files = {
      'src/a.ts': 'export function a(): number {\n  return 1;\n}\n',
      'src/b.ts': 'export function b(): number {\n  return 2;\n}\n',
      'zz/a.test.ts': "import { a } from '../src/a';\nexport function testA(): boolean {\n  return a() === 1;\n}\n",
    };
    expect((await push(MANY, files)).commit?.status).toBe(200);
    const id = await projectId(MANY);
    const many = Array.from({ length: 4100 }, (_, i) => edgeRow({ kind: 'IMPORTS', src: null, srcFile: `m/f${String(i).padStart(4, '0')}.ts`, dst: null, dstFile: 'src/b.ts', line: 1 }, { confidence: 0.95, provenance: 'import' }));
    const test = edgeRow({ kind: 'IMPORTS', src: null, srcFile: 'zz/a.test.ts', dst: null, dstFile: 'src/a.ts', line: 1 }, { confidence: 0.95, provenance: 'import' });
    await writeSeedEdges(id, [...many, test]);
    const diff = [
      ...diffOf('src/a.ts', ['@@ -2 +2 @@', '-  return 1;', '+  return 10;']).split('\n').slice(0, -1),
      'diff --git a/src/b.ts b/src/b.ts',
      'old mode 100644',
      'new mode 100755',
      '',
    ].join('\n');
    // The first call looks the project up; the second finds it cached (its check rides along).
    await rest('changes', { project: MANY, diff });
    const { status, body, res } = await rest('changes', { project: MANY, diff });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.result.files.map((f: Json) => f.path)).toEqual(['src/a.ts', 'src/b.ts']);
    expect(body.result.tests).toEqual([{ path: 'zz/a.test.ts', ids: [], reasons: ['imports_changed_file'] }]);
    // The files with both sides' symbols and every path's importers, the importers of src/a.ts alone, then the walk.
    expect(Number(res.headers.get('x-pincher-d1-round-trips'))).toBe(3);
  });
});

describe('changes: bad input', () => {
  const refuse = async (args: Json, code: string, text: string) => {
    const { status, body } = await call(args);
    expect(status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
    expect(body.error.code).toBe(code);
    expect(body.error.message).toContain(text);
    expect(body.error.suggestion).toBeTruthy();
  };

  it('refuses both diff and ranges, and neither', async () => {
    await refuse({ diff: diffOf('src/app.ts', ['@@ -5 +5 @@', '-a', '+b']), ranges: [{ path: 'src/app.ts', start_line: 1, end_line: 1 }] }, 'invalid_params', 'exactly one of diff or ranges');
    await refuse({}, 'invalid_params', 'exactly one of diff or ranges');
  });

  it('refuses an empty or blank diff', async () => {
    await refuse({ diff: '' }, 'invalid_params', 'exactly one of diff or ranges');
    await refuse({ diff: ' \n\t\n' }, 'invalid_params', 'the diff is empty');
  });

  it('refuses a malformed hunk header, naming its line', async () => {
    await refuse({ diff: '--- a/src/app.ts\n+++ b/src/app.ts\n@@ -five +5 @@\n-a\n+b\n' }, 'invalid_params', 'malformed hunk header at line 3');
  });

  it('refuses text that is no diff, and a hunk body that contradicts its header', async () => {
    await refuse({ diff: 'hello world\n' }, 'invalid_params', 'no file header');
    await refuse({ diff: '--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,4 +1,4 @@\n-a\n+b\n' }, 'invalid_params', 'declares -1,4 +1,4');
  });

  it('refuses a diff over 512 KiB', async () => {
    await refuse({ diff: diffOf('src/app.ts', ['@@ -5 +5 @@', '-a', `+${'x'.repeat(512 * 1024)}`]) }, 'invalid_params', 'diff');
  });

  it('refuses a range that ends before it starts, and a path outside the project', async () => {
    await refuse({ ranges: [{ path: 'src/app.ts', start_line: 9, end_line: 3 }] }, 'invalid_params', 'start_line 9 after end_line 3');
    await refuse({ ranges: [{ path: '../etc/passwd', start_line: 1, end_line: 1 }] }, 'invalid_path', 'not a project-relative path');
  });

  it('refuses depth and limit out of range', async () => {
    await refuse({ ranges: [{ path: 'src/app.ts', start_line: 1, end_line: 1 }], depth: 4 }, 'invalid_params', 'depth');
    await refuse({ ranges: [{ path: 'src/app.ts', start_line: 1, end_line: 1 }], limit: 0 }, 'invalid_params', 'limit');
  });
});
