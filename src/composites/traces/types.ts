/**
 * Shapes shared by the stack-trace parsers. Every parser reads the whole
 * trace text and returns the frames it recognises, each with its position:
 * `block` (one per exception, goroutine or backtrace in the text) and
 * `depth` (0 = the innermost frame of its block, where the error surfaced).
 */

export type TraceFormat = 'python' | 'javascript' | 'go' | 'java' | 'rust';

export interface Frame {
  /** File as the trace wrote it (absolute, relative or package path), normalised to '/' separators. */
  path: string;
  line: number;
  column?: number;
  /** Function, method or class.method as the trace wrote it. */
  function?: string;
  /** Index of the exception / goroutine / backtrace block, in text order. */
  block: number;
  /** 0 for the innermost frame of its block, counting outward. */
  depth: number;
  /** The frame's line in the trace text, 1-based. */
  at: number;
  /** Known library or runtime location (stdlib, node_modules, site-packages, …): skipped without a lookup. */
  library: boolean;
  /** Path candidates for matching against project files, most specific first (Java: the package path). */
  hints: string[];
}

export interface ParsedTrace {
  format: TraceFormat;
  frames: Frame[];
  /** The error lines (exception type and message, panic message), as written; null when none was found. */
  message: string | null;
}

/** One parser: the frames of its format found in `lines` (empty when none). */
export type TraceParser = (lines: readonly string[]) => ParsedTrace;

/** Path fragments of library and runtime code in any format. */
const LIBRARY = [
  /(?:^|\/)node_modules\//,
  /^node:/,
  /^internal\//,
  /(?:^|\/)(?:site|dist)-packages\//,
  /(?:^|\/)lib\/python\d(?:\.\d+)?\//,
  /^<[^>]*>$/,
  /^\/rustc\//,
  /(?:^|\/)\.cargo\/registry\//,
  /(?:^|\/)\.rustup\//,
  /(?:^|\/)go\/pkg\/mod\//,
  /(?:^|\/)(?:usr\/local|usr\/lib)\/go\/src\//,
  /(?:^|\/)libexec\/src\//,
];

export function isLibraryPath(path: string): boolean {
  return LIBRARY.some((re) => re.test(path));
}

/**
 * A trace path as a '/'-separated string: URL schemes (file://, webpack://,
 * webpack-internal:///), query strings, Windows drives and backslashes and a
 * leading './' removed.
 */
export function normaliseTracePath(raw: string): string {
  let p = raw.trim().replace(/\\/g, '/');
  p = p.replace(/^(?:webpack-internal:\/\/\/|webpack:\/\/\/?|file:\/\/)/, '');
  p = p.replace(/^\([^)]*\)\//, ''); // webpack's (app-pages-browser)/ style layer prefix
  p = p.replace(/[?#].*$/, '');
  p = p.replace(/^[A-Za-z]:\//, '/');
  p = p.replace(/^(?:\.\/)+/, '');
  return p;
}

/** Sets `depth` within each block: `innermostFirst` when the trace lists the failing frame first. */
export function numberDepths(frames: Frame[], innermostFirst: boolean): Frame[] {
  const byBlock = new Map<number, Frame[]>();
  for (const f of frames) byBlock.set(f.block, [...(byBlock.get(f.block) ?? []), f]);
  for (const list of byBlock.values()) {
    list.forEach((f, k) => (f.depth = innermostFirst ? k : list.length - 1 - k));
  }
  return frames;
}
