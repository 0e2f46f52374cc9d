import { blobContents, type FileRow } from '../../db/content';
import type { Matcher } from './pattern';

/** Characters of a line the regex examines (and the answer shows); the rest is clipped. */
export const MAX_LINE = 2_000;
/** Wall-clock budget of one grep call's scanning. */
export const SCAN_BUDGET_MS = 2_000;
/**
 * Content fetched per D1 round trip. The deadline is checked between files;
 * on Cloudflare the clock only advances across I/O, so in production the
 * check bites at these batch boundaries: small batches keep it responsive.
 */
const BATCH_BYTES = 1024 * 1024;
const BATCH_FILES = 90;

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

/** Files grouped into fetch batches (by bytes and by bound parameters), in order. */
function batches(files: readonly FileRow[]): FileRow[][] {
  const out: FileRow[][] = [];
  let cur: FileRow[] = [];
  let bytes = 0;
  let hashes = new Set<string>();
  for (const f of files) {
    if (cur.length && (bytes + f.size > BATCH_BYTES || (hashes.size >= BATCH_FILES && !hashes.has(f.hash)))) {
      out.push(cur);
      cur = [];
      bytes = 0;
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
 * tests each line, keeps the first `limit` matches and keeps counting past
 * the limit until the files or the time budget run out.
 */
export async function scanFiles(
  d1: D1Database,
  files: readonly FileRow[],
  m: Matcher,
  opts: ScanOptions,
  /** Content the caller already holds, by hash (a null entry: not loaded); the rest is fetched in batches. */
  preloaded?: ReadonlyMap<string, string | null>,
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
  };
  let groups = 0;
  const loaded = (f: FileRow) => typeof preloaded?.get(f.hash) === 'string';
  const plan = batches(files.filter((f) => !loaded(f)));
  const batchOf = new Map<FileRow, number>();
  plan.forEach((batch, k) => batch.forEach((f) => batchOf.set(f, k)));
  const fetch = (k: number) => (k < plan.length ? blobContents(d1, [...new Set(plan[k].map((f) => f.hash))]) : Promise.resolve(new Map<string, string>()));
  // The next batch loads while this one is scanned.
  let pending = fetch(0);
  let at = -1;
  let contents = new Map<string, string>();
  for (const file of files) {
    if (Date.now() > opts.deadline) {
      r.budgetExhausted = true;
      break;
    }
    let content = preloaded?.get(file.hash) ?? undefined;
    if (content === undefined) {
      const k = batchOf.get(file) ?? at;
      while (at < k) {
        contents = await pending;
        at++;
        pending = fetch(at + 1);
      }
      content = contents.get(file.hash);
    }
    if (content === undefined) continue; // no stored text (binary, oversized)
    r.filesScanned++;
    r.bytesScanned += file.size;
    if (!m.mayMatch(content)) continue;
    groups += scanContent(file.path, content, m, opts, r);
    if (opts.stopAtFirst && r.totalMatches > 0) break;
  }
  await pending.catch(() => undefined);
  if (!opts.summary && opts.context > 0 && groups > 1) r.baselineChars += 3 * (groups - 1);
  return r;
}

/** Scans one file; returns the number of output groups `grep -C` would print for it. */
function scanContent(path: string, content: string, m: Matcher, opts: ScanOptions, r: ScanResult): number {
  const lines = content.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const hits: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    let line = raw.length > MAX_LINE ? raw.slice(0, MAX_LINE + 1) : raw;
    line = clean(line);
    if (line.length > MAX_LINE) {
      r.clippedLines++;
      line = line.slice(0, MAX_LINE);
    }
    if (m.mayMatch(line) && m.test(line)) {
      hits.push(i);
      if (opts.stopAtFirst) break;
    }
  }
  if (hits.length === 0) return 0;
  r.totalMatches += hits.length;
  r.counts.push({ path, count: hits.length });
  if (opts.summary) {
    r.baselineChars += path.length + 1 + digits(hits.length) + 1;
    return 0;
  }
  const c = opts.context;
  for (const i of hits) {
    if (r.matches.length >= opts.limit) break;
    const match: GrepMatch = { path, line: i + 1, text: clip(clean(lines[i])) };
    if (c > 0) {
      match.before = lines.slice(Math.max(0, i - c), i).map((l) => clip(clean(l)));
      match.after = lines.slice(i + 1, i + 1 + c).map((l) => clip(clean(l)));
    }
    r.matches.push(match);
  }
  // Baseline over the union of the windows [hit - c, hit + c], as grep -C prints them.
  let groups = 0;
  let shownUpTo = -1;
  for (const i of hits) {
    const from = Math.max(0, i - c);
    const to = Math.min(lines.length - 1, i + c);
    if (from > shownUpTo + 1 || shownUpTo < 0) groups++;
    for (let j = Math.max(from, shownUpTo + 1); j <= to; j++) r.baselineChars += path.length + digits(j + 1) + 2 + clean(lines[j]).length + 1;
    shownUpTo = Math.max(shownUpTo, to);
  }
  return groups;
}
