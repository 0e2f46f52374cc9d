import { trigramCandidates, trigramCandidatesPage, type CandidateFiles, type CandidatePage, type FileRow } from '../../db/content';
import type { Matcher } from './pattern';
import { scanFiles, type ScanOptions, type ScanResult } from './scan';

/** Candidate files of the first prefilter page (carried with their content in the call's first round trip); each next page doubles (quadruples when it carries lines), up to PAGE_MAX. */
export const FIRST_PAGE = 32;
/**
 * The first page holds up to this many files when no more stored contents hold the literal's trigrams: a literal a
 * few dozen files hold is then read in one round trip instead of two or three pages. A common literal (more
 * candidates) keeps the 32-file page, which its listing often fills. A literal that 33–96 files hold densely
 * enough to fill the listing from 32 now pays the checks and splits of all of them (at most three times the page).
 * Measured on drizzle-orm and the latency tier: a fixed 64-file first page saved the second round trip of
 * mid-density literals but cost a dense literal's page twice the checks and splits (on the tier, `return None`
 * 19 → 26 ms and `options` 10 → 18 ms a call).
 */
export const WHOLE_FIRST_PAGE = 3 * FIRST_PAGE;
const PAGE_MAX = 512;
/** The fewest files a next page of a listing asks for. */
const MIN_NEXT_PAGE = 8;

/**
 * Files of the next prefilter page after one of `size` files. A page grows: twice the last, four times when it
 * carries lines (it ships little; its cost is SQLite's split of the files walked). A listing that stops at its
 * `limit` asks instead for what the matches it still needs take at the density seen so far (`listed` matches
 * over `walked` page files), twice over and at least MIN_NEXT_PAGE, never more than the page would grow to: each
 * file of a page costs D1 a check of its content and, for a page of lines, a split, so files past the listing's
 * end are work nobody reads. Nothing listed yet says nothing of the density: the page grows. A page so sized that
 * fell short (the files after it hold fewer matches) is at least doubled, so a sparse tail takes a few pages, not
 * one per MIN_NEXT_PAGE files.
 */
export function nextPageSize(
  size: number,
  carriesLines: boolean,
  listing: { need: number; listed: number; walked: number; sized: boolean } | null,
): { files: number; sized: boolean } {
  const grown = Math.min((carriesLines ? 4 : 2) * size, PAGE_MAX);
  if (!listing || listing.listed === 0) return { files: grown, sized: false };
  const wanted = Math.ceil((2 * listing.need * listing.walked) / listing.listed);
  const files = Math.min(grown, Math.max(MIN_NEXT_PAGE, wanted, listing.sized ? 2 * size : 0));
  return { files, sized: files < grown };
}

export interface GrepRun {
  scan: ScanResult;
  /** With counts that are lower bounds because the listing filled: the last path the prefilter pages reached (files after it were not read). */
  unreadAfter?: string;
  /** Files of the scope the trigram prefilter kept (all of them on a full scan). */
  candidates: number;
  fullScan: boolean;
}

/**
 * Prefilter then scan: with a required literal, only files whose content
 * holds its trigrams and (checked in SQLite) the literal itself are fetched;
 * without one, every file in scope is. `scope` null means every file of the
 * project: then a prefiltered grep never lists the project's files.
 */
export async function runGrep(
  d1: D1Database,
  projectId: string,
  scope: readonly FileRow[] | null,
  m: Matcher,
  opts: ScanOptions,
  /** The prefilter's answer when the caller already asked for it (prefilterFiles, prefilterPage), to share a round trip. */
  prefiltered: Promise<CandidateFiles | CandidatePage | null> = prefilterFiles(d1, projectId, m),
): Promise<GrepRun> {
  const kept = await prefiltered;
  if (kept && 'more' in kept && kept.more && m.prefilter) return pagedGrep(d1, projectId, scope, m, opts, kept);
  let candidates: readonly FileRow[];
  if (kept) candidates = scope ? scope.filter((f) => kept.content.has(f.hash)) : kept.files;
  else if (scope) candidates = scope;
  else throw new Error('runGrep: a pattern without a prefilter needs the scope listed');
  const scan = await scanFiles(d1, candidates, m, opts, kept?.content, kept?.lines);
  return { scan, candidates: candidates.length, fullScan: m.prefilter === null };
}

/**
 * The scan over prefilter pages: each page's files (those in scope) are
 * scanned with the content it carries; the next page (nextPageSize) is
 * asked for only while the listing is not full. Stopping with a page full
 * leaves later files unread: the counts are then lower bounds.
 */
async function pagedGrep(d1: D1Database, projectId: string, scope: readonly FileRow[] | null, m: Matcher, opts: ScanOptions, first: CandidatePage): Promise<GrepRun> {
  const prefilter = m.prefilter!;
  const inScope = scope ? new Set(scope.map((f) => f.path)) : null;
  let page = first;
  let size = first.walked ?? FIRST_PAGE;
  let candidates = 0;
  let walked = 0;
  /** Whether the last page asked was sized by the listing's need rather than grown. */
  let sized = false;
  let total: ScanResult | null = null;
  for (;;) {
    const files = inScope ? page.files.filter((f) => inScope.has(f.path)) : page.files;
    candidates += files.length;
    walked += page.walked ?? page.files.length;
    const listed = total?.matches.length ?? 0;
    const part = await scanFiles(d1, files, m, { ...opts, limit: opts.limit - listed }, page.content, page.lines);
    total = total ? merged(total, part) : part;
    if (total.budgetExhausted || opts.stopAtFirst && total.totalMatches > 0) break;
    if (!page.more) break;
    if (opts.stopWhenListed && total.matches.length >= opts.limit) {
      total.countsExact = false;
      break;
    }
    if (Date.now() > opts.deadline) {
      total.budgetExhausted = true;
      total.countsExact = false;
      break;
    }
    const next = nextPageSize(size, page.carriesLines === true, opts.stopWhenListed ? { need: opts.limit - total.matches.length, listed: total.matches.length, walked, sized } : null);
    ({ files: size, sized } = next);
    page = await trigramCandidatesPage(d1, projectId, prefilter.match, m.check, { limit: size, after: page.last, ...page.filter });
  }
  return { scan: total, candidates, fullScan: false, ...(total.countsExact ? {} : { unreadAfter: page.last }) };
}

/** Two scans of consecutive files as one. */
function merged(a: ScanResult, b: ScanResult): ScanResult {
  return {
    matches: [...a.matches, ...b.matches],
    counts: [...a.counts, ...b.counts],
    totalMatches: a.totalMatches + b.totalMatches,
    filesScanned: a.filesScanned + b.filesScanned,
    bytesScanned: a.bytesScanned + b.bytesScanned,
    baselineChars: a.baselineChars + b.baselineChars,
    budgetExhausted: a.budgetExhausted || b.budgetExhausted,
    clippedLines: a.clippedLines + b.clippedLines,
    filesUnscanned: a.filesUnscanned + b.filesUnscanned,
    filesByLines: a.filesByLines + b.filesByLines,
    countsExact: a.countsExact && b.countsExact,
  };
}

/**
 * The first prefilter page for `m` (see trigramCandidatesPage), or null when
 * `m` has no required literal. For a listing that may stop once `limit`
 * matches are listed: a common literal then checks and ships one page of
 * files, not all of them.
 */
export function prefilterPage(
  d1: D1Database,
  projectId: string,
  m: Matcher,
  opts: { under?: string; pathContains?: readonly string[]; folded?: Matcher | null; context?: number; need?: number } = {},
): Promise<CandidatePage | null> {
  if (!m.prefilter) return Promise.resolve(null);
  const orFolded = opts.folded?.prefilter?.match === m.prefilter.match ? opts.folded.check : null;
  // Without context a match needs only its own line: the page carries the lines holding the required literals, not whole files,
  // when the checks are exactly what the pattern (and the folded one riding along) requires.
  const lines = (opts.context ?? 0) === 0 && m.checkExact && (orFolded === null || opts.folded?.checkExact === true);
  // A fixed string's page carrying lines walks files until the listing's `need` matches are in hand (each line it carries
  // as written is one). A regex keeps the 32-file page: fewer of the lines holding its literals may match, and a walk
  // sized by them would split more files than the page and still need another.
  const need = lines && m.fixed && opts.need !== undefined ? { matches: opts.need, files: PAGE_MAX } : undefined;
  const asked = trigramCandidatesPage(d1, projectId, m.prefilter.match, m.check, { limit: FIRST_PAGE, wholeUpTo: WHOLE_FIRST_PAGE, need, under: opts.under, pathContains: opts.pathContains, orFolded, lines });
  asked.catch(() => undefined);
  return asked;
}

/** Candidate content the prefilter's own round trip carries (in path order); the rest comes in scan batches. */
const PREFILTER_CONTENT_BYTES = 1024 * 1024;

/**
 * The files the trigram prefilter keeps for `m` (under a folder when given),
 * with the content of the first PREFILTER_CONTENT_BYTES of them; null when
 * `m` has no required literal (every file is a candidate). Asked for
 * alongside the scope's file list, both, and most often every candidate's
 * content, come in one D1 round trip.
 */
export function prefilterFiles(d1: D1Database, projectId: string, m: Matcher, under?: string, folded?: Matcher | null): Promise<CandidateFiles | null> {
  if (!m.prefilter) return Promise.resolve(null);
  // The same pattern ignoring case, asked for in the same statement when its trigrams are the same (the index ignores case):
  // an empty answer then knows at once whether a case-insensitive grep would find something.
  const orFolded = folded?.prefilter?.match === m.prefilter.match ? folded.check : null;
  const asked = trigramCandidates(d1, projectId, m.prefilter.match, m.check, { withContentBytes: PREFILTER_CONTENT_BYTES, under, orFolded });
  // A caller that returns before scanning never awaits it: its failure is the scan's to report.
  asked.catch(() => undefined);
  return asked;
}

/**
 * Whether any line of the scope (null: the whole project) matches, within its own small budget
 * (for verified next steps). `listAll` lists the project when the pattern has no prefilter.
 */
export async function anyMatch(
  d1: D1Database,
  projectId: string,
  scope: readonly FileRow[] | null,
  m: Matcher,
  listAll: () => Promise<FileRow[]>,
  budgetMs = 1_000,
): Promise<boolean> {
  const files = scope ?? (m.prefilter ? null : await listAll());
  const run = await runGrep(d1, projectId, files, m, { limit: 1, context: 0, summary: true, stopAtFirst: true, deadline: Date.now() + budgetMs });
  return run.scan.totalMatches > 0;
}

/**
 * Whether `folded` (the pattern ignoring case) matches a line of the scope (null: the whole project), using
 * the prefilter's answer when it carried the folded candidates: a file satisfying the folded check is an exact
 * candidate (its content mostly carried) or a folded-only one; none means no match without a round trip.
 */
export async function foldedMatch(
  d1: D1Database,
  projectId: string,
  scope: readonly FileRow[] | null,
  folded: Matcher,
  prefiltered: CandidateFiles | CandidatePage | null,
  listAll: () => Promise<FileRow[]>,
  budgetMs = 1_000,
): Promise<boolean> {
  if (!prefiltered?.foldedOnly || ('more' in prefiltered && prefiltered.more)) return anyMatch(d1, projectId, scope, folded, listAll, budgetMs);
  const paths = scope ? new Set(scope.map((f) => f.path)) : null;
  const files = [...prefiltered.files, ...prefiltered.foldedOnly]
    .filter((f) => !paths || paths.has(f.path))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (files.length === 0) return false;
  const scan = await scanFiles(d1, files, folded, { limit: 1, context: 0, summary: true, stopAtFirst: true, deadline: Date.now() + budgetMs }, prefiltered.content, prefiltered.lines);
  return scan.totalMatches > 0;
}
