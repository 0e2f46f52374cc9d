import { ALL, foldAscii, normalise, overlaps, type Node, type Ranges } from './regex-ast';

/**
 * Static refusal of patterns whose backtracking can explode on one line.
 * A regex cannot be interrupted once it runs, so the only time bound is to
 * refuse the dangerous shapes up front (and to cap line length). Three shapes:
 *
 * - `nested_quantifier`: a repeated group holding a variable quantifier whose
 *   characters can also begin the next repetition: `(a+)+`, `(.*)*`,
 *   `(\w+\s?)*`. Exponential. `(\w+\.)+` is allowed: the `.` forces the split.
 * - `overlapping_alternation`: a repeated alternation whose branches can start
 *   with the same character: `(a|aa)+`, `(.|\s)*`. Exponential.
 * - `stacked_quantifiers`: an unbounded quantifier that could also consume
 *   what follows it up to a second one over the same characters:
 *   `\w+\s*\w+`, `a\w*b\w*c` (cubic: 8 s on one dense 2,000-character
 *   line, measured). Top-level `.*` that chain.ts evaluates linearly
 *   (`foo.*bar.*baz`) do not count.
 */
export interface UnsafePattern {
  rule: 'nested_quantifier' | 'overlapping_alternation' | 'stacked_quantifiers';
  message: string;
  suggestion: string;
}

const UNSAFE: Record<UnsafePattern['rule'], Omit<UnsafePattern, 'rule'>> = {
  nested_quantifier: {
    message: 'a repeated group contains a quantifier whose characters can also start the next repetition (like (a+)+), which backtracks exponentially on lines that almost match',
    suggestion: 'drop the outer quantifier or make each repetition end on a distinct character: (a+)+ → a+, (.*)* → .*, (\\w+\\s?)* → [\\w\\s]*, (\\w+\\.)+ is fine; or pass literal: true for a fixed string',
  },
  overlapping_alternation: {
    message: 'alternatives inside a repeated group can match the same text (like (a|aa)+), which backtracks exponentially',
    suggestion: 'use one character class or alternatives that start differently: (a|aa)+ → a+, (.|\\s)* → [\\s\\S]*, (\\w|\\d)+ → \\w+',
  },
  stacked_quantifiers: {
    message: 'two unbounded quantifiers over the same characters where the first can also consume what lies between them (like \\w+\\s*\\w+ or a\\w*b\\w*c) take polynomial time on long lines',
    suggestion: 'join the parts with .* (a\\w*b\\w*c → a.*b.*c runs in linear time), make the first stop at the separator (\\w+\\s*\\w+ → \\w+\\s+\\w+, get\\w*By → get[^B]*By), or drop a trailing quantifier',
  },
};

class Analyzer {
  constructor(
    private readonly fold: boolean,
    /** Top-level `.*` evaluated linearly by the chain tester (chain.ts): they split, not stack. */
    private readonly separators: ReadonlySet<Node>,
  ) {}

  private ranges(r: Ranges): Ranges {
    return this.fold ? foldAscii(r) : r;
  }

  nullable(n: Node): boolean {
    switch (n.type) {
      case 'char':
      case 'set':
        return false;
      case 'seq':
        return n.items.every((i) => this.nullable(i));
      case 'alt':
        return n.branches.some((b) => this.nullable(b));
      case 'repeat':
        return n.min === 0 || this.nullable(n.body);
      default:
        return true; // empty, assertions, lookarounds, backreferences (may be empty)
    }
  }

  /** Every code unit the node may consume. */
  chars(n: Node): Ranges {
    switch (n.type) {
      case 'char':
        return this.ranges([[n.code, n.code]]);
      case 'set':
        return this.ranges(n.ranges);
      case 'unknown':
        return ALL;
      case 'seq':
        return normalise(n.items.flatMap((i) => [...this.chars(i)]));
      case 'alt':
        return normalise(n.branches.flatMap((b) => [...this.chars(b)]));
      case 'repeat':
        return n.max === 0 ? [] : this.chars(n.body);
      default:
        return [];
    }
  }

  /** Code units a non-empty match may start with. */
  first(n: Node): Ranges {
    switch (n.type) {
      case 'char':
      case 'set':
      case 'unknown':
        return this.chars(n);
      case 'seq': {
        const out: (readonly [number, number])[] = [];
        for (const item of n.items) {
          out.push(...this.first(item));
          if (!this.nullable(item)) break;
        }
        return normalise(out);
      }
      case 'alt':
        return normalise(n.branches.flatMap((b) => [...this.first(b)]));
      case 'repeat':
        return n.max === 0 ? [] : this.first(n.body);
      default:
        return [];
    }
  }

  /** Code units a non-empty match may end with. */
  last(n: Node): Ranges {
    switch (n.type) {
      case 'seq': {
        const out: (readonly [number, number])[] = [];
        for (let k = n.items.length - 1; k >= 0; k--) {
          out.push(...this.last(n.items[k]));
          if (!this.nullable(n.items[k])) break;
        }
        return normalise(out);
      }
      case 'alt':
        return normalise(n.branches.flatMap((b) => [...this.last(b)]));
      case 'repeat':
        return n.max === 0 ? [] : this.last(n.body);
      default:
        return this.first(n);
    }
  }

  hasVariable(n: Node): boolean {
    switch (n.type) {
      case 'repeat':
        return n.max > n.min || this.hasVariable(n.body);
      case 'seq':
        return n.items.some((i) => this.hasVariable(i));
      case 'alt':
        return n.branches.some((b) => this.hasVariable(b));
      default:
        return false;
    }
  }

  check(n: Node): UnsafePattern['rule'] | null {
    switch (n.type) {
      case 'look':
        return this.check(n.body);
      case 'seq':
        return this.stacked(flatten(n)) ?? firstRule(n.items.map((i) => this.check(i)));
      case 'alt':
        return firstRule(n.branches.map((b) => this.check(b)));
      case 'repeat':
        return (n.max >= 2 ? this.repeated(n.body) : null) ?? this.check(n.body);
      default:
        return null;
    }
  }

  /** The body of a quantifier that may run twice or more. */
  private repeated(body: Node): UnsafePattern['rule'] | null {
    const items = flatten(body).filter((i) => i.type !== 'assert' && i.type !== 'look' && i.type !== 'empty');
    if (items.length === 1 && items[0].type === 'alt') {
      const firsts = items[0].branches.map((b) => this.first(b));
      for (let a = 0; a < firsts.length; a++) {
        for (let b = a + 1; b < firsts.length; b++) if (overlaps(firsts[a], firsts[b])) return 'overlapping_alternation';
      }
      if (items[0].branches.some((b) => this.hasVariable(b) || this.nullable(b))) return 'nested_quantifier';
      return null;
    }
    for (const [k, item] of items.entries()) {
      if (item.type === 'repeat' && item.max > item.min) {
        if (this.hasVariable(item.body)) return 'nested_quantifier';
        // Walk what may follow this quantifier, wrapping into the next repetition:
        // any overlap before a mandatory, disjoint item makes the split ambiguous.
        const own = this.last(item);
        for (let step = 1; step <= items.length; step++) {
          const next = items[(k + step) % items.length];
          if (overlaps(own, this.first(next))) return 'nested_quantifier';
          if (!this.nullable(next)) break;
        }
      } else if (this.hasVariable(item)) return 'nested_quantifier';
    }
    return null;
  }

  private stacked(items: Node[]): UnsafePattern['rule'] | null {
    // Large bounded repeats (a{1,500}) backtrack like unbounded ones.
    const unbounded = (i: Node): boolean => i.type === 'repeat' && i.max > 64;
    // `live`: character sets of earlier unbounded quantifiers that could also consume
    // everything since them. A later unbounded quantifier starting with one of those
    // characters makes V8 try every split between the two: polynomial.
    let live: Ranges[] = [];
    for (const item of items) {
      if (this.separators.has(item)) {
        live = [];
        continue;
      }
      if (unbounded(item)) {
        const start = this.first(item);
        if (live.some((q) => overlaps(q, start))) return 'stacked_quantifiers';
      }
      if (!this.nullable(item)) {
        const chars = this.chars(item);
        live = live.filter((q) => overlaps(q, chars));
      }
      // A repeated group can only go on with a whole new repetition: what it can end with is the better bound.
      if (item.type === 'repeat' && unbounded(item)) live.push(item.body.type === 'char' || item.body.type === 'set' ? this.chars(item) : this.last(item));
    }
    return null;
  }
}

/** Sequence items with nested sequences (plain groups) spliced in. */
function flatten(n: Node): Node[] {
  return n.type === 'seq' ? n.items.flatMap(flatten) : [n];
}

function firstRule(rules: (UnsafePattern['rule'] | null)[]): UnsafePattern['rule'] | null {
  return rules.find((r) => r !== null) ?? null;
}

/** Why a parsed pattern is refused, or null when its running time stays bounded on capped lines. */
export function unsafePattern(ast: Node, ignoreCase: boolean, separators: ReadonlySet<Node> = new Set()): UnsafePattern | null {
  const rule = new Analyzer(ignoreCase, separators).check(ast);
  return rule ? { rule, ...UNSAFE[rule] } : null;
}
