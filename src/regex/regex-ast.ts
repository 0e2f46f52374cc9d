/**
 * A small parser for JavaScript regular expressions (no `u` flag, Annex B
 * syntax), just precise enough for two analyses: which literals every match
 * must contain, and whether the pattern risks catastrophic backtracking.
 * The pattern is always compiled by `new RegExp` first; this parser only
 * reads patterns V8 accepted, and throws `RegexSyntaxUnsupported` on a
 * construct it does not model (the caller then refuses the pattern).
 */

/** Code-unit ranges, inclusive; an over-approximation is always safe for both analyses. */
export type Ranges = readonly (readonly [number, number])[];

/** Source span [start, end) of a node in the pattern; set on sequence items and branches. */
export interface Spanned {
  span?: readonly [number, number];
}

export type Node = Spanned &
  (
  | { type: 'empty' }
  /** One literal UTF-16 code unit. */
  | { type: 'char'; code: number }
  /** One code unit from a set (classes, `.`, `\d`…); `ranges` may over-approximate. `dot` marks `.`. */
  | { type: 'set'; ranges: Ranges; dot?: true }
  /** Zero-width: `^`, `$`, `\b`, `\B`. */
  | { type: 'assert' }
  /** Zero-width lookaround; its body is still executed, so safety checks look inside. */
  | { type: 'look'; body: Node }
  /** Backreference or anything else of unknown content and length. */
  | { type: 'unknown' }
  | { type: 'seq'; items: Node[] }
  | { type: 'alt'; branches: Node[] }
  | { type: 'repeat'; body: Node; min: number; max: number }
  );

export class RegexSyntaxUnsupported extends Error {}

const MAX_CODE = 0xffff;
export const ALL: Ranges = [[0, MAX_CODE]];
const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const SPACE: Ranges = [
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a],
  [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
];
const LINE_TERMINATORS: Ranges = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];

export function normalise(ranges: Ranges): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function complement(ranges: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of normalise(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE) out.push([next, MAX_CODE]);
  return out;
}

export function overlaps(a: Ranges, b: Ranges): boolean {
  return a.some(([alo, ahi]) => b.some(([blo, bhi]) => alo <= bhi && blo <= ahi));
}

/** Adds the other ASCII case of every ASCII letter in the set (ignore_case). */
export function foldAscii(ranges: Ranges): Ranges {
  const extra: [number, number][] = [];
  for (const [lo, hi] of ranges) {
    const upLo = Math.max(lo, 0x41);
    const upHi = Math.min(hi, 0x5a);
    if (upLo <= upHi) extra.push([upLo + 32, upHi + 32]);
    const lowLo = Math.max(lo, 0x61);
    const lowHi = Math.min(hi, 0x7a);
    if (lowLo <= lowHi) extra.push([lowLo - 32, lowHi - 32]);
  }
  return extra.length ? normalise([...ranges, ...extra]) : ranges;
}

const HEX = /^[0-9A-Fa-f]+$/;

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.disjunction();
    if (this.i < this.src.length) throw new RegexSyntaxUnsupported(`unexpected '${this.src[this.i]}' at ${this.i}`);
    return node;
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.i + offset];
  }

  private disjunction(): Node {
    const branches = [this.alternative()];
    while (this.peek() === '|') {
      this.i++;
      branches.push(this.alternative());
    }
    return branches.length === 1 ? branches[0] : { type: 'alt', branches };
  }

  private alternative(): Node {
    const items: Node[] = [];
    const start = this.i;
    while (this.i < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const from = this.i;
      const atom = this.atom();
      items.push({ ...this.quantified(atom), span: [from, this.i] });
    }
    if (items.length === 0) return { type: 'empty', span: [start, start] };
    return items.length === 1 ? items[0] : { type: 'seq', items, span: [start, this.i] };
  }

  /** `{n}`, `{n,}`, `{n,m}` at the cursor, or null when the brace is a literal (Annex B). */
  private braces(): { min: number; max: number; end: number } | null {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
    if (!m) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    return { min, max, end: this.i + m[0].length };
  }

  private quantified(atom: Node): Node {
    let min: number;
    let max: number;
    const c = this.peek();
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const b = this.braces();
      if (!b) return atom;
      [min, max] = [b.min, b.max];
      this.i = b.end - 1;
    } else return atom;
    this.i++;
    if (this.peek() === '?') this.i++; // lazy: same language, same risk
    return { type: 'repeat', body: atom, min, max };
  }

  private atom(): Node {
    const c = this.src[this.i];
    switch (c) {
      case '^':
      case '$':
        this.i++;
        return { type: 'assert' };
      case '.':
        this.i++;
        return { type: 'set', ranges: complement(LINE_TERMINATORS), dot: true };
      case '(':
        return this.group();
      case '[':
        return this.charClass();
      case '\\':
        return this.atomEscape();
      case '*':
      case '+':
      case '?':
        throw new RegexSyntaxUnsupported(`nothing to repeat at ${this.i}`);
      case '{':
        if (this.braces()) throw new RegexSyntaxUnsupported(`nothing to repeat at ${this.i}`);
        this.i++;
        return { type: 'char', code: c.charCodeAt(0) };
      default:
        this.i++;
        return { type: 'char', code: c.charCodeAt(0) };
    }
  }

  private group(): Node {
    this.i++; // (
    let look = false;
    if (this.peek() === '?') {
      const rest = this.src.slice(this.i, this.i + 3);
      if (rest.startsWith('?:')) this.i += 2;
      else if (rest.startsWith('?=') || rest.startsWith('?!')) [this.i, look] = [this.i + 2, true];
      else if (rest === '?<=' || rest === '?<!') [this.i, look] = [this.i + 3, true];
      else if (rest.startsWith('?<')) {
        const close = this.src.indexOf('>', this.i);
        if (close < 0) throw new RegexSyntaxUnsupported('unterminated group name');
        this.i = close + 1;
      } else throw new RegexSyntaxUnsupported(`group syntax '(${rest}' is not supported`);
    }
    const body = this.disjunction();
    if (this.peek() !== ')') throw new RegexSyntaxUnsupported('unterminated group');
    this.i++;
    return look ? { type: 'look', body } : body;
  }

  /** An escape inside or outside a class: a code unit, a set, an assertion (`\b`, `\B`) or unknown (backreferences). */
  private escape(inClass: boolean): Node {
    this.i++; // backslash
    const c = this.src[this.i];
    if (c === undefined) throw new RegexSyntaxUnsupported('trailing backslash');
    this.i++;
    const char = (code: number): Node => ({ type: 'char', code });
    switch (c) {
      case 'd': return { type: 'set', ranges: DIGIT };
      case 'D': return { type: 'set', ranges: complement(DIGIT) };
      case 'w': return { type: 'set', ranges: WORD };
      case 'W': return { type: 'set', ranges: complement(WORD) };
      case 's': return { type: 'set', ranges: SPACE };
      case 'S': return { type: 'set', ranges: complement(SPACE) };
      case 'n': return char(0x0a);
      case 'r': return char(0x0d);
      case 't': return char(0x09);
      case 'v': return char(0x0b);
      case 'f': return char(0x0c);
      case 'b': return inClass ? char(0x08) : { type: 'assert' };
      case 'B': return inClass ? char(0x42) : { type: 'assert' };
      case 'c': {
        const l = this.peek();
        if (l && /[A-Za-z]/.test(l)) {
          this.i++;
          return char(l.charCodeAt(0) % 32);
        }
        this.i--; // Annex B: `\c` not followed by a letter is a literal backslash
        return char(0x5c);
      }
      case 'x': {
        const h = this.src.slice(this.i, this.i + 2);
        if (h.length === 2 && HEX.test(h)) {
          this.i += 2;
          return char(parseInt(h, 16));
        }
        return char(0x78);
      }
      case 'u': {
        const h = this.src.slice(this.i, this.i + 4);
        if (h.length === 4 && HEX.test(h)) {
          this.i += 4;
          return char(parseInt(h, 16));
        }
        return char(0x75);
      }
      case 'k':
      case 'p':
      case 'P':
        // Named backreference or (without the u flag) a literal letter: model as unknown.
        return inClass ? { type: 'set', ranges: ALL } : { type: 'unknown' };
      default:
        if (/[0-9]/.test(c)) {
          // Backreference or legacy octal escape: unknown content either way.
          while (/[0-9]/.test(this.peek() ?? '')) this.i++;
          return inClass ? { type: 'set', ranges: ALL } : { type: 'unknown' };
        }
        return char(c.charCodeAt(0)); // identity escape
    }
  }

  private atomEscape(): Node {
    return this.escape(false);
  }

  private charClass(): Node {
    this.i++; // [
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.i++;
    }
    const ranges: (readonly [number, number])[] = [];
    let single: number | null = null;
    let count = 0;
    const classAtom = (): Node => {
      if (this.peek() === '\\') return this.escape(true);
      const code = this.src.charCodeAt(this.i);
      this.i++;
      return { type: 'char', code };
    };
    while (this.peek() !== ']') {
      if (this.i >= this.src.length) throw new RegexSyntaxUnsupported('unterminated character class');
      const a = classAtom();
      if (a.type === 'char' && this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        const save = this.i;
        this.i++;
        const b = classAtom();
        if (b.type === 'char') {
          ranges.push([a.code, b.code]);
          count += 2;
          continue;
        }
        this.i = save; // Annex B: `[\w-z]`-style: the hyphen is literal
      }
      if (a.type === 'char') {
        ranges.push([a.code, a.code]);
        single = a.code;
      } else if (a.type === 'set') ranges.push(...a.ranges);
      count += a.type === 'char' ? 1 : 2;
    }
    this.i++; // ]
    if (!negated && count === 1 && single !== null) return { type: 'char', code: single };
    const set = normalise(ranges);
    return { type: 'set', ranges: negated ? complement(set) : set };
  }
}

/** Parses a pattern V8 already accepted (no `u` flag). Throws RegexSyntaxUnsupported on constructs it does not model. */
export function parseRegex(pattern: string): Node {
  return new Parser(pattern).parse();
}
