import { isLibraryPath, normaliseTracePath, numberDepths, type Frame, type ParsedTrace } from './types';

/** V8: `at fn (path:L:C)`, `at async fn (path:L:C)`, `at new Foo (path:L:C)`. */
const V8_CALL = /^\s*at (?:async )?(.+?) \((.+?):(\d+):(\d+)\)\s*$/;
/** V8 anonymous: `at path:L:C`. */
const V8_BARE = /^\s*at (?:async )?(.+?):(\d+):(\d+)\s*$/;
/** SpiderMonkey / JavaScriptCore: `fn@path:L:C`. */
const GECKO = /^\s*([^@\s]*)@(.+?):(\d+):(\d+)\s*$/;

interface Hit {
  fn?: string;
  path: string;
  line: number;
  column: number;
}

function match(line: string): Hit | null {
  const call = V8_CALL.exec(line);
  if (call) return { fn: call[1], path: call[2], line: Number(call[3]), column: Number(call[4]) };
  const bare = V8_BARE.exec(line);
  if (bare) return { path: bare[1], line: Number(bare[2]), column: Number(bare[3]) };
  const gecko = GECKO.exec(line);
  if (gecko) return { fn: gecko[1] || undefined, path: gecko[2], line: Number(gecko[3]), column: Number(gecko[4]) };
  return null;
}

/**
 * Node / V8 stacks (`at fn (file:line:col)`, innermost first) and the
 * `fn@file:line:col` stacks of Firefox and Safari. Each run of frame lines
 * is one block; the text line just before it is its error message.
 */
export function parseJavaScript(lines: readonly string[]): ParsedTrace {
  const frames: Frame[] = [];
  const messages: string[] = [];
  let block = -1;
  let inBlock = false;
  let previous = '';
  lines.forEach((text, k) => {
    const hit = match(text);
    // Rust backtraces also print `at path:L:C`; those lines belong to the Rust parser.
    if (!hit || /\.rs$/.test(hit.path)) {
      inBlock = false;
      if (text.trim()) previous = text.trim();
      return;
    }
    if (!inBlock) {
      block++;
      inBlock = true;
      if (previous) messages.push(previous);
    }
    const path = normaliseTracePath(hit.path);
    frames.push({
      path,
      line: hit.line,
      column: hit.column,
      ...(hit.fn ? { function: hit.fn } : {}),
      block,
      depth: 0,
      at: k + 1,
      library: isLibraryPath(path) || path === 'native' || path.startsWith('<'),
      hints: [path],
    });
  });
  return { format: 'javascript', frames: numberDepths(frames, true), message: messages.length ? [...new Set(messages)].join('\n') : null };
}
