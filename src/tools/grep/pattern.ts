import { paramError } from '../params';
import { dotStarChain } from '../../regex/chain';
import { parseRegex, RegexSyntaxUnsupported } from '../../regex/regex-ast';
import { unsafePattern } from '../../regex/regex-safety';
import type { ContentCheck } from '../../db/content';
import { checkIsExact, contentCheck, escapeRegex, ftsMatch, literalRegex, requiredOfLiteral, requiredOfRegex, satisfies, type Required } from '../../regex/literals';

/** How grep matches: a per-line regex, and what a file must contain to be worth scanning. */
export interface Matcher {
  /** Whether one line (without its newline) matches. */
  test(line: string): boolean;
  required: Required;
  /** The trigram MATCH expression for the prefilter, or null for a full scan. */
  prefilter: { match: string; literals: string[] } | null;
  /** `required` as a check SQLite runs on the prefilter's candidates, or null. */
  check: ContentCheck | null;
  /** Whether `check` is exactly `required` (no literal left out): a text passes it exactly when it may match, so SQLite can pick a file's candidate lines. */
  checkExact: boolean;
  /** Whether the pattern is one fixed string (literal, or a regex without a metacharacter but escaped punctuation): a line passing `check` is a match. */
  fixed: boolean;
  /**
   * Exact check of `required` on a file or a line: the trigram index only
   * approximates it, and on a line it spares the regex every line without
   * the literal (a plain substring search, linear).
   */
  mayMatch(text: string): boolean;
  /**
   * Where in `text`, from `from` on, the next occurrence of a literal that every
   * matching line contains starts (-1: none left), or null when `required` names
   * no such literal. A line holding none of them cannot match: a scan tests only
   * the lines this finds.
   */
  anchor: ((text: string, from: number) => number) | null;
}

/**
 * A regex that is one fixed string: no character with a meaning beyond its own text, but for a punctuation character
 * escaped to stand for itself (`Error\(`, `a\.b`; an escaped letter or digit is a class, an anchor or a control character).
 */
const FIXED_REGEX = /^(?:[^\\^$.|?*+()[\]{}]|\\[^A-Za-z0-9])*$/;

/**
 * Compiles a grep pattern. Regexes are JavaScript syntax without the u flag;
 * patterns that can backtrack catastrophically are refused with a safer form.
 */
export function compilePattern(pattern: string, opts: { literal: boolean; ignoreCase: boolean }): Matcher {
  let line: RegExp;
  let test: (line: string) => boolean;
  let required: Required;
  if (opts.literal) {
    line = literalRegex(pattern, opts.ignoreCase);
    test = (text) => line.test(text);
    required = requiredOfLiteral(pattern, opts.ignoreCase);
  } else {
    try {
      line = new RegExp(pattern, opts.ignoreCase ? 'i' : '');
    } catch (err) {
      const why = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : 'invalid';
      throw paramError('grep', 'pattern', `not a valid JavaScript regular expression (${why.slice(0, 200)})`,
        'fix the regex syntax (escape ( ) [ ] { } . * + ? with a backslash to match them literally), or pass literal: true to search a fixed string');
    }
    let ast;
    try {
      ast = parseRegex(pattern);
    } catch (err) {
      const why = err instanceof RegexSyntaxUnsupported ? err.message : 'unsupported construct';
      throw paramError('grep', 'pattern', `uses a construct grep does not support (${why})`,
        'rewrite it without inline modifiers such as (?i:…) (use ignore_case instead), or pass literal: true for a fixed string');
    }
    const chain = dotStarChain(pattern, ast, opts.ignoreCase);
    const unsafe = unsafePattern(ast, opts.ignoreCase, chain?.separators);
    if (unsafe) {
      throw paramError('grep', 'pattern', `refused: ${unsafe.message}`, unsafe.suggestion, { rule: unsafe.rule });
    }
    const re = line;
    test = chain ? chain.test : (text) => re.test(text);
    required = requiredOfRegex(ast, opts.ignoreCase);
  }
  const checks = compileChecks(required, opts.ignoreCase);
  const checkExact = checkIsExact(required, opts.ignoreCase);
  const fixed = checkExact && (opts.literal || FIXED_REGEX.test(pattern));
  return { test, required, prefilter: ftsMatch(required), check: contentCheck(required, opts.ignoreCase), checkExact, fixed, mayMatch: checks, anchor: anchorFinder(required, opts.ignoreCase) };
}

/**
 * Literals one of which every text satisfying `r` contains: a literal itself,
 * one conjunct's set for an AND (the fewest and longest), every branch's for an
 * OR. Null when some branch has none.
 */
export function anchorsOf(r: Required): string[] | null {
  if (r === null) return null;
  if (r.op === 'lit') return [r.s];
  const sets = r.items.map(anchorsOf);
  if (r.op === 'or') return sets.some((a) => a === null) ? null : [...new Set(sets.flatMap((a) => a ?? []))];
  const score = (a: string[]) => Math.min(...a.map((s) => s.length)) / a.length;
  let best: string[] | null = null;
  for (const a of sets) if (a && (!best || score(a) > score(best))) best = a;
  return best;
}

/** The next start of any anchor literal (the same match `mayMatch` makes: exact, or an ASCII-folding /i regex). */
function anchorFinder(required: Required, ignoreCase: boolean): Matcher['anchor'] {
  const anchors = anchorsOf(required);
  if (!anchors) return null;
  if (anchors.length === 1 && !ignoreCase) {
    const [s] = anchors;
    return (text, from) => text.indexOf(s, from);
  }
  const re = new RegExp(anchors.map(escapeRegex).join('|'), ignoreCase ? 'gi' : 'g');
  return (text, from) => {
    re.lastIndex = from;
    return re.exec(text)?.index ?? -1;
  };
}

/** `satisfies` with its case-insensitive literal regexes compiled once. */
function compileChecks(required: Required, ignoreCase: boolean): (text: string) => boolean {
  if (required === null) return () => true;
  if (!ignoreCase) return (text) => satisfies(required, text, false);
  const build = (r: NonNullable<Required>): ((text: string) => boolean) => {
    if (r.op === 'lit') {
      const re = literalRegex(r.s, true);
      return (text) => re.test(text);
    }
    const parts = r.items.map(build);
    return r.op === 'and' ? (text) => parts.every((p) => p(text)) : (text) => parts.some((p) => p(text));
  };
  return build(required);
}
