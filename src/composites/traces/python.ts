import { isLibraryPath, normaliseTracePath, numberDepths, type Frame, type ParsedTrace } from './types';

/** `  File "/app/x.py", line 12, in handler` */
const FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (.+?))?\s*$/;
/** pytest: `src/x.py:12: in handler` or `src/x.py:12: ValueError` */
const PYTEST = /^(\S+\.pyw?):(\d+): (?:in (\S+)|([A-Za-z_][\w.]*))\s*$/;
/** An exception line at column 0: `ValueError: bad`, `pkg.errors.Custom`, `KeyError: 'x'`. */
const EXCEPTION = /^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Fault|Failure|Iteration))(?::\s?(.*))?$/;
/** pytest's `E   ValueError: bad` lines. */
const PYTEST_E = /^E\s+(.+)$/;

/**
 * Python tracebacks (outermost frame first, innermost last) and pytest
 * failure locations. Each `Traceback (most recent call last):` opens a
 * block (chained exceptions give several).
 */
export function parsePython(lines: readonly string[]): ParsedTrace {
  const frames: Frame[] = [];
  const messages: string[] = [];
  let block = 0;
  let opened = false;
  lines.forEach((line, k) => {
    if (/^\s*Traceback \(most recent call last\):/.test(line)) {
      if (opened || frames.length) block++;
      opened = true;
      return;
    }
    const m = FRAME.exec(line);
    if (m) {
      frames.push(frame(m[1], Number(m[2]), m[3], block, k + 1));
      return;
    }
    const p = PYTEST.exec(line);
    if (p) {
      if (p[3] !== undefined || !frames.some((f) => f.path === normaliseTracePath(p[1]) && f.line === Number(p[2]))) {
        frames.push(frame(p[1], Number(p[2]), p[3], block, k + 1));
      }
      if (p[4]) messages.push(p[4]);
      return;
    }
    const e = PYTEST_E.exec(line);
    if (e) {
      messages.push(e[1].trim());
      return;
    }
    if (EXCEPTION.test(line)) messages.push(line.trim());
  });
  return { format: 'python', frames: numberDepths(frames, false), message: messages.length ? [...new Set(messages)].join('\n') : null };
}

function frame(rawPath: string, line: number, fn: string | undefined, block: number, at: number): Frame {
  const path = normaliseTracePath(rawPath);
  return { path, line, ...(fn ? { function: fn.trim() } : {}), block, depth: 0, at, library: isLibraryPath(path) || path.startsWith('<'), hints: [path] };
}
