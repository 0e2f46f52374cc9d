import type { ContentCheck } from '../db/content';
import { ftsString } from '../db/fts-string';
import type { Node } from './regex-ast';

/**
 * Required literals: a boolean formula over substrings that every matching
 * line must contain. `null` means "no constraint" (any line may match).
 * Literals shorter than 3 characters carry no trigram, so they are dropped.
 */
export type Required = null | { op: 'lit'; s: string } | { op: 'and'; items: NonNullable<Required>[] } | { op: 'or'; items: NonNullable<Required>[] };

interface Info {
  /**
   * Every string the node can match, when they are few (MAX_EXACT_SET): an
   * optional part or a small alternation stays exact, so `export (async )?f`
   * requires `export f` or `export async f`, not `export ` and `f` apart
   * (Russ Cox's codesearch keeps such sets). Null when unknown or too many.
   */
  exact: string[] | null;
  /** Every match starts / ends with these. */
  prefix: string;
  suffix: string;
  req: Required;
}

const MIN_LITERAL = 3;
/** Repeats like a{500} are expanded only this far. */
const MAX_EXPANSION = 256;
/** Exact sets larger than this are reduced to what each of their strings requires. */
const MAX_EXACT_SET = 8;
/** A character class of at most this many characters is an exact set. */
const MAX_CLASS_CHARS = 4;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function codepoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A literal of at least 3 characters; a lone surrogate (half of a character) splits it, as trigrams index whole characters. */
export function lit(s: string): Required {
  if (LONE_SURROGATE.test(s)) return and(s.split(LONE_SURROGATE).map(lit));
  return codepoints(s) >= MIN_LITERAL ? { op: 'lit', s } : null;
}

function and(items: Required[]): Required {
  const kept: NonNullable<Required>[] = [];
  for (const i of items) {
    if (i === null) continue;
    if (i.op === 'and') kept.push(...i.items);
    else kept.push(i);
  }
  if (kept.length === 0) return null;
  return kept.length === 1 ? kept[0] : { op: 'and', items: kept };
}

function or(items: Required[]): Required {
  if (items.length === 0 || items.some((i) => i === null)) return null;
  const kept: NonNullable<Required>[] = [];
  for (const i of items as NonNullable<Required>[]) {
    if (i.op === 'or') kept.push(...i.items);
    else kept.push(i);
  }
  return kept.length === 1 ? kept[0] : { op: 'or', items: kept };
}

/** What a match of one of `set` contains: one of its strings. */
function oneOf(set: readonly string[]): Required {
  return or(set.map(lit));
}

function product(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set(a.flatMap((x) => b.map((y) => x + y)))];
}

const OPAQUE: Info = { exact: null, prefix: '', suffix: '', req: null };
const ZERO_WIDTH: Info = { exact: [''], prefix: '', suffix: '', req: null };

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

function commonSuffix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return a.slice(a.length - i);
}

/** An exact set as a non-exact node: its common ends, and one of its strings required. */
function inexact(set: readonly string[]): Info {
  return { exact: null, prefix: set.reduce(commonPrefix), suffix: set.reduce(commonSuffix), req: oneOf(set) };
}

function exactInfo(set: string[]): Info {
  return set.length > MAX_EXACT_SET ? inexact(set) : { exact: set, prefix: set.reduce(commonPrefix), suffix: set.reduce(commonSuffix), req: oneOf(set) };
}

class Extractor {
  constructor(private readonly ignoreCase: boolean) {}

  info(n: Node): Info {
    switch (n.type) {
      case 'empty':
      case 'assert':
      case 'look':
        // Zero-width: the characters on either side stay adjacent in the text.
        return ZERO_WIDTH;
      case 'char':
        // Under ignore_case only ASCII letters fold the same way in JS (no u flag) and in
        // the trigram index; any other character breaks the literal run.
        if (this.ignoreCase && n.code > 0x7f) return OPAQUE;
        return { exact: [String.fromCharCode(n.code)], prefix: '', suffix: '', req: null };
      case 'set':
        return this.set(n.ranges);
      case 'unknown':
        return OPAQUE;
      case 'seq':
        return this.seq(n.items.map((i) => this.info(i)));
      case 'alt':
        return this.alt(n.branches.map((b) => this.info(b)));
      case 'repeat':
        return this.repeat(this.info(n.body), n.min, n.max);
    }
  }

  /** A small class of whole characters (ASCII under ignore_case) is the set of its characters. */
  private set(ranges: readonly (readonly [number, number])[]): Info {
    let size = 0;
    for (const [lo, hi] of ranges) size += hi - lo + 1;
    if (size === 0 || size > MAX_CLASS_CHARS) return OPAQUE;
    const chars: string[] = [];
    for (const [lo, hi] of ranges) {
      for (let c = lo; c <= hi; c++) {
        if ((c >= 0xd800 && c <= 0xdfff) || (this.ignoreCase && c > 0x7f)) return OPAQUE;
        chars.push(String.fromCharCode(c));
      }
    }
    return { exact: [...new Set(chars)], prefix: '', suffix: '', req: null };
  }

  private seq(items: Info[]): Info {
    const runs: string[][] = [];
    const reqs: Required[] = [];
    let cur: string[] = [''];
    let prefix = '';
    let prefixOpen = true;
    let allExact = true;
    for (const x of items) {
      if (x.exact !== null) {
        if (cur.length * x.exact.length > MAX_EXACT_SET) {
          // Too many strings: the run so far is required as it is, and only its common end joins what follows.
          runs.push(cur);
          if (prefixOpen) prefix = cur.reduce(commonPrefix);
          prefixOpen = false;
          allExact = false;
          cur = [cur.reduce(commonSuffix)];
        }
        cur = product(cur, x.exact);
        continue;
      }
      allExact = false;
      const run = product(cur, [x.prefix]);
      runs.push(run);
      if (prefixOpen) prefix = run.reduce(commonPrefix);
      prefixOpen = false;
      reqs.push(x.req);
      cur = [x.suffix];
    }
    if (allExact) return exactInfo(cur);
    runs.push(cur);
    return { exact: null, prefix, suffix: cur.reduce(commonSuffix), req: and([...runs.map(oneOf), ...reqs]) };
  }

  private alt(branches: Info[]): Info {
    if (branches.every((b) => b.exact !== null)) return exactInfo([...new Set(branches.flatMap((b) => b.exact ?? []))]);
    return {
      exact: null,
      prefix: branches.map((b) => (b.exact ? b.exact.reduce(commonPrefix) : b.prefix)).reduce(commonPrefix),
      suffix: branches.map((b) => (b.exact ? b.exact.reduce(commonSuffix) : b.suffix)).reduce(commonSuffix),
      req: or(branches.map((b) => (b.exact !== null ? oneOf(b.exact) : b.req))),
    };
  }

  private repeat(body: Info, min: number, max: number): Info {
    if (max === 0) return ZERO_WIDTH;
    if (min === 0) return max === 1 && body.exact !== null ? exactInfo([...new Set([...body.exact, ''])]) : OPAQUE;
    if (body.exact === null) return { exact: null, prefix: body.prefix, suffix: body.suffix, req: body.req };
    if (min === 1 && max === 1) return body;
    if (body.exact.length > 1) return inexact(body.exact);
    const [one] = body.exact;
    const times = Math.min(min, Math.max(1, Math.floor(MAX_EXPANSION / Math.max(1, one.length))));
    const run = one.repeat(times);
    if (min === max && times === min) return { exact: [run], prefix: run, suffix: run, req: lit(run) };
    return { exact: null, prefix: run, suffix: run, req: lit(run) };
  }
}

/** What every match of the parsed regex must contain (ignore_case aware). */
export function requiredOfRegex(ast: Node, ignoreCase: boolean): Required {
  const info = new Extractor(ignoreCase).info(ast);
  return info.exact !== null ? oneOf(info.exact) : info.req;
}

/** A fixed string must appear whole; under ignore_case, non-ASCII characters split it. */
export function requiredOfLiteral(text: string, ignoreCase: boolean): Required {
  if (!ignoreCase) return lit(text);
  return and(text.split(/[^\x00-\x7f]+/).map(lit));
}

/** Up to this many trigram terms in one MATCH expression. */
const MAX_TERMS = 64;
/**
 * Trigrams per literal when every one of them does not fit: this many, spread across it, then half as many, and so
 * on. Every trigram is taken when the expression allows: the index keeps no positions, so each one left out lets
 * more files through to the exact check, which reads their whole content.
 */
const TRIGRAMS_PER_LITERAL = 16;
/** In a conjunction, the longest literals are the most selective. */
const LITERALS_PER_AND = 3;

function trigrams(s: string, most: number): string[] {
  const cps = Array.from(s);
  const all = new Set<string>();
  for (let i = 0; i + 3 <= cps.length; i++) all.add(cps.slice(i, i + 3).join(''));
  const list = [...all];
  if (list.length <= most) return list;
  if (most === 1) return [list[Math.floor(list.length / 2)]];
  const step = (list.length - 1) / (most - 1);
  return Array.from({ length: most }, (_, k) => list[Math.round(k * step)]);
}

/** How selective a conjunct is: a literal's length; a disjunction is as weak as its shortest branch. */
function weight(r: NonNullable<Required>): number {
  if (r.op === 'lit') return codepoints(r.s);
  const ws = r.items.map(weight);
  return r.op === 'or' ? Math.min(...ws) : Math.max(...ws);
}



/**
 * The FTS5 MATCH expression for the `blob_grams` trigram index. The index uses
 * detail='none', which refuses multi-token phrases, so each literal becomes the
 * AND of its trigrams: a superset of the files holding the literal (the order
 * of trigrams is lost), always verified afterwards. Returns null when no
 * literal of 3+ characters is required, or the formula is too large.
 */
export function ftsMatch(req: Required): { match: string; literals: string[] } | null {
  if (req === null) return null;
  // A wide disjunction (an exact set) takes fewer trigrams per literal rather than none: still a superset, still selective.
  const all = ftsMatchWith(req, Infinity);
  if (all) return all;
  for (let most = TRIGRAMS_PER_LITERAL; most >= 1; most = Math.floor(most / 2)) {
    const built = ftsMatchWith(req, most);
    if (built) return built;
  }
  return null;
}

function ftsMatchWith(req: NonNullable<Required>, most: number): { match: string; literals: string[] } | null {
  let terms = 0;
  const literals: string[] = [];
  const build = (r: NonNullable<Required>): string | null => {
    if (r.op === 'lit') {
      const grams = trigrams(r.s, most);
      terms += grams.length;
      literals.push(r.s);
      return grams.map(ftsString).join(' AND ');
    }
    if (r.op === 'and') {
      // Dropping conjuncts keeps a superset: keep the most selective few.
      const parts = [...r.items].sort((a, b) => weight(b) - weight(a)).slice(0, LITERALS_PER_AND).map(build);
      const kept = parts.filter((p): p is string => p !== null);
      return kept.length ? kept.map((p) => `(${p})`).join(' AND ') : null;
    }
    // A disjunction cannot drop a branch without losing files.
    const parts = r.items.map(build);
    if (parts.some((p) => p === null)) return null;
    return parts.map((p) => `(${p})`).join(' OR ');
  };
  const match = build(req);
  return match !== null && terms <= MAX_TERMS ? { match, literals } : null;
}

/**
 * The formula as a check SQLite runs on each trigram candidate (see
 * `trigramCandidates`), so files that hold the trigrams but not the literals
 * are never fetched. Under ignore_case a literal with a non-ASCII character
 * has no exact SQL fold and is left out (the check stays a superset: an
 * AND drops it, an OR then checks nothing). Null when nothing is checked.
 */
export function contentCheck(req: Required, ignoreCase: boolean): ContentCheck | null {
  const build = (r: NonNullable<Required>): ContentCheck | null => {
    if (r.op === 'lit') return ignoreCase && /[^\x00-\x7f]/.test(r.s) ? null : { op: 'has', text: r.s, fold: ignoreCase };
    const parts = r.items.map(build);
    if (r.op === 'or') return parts.some((p) => p === null) ? null : { op: 'or', items: parts as ContentCheck[] };
    const kept = parts.filter((p): p is ContentCheck => p !== null);
    return kept.length === 0 ? null : kept.length === 1 ? kept[0] : { op: 'and', items: kept };
  };
  return req === null ? null : build(req);
}

/** Whether `contentCheck` keeps every literal of the formula (then a text passes the check exactly when it satisfies the formula). */
export function checkIsExact(req: Required, ignoreCase: boolean): boolean {
  if (req === null) return false;
  if (req.op === 'lit') return !ignoreCase || !/[^\x00-\x7f]/.test(req.s);
  return req.items.every((r) => checkIsExact(r, ignoreCase));
}

/** Whether a text satisfies the formula (exact check of what the trigram index only approximates). */
export function satisfies(req: Required, text: string, ignoreCase: boolean): boolean {
  if (req === null) return true;
  switch (req.op) {
    case 'lit':
      return ignoreCase ? literalRegex(req.s, true).test(text) : text.includes(req.s);
    case 'and':
      return req.items.every((r) => satisfies(r, text, ignoreCase));
    case 'or':
      return req.items.some((r) => satisfies(r, text, ignoreCase));
  }
}

export function escapeRegex(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

export function literalRegex(s: string, ignoreCase: boolean): RegExp {
  return new RegExp(escapeRegex(s), ignoreCase ? 'i' : '');
}
