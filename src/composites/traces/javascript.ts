import { isLibraryPath, normaliseTracePath, numberDepths, type Frame, type ParsedTrace } from './types';

/** V8: `at fn (path:L:C)`, `at async fn (path:L:C)`, `at new Foo (path:L:C)`. */
const V8_CALL = /^\s*at (?:async )?(.+?) \((.+?):(\d+):(\d+)\)\s*$/;
/** V8 anonymous: `at path:L:C`. */
const V8_BARE = /^\s*at (?:async )?(.+?):(\d+):(\d+)\s*$/;
/** SpiderMonkey / JavaScriptCore: `fn@path:L:C`. */
const GECKO = /^\s*([^@\s]*)@(.+?):(\d+):(\d+)\s*$/;
/** A V8 frame without a location (`at new Promise (<anonymous>)`, `at Array.map (native)`): part of the stack, never a message. */
const V8_FRAME_NO_LOCATION = /^\s*at (?:async )?\S.*$/;
/** The first line of a JavaScript error: `TypeError: …`, `Error [ERR_X]: …`, `Uncaught …`, `AssertionError …`, `[cause]: …`. */
const ERROR_HEAD = /^(?:Uncaught\s+|\[cause\]:\s*|Caused by:\s*)?(?:[\w$.]*(?:Error|Exception)\b|Error\b)/;
/** Message lines kept before a block when no error head is found. */
const MAX_MESSAGE_LINES = 20;

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
 * The message of a block: the text lines before it, from the last error
 * head (`TypeError: …`) on, so a multi-line message stays whole; without a
 * head, the last line.
 */
function messageOf(pending: readonly string[]): string | null {
  if (pending.length === 0) return null;
  let head = -1;
  for (let i = pending.length - 1; i >= 0 && head < 0; i--) if (ERROR_HEAD.test(pending[i])) head = i;
  const kept = head >= 0 ? pending.slice(head, head + MAX_MESSAGE_LINES) : pending.slice(-1);
  return kept.join('\n');
}

/**
 * Node / V8 stacks (`at fn (file:line:col)`, innermost first) and the
 * `fn@file:line:col` stacks of Firefox and Safari. Each run of frame lines
 * (frames without a location, such as `at new Promise (<anonymous>)`,
 * included) is one block; the text lines before it are its error message.
 */
export function parseJavaScript(lines: readonly string[]): ParsedTrace {
  const frames: Frame[] = [];
  const messages: string[] = [];
  let block = -1;
  let inBlock = false;
  let pending: string[] = [];
  lines.forEach((text, k) => {
    const hit = match(text);
    // Rust backtraces also print `at path:L:C`; those lines belong to the Rust parser.
    if (!hit || /\.rs$/.test(hit.path)) {
      if (!hit && inBlock && V8_FRAME_NO_LOCATION.test(text)) return;
      inBlock = false;
      if (text.trim()) pending.push(text.trim());
      return;
    }
    if (!inBlock) {
      block++;
      inBlock = true;
      const message = messageOf(pending);
      if (message) messages.push(message);
      pending = [];
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
