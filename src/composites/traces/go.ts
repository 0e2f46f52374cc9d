import { isLibraryPath, normaliseTracePath, numberDepths, type Frame, type ParsedTrace } from './types';

/** The location line under a function line: `\t/path/x.go:123 +0x1d`. */
const LOCATION = /^\s+(\S.*?\.\w+):(\d+)(?:\s+\+0x[0-9a-fA-F]+)?\s*$/;
/** A function line: `main.(*Server).handle(0x0, {0x4b1a3c, 0x5})`, `created by main.start in goroutine 1`. */
const FUNCTION = /^(created by )?([\w./*()$\[\]{}, -]+?)\s*$/;
/** `go test` failure lines: `    x_test.go:12: got 1, want 2`. */
const TEST_LOG = /^\s+([\w./-]+\.go):(\d+): (.*)$/;
/** Packages whose frames are the runtime and the test harness. */
const RUNTIME = /^(?:runtime|testing|reflect|sync|internal\/[\w/]+)\./;

/**
 * Go panics and goroutine dumps (a function line, then its tab-indented
 * `file.go:line +0x…` location; innermost first), plus `go test` failure
 * locations. Each `goroutine N [state]:` opens a block.
 */
export function parseGo(lines: readonly string[]): ParsedTrace {
  const frames: Frame[] = [];
  const messages: string[] = [];
  let block = 0;
  let started = false;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k];
    if (/^goroutine \d+ \[/.test(line)) {
      if (started) block++;
      started = true;
      continue;
    }
    if (/^(?:panic|fatal error): /.test(line) || /^--- FAIL: /.test(line)) {
      messages.push(line.trim());
      continue;
    }
    const fn = FUNCTION.exec(line);
    const loc = k + 1 < lines.length ? LOCATION.exec(lines[k + 1]) : null;
    if (fn && loc && !/^\s/.test(line)) {
      const path = normaliseTracePath(loc[1]);
      // Drop the argument list and the goroutine note: `pkg.(*T).M(0x0, {…})` → `pkg.(*T).M`.
      const name = fn[2].replace(/ in goroutine \d+$/, '').replace(/\([^()]*\)$/, '');
      frames.push({
        path,
        line: Number(loc[2]),
        function: fn[1] ? `created by ${name}` : name,
        block,
        depth: 0,
        at: k + 2,
        library: isLibraryPath(path) || RUNTIME.test(name),
        hints: [path],
      });
      started = true;
      k++;
      continue;
    }
    const t = TEST_LOG.exec(line);
    if (t) {
      const path = normaliseTracePath(t[1]);
      frames.push({ path, line: Number(t[2]), block, depth: 0, at: k + 1, library: false, hints: [path] });
      messages.push(t[3].trim());
    }
  }
  return { format: 'go', frames: numberDepths(frames, true), message: messages.length ? [...new Set(messages)].join('\n') : null };
}
