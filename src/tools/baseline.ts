import { claimCredits } from '../db/credits';
import { contentsAtPaths, listingChars, projectFiles, type FileRow } from '../db/content';
import { countableInSql, grepOutput } from '../db/grep-output';
import type { MetaCollector } from '../envelope/collector';
import { tokensForBytes } from '../envelope/tokens';
import type { ToolContext } from './define';
import { compilePattern } from './grep/pattern';
import { prefilterFiles, runGrep } from './grep/run';
import { BoundedMap } from '../util/bounded-map';

/**
 * The savings model (docs/envelope.md, "Baseline formulas per tool"): each
 * tool declares the cheapest native sequence that yields the same
 * information; the seam settles it into tokens once the handler returned.
 */

/** Budget of the grep a baseline runs (search, trace, plan_change); past it the baseline is a lower bound. */
const BASELINE_GREP_MS = 1_000;

/**
 * Declares the `full_file_read` baseline: reading every distinct file the
 * answer references whole. Files count once per call (batch entries and
 * composites included) and, with a session id, once per session.
 *
 * @example
 * fullFileReadBaseline(ctx, project.id, [{ path: 'src/a.ts', size: 4096 }]);
 */
export function fullFileReadBaseline(ctx: ToolContext, projectId: string, files: readonly { path: string; size: number }[]): void {
  ctx.meta.baselineParts('full_file_read', projectId, files);
}

/** The project a baseline reads: its stored files are fixed for one generation. */
export interface BaselineProject {
  id: string;
  generation: number;
}

/**
 * Baseline figures already computed in this isolate, by project generation
 * and question: a generation's files never change (a push makes a new
 * generation), so a figure stays true for it; the oldest go first.
 */
const memo = new BoundedMap<string, unknown>(2000);

async function memoised<T>(project: BaselineProject, question: string, compute: () => Promise<{ value: T; complete: boolean }>): Promise<T> {
  const key = `${project.id}@${project.generation}\u0000${question}`;
  if (memo.has(key)) return memo.get(key) as T;
  const { value, complete } = await compute();
  // A scan cut by its time budget is a lower bound of this run only: not kept.
  if (complete) {
    memo.set(key, value);
  }
  return value;
}

/** Files and characters of the full listing of the project (the walk_directory baseline of the whole project); fixed for a generation. */
export function projectListing(ctx: ToolContext, project: BaselineProject): Promise<{ files: number; chars: number }> {
  return memoised(project, 'listing', async () => ({ value: await listingChars(ctx.db, project.id), complete: true }));
}

/**
 * Bytes of files holding a word (in path order) a baseline grep splits into lines and counts at most; past it
 * the figure is a lower bound. The cut is by bytes, not time, so the figure is the same on every run and is
 * memoised like an exact one. Its cost is paid by the first call of each question in an isolate (an agent's new
 * search): splitting a file that holds a word costs about 20 ms of SQLite per MiB, so counting up to 4 MiB of
 * candidate files made a search for a common word 40–90 ms where a repeat took 3 ms.
 */
const BASELINE_GREP_BYTES = 256 * 1024;
/**
 * Bytes of trigram candidate files (in path order) checked for a word at most (a byte search, about 1.5 ms of
 * SQLite per MiB and word): only the files that hold a word count against BASELINE_GREP_BYTES, so a rare word's
 * files are counted wherever they sit among the first 4 MiB of candidates, as before the split had a cap of its own.
 */
const BASELINE_CHECK_BYTES = 4 * 1024 * 1024;

/**
 * Characters of `grep -rn[i] 'w1|w2|…'` output (`path:N:text` lines) over
 * every file of the project. Counted inside D1 in one statement
 * (src/db/grep-output.ts) when the words allow it (ASCII when case is
 * ignored), else by scanning the files here. The statement is sent at once,
 * so it shares the round trip of whatever the caller asks for next.
 */
export async function grepOutputChars(ctx: ToolContext, project: BaselineProject, words: readonly string[], opts: { ignoreCase: boolean }): Promise<number> {
  const pattern = words.map(regexWord).join('|');
  return memoised(project, `grep\u0000${opts.ignoreCase ? 'i' : ''}\u0000${pattern}`, async () => {
    const matcher = compilePattern(pattern, { literal: false, ignoreCase: opts.ignoreCase });
    if (countableInSql(words, opts.ignoreCase)) {
      const size = await grepOutput(ctx.db, { projectId: project.id, words, ignoreCase: opts.ignoreCase, match: matcher.prefilter?.match ?? null, capBytes: BASELINE_GREP_BYTES, checkBytes: BASELINE_CHECK_BYTES });
      return { value: size.chars, complete: true };
    }
    // Scanned here: the same cap over the files the prefilter's check keeps, in path order (for a non-ASCII word
    // folded by case a superset of the files holding it); it checks every candidate and carries the first MiB of
    // their content, so the scan fetches nothing more. The files past the cut count nothing (not every one is known
    // to hold a word). The time budget only guards a slow database.
    const kept = await prefilterFiles(ctx.db, project.id, matcher);
    const counted = withinBytes(kept ? kept.files : await projectFiles(ctx.db, project.id), BASELINE_GREP_BYTES);
    const run = await runGrep(ctx.db, project.id, counted, matcher, { limit: 0, context: 0, summary: false, deadline: Date.now() + BASELINE_GREP_MS }, Promise.resolve(kept));
    return { value: run.scan.baselineChars, complete: !run.scan.budgetExhausted };
  });
}

/** The first of `files` (in path order) whose sizes add up to at most `cap` bytes, as grep-output.ts cuts its candidates. */
function withinBytes(files: readonly FileRow[], cap: number): FileRow[] {
  const out: FileRow[] = [];
  let upto = 0;
  for (const f of files) {
    upto += f.size;
    if (upto > cap) break;
    out.push(f);
  }
  return out;
}

/** Words of a search query, as an agent would grep them: operators (OR, AND, NOT), quotes and `*` dropped. */
export function queryWords(query: string): string[] {
  const words = (query.match(/[\p{L}\p{N}_$]+/gu) ?? []).filter((w) => !['OR', 'AND', 'NOT'].includes(w));
  return [...new Set(words)];
}

/**
 * Declares the `grep_recursive` baseline of a search: the output of
 * `grep -rniE 'w1|w2|…'` over the project for the query's words.
 */
export async function queryGrepBaseline(ctx: ToolContext, project: BaselineProject, query: string): Promise<void> {
  await startQueryGrepBaseline(ctx, project, query)();
}

/**
 * queryGrepBaseline in two steps: the figure is asked for now (its statement
 * rides in the round trip of the caller's next statements), and declared by
 * calling the returned function, only when the answer needs it.
 */
export function startQueryGrepBaseline(ctx: ToolContext, project: BaselineProject, query: string): () => Promise<void> {
  const words = queryWords(query);
  const chars = words.length ? grepOutputChars(ctx, project, words, { ignoreCase: true }) : Promise.resolve(0);
  // A caller that never declares it does not await it.
  chars.catch(() => undefined);
  return async () => {
    ctx.meta.baselineParts('grep_recursive', null, [], await chars);
  };
}

/**
 * Declares the `grep_then_read` baseline of a graph answer: `grep -rn` for
 * the target's names over the project, then reading the span of every
 * symbol the answer lists (callers, callees, dependents). Nothing when the
 * answer lists none.
 */
export async function grepThenReadBaseline(
  ctx: ToolContext,
  project: BaselineProject,
  names: readonly string[],
  nodes: readonly { id: string | null; file: string; line: number; endLine: number }[],
): Promise<void> {
  ctx.meta.baseline('grep_then_read', 0);
  const spans = nodes.filter((n) => n.id !== null).map((n) => ({ path: n.file, start: n.line, end: n.endLine }));
  if (spans.length === 0) return;
  const distinct = [...new Set(names)].filter((n) => n.length > 0);
  const [grep, read] = await Promise.all([
    distinct.length ? grepOutputChars(ctx, project, distinct, { ignoreCase: false }) : Promise.resolve(0),
    spanChars(ctx, project, spans),
  ]);
  ctx.meta.baselineParts('grep_then_read', null, [], grep + read);
}

/** Escapes a word for a regex alternation. */
export function regexWord(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Characters of the given line spans as an agent's read of exactly those
 * lines returns them (each line with its newline). Spans of files without
 * stored text count nothing.
 */
export async function spanChars(ctx: ToolContext, project: BaselineProject, spans: readonly { path: string; start: number; end: number }[]): Promise<number> {
  if (spans.length === 0) return 0;
  const question = `spans\u0000${spans.map((s) => `${s.path}:${s.start}:${s.end}`).join('\u0000')}`;
  return memoised(project, question, async () => ({ value: await readSpanChars(ctx, project.id, spans), complete: true }));
}

async function readSpanChars(ctx: ToolContext, projectId: string, spans: readonly { path: string; start: number; end: number }[]): Promise<number> {
  const byPath = await contentsAtPaths(ctx.db, projectId, [...new Set(spans.map((s) => s.path))]);
  // One span per (path, start, end): the same caller reached twice is read once.
  const seen = new Set<string>();
  let chars = 0;
  for (const s of spans) {
    const key = `${s.path}:${s.start}:${s.end}`;
    const text = byPath.get(s.path);
    if (seen.has(key) || text === undefined) continue;
    seen.add(key);
    chars += linesChars(text, s.start, s.end);
  }
  return chars;
}

/** Characters of lines start..end (1-based, inclusive) of `text`, each with its newline. */
export function linesChars(text: string, start: number, end: number): number {
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  let n = 0;
  for (let i = Math.max(1, start); i <= Math.min(end, lines.length); i++) n += lines[i - 1].length + 1;
  return n;
}

/** linesChars of `text` from its lines as splitLines (src/tools/read/anchors.ts) gave them, without splitting it again. */
export function splitLinesChars(text: string, lines: readonly string[], start: number, end: number): number {
  // splitLines dropped each line's CR: then the lines no longer hold every character.
  if (text.includes('\r')) return linesChars(text, start, end);
  let n = 0;
  for (let i = Math.max(1, start); i <= Math.min(end, lines.length); i++) n += lines[i - 1].length + 1;
  return n;
}

/**
 * Turns the declared parts into `baselineTokens`: whole files not yet
 * credited to the session (credits are claimed only when the answer
 * delivered something), plus the other characters. Stamps the scope the
 * deduplication covered.
 */
export async function settleBaseline(d1: D1Database, meta: MetaCollector): Promise<void> {
  meta.savingsScope = meta.sessionId ? 'session' : 'call';
  if (!meta.baselineOpen) return;
  let bytes = meta.baselineChars;
  for (const [projectId, files] of meta.baselineFiles) {
    let credited = [...files.keys()];
    if (meta.sessionId && !meta.emptyReason) credited = [...(await claimCredits(d1, meta.sessionId, projectId, credited, Date.now()))];
    for (const p of credited) bytes += files.get(p) ?? 0;
  }
  meta.baselineTokens = tokensForBytes(bytes);
  meta.baselineOpen = false;
}
