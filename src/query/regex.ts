import { dotStarChain } from '../regex/chain';
import { requiredOfRegex, type Required } from '../regex/literals';
import { overlaps, parseRegex, RegexSyntaxUnsupported, type Node, type Ranges } from '../regex/regex-ast';
import { unsafePattern } from '../regex/regex-safety';

/**
 * `x =~ 'pattern'`: a full match (the whole value, as in Cypher) of a
 * JavaScript regular expression, with an optional leading `(?i)`. D1 has no
 * REGEXP, so the server tests candidate values in JavaScript. A regex cannot
 * be interrupted once it runs, so patterns whose backtracking can explode are
 * refused up front (the checks grep uses), `.*` chains run in linear time,
 * and the caller bounds the total time over all values.
 */
export interface FullMatch {
  /** The pattern without its `(?i)` prefix. */
  source: string;
  ignoreCase: boolean;
  test(value: string): boolean;
  /** Literals every matching value contains: an SQL prefilter. */
  required: Required;
}

export class RegexProblem extends Error {
  constructor(message: string, readonly suggestion: string, readonly rule?: string) {
    super(message);
  }
}

const LINE_TERMINATORS: Ranges = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];
const HAS_TERMINATOR = /[\n\r\u2028\u2029]/;

export function compileFullMatch(pattern: string): FullMatch {
  const flags = /^\(\?([a-zA-Z]+)\)/.exec(pattern);
  if (flags && flags[1] !== 'i') {
    throw new RegexProblem(`the inline flag (?${flags[1]}) is not supported; only (?i) is`, 'drop the flag; write (?i) at the start for a case-insensitive match');
  }
  const ignoreCase = flags !== null;
  const source = flags ? pattern.slice(flags[0].length) : pattern;
  const reFlags = ignoreCase ? 'i' : '';
  try {
    new RegExp(source, reFlags);
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : 'invalid';
    throw new RegexProblem(`not a valid regular expression (${why.slice(0, 200)})`, 'fix the regex syntax; escape ( ) [ ] { } . * + ? with a backslash to match them literally');
  }
  const ast = parse(source);
  // `.` stops at line terminators: unless the pattern can consume one, a value holding one cannot match in full.
  const crossesLines = consumes(ast, LINE_TERMINATORS);
  const branches = hasUnknown(ast) ? [null] : ast.type === 'alt' ? ast.branches.map((b) => (b.span ? source.slice(b.span[0], b.span[1]) : null)) : [source];
  const testers = branches.map((branch) => {
    // A lone branch can be anchored with ^…$ and still be a `.*` chain; a backreference keeps the pattern whole.
    const anchored = branch === null ? `^(?:${source})$` : `^${branch}$`;
    const tree = parse(anchored);
    const chain = crossesLines ? null : dotStarChain(anchored, tree, ignoreCase);
    const unsafe = unsafePattern(tree, ignoreCase, chain?.separators);
    if (unsafe) throw new RegexProblem(`refused: ${unsafe.message}`, unsafe.suggestion, unsafe.rule);
    const re = new RegExp(anchored, reFlags);
    return chain ? chain.test : (value: string) => re.test(value);
  });
  return {
    source,
    ignoreCase,
    required: requiredOfRegex(ast, ignoreCase),
    test: (value) => (!crossesLines && HAS_TERMINATOR.test(value) ? false : testers.some((t) => t(value))),
  };
}

function parse(source: string): Node {
  try {
    return parseRegex(source);
  } catch (err) {
    const why = err instanceof RegexSyntaxUnsupported ? err.message : 'unsupported construct';
    throw new RegexProblem(`uses a construct pinchQL does not support (${why})`, 'rewrite it without inline modifiers such as (?i:…); a leading (?i) makes the whole match case-insensitive');
  }
}

/** Whether a match can consume a character from `ranges`. */
function consumes(n: Node, ranges: Ranges): boolean {
  switch (n.type) {
    case 'char':
      return overlaps([[n.code, n.code]], ranges);
    case 'set':
      return overlaps(n.ranges, ranges);
    case 'unknown':
      return true;
    case 'seq':
      return n.items.some((i) => consumes(i, ranges));
    case 'alt':
      return n.branches.some((b) => consumes(b, ranges));
    case 'repeat':
      return n.max > 0 && consumes(n.body, ranges);
    default:
      return false;
  }
}

function hasUnknown(n: Node): boolean {
  switch (n.type) {
    case 'unknown':
      return true;
    case 'seq':
      return n.items.some(hasUnknown);
    case 'alt':
      return n.branches.some(hasUnknown);
    case 'repeat':
    case 'look':
      return hasUnknown(n.body);
    default:
      return false;
  }
}
