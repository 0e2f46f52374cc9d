import { codeUnitOrder } from '../util/order';
import * as z from 'zod';
import { projectFiles, type CandidateFiles, type CandidatePage, type FileRow } from '../db/content';
import { tokensForBytes } from '../envelope/tokens';
import { PincherError } from '../errors';
import { defineTool, type ToolContext } from './define';
import { PROJECT_PARAM } from './describe';
import type { Glob } from '../util/glob';
import { compilePattern, type Matcher } from './grep/pattern';
import { globArg, globParamText, paramError } from './params';
import { anyMatch, foldedMatch, prefilterFiles, prefilterPage, runGrep } from './grep/run';
import { MAX_LINE, SCAN_BUDGET_MS, type GrepMatch } from './grep/scan';
import { resolveProject } from './project-scope';

const matchOut = z.object({
  path: z.string(),
  line: z.number().describe('1-based'),
  text: z.string(),
  before: z.array(z.string()).optional(),
  after: z.array(z.string()).optional(),
});

const output = z.object({
  matches: z.array(matchOut).optional().describe('Matching lines in path then line order (absent with summary).'),
  files: z.array(z.object({ path: z.string(), count: z.number() })).optional().describe('With summary: matching lines per file.'),
  total_matches: z.number(),
  files_matched: z.number(),
  truncated: z.boolean(),
  counts_exact: z.literal(false).optional().describe('Counts are lower bounds'),
});

type Args = {
  pattern: string;
  literal: boolean;
  ignore_case: boolean;
  path?: string;
  context: number;
  limit: number;
  summary: boolean;
  project?: string;
};
type Output = z.infer<typeof output>;

export const grepTool = defineTool({
  name: 'grep',
  title: 'Grep file contents',
  description:
    `Like grep -rn over indexed text; for non-symbol text; stops after ${SCAN_BUDGET_MS / 1000} s (truncated).`,
  tier: 'lite',
  toolset: 'core',
  baseline: 'grep_recursive',
  input: z.object({
    pattern: z
      .string()
      .min(1)
      .max(1000)
      .describe('JavaScript regex, 1–1000 chars, no nested quantifiers like (a+)+'),
    literal: z.boolean().default(false).describe('Fixed string'),
    ignore_case: z.boolean().default(false),
    path: z
      .string()
      .max(1000)
      .optional()
      .describe(globParamText(1000)),
    context: z.number().int().min(0).max(10).default(0).describe('0–10, default 0'),
    limit: z.number().int().min(1).max(1000).default(100).describe('1–1000, default 100'),
    summary: z.boolean().default(false).describe('Per-file counts only; limit caps files'),
    project: z.string().optional().describe(PROJECT_PARAM),
  }),
  output,
  handler: async (args, ctx) => grep(args, ctx),
});

const EMPTY: Output = { total_matches: 0, files_matched: 0, truncated: false };

async function grep(args: Args, ctx: ToolContext): Promise<Output> {
  const matcher = compilePattern(args.pattern, { literal: args.literal, ignoreCase: args.ignore_case });
  const glob = args.path === undefined ? null : globOf(args.path);
  const empty: Output = args.summary ? { ...EMPTY, files: [] } : { ...EMPTY, matches: [] };

  const project = await resolveProject(ctx, args.project);
  if (!project) return empty;
  const again = (changes: Partial<Args>): Record<string, unknown> => stepArgs({ ...args, project: project.name, ...changes });

  const byPath = (a: FileRow, b: FileRow) => codeUnitOrder(a.path, b.path);
  const files = (under?: string, pathContains?: readonly string[]) => projectFiles(ctx.db, project.id, { under: under || undefined, pathContains }).then((rows) => rows.sort(byPath));
  // Every file of the project, listed only when needed: a full scan, or an empty result to explain.
  let listed: Promise<FileRow[]> | undefined;
  const all = () => (listed ??= files());
  // The prefilter and the scope's file list (a glob to test, or a full scan) go to D1 together; a prefiltered grep
  // over the whole project lists no file: the prefilter names the candidates.
  const folded = args.ignore_case ? null : foldedMatcher(args);
  // A listing may stop once `limit` matches are listed: its prefilter asks for a first page of candidates (each with its
  // content), not all of them; summary counts every file.
  const prefiltered = args.summary
    ? prefilterFiles(ctx.db, project.id, matcher, glob?.folder || undefined, folded)
    : prefilterPage(ctx.db, project.id, matcher, { under: glob?.folder || undefined, pathContains: glob?.literals, folded, context: args.context, need: args.limit });
  const scope: FileRow[] | null = glob ? (await files(glob.folder, glob.literals)).filter((f) => glob.test(f.path)) : matcher.prefilter ? null : await all();
  const inScope = scope ? scope.length : project.fileCount;
  if (inScope === 0) {
    const everything = await all();
    if (everything.length === 0) {
      ctx.meta.empty('no_results_in_corpus', `project '${project.name}' has no files; push its source first`);
      ctx.meta.next('list', {}, 'confirm the right project is scoped');
    } else {
      ctx.meta.empty('query_too_narrow', `path glob '${args.path}' matches none of the ${everything.length} files of '${project.name}'`, { filter: 'path', files: everything.length });
      if (await anyMatch(ctx.db, project.id, null, matcher, all)) ctx.meta.next('grep', again({ path: undefined }), 'search every file: the pattern matches outside the glob');
    }
    return empty;
  }

  const started = Date.now();
  const run = await runGrep(
    ctx.db,
    project.id,
    scope,
    matcher,
    {
      limit: args.limit,
      context: args.context,
      summary: args.summary,
      deadline: started + SCAN_BUDGET_MS,
      stopWhenListed: !args.summary,
    },
    prefiltered,
  );
  const s = run.scan;
  ctx.meta.diagnose('grep_scan', 'info', `scanned ${s.filesScanned} of ${inScope} file(s) in scope (${s.bytesScanned} bytes) in ${Date.now() - started} ms`, {
    candidates_prefiltered: run.candidates,
    files_scanned: s.filesScanned,
    bytes_scanned: s.bytesScanned,
    full_scan: run.fullScan,
    files_in_scope: inScope,
    ...(s.filesUnscanned ? { files_unscanned: s.filesUnscanned } : {}),
    ...(s.filesByLines ? { files_by_lines: s.filesByLines } : {}),
    ...(run.unreadAfter === undefined ? {} : { unread_after: run.unreadAfter }),
    ...(matcher.prefilter ? { literals: matcher.prefilter.literals } : {}),
  });
  // grep_recursive: `grep -rn` printing what this answer delivers; truncating its own output saves nothing.
  ctx.meta.baseline('grep_recursive', 0);
  if (run.fullScan) {
    ctx.meta.warn('grep_full_scan', 'the pattern has no literal of 3+ characters every match must contain, so every file in scope was read; a longer literal makes grep faster', { files: inScope }, 'info');
  }
  if (s.budgetExhausted) {
    ctx.meta.warn('scan_budget_exhausted', `stopped after ${SCAN_BUDGET_MS / 1000} s having scanned ${s.filesScanned} of ${run.candidates} candidate file(s); counts are lower bounds. Narrow path or use a longer literal`, {
      files_scanned: s.filesScanned,
      candidates: run.candidates,
    });
  }
  const partial = !s.countsExact && !s.budgetExhausted;
  if (partial) {
    const unread = run.unreadAfter === undefined ? `${s.filesUnscanned} candidate file(s)` : `the candidate files after '${run.unreadAfter}'`;
    ctx.meta.warn('grep_counts_partial', `listed the first ${s.matches.length} matches and left ${unread} unread; total_matches and files_matched count the ${s.filesScanned} file(s) read: lower bounds. summary: true counts every file`, {
      files_scanned: s.filesScanned,
      ...(run.unreadAfter === undefined ? { files_unscanned: s.filesUnscanned } : { unread_after: run.unreadAfter }),
    }, 'info');
  }
  if (s.clippedLines > 0) {
    ctx.meta.warn('grep_lines_clipped', `${s.clippedLines} line(s) longer than ${MAX_LINE} characters were examined and shown only up to ${MAX_LINE}`, { lines: s.clippedLines }, 'info');
  }

  const filesMatched = s.counts.length;
  if (s.totalMatches === 0) await explainEmpty(args, ctx, { all, scope, inScope, matcher, folded, prefiltered, budgetExhausted: s.budgetExhausted, again, project });

  if (args.summary) {
    const files = s.counts.slice(0, args.limit);
    const truncated = files.length < filesMatched || !s.countsExact;
    if (files.length < filesMatched) ctx.meta.next('grep', again({ limit: Math.min(1000, filesMatched) }), 'list more of the matching files');
    ctx.meta.baseline('grep_recursive', tokensForBytes(files.reduce((n, f) => n + f.path.length + String(f.count).length + 2, 0)));
    const out: Output = { files, total_matches: s.totalMatches, files_matched: filesMatched, truncated };
    if (!s.countsExact) out.counts_exact = false;
    return out;
  }
  const truncated = s.matches.length < s.totalMatches || !s.countsExact;
  if (partial) {
    ctx.meta.next('grep', again({ summary: true, context: 0, limit: 1000 }), `count every match per file: at least ${s.totalMatches} in ${filesMatched}+ file(s), then narrow path`);
  } else if (s.matches.length < s.totalMatches) {
    ctx.meta.next('grep', again({ summary: true, context: 0, limit: Math.min(1000, Math.max(filesMatched, 1)) }), `see how the ${s.totalMatches} matches spread over ${filesMatched} file(s), then narrow path`);
  }
  ctx.meta.baseline('grep_recursive', tokensForBytes(deliveredChars(s.matches, args.context)));
  const out: Output = { matches: s.matches, total_matches: s.totalMatches, files_matched: filesMatched, truncated };
  if (!s.countsExact) out.counts_exact = false;
  return out;
}

/**
 * Characters `grep -rn [-C]` prints for exactly these matches: `path:N:text`
 * per match, `path-N-text` per context line, each line once, and with
 * context a `--` line between non-adjacent groups.
 */
function deliveredChars(matches: readonly GrepMatch[], context: number): number {
  const seen = new Map<string, number[]>();
  let n = 0;
  // path, separator, line number, separator, text, newline
  const line = (path: string, no: number, text: string) => {
    const at = seen.get(path) ?? [];
    if (at.includes(no)) return;
    at.push(no);
    seen.set(path, at);
    n += path.length + String(no).length + text.length + 3;
  };
  for (const m of matches) {
    line(m.path, m.line, m.text);
    const before = m.before ?? [];
    before.forEach((t, k) => line(m.path, m.line - before.length + k, t));
    m.after?.forEach((t, k) => line(m.path, m.line + 1 + k, t));
  }
  if (context > 0) {
    let groups = 0;
    for (const at of seen.values()) groups += at.sort((a, b) => a - b).filter((no, i) => i === 0 || no !== at[i - 1] + 1).length;
    if (groups > 1) n += 3 * (groups - 1);
  }
  return n;
}

async function explainEmpty(
  args: Args,
  ctx: ToolContext,
  c: {
    all: () => Promise<FileRow[]>;
    /** The files in scope; null: every file of the project (not listed). */
    scope: FileRow[] | null;
    inScope: number;
    /** The pattern ignoring case (null under ignore_case, or when folding is unsafe). */
    folded: Matcher | null;
    prefiltered: Promise<CandidateFiles | CandidatePage | null>;
    matcher: Matcher;
    budgetExhausted: boolean;
    again: (changes: Partial<Args>) => Record<string, unknown>;
    project: { id: string; name: string };
  },
): Promise<void> {
  if (c.budgetExhausted) {
    ctx.meta.empty('cap_dropped_all', `the ${SCAN_BUDGET_MS / 1000} s scan budget ran out before any match; narrow path or use a pattern with a longer literal`, { cap: 'scan_budget' });
    return;
  }
  const pid = c.project.id;
  if (args.path !== undefined && c.inScope < (await c.all()).length && (await anyMatch(ctx.db, pid, null, c.matcher, c.all))) {
    ctx.meta.empty('query_too_narrow', `no line matches in the ${c.inScope} file(s) under path glob '${args.path}', but the pattern matches elsewhere in '${c.project.name}'`, { filter: 'path' });
    ctx.meta.next('grep', c.again({ path: undefined }), 'search every file: the pattern matches outside the glob');
    return;
  }
  const where = args.path === undefined ? `project '${c.project.name}'` : `the ${c.inScope} file(s) under '${args.path}'`;
  ctx.meta.empty('no_results_in_corpus', `no line in ${where} matches ${args.literal ? 'the string' : 'the pattern'} ${JSON.stringify(args.pattern)}${args.ignore_case ? ' (ignoring case)' : ''}`);
  if (c.folded) {
    if (await foldedMatch(ctx.db, pid, c.scope, c.folded, await c.prefiltered, c.all)) {
      ctx.meta.next('grep', c.again({ ignore_case: true }), 'the pattern matches when case is ignored');
      return;
    }
  }
  const word = searchTerm(args.pattern, args.literal, c.matcher);
  if (word) ctx.meta.next('search', { query: word, project: c.project.name }, `look for '${word}' among symbol names and docs`);
  ctx.meta.next('list', {}, 'confirm the right project is scoped');
}

/** The same pattern ignoring case, or null when folding makes it unsafe (e.g. (a|A)+ then overlaps). */
function foldedMatcher(args: Args): Matcher | null {
  try {
    return compilePattern(args.pattern, { literal: args.literal, ignoreCase: true });
  } catch (err) {
    if (err instanceof PincherError) return null;
    throw err;
  }
}

/**
 * The word a symbol search should try: the longest identifier in the fixed
 * string or the regex's required literals (search's query syntax would
 * refuse punctuation such as an unbalanced parenthesis).
 */
function searchTerm(pattern: string, literal: boolean, m: Matcher): string | null {
  const sources = literal ? [pattern] : [...(m.prefilter?.literals ?? []), pattern.replace(/\\./g, ' ')];
  const words = sources.flatMap((s) => s.match(/[A-Za-z_][A-Za-z0-9_]{2,}/g) ?? []).filter((w) => !/^(AND|OR|NOT)$/.test(w));
  return words.sort((a, b) => b.length - a.length)[0] ?? null;
}

function globOf(path: string): Glob {
  return globArg('grep', 'path', path);
}

/** A grep call's arguments as a next step: defaults left out, so the step reads like a call a person would write. */
function stepArgs(a: Args): Record<string, unknown> {
  const out: Record<string, unknown> = { pattern: a.pattern };
  if (a.literal) out.literal = true;
  if (a.ignore_case) out.ignore_case = true;
  if (a.path !== undefined) out.path = a.path;
  if (a.context) out.context = a.context;
  if (a.limit !== 100) out.limit = a.limit;
  if (a.summary) out.summary = true;
  if (a.project !== undefined) out.project = a.project;
  return out;
}
