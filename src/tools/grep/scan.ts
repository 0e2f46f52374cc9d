import { blobContents, type CarriedLines, type FileRow } from '../../db/content';
import type { Matcher } from './pattern';

/** Characters of a line the regex examines (and the answer shows); the rest is clipped. */
export const MAX_LINE = 2_000;
/** Wall-clock budget of one grep call's scanning. */
export const SCAN_BUDGET_MS = 2_000;
/**
 * Content fetched per D1 round trip: the first batch this much, each next one
 * twice the last, up to BATCH_BYTES_MAX (a large scan takes few round trips,
 * a small one fetches little). The deadline is checked between files; on
 * Cloudflare the clock only advances across I/O, so in production the check
 * bites at these batch boundaries: bounded batches keep it responsive.
 */
const BATCH_BYTES = 1024 * 1024;
const BATCH_BYTES_MAX = 4 * 1024 * 1024;
/** Distinct contents per batch (blobContents asks for them in statements of 90 hashes, all in one round trip). */
const BATCH_FILES = 720;

export interface GrepMatch {
  path: string;
  /** 1-based. */
  line: number;
  text: string;
  before?: string[];
  after?: string[];
}

export interface ScanOptions {
  limit: number;
  context: number;
  /** Count per file only (baseline: `grep -rc` output). */
  summary: boolean;
  /** Stop at the first matching line (existence checks for next steps). */
  stopAtFirst?: boolean;
  /** Epoch ms after which scanning stops. */
  deadline: number;
  /**
   * Once `limit` matches are listed, stop unless every file left is in hand
   * (already fetched or preloaded): the files left are unscanned and the
   * counts become lower bounds (`countsExact` false).
   */
  stopWhenListed?: boolean;
}

export interface ScanResult {
  matches: GrepMatch[];
  /** Every matched file with its matching-line count, in path order. */
  counts: { path: string; count: number }[];
  totalMatches: number;
  filesScanned: number;
  bytesScanned: number;
  /**
   * Characters of the unbounded `grep -rn` output for the scanned files (with
   * `-C context` when context > 0): `path:N:text` per matching line,
   * `path-N-text` per context line, `--` between non-adjacent groups (only
   * with context); with
   * summary, the `grep -rc` output of matched files (`path:count`). Each line
   * counts its newline.
   */
  baselineChars: number;
  budgetExhausted: boolean;
  clippedLines: number;
  /** Files left unscanned because the listing was full (stopWhenListed). */
  filesUnscanned: number;
  /** Files scanned from the lines a prefilter page carried (their content never fetched). */
  filesByLines: number;
  /** Whether every file was scanned: false when the budget ran out or the listing filled first (counts are then lower bounds). */
  countsExact: boolean;
}

function clean(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function clip(line: string): string {
  return line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line;
}

function digits(n: number): number {
  return String(n).length;
}

/** Files grouped into fetch batches (growing by bytes, bounded by distinct contents), in order. */
function batches(files: readonly FileRow[]): FileRow[][] {
  const out: FileRow[][] = [];
  let cur: FileRow[] = [];
  let bytes = 0;
  let cap = BATCH_BYTES;
  let hashes = new Set<string>();
  for (const f of files) {
    if (cur.length && (bytes + f.size > cap || (hashes.size >= BATCH_FILES && !hashes.has(f.hash)))) {
      out.push(cur);
      cur = [];
      bytes = 0;
      cap = Math.min(2 * cap, BATCH_BYTES_MAX);
      hashes = new Set();
    }
    cur.push(f);
    bytes += f.size;
    hashes.add(f.hash);
  }
  if (cur.length) out.push(cur);
  return out;
}

/**
 * Runs a grep over files (already filtered and ordered by path): fetches
 * their content in batches (the next batch loads while this one is scanned),
 * tests the lines, keeps the first `limit` matches and keeps counting past
 * the limit until the files or the time budget run out, or, with
 * stopWhenListed, until the listing is full while some file left would need
 * a fetch.
 */
export async function scanFiles(
  d1: D1Database,
  files: readonly FileRow[],
  m: Matcher,
  opts: ScanOptions,
  /** Content the caller already holds, by hash (a null entry: not loaded); the rest is fetched in batches. */
  preloaded?: ReadonlyMap<string, string | null>,
  /**
   * By hash, the only lines of a file a match of `m` can be on (and every line long enough to be clipped),
   * as a prefilter page carries them (trigramCandidatesPage `lines`): such a file is scanned from them, and
   * its content is never fetched. Only without context (other lines are not at hand).
   */
  carried?: ReadonlyMap<string, CarriedLines>,
): Promise<ScanResult> {
  const r: ScanResult = {
    matches: [],
    counts: [],
    totalMatches: 0,
    filesScanned: 0,
    bytesScanned: 0,
    baselineChars: 0,
    budgetExhausted: false,
    clippedLines: 0,
    filesUnscanned: 0,
    filesByLines: 0,
    countsExact: true,
  };
  let groups = 0;
  const sparse = opts.context === 0 ? carried : undefined;
  const loaded = (f: FileRow) => typeof preloaded?.get(f.hash) === 'string' || sparse?.has(f.hash) === true;
  const plan = batches(files.filter((f) => !loaded(f)));
  const batchOf = new Map<FileRow, number>();
  plan.forEach((batch, k) => batch.forEach((f) => batchOf.set(f, k)));
  const listed = () => opts.stopWhenListed === true && r.matches.length >= opts.limit;
  const planBytes = plan.map((batch) => batch.reduce((n, f) => n + f.size, 0));
  const likelyListed = (k: number) =>
    opts.stopWhenListed === true && r.matches.length + (r.matches.length / Math.max(1, r.bytesScanned)) * planBytes[k] >= opts.limit;
  const fetched: Promise<Map<string, string>>[] = [];
  const fetch = (k: number) => {
    if (k < plan.length && !fetched[k]) fetched[k] = blobContents(d1, [...new Set(plan[k].map((f) => f.hash))]);
  };
  // With stopWhenListed the first batch waits until it is needed: the content in hand may fill the listing.
  if (!opts.stopWhenListed) fetch(0);
  let at = -1;
  let contents = new Map<string, string>();
  for (let i = 0; i < files.length; i++) {
    const file = files[i];
    if (Date.now() > opts.deadline) {
      r.budgetExhausted = true;
      break;
    }
    // A full listing stops the scan unless every file left is in hand (then the counts come out exact at no I/O).
    if (listed() && at < plan.length - 1) {
      r.filesUnscanned = files.length - i;
      break;
    }
    const lines = sparse?.get(file.hash);
    if (lines) {
      // The prefilter's check (exactly the pattern's requirement) kept the file: what mayMatch(content) would say.
      r.filesScanned++;
      r.filesByLines++;
      r.bytesScanned += file.size;
      scanContent(file.path, new SparseLines(lines), m, opts, r);
      if (opts.stopAtFirst && r.totalMatches > 0) break;
      continue;
    }
    let content = preloaded?.get(file.hash) ?? undefined;
    if (content === undefined) {
      const k = batchOf.get(file) ?? at;
      while (at < k) {
        fetch(at + 1);
        contents = await fetched[at + 1];
        at++;
        // The next batch loads while this one is scanned, unless this one should fill the listing at the rate seen so far.
        if (!likelyListed(at)) fetch(at + 1);
      }
      content = contents.get(file.hash);
    }
    if (content === undefined) continue; // no stored text (binary, oversized)
    r.filesScanned++;
    r.bytesScanned += file.size;
    if (!m.mayMatch(content)) continue;
    groups += scanContent(file.path, new Lines(content), m, opts, r);
    if (opts.stopAtFirst && r.totalMatches > 0) break;
  }
  await Promise.allSettled(fetched);
  r.countsExact = !r.budgetExhausted && r.filesUnscanned === 0;
  if (!opts.summary && opts.context > 0 && groups > 1) r.baselineChars += 3 * (groups - 1);
  return r;
}

/** A line as the pattern sees it: without its '\r', clipped to MAX_LINE; `clipped` says whether it was. `raw` may stop past MAX_LINE + 1. */
function examine(raw: string): { line: string; clipped: boolean } {
  if (raw.length <= MAX_LINE) return { line: clean(raw), clipped: false };
  const line = clean(raw.slice(0, MAX_LINE + 1));
  return line.length > MAX_LINE ? { line: line.slice(0, MAX_LINE), clipped: true } : { line, clipped: false };
}

/** A file's lines as a scan reads them. */
interface LineSource {
  /** Lines in the file (an upper bound on any line number asked for). */
  readonly count: number;
  raw(i: number): string;
  examined(i: number): { line: string; clipped: boolean };
  /** Lines clipped to MAX_LINE. */
  clipped(): number;
  /** The matching lines (0-based), ascending; the first only with stopAtFirst. */
  matching(m: Matcher, stopAtFirst: boolean): number[];
}

/**
 * A file's lines as `content.split('\n')` gives them (a final empty piece
 * dropped) without making them: where each starts and ends (before its '\n').
 */
class Lines implements LineSource {
  readonly starts: number[] = [];
  private readonly last: number;

  constructor(readonly content: string) {
    const n = content.length;
    if (n === 0) {
      this.last = 0;
      return;
    }
    this.starts.push(0);
    for (let nl = content.indexOf('\n'); nl !== -1 && nl + 1 < n; nl = content.indexOf('\n', nl + 1)) this.starts.push(nl + 1);
    this.last = content.endsWith('\n') ? n - 1 : n;
  }

  get count(): number {
    return this.starts.length;
  }

  end(i: number): number {
    return i + 1 < this.starts.length ? this.starts[i + 1] - 1 : this.last;
  }

  raw(i: number): string {
    return this.content.slice(this.starts[i], this.end(i));
  }

  examined(i: number): { line: string; clipped: boolean } {
    const from = this.starts[i];
    return examine(this.content.slice(from, Math.min(this.end(i), from + MAX_LINE + 1)));
  }

  clipped(): number {
    let k = 0;
    for (let i = 0; i < this.starts.length; i++) if (this.end(i) - this.starts[i] > MAX_LINE && this.examined(i).clipped) k++;
    return k;
  }

  matching(m: Matcher, stopAtFirst: boolean): number[] {
    return matchingLines(this, m, stopAtFirst);
  }
}

/**
 * Some lines of a file, by number: those a prefilter page carried (every line
 * a match can be on, and every line long enough to be clipped). Testing each
 * finds what a test of every line of the file would.
 */
class SparseLines implements LineSource {
  private readonly text = new Map<number, string>();
  private readonly numbers: number[];
  readonly count: number;

  constructor(lines: CarriedLines) {
    for (const [no, line] of lines) this.text.set(no, line);
    this.numbers = [...this.text.keys()].sort((a, b) => a - b);
    this.count = (this.numbers.at(-1) ?? -1) + 1;
  }

  raw(i: number): string {
    return this.text.get(i) ?? '';
  }

  examined(i: number): { line: string; clipped: boolean } {
    return examine(this.raw(i));
  }

  clipped(): number {
    return this.numbers.filter((i) => this.examined(i).clipped).length;
  }

  matching(m: Matcher, stopAtFirst: boolean): number[] {
    const hits: number[] = [];
    for (const i of this.numbers) {
      const { line } = this.examined(i);
      if (!m.mayMatch(line) || !m.test(line)) continue;
      hits.push(i);
      if (stopAtFirst) break;
    }
    return hits;
  }
}

/**
 * The matching lines of a file (0-based), the same a test of every line
 * finds: with an anchor, only the lines holding one of its literals are
 * tested (a line without any cannot match), found by a search over the
 * whole content rather than line by line.
 */
function matchingLines(lines: Lines, m: Matcher, stopAtFirst: boolean): number[] {
  const hits: number[] = [];
  const test = (i: number) => {
    const { line } = lines.examined(i);
    return m.mayMatch(line) && m.test(line);
  };
  const n = lines.count;
  if (!m.anchor) {
    for (let i = 0; i < n; i++) {
      if (!test(i)) continue;
      hits.push(i);
      if (stopAtFirst) break;
    }
    return hits;
  }
  const { starts, content } = lines;
  for (let i = 0, at = m.anchor(content, 0); at !== -1 && i < n; ) {
    while (i + 1 < n && starts[i + 1] <= at) i++;
    if (test(i)) {
      hits.push(i);
      if (stopAtFirst) break;
    }
    i++;
    if (i >= n) break;
    at = m.anchor(content, starts[i]);
  }
  return hits;
}

/** Scans one file; returns the number of output groups `grep -C` would print for it. */
function scanContent(path: string, lines: LineSource, m: Matcher, opts: ScanOptions, r: ScanResult): number {
  r.clippedLines += lines.clipped();
  const hits = lines.matching(m, opts.stopAtFirst === true);
  if (hits.length === 0) return 0;
  r.totalMatches += hits.length;
  r.counts.push({ path, count: hits.length });
  if (opts.summary) {
    r.baselineChars += path.length + 1 + digits(hits.length) + 1;
    return 0;
  }
  const c = opts.context;
  const shown = (i: number) => clip(clean(lines.raw(i)));
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, k) => shown(from + k));
  for (const i of hits) {
    if (r.matches.length >= opts.limit) break;
    const match: GrepMatch = { path, line: i + 1, text: shown(i) };
    if (c > 0) {
      match.before = range(Math.max(0, i - c), i);
      match.after = range(i + 1, Math.min(lines.count, i + 1 + c));
    }
    r.matches.push(match);
  }
  // Baseline over the union of the windows [hit - c, hit + c], as grep -C prints them.
  let groups = 0;
  let shownUpTo = -1;
  for (const i of hits) {
    const from = Math.max(0, i - c);
    const to = Math.min(lines.count - 1, i + c);
    if (from > shownUpTo + 1 || shownUpTo < 0) groups++;
    for (let j = Math.max(from, shownUpTo + 1); j <= to; j++) r.baselineChars += path.length + digits(j + 1) + 2 + clean(lines.raw(j)).length + 1;
    shownUpTo = Math.max(shownUpTo, to);
  }
  return groups;
}
