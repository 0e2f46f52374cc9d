import { isLibraryPath, normaliseTracePath, numberDepths, type Frame, type ParsedTrace } from './types';

/** `thread 'main' panicked at src/main.rs:5:9:` (1.73+) or `… panicked at 'msg', src/main.rs:5:9` (older). */
const PANIC_NEW = /^thread '([^']*)' panicked at (.+?\.rs):(\d+):(\d+):\s*$/;
const PANIC_OLD = /^thread '([^']*)' panicked at '(.*)', (.+?\.rs):(\d+):(\d+)\s*$/;
/** Backtrace entries: `   4: myapp::parse` then `             at ./src/main.rs:5:9`. */
const ENTRY = /^\s*\d+:\s+(.+?)\s*$/;
const AT = /^\s+at (.+?\.rs):(\d+)(?::(\d+))?\s*$/;
/** Functions of the standard library and the panic machinery. */
const RUNTIME = /^(?:std|core|alloc|test|backtrace)::|^(?:rust_begin_unwind|__rust_|_start|__libc_start|<unknown>)/;

/**
 * Rust panics and `RUST_BACKTRACE` backtraces. The panic location is the
 * innermost frame of its block; the backtrace below it (innermost first)
 * continues the same block. Each panic opens a block.
 */
export function parseRust(lines: readonly string[]): ParsedTrace {
  const frames: Frame[] = [];
  const messages: string[] = [];
  let block = -1;
  let fn: string | undefined;
  const push = (rawPath: string, line: number, column: number | undefined, name: string | undefined, at: number) => {
    if (block < 0) block = 0;
    const path = normaliseTracePath(rawPath);
    if (frames.some((f) => f.block === block && f.path === path && f.line === line)) return;
    frames.push({
      path,
      line,
      ...(column !== undefined ? { column } : {}),
      ...(name ? { function: name } : {}),
      block,
      depth: 0,
      at,
      library: isLibraryPath(path) || (name !== undefined && RUNTIME.test(name)),
      hints: [path],
    });
  };
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k];
    const nw = PANIC_NEW.exec(line);
    const old = nw ? null : PANIC_OLD.exec(line);
    if (nw || old) {
      block++;
      fn = undefined;
      if (nw) {
        push(nw[2], Number(nw[3]), Number(nw[4]), undefined, k + 1);
        // The message follows on its own lines, up to a note, a backtrace or a blank line.
        const text: string[] = [];
        for (let j = k + 1; j < lines.length && lines[j].trim() && !/^(?:note:|stack backtrace:)/.test(lines[j]); j++) text.push(lines[j].trim());
        messages.push(`panicked: ${text.join(' ')}`.trim());
      } else if (old) {
        push(old[3], Number(old[4]), Number(old[5]), undefined, k + 1);
        messages.push(`panicked: ${old[2]}`);
      }
      continue;
    }
    const entry = ENTRY.exec(line);
    if (entry && !AT.test(line)) {
      fn = entry[1].replace(/::h[0-9a-f]{16}$/, '');
      continue;
    }
    const at = AT.exec(line);
    if (at) push(at[1], Number(at[2]), at[3] === undefined ? undefined : Number(at[3]), fn, k + 1);
  }
  return { format: 'rust', frames: numberDepths(frames, true), message: messages.length ? [...new Set(messages)].join('\n') : null };
}
