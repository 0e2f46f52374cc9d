import * as z from 'zod';
import { PincherError } from '../errors';
import { IMPORTERS_LIMIT, importersOf, isTestPath, walk, type FileImport, type Hop } from '../db/graph';
import type { ProjectRow } from '../db/projects';
import { tokensForBytes } from '../envelope/tokens';
import { chooseSide, MAX_DIFF_CHARS, overlaps, parseDiff, type DiffFile, type Side, type Span } from '../composites/diff';
import { contestedContents, filesByPaths, filesWithTests, symbolsOverlapping, type FileFacts, type LineProbe, type SpanSymbol } from '../db/composites';
import { defineTool, type ToolContext } from './define';
import { PROJECT_PARAM } from './describe';
import { resolveProject } from './project-scope';
import { normaliseRepoPath } from './read/files';
import { DEFAULT_MIN_CONFIDENCE } from '../graph/view';
import { checkGraphState, nodeOut, riskOf, spanView, symbolSpanOut, warnCoverage, warnHidden } from './graph-common';

const MAX_RANGES = 500;
const DEFAULT_DEPTH = 2;
const DEFAULT_LIMIT = 50;
/** Changed symbols returned; the rest are counted in changed_total. */
const MAX_CHANGED = 200;
/** Content compared against the diff per call (diff files whose both sides are stored, bytes); past it the old side is assumed. */
const CHECK_PAIRS = 100;
const CHECK_BYTES = 8 * 1024 * 1024;
/** A diff longer than this is not repeated in a next step. */
const STEP_DIFF_CHARS = 8_000;

const range = z.object({
  path: z.string().min(1).max(1024),
  start_line: z.number().int().min(1),
  end_line: z.number().int().min(1),
});

const fileOut = z.object({
  path: z.string().describe('the path as indexed (the new path when the index already holds the change)'),
  old_path: z.string().optional().describe('a rename: the path before it, when path is the new one'),
  new_path: z.string().optional().describe('a rename: the path after it, when path is the old one'),
  status: z.enum(['modified', 'added', 'deleted', 'renamed']),
  indexed: z.boolean(),
  side: z.enum(['old', 'new']).optional().describe('diff side whose line numbers were used (the side the index holds)'),
  changed_lines: z.number(),
});

const changedOut = symbolSpanOut.extend({
  is_test: z.boolean(),
  innermost: z.boolean().describe('no other changed symbol inside it for the same change; callers are walked from these'),
});

const impactedOut = nodeOut.extend({
  depth: z.number(),
  risk: z.enum(['high', 'medium', 'low']),
  via: z.string().describe('the changed symbol or caller it calls'),
  call_line: z.number(),
  confidence: z.number(),
});

const testOut = z.object({
  path: z.string(),
  ids: z.array(z.string()).describe('test symbols of the file involved'),
  reasons: z.array(z.enum(['changed', 'calls_changed', 'imports_changed_file'])),
});

const output = z.object({
  files: z.array(fileOut),
  changed: z.array(changedOut).describe('innermost first'),
  changed_total: z.number(),
  impacted: z.array(impactedOut),
  impacted_total: z.number(),
  tests: z.array(testOut),
  unknown: z.array(z.string()).describe('files of the input that are not in the index'),
});
type Output = z.infer<typeof output>;

const EMPTY: Output = { files: [], changed: [], changed_total: 0, impacted: [], impacted_total: 0, tests: [], unknown: [] };

/** One input file mapped onto the index: the stored path, the side used, its changed spans. */
interface Target {
  file: z.infer<typeof fileOut>;
  /** Stored path; null when the file is not in the index. */
  stored: string | null;
  spans: Span[];
  /** Per span, the key its symbols were asked for under (Lookups.symbols). */
  keys: string[];
  facts?: FileFacts;
}

/**
 * What the first round trip reads besides the input's files: the symbols overlapping every span the input may
 * name and the files importing every path it names, asked before the files' rows say which side of a diff the
 * index holds or which paths are stored, so the call's second trip is the caller walk (three became two).
 * `importers` is null when its read was cut by IMPORTER_ROWS: the exact read is then made on its own.
 */
interface Lookups {
  symbols: SpanSymbol[];
  importers: FileImport[] | null;
}

/** Rows the early importers read (of every path of the input) takes; past it the read is made again for the stored files only. */
const IMPORTER_ROWS = 4 * IMPORTERS_LIMIT;

/** Every span of `probes` asked at once, with the importers of `paths`: the reads of Lookups, sent in the caller's round trip. */
function lookups(ctx: ToolContext, projectId: string, probes: readonly LineProbe[], paths: readonly string[]): Promise<Lookups> {
  return Promise.all([
    probes.length ? symbolsOverlapping(ctx.db, projectId, probes) : Promise.resolve([]),
    importersOf(ctx.db, projectId, paths, IMPORTER_ROWS),
  ]).then(([symbols, importers]) => ({ symbols, importers: importers.length >= IMPORTER_ROWS ? null : importers }));
}

export const changesTool = defineTool({
  name: 'changes',
  title: 'Impact of a diff',
  description:
    'What a change touches: changed symbols (innermost first), their callers walked to depth with risk (1 high, 2 medium, 3 low), ' +
    'and tests to run (test callers, test files importing changed files). Exactly one of diff or ranges. ' +
    'Files not in the index are listed in unknown with an unindexed_files warning.',
  tier: 'heavy',
  toolset: 'full',
  baseline: 'read_all_changed',
  input: z.object({
    project: z.string().optional().describe(PROJECT_PARAM),
    diff: z
      .string()
      .max(MAX_DIFF_CHARS)
      .optional()
      .describe(
        'Unified diff (git diff -U0 or any context), at most 512 KiB, non-empty; malformed hunk headers are invalid_params. ' +
          'Lines map onto the side the stored content matches; with no evidence the index is assumed to hold the pre-change (old) side. Not with ranges.',
      ),
    ranges: z
      .array(range)
      .min(1)
      .max(MAX_RANGES)
      .optional()
      .describe(
        '1–500 {path, start_line, end_line}: project-relative path (no absolute or .. paths), 1-based inclusive lines of the indexed content, ' +
          'start_line ≤ end_line; past the end: line_out_of_range warning. Not with diff.',
      ),
    depth: z.number().int().min(1).max(3).default(DEFAULT_DEPTH).describe('Caller levels: 1–3, default 2.'),
    limit: z.number().int().min(1).max(200).default(DEFAULT_LIMIT).describe('Impacted callers returned: 1–200, default 50; impacted_total counts all.'),
    min_confidence: z.number().min(0).max(1).optional().describe(`0–1, default ${DEFAULT_MIN_CONFIDENCE}: caller edges under it (name guesses) are not followed.`),
  }),
  output,
  handler: async (args, ctx) => {
    if ((args.diff === undefined) === (args.ranges === undefined)) {
      throw new PincherError('invalid_params', 'invalid arguments for changes: pass exactly one of diff or ranges', {
        suggestion: 'pass diff (the output of `git diff -U0`) or ranges ([{path, start_line, end_line}]), not both',
        details: { issues: [{ param: args.diff === undefined ? 'diff' : 'ranges', message: 'exactly one of diff or ranges' }] },
      });
    }
    const bad = args.ranges?.findIndex((r) => r.start_line > r.end_line) ?? -1;
    if (bad >= 0) {
      const r = args.ranges?.[bad];
      throw new PincherError('invalid_params', `invalid arguments for changes: ranges[${bad}] has start_line ${r?.start_line} after end_line ${r?.end_line}`, {
        suggestion: 'give each range as start_line ≤ end_line (1-based, inclusive)',
        details: { issues: [{ param: `ranges.${bad}`, message: 'start_line must be ≤ end_line' }] },
      });
    }
    const diff = args.diff === undefined ? null : parseDiff(args.diff);
    const ranges = args.ranges?.map((r) => ({ ...r, path: normaliseRepoPath(r.path) }));
    const project = await resolveProject(ctx, args.project);
    if (!project) return EMPTY;

    const { targets, early } = diff ? await diffTargets(ctx, project, diff) : await rangeTargets(ctx, project, ranges ?? []);
    const unknown = targets.filter((t) => t.stored === null).map((t) => t.file.path);
    if (unknown.length > 0) {
      ctx.meta.warn('unindexed_files', `${unknown.length} file(s) of the input are not in the index (new, or not pushed): ${unknown.slice(0, 5).join(', ')}`, { files: unknown.slice(0, 50) });
    }
    const indexed = targets.filter((t): t is Target & { stored: string } => t.stored !== null);
    ctx.meta.baseline('read_all_changed', tokensForBytes(indexed.filter((t) => t.spans.length > 0).reduce((n, t) => n + (t.facts?.size ?? 0), 0)));

    const changedFiles = indexed.filter((t) => t.spans.length > 0).map((t) => t.stored);
    // The changed symbols and the files importing the changed files came with the files (Lookups); which of those hold tests is read with the walk.
    const changed = changedSymbols(indexed, early.symbols);
    const importers = await importersOfChanged(ctx, project.id, changedFiles, early.importers);
    const innermost = changed.filter((c) => c.innermost).map((c) => c.id);
    const pending = checkGraphState(ctx, project);
    const floor = args.min_confidence ?? DEFAULT_MIN_CONFIDENCE;
    const candidates = importingCandidates(importers, changedFiles);
    const [walked, withTests] = await Promise.all([
      innermost.length
        ? walk(ctx.db, project.id, innermost, { direction: 'in', depth: args.depth, kinds: ['CALLS'], minConfidence: floor, includeTests: true, maxHops: 2000, countHidden: args.min_confidence === undefined })
        : null,
      filesWithTests(ctx.db, project.id, candidates),
    ]);
    // The step repeats the input: past STEP_DIFF_CHARS of diff the warning alone says what to pass.
    const again = args.diff === undefined || args.diff.length <= STEP_DIFF_CHARS;
    const step = { tool: 'changes', args: { project: project.name, ...(args.diff === undefined ? { ranges: args.ranges } : { diff: args.diff }), depth: args.depth, limit: args.limit } };
    if (walked) warnHidden(ctx, walked.hidden, floor, again ? step : null);
    const hops = walked?.hops ?? [];
    const impactedAll = hops.filter((h) => !h.node.isTest);
    const tests = testsToRun(changed, hops.filter((h) => h.node.isTest), candidates, withTests);
    for (const language of new Set(changed.filter((c) => c.innermost).map((c) => c.language))) warnCoverage(ctx, language);
    if (walked && !walked.complete) ctx.meta.warn('walk_incomplete', 'a level of the caller walk hit the edge-row ceiling: impacted_total is a lower bound', { total: walked.total });

    const result: Output = {
      files: targets.map((t) => t.file),
      changed: changed.slice(0, MAX_CHANGED).map(({ language: _l, ...c }) => c),
      changed_total: changed.length,
      impacted: impactedAll.slice(0, args.limit).map(impactedView),
      impacted_total: impactedAll.length,
      tests,
      unknown,
    };
    if (changed.length > MAX_CHANGED) {
      ctx.meta.warn('changed_truncated', `showing ${MAX_CHANGED} of ${changed.length} changed symbols; split the diff or pass narrower ranges`, { total: changed.length });
    }
    if (impactedAll.length > args.limit) {
      const top = mostCalled(impactedAll, innermost);
      ctx.meta.next('trace', { project: project.name, id: top, direction: 'inbound', depth: args.depth, max_hops: 200 }, `walk the callers of ${top}, the changed symbol with the most impacted callers`);
    }
    if (changed.length === 0 && tests.length === 0) explainNothingChanged(ctx, project, targets, pending);
    else if (changed.length > 0) ctx.meta.next('symbols', { project: project.name, ids: changed.filter((c) => c.innermost).slice(0, 100).map((c) => c.id) }, 'the source of the changed symbols');
    return result;
  },
});

type Changed = z.infer<typeof changedOut> & { language: string };

/**
 * Symbols overlapping the changed spans, innermost first (smallest span first within a file), out of `rows`: the
 * symbols of every span the input may name (Lookups.symbols), of which those of the targets' own spans count.
 */
function changedSymbols(targets: readonly (Target & { stored: string })[], rows: readonly SpanSymbol[]): Changed[] {
  const spans = new Map<string, Span>();
  for (const t of targets) t.keys.forEach((k, j) => spans.set(k, t.spans[j]));
  if (spans.size === 0) return [];
  // Per span: the overlapping symbols (a 'between' span needs a symbol straddling it), and which contain no other.
  const bySpan = new Map<string, SpanSymbol[]>();
  for (const r of rows) {
    const span = spans.get(r.k);
    if (span && overlaps(span, r.start_line, r.end_line)) bySpan.set(r.k, [...(bySpan.get(r.k) ?? []), r]);
  }
  const all = new Map<string, SpanSymbol>();
  const inner = new Set<string>();
  for (const list of bySpan.values()) {
    for (const r of list) {
      all.set(r.id, r);
      const containsOther = list.some((o) => o.id !== r.id && o.start_line >= r.start_line && o.end_line <= r.end_line && (o.start_line > r.start_line || o.end_line < r.end_line || o.id > r.id));
      if (!containsOther) inner.add(r.id);
    }
  }
  const order = new Map(targets.map((t, i) => [t.stored, i]));
  return [...all.values()]
    .sort((a, b) => (order.get(a.file_path) ?? 0) - (order.get(b.file_path) ?? 0) || a.end_line - a.start_line - (b.end_line - b.start_line) || a.start_line - b.start_line)
    .map((r) => ({
      ...spanView(r),
      is_test: r.is_test === 1,
      innermost: inner.has(r.id),
      language: r.language,
    }));
}

function fileEntry(f: DiffFile, path: string, indexed: boolean, side?: Side): z.infer<typeof fileOut> {
  const other = f.status !== 'renamed' ? {} : path === f.newPath ? { old_path: f.oldPath ?? undefined } : { new_path: f.newPath ?? undefined };
  return { path, ...other, status: f.status, indexed, ...(side ? { side } : {}), changed_lines: f.changedLines };
}

/** Maps each diff file onto the index: which stored path, which side's line numbers. */
async function diffTargets(ctx: ToolContext, project: ProjectRow, files: readonly DiffFile[]): Promise<{ targets: Target[]; early: Lookups }> {
  const wanted = files.flatMap((f) => [f.oldPath, f.newPath].filter((p): p is string => p !== null));
  // Both sides' spans of each file, keyed by file, side and span: the side the index holds is known after this trip.
  const key = (i: number, side: Side, j: number) => `${i}:${side}:${j}`;
  const probes = files.flatMap((f, i) =>
    (['old', 'new'] as const).flatMap((side) => {
      const path = side === 'old' ? f.oldPath : f.newPath;
      return path === null ? [] : f[side].map((span, j) => ({ k: key(i, side, j), path, start: span.start, end: span.end }));
    }),
  );
  // Files whose two sides may both be stored (a modified file, or a rename): where both are, the content decides.
  // Their contents ride with the look-up of which paths are stored, up to the caps (a diff, at most MAX_DIFF_CHARS,
  // always fits one statement); past the caps, or without stored content, the old side is assumed.
  const maybe = files.filter((f) => f.oldPath && f.newPath && (f.oldText.length || f.newText.length)).map((f) => ({ old: f.oldPath as string, new: f.newPath as string }));
  const [facts, contents, early] = await Promise.all([
    filesByPaths(ctx.db, project.id, wanted).then((rows) => new Map(rows.map((f) => [f.path, f]))),
    maybe.length ? contestedContents(ctx.db, project.id, maybe, CHECK_PAIRS, CHECK_BYTES) : new Map<string, string>(),
    lookups(ctx, project.id, probes, wanted),
  ]);
  const mismatched: string[] = [];
  const targets = files.map((f, i): Target => {
    const hasOld = f.oldPath !== null && facts.has(f.oldPath);
    const hasNew = f.newPath !== null && facts.has(f.newPath);
    if (!hasOld && !hasNew) return { file: fileEntry(f, f.newPath ?? f.oldPath ?? '', false), stored: null, spans: [], keys: [] };
    let side: Side = hasOld ? 'old' : 'new';
    if (hasOld && hasNew) {
      const oldContent = contents.get(f.oldPath as string);
      const newContent = contents.get(f.newPath as string);
      if (oldContent !== undefined && newContent !== undefined) {
        const choice = chooseSide(f, oldContent, newContent);
        side = choice.side;
        if (choice.evidence === 'mismatch') mismatched.push(f.newPath as string);
      }
    }
    const stored = (side === 'old' ? f.oldPath : f.newPath) as string;
    const spans = side === 'old' ? f.old : f.new;
    return { file: fileEntry(f, stored, true, side), stored, spans, keys: spans.map((_, j) => key(i, side, j)), facts: facts.get(stored) };
  });
  if (mismatched.length > 0) {
    ctx.meta.warn(
      'diff_content_mismatch',
      `the stored content of ${mismatched.length} file(s) matches neither side of the diff (${mismatched.slice(0, 5).join(', ')}): the index is from another commit, so changed lines may point at the wrong symbols; push the base commit or pass ranges`,
      { files: mismatched.slice(0, 50) },
    );
  }
  return { targets, early };
}

/** Ranges grouped per file; lines past the end of a stored file are dropped with line_out_of_range. */
async function rangeTargets(ctx: ToolContext, project: ProjectRow, ranges: readonly z.infer<typeof range>[]): Promise<{ targets: Target[]; early: Lookups }> {
  // Every range's symbols, keyed by its position: which ranges count (stored files, within their lines) is known after this trip.
  const probes = ranges.map((r, i) => ({ k: String(i), path: r.path, start: r.start_line, end: r.end_line }));
  const paths = ranges.map((r) => r.path);
  const [rows, early] = await Promise.all([filesByPaths(ctx.db, project.id, paths), lookups(ctx, project.id, probes, paths)]);
  const facts = new Map(rows.map((f) => [f.path, f]));
  const byPath = new Map<string, { spans: Span[]; keys: string[] }>();
  const past: string[] = [];
  ranges.forEach((r, i) => {
    const held = byPath.get(r.path) ?? { spans: [], keys: [] };
    byPath.set(r.path, held);
    const lines = facts.get(r.path)?.lines;
    if (lines !== undefined && lines !== null && r.start_line > lines) {
      past.push(`${r.path}:${r.start_line}-${r.end_line} (${lines} lines)`);
      return;
    }
    held.spans.push({ start: r.start_line, end: r.end_line, between: false });
    held.keys.push(String(i));
  });
  if (past.length > 0) ctx.meta.warn('line_out_of_range', `${past.length} range(s) start past the end of their file and were skipped: ${past.slice(0, 5).join(', ')}`, { ranges: past.slice(0, 50) });
  const targets = [...byPath].map(([path, { spans, keys }]): Target => {
    const f = facts.get(path);
    const changedLines = spans.reduce((n, s) => n + s.end - s.start + 1, 0);
    return { file: { path, status: 'modified', indexed: f !== undefined, changed_lines: changedLines }, stored: f ? path : null, spans, keys, facts: f };
  });
  return { targets, early };
}

/**
 * The files importing `changedFiles`, as importersOf reads them: out of the early read of every path of the input
 * (in the same order, so the same first IMPORTERS_LIMIT rows importersOf keeps), or read now when that read was cut.
 */
async function importersOfChanged(ctx: ToolContext, projectId: string, changedFiles: readonly string[], early: FileImport[] | null): Promise<FileImport[]> {
  if (changedFiles.length === 0) return [];
  if (early === null) return importersOf(ctx.db, projectId, changedFiles);
  const changed = new Set(changedFiles);
  return early.filter((i) => changed.has(i.target)).slice(0, IMPORTERS_LIMIT);
}

function impactedView(h: Hop): z.infer<typeof impactedOut> {
  return { id: h.node.id, name: h.node.name, kind: h.node.kind, file: h.node.file, line: h.node.line, depth: h.depth, risk: riskOf(h.depth), via: h.via, call_line: h.line, confidence: h.confidence };
}

/** The start symbol whose depth-1 callers are most numerous (the walk's first level is keyed by it). */
function mostCalled(hops: readonly Hop[], starts: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const h of hops) if (h.depth === 1) counts.set(h.via, (counts.get(h.via) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? starts[0];
}

/** Files importing a changed file that may hold tests to run: other files, and changed test files. */
function importingCandidates(importers: readonly FileImport[], changedFiles: readonly string[]): string[] {
  return [...new Set(importers.map((i) => i.file))].filter((f) => !changedFiles.includes(f) || isTestPath(f));
}

/** Test files to run: changed tests, tests calling changed code (any depth walked), test files importing a changed file (`candidates`, those of them `withTests`). */
function testsToRun(changed: readonly Changed[], testHops: readonly Hop[], candidates: readonly string[], withTests: ReadonlySet<string>): z.infer<typeof testOut>[] {
  const byPath = new Map<string, { ids: Set<string>; reasons: Set<z.infer<typeof testOut>['reasons'][number]> }>();
  const add = (path: string, reason: z.infer<typeof testOut>['reasons'][number], id?: string | null) => {
    const e = byPath.get(path) ?? { ids: new Set<string>(), reasons: new Set() };
    if (id) e.ids.add(id);
    e.reasons.add(reason);
    byPath.set(path, e);
  };
  for (const c of changed) if (c.is_test) add(c.file_path, 'changed', c.innermost ? c.id : null);
  for (const h of testHops) add(h.node.file, 'calls_changed', h.node.id);
  for (const f of candidates) if (isTestPath(f) || withTests.has(f)) add(f, 'imports_changed_file');
  return [...byPath]
    .map(([path, e]) => ({ path, ids: [...e.ids], reasons: [...e.reasons] }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** The empty reason when no symbol and no test is touched, most specific cause first. */
function explainNothingChanged(ctx: ToolContext, project: ProjectRow, targets: readonly Target[], pending: boolean): void {
  const indexed = targets.filter((t) => t.stored !== null);
  const withSpans = indexed.filter((t) => t.spans.length > 0);
  if (indexed.length === 0) {
    const paths = targets.map((t) => t.file.path).filter(Boolean);
    ctx.meta.empty('target_not_resolved', `none of the ${targets.length} file(s) of the input is in project '${project.name}': ${paths.slice(0, 5).join(', ')}`, { files: paths.slice(0, 50) });
    const name = paths[0]?.slice(paths[0].lastIndexOf('/') + 1);
    if (name) ctx.meta.next('find', { project: project.name, pattern: name }, `look for ${name} elsewhere in the project (moved or renamed?)`);
    ctx.meta.next('list', {}, 'check that this is the project the diff belongs to');
    return;
  }
  if (withSpans.length === 0) {
    ctx.meta.empty('no_results_in_corpus', `the input changes no line of the ${indexed.length} indexed file(s) (renames, mode or binary changes, or ranges past the end)`, { files: indexed.map((t) => t.file.path).slice(0, 50) });
    ctx.meta.next('read', { project: project.name, path: indexed[0].file.path, map: true }, `the symbols of ${indexed[0].file.path}`);
    return;
  }
  const facts = withSpans.map((t) => t.facts).filter((f): f is FileFacts => f !== undefined);
  if (facts.length > 0 && facts.every((f) => f.language === 'none')) {
    ctx.meta.empty('unsupported_language', `the changed files (${facts.map((f) => f.path).slice(0, 5).join(', ')}) have no language extractor, so they hold no symbols`, { files: facts.map((f) => f.path).slice(0, 50) });
    ctx.meta.next('health', { project: project.name }, 'list the languages with an extractor');
    return;
  }
  if (facts.length > 0 && facts.every((f) => f.language === 'none' || f.symbol_count === 0)) {
    ctx.meta.empty('extractor_emitted_nothing', `the extractor found no symbol in the changed files (${facts.map((f) => `${f.path}: ${f.status}${f.reason ? ` ${f.reason}` : ''}`).slice(0, 5).join(', ')})`, { files: facts.map((f) => f.path).slice(0, 50) });
    ctx.meta.next('health', { project: project.name }, 'see extraction failures by reason');
    return;
  }
  if (pending) {
    ctx.meta.diagnose('graph_pending', 'info', 'the call graph of the last push is still being resolved; test importers may be missing');
  }
  const first = withSpans[0];
  const line = first.spans[0].start;
  ctx.meta.empty('no_results_in_corpus', `the changed lines touch no symbol of ${withSpans.map((t) => t.file.path).slice(0, 5).join(', ')} (module-level code, imports or comments) and no test imports them`, {
    files: withSpans.map((t) => t.file.path).slice(0, 50),
  });
  ctx.meta.next('read', { project: project.name, path: first.file.path, offset: Math.max(1, line), limit: 20 }, `the changed lines of ${first.file.path} around line ${line}`);
}
