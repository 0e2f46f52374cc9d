import { describe, expect, it } from 'vitest';
import { parseTrace } from '../../../src/composites/traces';
import { matchPath } from '../../../src/composites/trace-paths';

const PYTHON = `Traceback (most recent call last):
  File "/home/ci/app/src/service.py", line 40, in handle
    return load_user(uid)
  File "/home/ci/app/src/repo.py", line 12, in load_user
    raise KeyError(uid)
  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
KeyError: 'load_user failed for 7'`;

const NODE = `TypeError: Cannot read properties of undefined (reading 'port')
    at Server.start (/srv/app/dist/src/app.js:3:12)
    at Object.<anonymous> (/srv/app/dist/src/main.js:9:8)
    at Module._compile (node:internal/modules/cjs/loader:1256:14)
    at /srv/app/node_modules/express/lib/router.js:10:3
    at async Promise.all (index 0)`;

const GO = `panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4553d6]

goroutine 1 [running]:
main.(*Server).handle(0x0, {0x4b1a3c, 0x5})
	/home/u/proj/server.go:42 +0x16
main.main()
	/home/u/proj/cmd/main.go:10 +0x25
runtime.goexit()
	/usr/local/go/src/runtime/asm_amd64.s:1650 +0x1
exit status 2`;

const JAVA = `Exception in thread "main" java.lang.IllegalStateException: boom
	at com.example.app.Service.run(Service.java:42)
	at java.base/java.lang.Thread.run(Thread.java:829)
	at com.example.app.Main.main(Main.java:10)
Caused by: java.lang.NullPointerException: repo
	at com.example.app.Repo$Inner.load(Repo.java:17)
	at jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
	... 2 more`;

const RUST = `thread 'main' panicked at src/parse.rs:5:9:
called \`Option::unwrap()\` on a \`None\` value
stack backtrace:
   0: rust_begin_unwind
             at /rustc/90c541806f23a127002de5b4038be731ba1458ca/library/std/src/panicking.rs:645:5
   1: core::panicking::panic
             at /rustc/90c541806f23a127002de5b4038be731ba1458ca/library/core/src/panicking.rs:144:5
   2: myapp::parse::parse_line
             at ./src/parse.rs:5:9
   3: myapp::main
             at ./src/main.rs:10:5`;

describe('parseTrace: format detection and frames', () => {
  it('reads a Python traceback outermost first, so the last frame is the innermost', () => {
    const t = parseTrace(PYTHON);
    expect(t?.format).toBe('python');
    expect(t?.frames.map((f) => [f.path, f.line, f.function, f.depth, f.library])).toEqual([
      ['/home/ci/app/src/service.py', 40, 'handle', 2, false],
      ['/home/ci/app/src/repo.py', 12, 'load_user', 1, false],
      ['/usr/lib/python3.11/json/__init__.py', 346, 'loads', 0, true],
    ]);
    expect(t?.message).toBe("KeyError: 'load_user failed for 7'");
  });

  it('reads pytest failure locations', () => {
    const t = parseTrace('tests/test_app.py:8: in test_start\n    start()\nsrc/app.py:3: in start\n    boom()\nE   ValueError: boom\nsrc/app.py:3: ValueError');
    expect(t?.format).toBe('python');
    expect(t?.frames.map((f) => [f.path, f.line, f.depth])).toEqual([['tests/test_app.py', 8, 1], ['src/app.py', 3, 0]]);
    expect(t?.message).toContain('ValueError: boom');
  });

  it('reads a V8 stack innermost first and marks node internals and node_modules as library frames', () => {
    const t = parseTrace(NODE);
    expect(t?.format).toBe('javascript');
    expect(t?.frames.map((f) => [f.path, f.line, f.function ?? null, f.depth, f.library])).toEqual([
      ['/srv/app/dist/src/app.js', 3, 'Server.start', 0, false],
      ['/srv/app/dist/src/main.js', 9, 'Object.<anonymous>', 1, false],
      ['node:internal/modules/cjs/loader', 1256, 'Module._compile', 2, true],
      ['/srv/app/node_modules/express/lib/router.js', 10, null, 3, true],
    ]);
    expect(t?.message).toContain('TypeError');
  });

  it('reads Firefox-style fn@file:line:col frames and webpack URLs', () => {
    const t = parseTrace('handler@webpack:///./src/ui/button.tsx:12:5\n@http://localhost/static/main.js:1:100');
    expect(t?.format).toBe('javascript');
    expect(t?.frames[0]).toMatchObject({ path: 'src/ui/button.tsx', line: 12, function: 'handler' });
  });

  it('reads a Go panic: function line, then its file:line +0x location', () => {
    const t = parseTrace(GO);
    expect(t?.format).toBe('go');
    expect(t?.frames.map((f) => [f.path, f.line, f.function, f.depth, f.library])).toEqual([
      ['/home/u/proj/server.go', 42, 'main.(*Server).handle', 0, false],
      ['/home/u/proj/cmd/main.go', 10, 'main.main', 1, false],
      ['/usr/local/go/src/runtime/asm_amd64.s', 1650, 'runtime.goexit', 2, true],
    ]);
    expect(t?.message).toContain('panic: runtime error');
  });

  it('reads go test failure lines', () => {
    const t = parseTrace('--- FAIL: TestParse (0.00s)\n    parse_test.go:14: got 1, want 2\nFAIL');
    expect(t?.format).toBe('go');
    expect(t?.frames[0]).toMatchObject({ path: 'parse_test.go', line: 14 });
  });

  it('reads a JVM trace with Caused by blocks and package path hints', () => {
    const t = parseTrace(JAVA);
    expect(t?.format).toBe('java');
    expect(t?.frames.map((f) => [f.path, f.line, f.block, f.depth, f.library])).toEqual([
      ['com/example/app/Service.java', 42, 0, 0, false],
      ['java/lang/Thread.java', 829, 0, 1, true],
      ['com/example/app/Main.java', 10, 0, 2, false],
      ['com/example/app/Repo.java', 17, 1, 0, false],
    ]);
    expect(t?.frames[3].hints).toEqual(['com/example/app/Repo.java', 'Repo.java']);
    expect(t?.message).toContain('Caused by: java.lang.NullPointerException');
  });

  it('reads a Rust panic and its backtrace, the panic site first and std frames as library', () => {
    const t = parseTrace(RUST);
    expect(t?.format).toBe('rust');
    expect(t?.frames.map((f) => [f.path, f.line, f.depth, f.library])).toEqual([
      ['src/parse.rs', 5, 0, false],
      ['/rustc/90c541806f23a127002de5b4038be731ba1458ca/library/std/src/panicking.rs', 645, 1, true],
      ['/rustc/90c541806f23a127002de5b4038be731ba1458ca/library/core/src/panicking.rs', 144, 2, true],
      ['src/main.rs', 10, 3, false],
    ]);
    expect(t?.message).toContain('Option::unwrap()');
  });

  it('reads the older Rust panic line with the message inline', () => {
    const t = parseTrace("thread 'main' panicked at 'index out of bounds', src/lib.rs:7:3");
    expect(t?.frames[0]).toMatchObject({ path: 'src/lib.rs', line: 7 });
    expect(t?.message).toBe('panicked: index out of bounds');
  });

  it('finds no frame in text that is not a trace', () => {
    expect(parseTrace('it broke, please help\nno idea why')).toBeNull();
  });
});

describe('matchPath', () => {
  const files = ['src/service.py', 'tests/service.py', 'src/repo.py', 'app/src/main/java/com/example/app/Service.java', 'lib/Service.java'];

  it('picks the project file with the longest common suffix', () => {
    expect(matchPath(['/home/ci/app/src/service.py'], files)).toEqual({ path: 'src/service.py', matched: 2, alternatives: [] });
  });

  it('uses the Java package path before the bare file name', () => {
    expect(matchPath(['com/example/app/Service.java', 'Service.java'], files)?.path).toBe('app/src/main/java/com/example/app/Service.java');
  });

  it('reports equally good files as alternatives and picks the shortest', () => {
    expect(matchPath(['/elsewhere/service.py'], files)).toEqual({ path: 'src/service.py', matched: 1, alternatives: ['tests/service.py'] });
  });

  it('matches nothing when even the file name differs', () => {
    expect(matchPath(['/x/other.py'], files)).toBeNull();
  });
});

describe('V8 error messages', () => {
  it('keeps a multi-line message whole and never takes a frame without a location for a message', () => {
    const trace = `Error: request failed
    status 500 from upstream
    body: {"detail":"boom"}
    at fetchUser (/srv/app/src/client.js:14:11)
    at new Promise (<anonymous>)
    at loadPage (/srv/app/src/page.js:30:5)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`;
    const t = parseTrace(trace);
    expect(t?.format).toBe('javascript');
    expect(t?.message).toBe('Error: request failed\nstatus 500 from upstream\nbody: {"detail":"boom"}');
    expect(t?.frames.map((f) => f.path)).toEqual(['/srv/app/src/client.js', '/srv/app/src/page.js', 'node:internal/process/task_queues']);
    expect(new Set(t?.frames.map((f) => f.block))).toEqual(new Set([0]));
  });

  it('reads an assertion message printed over several lines before the stack', () => {
    const trace = `AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

1 !== 2

    at Context.<anonymous> (/srv/app/test/sum.test.js:8:12)
    at Array.forEach (<anonymous>)
    at run (/srv/app/test/runner.js:3:7)`;
    const t = parseTrace(trace);
    expect(t?.message).toBe('AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n1 !== 2');
    expect(t?.message).not.toMatch(/^\s*at /);
    expect(t?.frames).toHaveLength(2);
  });
});
