import * as z from 'zod';
import { PincherError } from '../errors';
import { callersOf } from '../db/graph';
import type { ProjectRow } from '../db/projects';
import { filesByPaths, pathsByFileNames, symbolsOverlapping, type FileFacts, type SpanSymbol } from '../db/composites';
import { baseName, matchPath, segments } from '../composites/trace-paths';
import { parseTrace, type Frame, type ParsedTrace } from '../composites/traces';
import { fullFileReadBaseline } from './baseline';
import { defineTool, type ToolContext } from './define';
import { PROJECT_PARAM } from './describe';
import { resolveProject } from './project-scope';
import { spanView, symbolSpanOut, warnCoverage } from './graph-common';

/** Largest trace accepted, in characters. */
export const MAX_TRACE_CHARS = 64 * 1024;
const DEFAULT_LIMIT = 5;
/** Candidate project files per frame file name. */
const PER_NAME = 50;
const SHOWN_LOCATIONS = 50;
const SHOWN_CALLERS = 20;
/** Weights of the score (docs/composites.md). */
const MESSAGE_BONUS = 0.5;
const TEST_FACTOR = 0.5;

const implicatedOut = symbolSpanOut.extend({
  line: z.number().describe('the innermost frame line inside it'),
  score: z.number(),
  evidence: z.object({
    frames: z.number().describe('frames inside the symbol'),
    deepest: z.number().describe('0 = it holds the innermost project frame of a block'),
    message_match: z.boolean().describe('its name appears in the error message'),
    test_code: z.boolean(),
  }),
});

const locationOut = z.object({
  path: z.string(),
  line: z.number(),
  function: z.string().optional(),
  id: z.string().nullable().describe('innermost enclosing symbol; null at module level'),
  depth: z.number().describe('0 = innermost project frame of its block'),
});

const output = z.object({
  format: z.enum(['python', 'javascript', 'go', 'java', 'rust']),
  message: z.string().nullable(),
  frames: z.object({ total: z.number(), project: z.number(), library: z.number(), unindexed: z.number() }),
  implicated: z.array(implicatedOut).describe('best first'),
  locations: z.array(locationOut).describe('project frames, innermost first per block'),
  unindexed: z.array(z.object({ path: z.string(), line: z.number(), function: z.string().optional() })).describe('frames matching no project file (library frames are only counted)'),
  callers: z.array(z.object({ id: z.string().nullable(), name: z.string(), kind: z.string(), file: z.string(), line: z.number(), call_line: z.number(), confidence: z.number() })).describe('callers of the top symbol, one hop, in file and line order'),
});
type Output = z.infer<typeof output>;

export const investigateFailureTool = defineTool({
  name: 'investigate_failure',
  title: 'Stack trace to code',
  description:
    'Maps a stack trace (Python, JS/TS, Go, JVM, Rust; detected) onto the project: each frame to a file by path suffix and to its ' +
    'innermost enclosing symbol. Symbols are ranked by frame depth (deepest project frame weighs most), frames hit, error-message ' +
    'names, test code last; returns evidence, project locations and the top symbol\'s callers. Library frames are counted and skipped; ' +
    'no project frame: target_not_resolved listing the frames.',
  tier: 'heavy',
  toolset: 'full',
  baseline: 'full_file_read',
  input: z.object({
    project: z.string().optional().describe(PROJECT_PARAM),
    trace: z
      .string()
      .min(1)
      .max(MAX_TRACE_CHARS)
      .describe('The stack trace text with its error message, at most 64 KiB; text with no recognisable frame is invalid_params.'),
    limit: z.number().int().min(1).max(20).default(DEFAULT_LIMIT).describe('Implicated symbols returned: 1–20, default 5.'),
  }),
  output,
  handler: async (args, ctx) => {
    const parsed = parseTrace(args.trace);
    if (!parsed) {
      throw new PincherError('invalid_params', 'invalid arguments for investigate_failure: trace holds no recognisable stack frame', {
        suggestion:
          'paste the whole trace: Python `File "x.py", line N, in f`, Node `at f (file.js:L:C)`, Go `file.go:L +0x…`, Java `at a.B.m(B.java:L)` or Rust `at src/x.rs:L:C` lines',
        details: { issues: [{ param: 'trace', message: 'no stack frame found' }] },
      });
    }
    const base = { format: parsed.format, message: parsed.message, frames: { total: parsed.totalFrames, project: 0, library: 0, unindexed: 0 } };
    const empty: Output = { ...base, implicated: [], locations: [], unindexed: [], callers: [] };
    const project = await resolveProject(ctx, args.project);
    if (!project) return empty;
    return investigate(ctx, project, parsed, args.limit);
  },
});

interface Located {
  frame: Frame;
  path: string;
  /** Rank among the project frames of its block, innermost 0. */
  depth: number;
  symbol: SpanSymbol | null;
}

async function investigate(ctx: ToolContext, project: ProjectRow, parsed: ParsedTrace & { totalFrames: number }, limit: number): Promise<Output> {
  const library = parsed.frames.filter((f) => f.library);
  const candidates = parsed.frames.filter((f) => !f.library);
  // A project path is most often a trailing run of a frame's path (CI's checkout folder before it): the reads of the
  // mapped files are asked for every such run at once, with the look-up of the files by name.
  const guessed = trailingPaths(candidates);
  const early = guessed.length ? frameFileReads(ctx, project, guessed) : null;
  early?.catch(() => undefined);
  const names = await pathsByFileNames(ctx.db, project.id, candidates.flatMap((f) => f.hints.map(baseName)), PER_NAME);
  const ambiguous: string[] = [];
  const mapped: { frame: Frame; path: string }[] = [];
  const unindexed: Frame[] = [];
  for (const f of candidates) {
    const m = matchPath(f.hints, [...new Set(f.hints.flatMap((h) => names.get(baseName(h)) ?? []))]);
    if (!m) {
      unindexed.push(f);
      continue;
    }
    if (m.alternatives.length > 0 && !ambiguous.includes(f.path)) ambiguous.push(f.path);
    mapped.push({ frame: f, path: m.path });
  }
  if (ambiguous.length > 0) {
    ctx.meta.warn('ambiguous_path', `${ambiguous.length} frame path(s) match several project files equally well (${ambiguous.slice(0, 3).join(', ')}); the shortest path was used`, { paths: ambiguous.slice(0, 20) });
  }
  // The mapped files' facts and sizes and the symbols at the frames' lines depend only on the paths: read with the
  // look-up when every mapped path was guessed at its frame's line, else in one more round trip.
  const wanted = mapped.map((m) => ({ path: m.path, line: m.frame.line }));
  const guesses = new Set(guessed.map(lineKey));
  const { files, symbols } = pick(await (early && wanted.every((w) => guesses.has(lineKey(w))) ? early : frameFileReads(ctx, project, wanted)), wanted);
  const facts = new Map(files.map((f) => [f.path, f]));
  const past = mapped.filter((m) => (facts.get(m.path)?.lines ?? Infinity) < m.frame.line);
  if (past.length > 0) {
    ctx.meta.warn('line_out_of_range', `${past.length} frame(s) point past the end of their indexed file (${past.slice(0, 3).map((m) => `${m.path}:${m.frame.line}`).join(', ')}): the trace comes from other code than the index holds`, {
      frames: past.slice(0, 20).map((m) => ({ path: m.path, line: m.frame.line })),
    });
  }

  const innermost = new Map<string, SpanSymbol>();
  for (const s of symbols) {
    const held = innermost.get(s.k);
    if (!held || s.end_line - s.start_line < held.end_line - held.start_line) innermost.set(s.k, s);
  }
  const located = rankDepths(mapped.map((m, i) => ({ frame: m.frame, path: m.path, depth: 0, symbol: innermost.get(String(i)) ?? null })));
  const implicated = score(located, parsed.message);

  const frames = { total: parsed.totalFrames, project: mapped.length, library: library.length, unindexed: unindexed.length };
  const result: Output = {
    format: parsed.format,
    message: parsed.message,
    frames,
    implicated: implicated.slice(0, limit),
    locations: located.slice(0, SHOWN_LOCATIONS).map((l) => ({ path: l.path, line: l.frame.line, ...(l.frame.function ? { function: l.frame.function } : {}), id: l.symbol?.id ?? null, depth: l.depth })),
    unindexed: unindexed.slice(0, 20).map((f) => ({ path: f.path, line: f.line, ...(f.function ? { function: f.function } : {}) })),
    callers: [],
  };
  const top = implicated[0];
  if (top) {
    const callers = await callersOf(ctx.db, project.id, [top.id], { kinds: ['CALLS'], limit: 200 });
    const seen = new Set<string>();
    result.callers = [...callers]
      .sort((a, b) => a.node.file.localeCompare(b.node.file) || a.line - b.line)
      .filter((c) => {
        const key = c.node.id ?? `${c.node.file}::`;
        return !seen.has(key) && seen.add(key);
      })
      .slice(0, SHOWN_CALLERS)
      .map((c) => ({ id: c.node.id, name: c.node.name, kind: c.node.kind, file: c.node.file, line: c.node.line, call_line: c.line, confidence: c.confidence }));
    if (result.callers.length === 0) warnCoverage(ctx, located.find((l) => l.symbol?.id === top.id)?.symbol?.language ?? '');
    ctx.meta.next('symbol', { project: project.name, id: top.id }, `the source of ${top.id}, the most implicated symbol`);
    ctx.meta.next('read', { project: project.name, path: top.file_path, offset: Math.max(1, top.line - 5), limit: 11 }, `line ${top.line} of ${top.file_path}, where the innermost frame points`);
    if (result.callers.length > 0) ctx.meta.next('trace', { project: project.name, id: top.id, direction: 'inbound', depth: 3 }, `every caller of ${top.id} up to depth 3`);
  } else {
    explainNoSymbol(ctx, project, parsed, located, unindexed, library, facts);
  }
  fullFileReadBaseline(ctx, project.id, files);
  return result;
}

/** Trailing runs of segments of a frame path tried as project paths: `a/b/c.py`, `b/c.py`, `c.py`; at most this many per hint. */
const GUESSED_RUNS = 8;

/** Each frame's line at every trailing run of its path hints (see GUESSED_RUNS), once per path and line. */
function trailingPaths(frames: readonly Frame[]): { path: string; line: number }[] {
  const out = new Map<string, { path: string; line: number }>();
  for (const f of frames) {
    for (const hint of f.hints) {
      const parts = segments(hint);
      for (let k = 1; k <= Math.min(parts.length, GUESSED_RUNS); k++) {
        const at = { path: parts.slice(-k).join('/'), line: f.line };
        out.set(lineKey(at), at);
      }
    }
  }
  return [...out.values()];
}

interface FrameFileReads {
  files: FileFacts[];
  /** The symbols at each line, `k` being `path NUL line`. */
  symbols: SpanSymbol[];
}

/** The facts of the files of `at` and the code symbols at its lines, in one round trip. */
async function frameFileReads(ctx: ToolContext, project: ProjectRow, at: readonly { path: string; line: number }[]): Promise<FrameFileReads> {
  const [files, symbols] = await Promise.all([
    filesByPaths(ctx.db, project.id, [...new Set(at.map((a) => a.path))]),
    symbolsOverlapping(ctx.db, project.id, [...new Map(at.map((a) => [lineKey(a), { k: lineKey(a), path: a.path, start: a.line, end: a.line }])).values()], true),
  ]);
  return { files, symbols };
}

function lineKey(a: { path: string; line: number }): string {
  return `${a.path}\u0000${a.line}`;
}

/** What the mapped frames need of the reads: the files of `wanted` (with their sizes), the symbols at the i-th line keyed `i`. */
function pick(reads: FrameFileReads, wanted: readonly { path: string; line: number }[]): FrameFileReads {
  const paths = new Set(wanted.map((w) => w.path));
  const byKey = new Map<string, SpanSymbol[]>();
  for (const s of reads.symbols) {
    const list = byKey.get(s.k);
    if (list) list.push(s);
    else byKey.set(s.k, [s]);
  }
  return {
    files: reads.files.filter((f) => paths.has(f.path)),
    symbols: wanted.flatMap((w, i) => (byKey.get(lineKey(w)) ?? []).map((s) => ({ ...s, k: String(i) }))),
  };
}

/** Sets each located frame's depth to its rank among the project frames of its block (innermost 0), innermost first. */
function rankDepths(located: Located[]): Located[] {
  const byBlock = new Map<number, Located[]>();
  for (const l of located) byBlock.set(l.frame.block, [...(byBlock.get(l.frame.block) ?? []), l]);
  const out: Located[] = [];
  for (const block of [...byBlock.keys()].sort((a, b) => a - b)) {
    const list = (byBlock.get(block) ?? []).sort((a, b) => a.frame.depth - b.frame.depth);
    list.forEach((l, k) => (l.depth = k));
    out.push(...list);
  }
  return out;
}

/** Identifiers of the error message (3+ characters), for name matches. */
function messageNames(message: string | null): Set<string> {
  return new Set((message ?? '').match(/[A-Za-z_$][\w$]{2,}/g) ?? []);
}

/**
 * Score per symbol: Σ 1/(1 + depth) over its frames (depth among the project
 * frames of the block, innermost 0), + 0.5 when its name is in the error
 * message, × 0.5 for test code. Ties: shallower depth, then more frames.
 */
function score(located: readonly Located[], message: string | null): Output['implicated'] {
  const names = messageNames(message);
  const bySymbol = new Map<string, { s: SpanSymbol; weight: number; frames: number; deepest: number; line: number }>();
  for (const l of located) {
    if (!l.symbol) continue;
    const held = bySymbol.get(l.symbol.id) ?? { s: l.symbol, weight: 0, frames: 0, deepest: Infinity, line: l.frame.line };
    held.weight += 1 / (1 + l.depth);
    held.frames++;
    if (l.depth < held.deepest) {
      held.deepest = l.depth;
      held.line = l.frame.line;
    }
    bySymbol.set(l.symbol.id, held);
  }
  return [...bySymbol.values()]
    .map(({ s, weight, frames, deepest, line }) => {
      const messageMatch = names.has(s.name);
      const test = s.is_test === 1;
      const value = (weight + (messageMatch ? MESSAGE_BONUS : 0)) * (test ? TEST_FACTOR : 1);
      return {
        ...spanView(s),
        line,
        score: Math.round(value * 1000) / 1000,
        evidence: { frames, deepest, message_match: messageMatch, test_code: test },
      };
    })
    .sort((a, b) => b.score - a.score || a.evidence.deepest - b.evidence.deepest || b.evidence.frames - a.evidence.frames || a.id.localeCompare(b.id));
}

function frameLabel(f: Frame): string {
  return `${f.function ? `${f.function} ` : ''}${f.path}:${f.line}`;
}

/** Why no symbol is implicated, most specific cause first, with steps that locate the code another way. */
function explainNoSymbol(
  ctx: ToolContext,
  project: ProjectRow,
  parsed: ParsedTrace & { totalFrames: number },
  located: readonly Located[],
  unindexed: readonly Frame[],
  library: readonly Frame[],
  facts: ReadonlyMap<string, FileFacts>,
): void {
  const seen = parsed.frames.slice(0, 20).map((f) => ({ path: f.path, line: f.line, ...(f.function ? { function: f.function } : {}), library: f.library }));
  if (located.length === 0) {
    const sample = unindexed.slice(0, 3).map(frameLabel);
    ctx.meta.empty(
      'target_not_resolved',
      `none of the ${parsed.totalFrames} ${parsed.format} frame(s) is in project '${project.name}': ${library.length} in libraries or the runtime, ` +
        `${unindexed.length} in files the index does not hold${sample.length ? ` (${sample.join('; ')})` : ''}`,
      { frames: seen },
    );
    const fns = [...new Set(unindexed.map((f) => f.function?.match(/[A-Za-z_$][\w$]*(?=\W*$)/)?.[0]).filter((n): n is string => !!n && n.length > 1))];
    for (const fn of fns.slice(0, 2)) ctx.meta.next('search', { project: project.name, query: fn }, `find '${fn}' in the project (its file may have moved)`);
    ctx.meta.next('list', {}, 'check that the trace comes from this project');
    return;
  }
  const files = [...new Set(located.map((l) => l.path))];
  const stats = files.map((p) => facts.get(p)).filter((f): f is FileFacts => f !== undefined);
  if (stats.length > 0 && stats.every((f) => f.language === 'none')) {
    ctx.meta.empty('unsupported_language', `the project frames point into files without a language extractor (${files.slice(0, 5).join(', ')}), so no symbol encloses them`, { files: files.slice(0, 20) });
    ctx.meta.next('read', { project: project.name, path: located[0].path, offset: Math.max(1, located[0].frame.line - 5), limit: 11 }, `line ${located[0].frame.line} of ${located[0].path}`);
    return;
  }
  if (stats.length > 0 && stats.every((f) => f.symbol_count === 0)) {
    ctx.meta.empty('extractor_emitted_nothing', `the files the frames point into hold no extracted symbol (${stats.slice(0, 5).map((f) => `${f.path}: ${f.status}${f.reason ? ` ${f.reason}` : ''}`).join(', ')})`, { files: files.slice(0, 20) });
    ctx.meta.next('health', { project: project.name }, 'see extraction failures by reason');
    return;
  }
  const first = located[0];
  ctx.meta.empty('target_not_resolved', `the ${located.length} project frame(s) point at module-level code, outside any symbol (first: ${first.path}:${first.frame.line})`, { frames: seen });
  ctx.meta.next('read', { project: project.name, path: first.path, offset: Math.max(1, first.frame.line - 5), limit: 11 }, `line ${first.frame.line} of ${first.path}, where the innermost project frame points`);
}
