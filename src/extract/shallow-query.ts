/**
 * Rewrites a tags query before it is compiled so that few of its typed nodes have children:
 * below a pattern's root (a root's children without a field aside), `(type child…)` becomes
 * `(_ child…) @_is.type`, and `runQuery` drops a match whose `@_is.type` node is of another type
 * (parser.ts). The matches
 * that are kept are the query's own. Compiling a query walks the grammar's parse table for every
 * typed node that has children (tree-sitter's pattern analysis: most of what a compile costs,
 * about 4 ms for each such node of the C++ grammar), and for no wildcard; a Worker isolate pays
 * the compile on its first file of each language.
 *
 * The query files stay written with types; a node already written as a wildcard, a node without
 * children, a supertype (`expression/identifier`) and a pattern's root are left as they are.
 *
 * The price is paid when the query runs: wildcards keep more candidate matches alive, and the type
 * captures cost a node each. A language row opts in (`shallowQuery`, engine.ts) where the compile
 * outweighs it: C and C++ (compile ~550 → ~150 ms in Node), TypeScript and TSX (~110 → ~65 ms),
 * for a query run 25–40 % slower (docs/capacity.md). JavaScript (52 → 28 ms; +46 ms over lodash's
 * 300 files) and Python (21 → 6 ms; +27 ms over 107 files) would lose it again on a large
 * repository.
 */

/** Capture names of the type checks start with this. */
export const TYPE_CHECK_PREFIX = '_is.';

type Token = { kind: '(' | ')' | '[' | ']' | 'word' | 'string' | 'capture' | 'quantifier' | 'other'; start: number; end: number };

const WORD = /[A-Za-z0-9_\-.\/!#?:]/;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === ';') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === '[' || c === ']') {
      tokens.push({ kind: c, start: i, end: i + 1 });
      i++;
    } else if (c === '"') {
      const start = i++;
      while (i < source.length && source[i] !== '"') i += source[i] === '\\' ? 2 : 1;
      tokens.push({ kind: 'string', start, end: ++i });
    } else if (c === '@') {
      const start = i++;
      while (i < source.length && WORD.test(source[i])) i++;
      tokens.push({ kind: 'capture', start, end: i });
    } else if (c === '*' || c === '+' || c === '?') {
      tokens.push({ kind: 'quantifier', start: i, end: ++i });
    } else if (WORD.test(c)) {
      const start = i;
      while (i < source.length && WORD.test(source[i])) i++;
      tokens.push({ kind: 'word', start, end: i });
    } else {
      tokens.push({ kind: 'other', start: i, end: ++i });
    }
  }
  return tokens;
}

interface Common {
  quantified: boolean;
  /** Written after a field name (`field: …`). */
  field: boolean;
  end: number;
}

type Element =
  | (Common & { kind: 'node'; type: string; typeAt: number; children: Element[]; wildcard: boolean })
  | (Common & { kind: 'alternation'; members: Element[] })
  | (Common & { kind: 'group'; children: Element[] })
  | (Common & { kind: 'string' });

/** Reads the query's elements (predicates, fields, anchors and negated fields left out). */
function parse(source: string, tokens: readonly Token[]): Element[] {
  let t = 0;
  const text = (k: number) => source.slice(tokens[k].start, tokens[k].end);
  const isPredicate = (k: number) => tokens[k].kind === '(' && tokens[k + 1]?.kind === 'word' && text(k + 1).startsWith('#');

  const sequence = (close: ')' | ']' | null): Element[] => {
    const out: Element[] = [];
    let field = false;
    while (t < tokens.length && tokens[t].kind !== close) {
      const token = tokens[t];
      if (isPredicate(t)) {
        for (let depth = 0; t < tokens.length; ) {
          const kind = tokens[t++].kind;
          if (kind === '(') depth++;
          else if (kind === ')' && --depth === 0) break;
        }
      } else if (token.kind === '(' || token.kind === '[' || token.kind === 'string') {
        out.push({ ...element(), field });
        field = false;
      } else {
        // a field name, an anchor, a negated field
        field = token.kind === 'word' && text(t).endsWith(':');
        t++;
      }
    }
    t++;
    return out;
  };

  const element = (): Element => {
    const token = tokens[t];
    let read: Element;
    if (token.kind === '[') {
      t++;
      read = { kind: 'alternation', members: sequence(']'), quantified: false, field: false, end: 0 };
    } else if (token.kind === 'string') {
      t++;
      read = { kind: 'string', quantified: false, field: false, end: 0 };
    } else if (tokens[t + 1]?.kind === 'word' && !text(t + 1).endsWith(':')) {
      const type = text(t + 1);
      const typeAt = tokens[t + 1].start;
      t += 2;
      read = { kind: 'node', type, typeAt, children: sequence(')'), quantified: false, field: false, end: 0, wildcard: false };
    } else {
      t++;
      read = { kind: 'group', children: sequence(')'), quantified: false, field: false, end: 0 };
    }
    // (an unbalanced query reads to its end: tree-sitter reports its syntax error)
    read.end = tokens[Math.min(t, tokens.length) - 1]?.end ?? source.length;
    if (tokens[t]?.kind === 'quantifier') {
      read.quantified = true;
      read.end = tokens[t++].end;
    }
    while (tokens[t]?.kind === 'capture') read.end = tokens[t++].end;
    return read;
  };

  return sequence(null);
}

/** The members of an alternation, nested alternations flattened. */
function members(alternation: Element & { kind: 'alternation' }): Element[] {
  return alternation.members.flatMap((m) => (m.kind === 'alternation' ? members(m) : [m]));
}

/**
 * Marks the nodes to make wildcards: typed, with children, below a root, not quantified, and not
 * a child of the root without a field (`(program (expression_statement …))`: a wildcard there
 * would try every statement of the file). A match whose wildcard turns out of another type is
 * dropped only after tree-sitter has kept the longest of the matches of a pattern at one node,
 * so no kept match may hold fewer captures than a dropped one: a quantified node stays typed (a
 * match without it would lose to one with a wrong node), and every member of an alternation
 * holding a wildcard captures its node as well (a member of another type, a wildcard or a string
 * with `@_is._`, which checks nothing). `depth`: 0 for a root, 1 for its children….
 */
function mark(element: Element, depth: number, field: boolean, tags: Map<number, string>): void {
  const inField = field || element.field;
  if (element.kind === 'node') {
    for (const child of element.children) mark(child, depth + 1, false, tags);
    const typed = element.type !== '_' && !element.type.includes('/') && element.type !== 'ERROR' && element.type !== 'MISSING';
    element.wildcard = depth > 0 && (depth > 1 || inField) && typed && element.children.length > 0 && !element.quantified;
  } else if (element.kind === 'alternation') {
    for (const member of element.members) mark(member, depth, inField, tags);
    const all = members(element);
    if (!all.some((m) => m.kind === 'node' && m.wildcard)) return;
    if (all.some((m) => m.kind === 'group' || m.quantified)) {
      for (const m of all) if (m.kind === 'node') m.wildcard = false;
      return;
    }
    for (const m of all) {
      if (m.kind === 'node' && !m.wildcard) tags.set(m.end, m.type === '_' ? '_' : m.type);
      else if (m.kind === 'string') tags.set(m.end, '_');
    }
  } else if (element.kind === 'group') {
    for (const child of element.children) mark(child, depth, inField, tags);
  }
}

function wildcards(elements: readonly Element[]): (Element & { kind: 'node' })[] {
  return elements.flatMap((e) => {
    if (e.kind === 'node') return [...(e.wildcard ? [e] : []), ...wildcards(e.children)];
    if (e.kind === 'alternation') return wildcards(e.members);
    if (e.kind === 'group') return wildcards(e.children);
    return [];
  });
}

interface Edit {
  at: number;
  remove: number;
  insert: string;
}

/** The query with the typed nodes that have children below a pattern's root made wildcards. */
export function shallowQuery(source: string): string {
  const elements = parse(source, tokenize(source));
  const tags = new Map<number, string>();
  for (const element of elements) mark(element, 0, false, tags);
  const edits: Edit[] = [...tags].map(([at, type]) => ({ at, remove: 0, insert: ` @${TYPE_CHECK_PREFIX}${type}` }));
  for (const node of wildcards(elements)) {
    edits.push({ at: node.typeAt, remove: node.type.length, insert: '_' });
    edits.push({ at: node.end, remove: 0, insert: ` @${TYPE_CHECK_PREFIX}${node.type}` });
  }
  let out = source;
  for (const edit of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, edit.at) + edit.insert + out.slice(edit.at + edit.remove);
  return out;
}
