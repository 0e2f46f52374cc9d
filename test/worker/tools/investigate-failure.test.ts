import { beforeAll, describe, expect, it } from 'vitest';
import { rest, type Json } from '../helpers';
import { codes, FILES, ID, runStep, seedProject } from './composite-fixture';

const P = 'comp-investigate';
const call = (trace: string, extra: Json = {}) => rest('investigate_failure', { project: P, trace, ...extra });
const ids = (list: Json[]) => list.map((x) => x.id);

const NODE = [
  "TypeError: Cannot read properties of undefined (reading 'port')",
  '    at listen (/srv/app/dist/src/net.ts:2:10)',
  '    at Server.start (/srv/app/dist/src/app.ts:5:5)',
  '    at Module._compile (node:internal/modules/cjs/loader:1256:14)',
  '    at main (/srv/app/dist/src/main.ts:3:16)',
  '    at /srv/app/node_modules/runner/index.js:10:3',
].join('\n');

beforeAll(async () => {
  await seedProject(P);
});

describe('investigate_failure: mapping frames', () => {
  it('maps a Node trace by path suffix, ranks the deepest project frame first and skips library frames', async () => {
    const { status, body } = await call(NODE);
    expect(status).toBe(200);
    const r = body.result;
    expect(r.format).toBe('javascript');
    expect(r.message).toContain('TypeError');
    expect(r.frames).toEqual({ total: 5, project: 3, library: 2, unindexed: 0 });
    expect(r.implicated.map((s: Json) => [s.id, s.score, s.line, s.evidence.deepest])).toEqual([
      [ID.listen, 1, 2, 0],
      [ID.start, 0.5, 5, 1],
      [ID.main, 0.333, 3, 2],
    ]);
    expect(r.locations.map((l: Json) => [l.path, l.line, l.id, l.depth])).toEqual([
      ['src/net.ts', 2, ID.listen, 0],
      ['src/app.ts', 5, ID.start, 1],
      ['src/main.ts', 3, ID.main, 2],
    ]);
    expect(r.unindexed).toEqual([]);
  });

  it('returns the callers of the top symbol and steps to its source and its exact line, which run', async () => {
    const { body } = await call(NODE);
    expect(body.result.callers.map((c: Json) => [c.id, c.call_line])).toEqual([[ID.start, 5], [ID.testListen, 3]]);
    const steps = body._meta.next_steps;
    expect(steps[0]).toEqual({ tool: 'symbol', args: { project: P, id: ID.listen }, why: expect.any(String) });
    expect(steps[1]).toMatchObject({ tool: 'read', args: { project: P, path: 'src/net.ts', offset: 1, limit: 11 } });
    expect(steps[1].why).toContain('line 2');
    for (const s of steps) await runStep(s);
  });

  it('maps a Python traceback (outermost first) onto the innermost enclosing functions', async () => {
    const trace = [
      'Traceback (most recent call last):',
      '  File "/srv/app/py/service.py", line 7, in handle',
      '    return load_user(uid)',
      '  File "/srv/app/py/service.py", line 4, in load_user',
      '    raise KeyError(uid)',
      '  File "/usr/lib/python3.11/site-packages/x/y.py", line 1, in z',
      'KeyError: 7',
    ].join('\n');
    const { body } = await call(trace);
    expect(body.result.format).toBe('python');
    expect(body.result.frames).toEqual({ total: 3, project: 2, library: 1, unindexed: 0 });
    expect(ids(body.result.implicated)).toEqual([ID.loadUser, ID.handle]);
    expect(body.result.callers.map((c: Json) => c.id)).toEqual([ID.handle]);
  });

  it('maps a Go panic onto the method of its frame', async () => {
    const trace = ['panic: boom', '', 'goroutine 1 [running]:', 'main.(*Server).Handle(0x0)', '\t/home/ci/proj/go/server.go:6 +0x16', 'runtime.goexit()', '\t/usr/local/go/src/runtime/asm_amd64.s:1650 +0x1'].join('\n');
    const { body } = await call(trace);
    expect(body.result.format).toBe('go');
    expect(ids(body.result.implicated)).toEqual(['go/server.go::Server.Handle#Method']);
    expect(body.result.frames.library).toBe(1);
  });

  it('maps a JVM frame through its package path', async () => {
    const trace = ['Exception in thread "main" java.lang.IllegalStateException: x', '\tat com.example.app.Repo.load(Repo.java:5)', '\tat java.base/java.lang.Thread.run(Thread.java:829)'].join('\n');
    const { body } = await call(trace);
    expect(body.result.format).toBe('java');
    expect(ids(body.result.implicated)).toEqual(['java/src/main/java/com/example/app/Repo.java::Repo.load#Method']);
  });

  it('maps a Rust panic onto the function at the panic site', async () => {
    const { body } = await call("thread 'main' panicked at rs/src/parse.rs:2:15:\ncalled `Result::unwrap()` on an `Err` value");
    expect(body.result.format).toBe('rust');
    expect(ids(body.result.implicated)).toEqual(['rs/src/parse.rs::parse_line#Function']);
  });
});

describe('investigate_failure: scoring', () => {
  it('adds a bonus for a symbol the error message names', async () => {
    const trace = ['Error: main gave up', '    at listen (/a/src/net.ts:2:1)', '    at Server.start (/a/src/app.ts:5:1)', '    at main (/a/src/main.ts:3:1)'].join('\n');
    const { body } = await call(trace);
    expect(body.result.implicated.map((s: Json) => [s.id, s.score, s.evidence.message_match])).toEqual([
      [ID.listen, 1, false],
      [ID.main, 0.833, true],
      [ID.start, 0.5, false],
    ]);
  });

  it('halves the score of test code', async () => {
    const trace = ['AssertionError: expected 1', '    at testListen (/a/test/net.test.ts:3:3)', '    at run (/a/node_modules/vitest/x.js:1:1)'].join('\n');
    const { body } = await call(trace);
    expect(body.result.implicated[0]).toMatchObject({ id: ID.testListen, score: 0.5, evidence: { test_code: true, frames: 1, deepest: 0 } });
  });

  it('sums the frames that hit one symbol', async () => {
    const trace = ['Error: x', '    at listen (/a/src/net.ts:2:1)', '    at listen (/a/src/net.ts:1:1)', '    at main (/a/src/main.ts:3:1)'].join('\n');
    const { body } = await call(trace);
    expect(body.result.implicated[0]).toMatchObject({ id: ID.listen, score: 1.5, evidence: { frames: 2, deepest: 0 } });
  });

  it('caps the implicated symbols at limit', async () => {
    const { body } = await call(NODE, { limit: 1 });
    expect(ids(body.result.implicated)).toEqual([ID.listen]);
  });
});

describe('investigate_failure: partial and empty answers', () => {
  it('warns ambiguous_path when a frame path matches several files equally well', async () => {
    const { body } = await call('Traceback (most recent call last):\n  File "/x/util.py", line 2, in helper\nValueError: no');
    expect(codes(body._meta.warnings_v2)).toContain('ambiguous_path');
    expect(ids(body.result.implicated)).toEqual(['a/util.py::helper#Function']);
  });

  it('warns line_out_of_range when a frame points past the end of its file', async () => {
    const { body } = await call('Error: x\n    at listen (/a/src/net.ts:2:1)\n    at main (/a/src/main.ts:99:1)');
    expect(codes(body._meta.warnings_v2)).toContain('line_out_of_range');
    expect(ids(body.result.implicated)).toEqual([ID.listen]);
  });

  it('answers target_not_resolved listing the frames when none is in the project', async () => {
    const trace = ['Error: x', '    at handleThing (/other/repo/lib/thing.ts:3:1)', '    at /srv/node_modules/a/b.js:1:1'].join('\n');
    const { body } = await call(trace);
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(body._meta.diagnosis).toContain('1 in libraries or the runtime, 1 in files the index does not hold');
    expect(body._meta.diagnosis).toContain('handleThing /other/repo/lib/thing.ts:3');
    expect(body.result.frames).toEqual({ total: 2, project: 0, library: 1, unindexed: 1 });
    expect(body.result.unindexed).toEqual([{ path: '/other/repo/lib/thing.ts', line: 3, function: 'handleThing' }]);
    const frames = body._meta.diagnosis_v2.find((d: Json) => d.code === 'target_not_resolved').data.frames;
    expect(frames).toHaveLength(2);
    expect(body._meta.next_steps.map((s: Json) => [s.tool, s.args.query ?? null])).toEqual([['search', 'handleThing'], ['list', null]]);
    for (const s of body._meta.next_steps) await runStep(s);
  });

  it('answers target_not_resolved with a read of the line when the frames hit module-level code', async () => {
    const { body } = await call('Traceback (most recent call last):\n  File "/srv/py/service.py", line 1, in <module>\nImportError: x');
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(body.result.locations).toEqual([{ path: 'py/service.py', line: 1, function: '<module>', id: null, depth: 0 }]);
    expect(body._meta.next_steps[0]).toMatchObject({ tool: 'read', args: { project: P, path: 'py/service.py', offset: 1, limit: 11 } });
    await runStep(body._meta.next_steps[0]);
  });

  it('answers unsupported_language when the frames point into files without an extractor', async () => {
    const { body } = await call('Error: x\n    at f (/srv/notes.txt:1:1)');
    expect(body._meta.empty_reason).toBe('unsupported_language');
    for (const s of body._meta.next_steps) await runStep(s);
  });

  it('answers extractor_emitted_nothing when the frames point into a file with no symbol', async () => {
    const { body } = await call('Error: x\n    at f (/srv/src/empty.ts:1:1)');
    expect(body._meta.empty_reason).toBe('extractor_emitted_nothing');
    for (const s of body._meta.next_steps) await runStep(s);
  });

  it('answers no_project_indexed for an unknown project', async () => {
    const { body } = await rest('investigate_failure', { project: 'comp-none', trace: NODE });
    expect(body._meta.empty_reason).toBe('no_project_indexed');
    expect(body.result.format).toBe('javascript');
    expect(body.result.implicated).toEqual([]);
  });

  it('declares full_file_read over the files the frames point into', async () => {
    const { body } = await call(NODE);
    const bytes = new TextEncoder().encode(FILES['src/net.ts'] + FILES['src/app.ts'] + FILES['src/main.ts']).length;
    expect(body._meta.baseline_method).toBe('full_file_read');
    expect(body._meta.tokens_saved).toBe(Math.max(0, Math.ceil(bytes / 4) - body._meta.tokens_used));
  });
});

describe('investigate_failure: bad input', () => {
  it('refuses text with no recognisable frame', async () => {
    const { status, body } = await call('it crashed somewhere, no idea where');
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_params');
    expect(body.error.message).toContain('no recognisable stack frame');
    expect(body.error.suggestion).toContain('File "x.py", line N');
  });

  it('refuses a trace over 64 KiB and an empty one', async () => {
    const big = await call(`${NODE}\n${'x'.repeat(64 * 1024)}`);
    expect(big.body.error.code).toBe('invalid_params');
    expect(big.body.error.message).toContain('trace');
    const none = await rest('investigate_failure', { project: P });
    expect(none.body.error.code).toBe('invalid_params');
  });

  it('refuses a limit out of range', async () => {
    const { body } = await call(NODE, { limit: 21 });
    expect(body.error.code).toBe('invalid_params');
  });
});
