/**
 * Stack-trace format detection: every parser reads the text and the one
 * that recognises the most frames wins (ties in the order below). Formats:
 * Python (tracebacks, pytest), JavaScript/TypeScript (V8 `at fn (file:L:C)`,
 * `fn@file:L:C`), Go (panics, goroutine dumps, go test), JVM (`at a.B.m(B.java:L)`),
 * Rust (panics, backtraces).
 */
import { parseGo } from './go';
import { parseJava } from './java';
import { parseJavaScript } from './javascript';
import { parsePython } from './python';
import { parseRust } from './rust';
import type { ParsedTrace, TraceParser } from './types';

export type { Frame, ParsedTrace, TraceFormat } from './types';

const PARSERS: readonly TraceParser[] = [parsePython, parseJava, parseGo, parseRust, parseJavaScript];

/** Frames kept per trace, in text order; the rest are counted only. */
export const MAX_FRAMES = 500;

/** The best parse of `text`, or null when no format recognises a frame. */
export function parseTrace(text: string): (ParsedTrace & { totalFrames: number }) | null {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let best: ParsedTrace | null = null;
  for (const parse of PARSERS) {
    const parsed = parse(lines);
    if (parsed.frames.length > (best?.frames.length ?? 0)) best = parsed;
  }
  if (!best) return null;
  const totalFrames = best.frames.length;
  return { ...best, frames: best.frames.slice(0, MAX_FRAMES), message: best.message?.slice(0, 2000) ?? null, totalFrames };
}
