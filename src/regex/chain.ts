import type { Node } from './regex-ast';

/**
 * Linear-time testing of `.*` chains. V8 backtracks `a.*b.*c` in cubic time
 * on a long line dense with a and b (8 s on 2,000 characters, measured), and
 * `.*` between literal parts is the most common multi-part grep. For a test
 * (does the line match at all?) a chain S0 .* S1 .* … Sk is equivalent to:
 * find the earliest-ending match of S0, then of S1 from there, …, then any
 * match of Sk. With S1 … Sk-1 fixed-width, the leftmost match is the
 * earliest-ending one, so each step is one forward search: linear overall.
 * A variable-width S0 is searched as the lookbehind `(?<=S0)`, whose leftmost
 * position is the earliest end of any S0 match.
 *
 * Applies per top-level branch to its top-level `.*` / `.*?` when the pattern
 * has no backreference and every middle part has a fixed width. Lines holding \r, U+2028 or U+2029 (which `.` does not cross)
 * fall back to the plain regex.
 */
export interface Chain {
  test(line: string): boolean;
  /** The top-level `.*` nodes evaluated by the chain (the safety check skips them). */
  separators: ReadonlySet<Node>;
}

const DOT_BLOCKERS = /[\r\u2028\u2029]/;

function isDotStar(n: Node): boolean {
  return n.type === 'repeat' && n.min === 0 && n.max === Infinity && n.body.type === 'set' && n.body.dot === true;
}

function hasBackref(n: Node): boolean {
  switch (n.type) {
    case 'unknown':
      return true;
    case 'seq':
      return n.items.some(hasBackref);
    case 'alt':
      return n.branches.some(hasBackref);
    case 'repeat':
    case 'look':
      return hasBackref(n.body);
    default:
      return false;
  }
}

/** Characters a node always consumes, or null when that varies. */
function width(n: Node): number | null {
  switch (n.type) {
    case 'char':
    case 'set':
      return 1;
    case 'seq': {
      let w = 0;
      for (const i of n.items) {
        const x = width(i);
        if (x === null) return null;
        w += x;
      }
      return w;
    }
    case 'alt': {
      const ws = n.branches.map(width);
      return ws.every((x) => x !== null && x === ws[0]) ? ws[0] : null;
    }
    case 'repeat': {
      if (n.min !== n.max) return null;
      const x = width(n.body);
      return x === null ? null : x * n.min;
    }
    case 'unknown':
      return null;
    default:
      return 0; // empty, assertions, lookarounds
  }
}

type Tester = (line: string) => boolean;

function branchTester(pattern: string, branch: Node, flags: string, separators: Set<Node>): Tester | null {
  const items = branch.type === 'seq' ? branch.items : [branch];
  if (!items.some(isDotStar)) return null;
  const parts: Node[][] = [[]];
  for (const item of items) {
    if (isDotStar(item)) parts.push([]);
    else parts[parts.length - 1].push(item);
  }
  // Middle parts must be fixed-width; the first may vary (its earliest end is found with a lookbehind).
  for (const part of parts.slice(1, -1)) if (part.some((i) => width(i) === null)) return null;
  const regexes = parts.map((part, k) => {
    if (part.length === 0) return null; // empty part: matches where we stand
    const first = part[0].span;
    const last = part[part.length - 1].span;
    if (!first || !last) throw new Error('regex node without a source span');
    const source = pattern.slice(first[0], last[1]);
    const varies = k === 0 && parts.length > 1 && part.some((i) => width(i) === null);
    return new RegExp(varies ? `(?<=${source})` : source, `g${flags}`);
  });
  for (const item of items) if (isDotStar(item)) separators.add(item);
  return (line) => {
    let pos = 0;
    for (let k = 0; k < regexes.length; k++) {
      const re = regexes[k];
      if (re === null) continue;
      re.lastIndex = pos;
      const m = re.exec(line);
      if (!m) return false;
      pos = m.index + m[0].length;
    }
    return true;
  };
}

/** A linear tester for the pattern's `.*` chains, or null when no branch is a chain. */
export function dotStarChain(pattern: string, ast: Node, ignoreCase: boolean): Chain | null {
  // Branches compiled alone would renumber groups under a backreference.
  if (hasBackref(ast)) return null;
  const flags = ignoreCase ? 'i' : '';
  const branches = ast.type === 'alt' ? ast.branches : [ast];
  const separators = new Set<Node>();
  const testers = branches.map((b) => branchTester(pattern, b, flags, separators));
  if (testers.every((t) => t === null)) return null;
  const plain: Tester[] = testers.map((t, k) => {
    if (t) return t;
    const span = branches[k].span;
    if (!span) throw new Error('regex branch without a source span');
    const re = new RegExp(pattern.slice(span[0], span[1]), flags);
    return (line) => re.test(line);
  });
  const whole = new RegExp(pattern, flags);
  return {
    separators,
    test: (line) => (DOT_BLOCKERS.test(line) ? whole.test(line) : plain.some((t) => t(line))),
  };
}
