import type { Expr, Literal, NodePattern, Pattern, PropEntry, Query, RelPattern } from './ast';

/**
 * Canonical pinchQL text of a syntax tree: what column names are made of, and
 * how next steps rewrite a query (drop a condition, fix a label, page on).
 * `parseQuery(printQuery(q))` gives back a tree that prints the same.
 */
export function printQuery(q: Query): string {
  const parts = [`MATCH ${printPattern(q.match)}`];
  if (q.where) parts.push(`WHERE ${printExpr(q.where)}`);
  const items = q.star ? '*' : q.items.map((i) => (i.alias ? `${printExpr(i.expr)} AS ${printName(i.alias.name)}` : printExpr(i.expr))).join(', ');
  parts.push(`RETURN ${q.distinct ? 'DISTINCT ' : ''}${items}`);
  if (q.order.length) parts.push(`ORDER BY ${q.order.map((o) => `${printExpr(o.expr)}${o.descending ? ' DESC' : ''}`).join(', ')}`);
  if (q.skip) parts.push(`SKIP ${q.skip.value}`);
  if (q.limit) parts.push(`LIMIT ${q.limit.value}`);
  return parts.join(' ');
}

export function printPattern(p: Pattern): string {
  if (!p.rel || !p.right) return printNode(p.left);
  return `${printNode(p.left)}${printRel(p.rel)}${printNode(p.right)}`;
}

function printProps(props: readonly PropEntry[]): string {
  return props.length ? `{${props.map((p) => `${printWord(p.key.name)}: ${printExpr(p.value)}`).join(', ')}}` : '';
}

function printNode(n: NodePattern): string {
  const labels = n.labels.length ? `:${n.labels.map((l) => printWord(l.name)).join('|')}` : '';
  const head = `${n.variable ? printName(n.variable.name) : ''}${labels}`;
  const props = printProps(n.props);
  return `(${head}${head && props ? ' ' : ''}${props})`;
}

function printRel(r: RelPattern): string {
  const types = r.types.length ? `:${r.types.map((t) => printWord(t.name)).join('|')}` : '';
  const range = r.range ? `*${r.range.min}..${r.range.max}` : '';
  const head = `${r.variable ? printName(r.variable.name) : ''}${types}${range}`;
  const props = printProps(r.props);
  const inner = `${head}${head && props ? ' ' : ''}${props}`;
  const body = inner ? `-[${inner}]-` : '--';
  return r.direction === 'out' ? `${body}>` : `<${body}`;
}

const PREC: Record<string, number> = {
  OR: 1, XOR: 2, AND: 3,
  '=': 5, '<>': 5, '<': 5, '<=': 5, '>': 5, '>=': 5, '=~': 5, IN: 5, CONTAINS: 5, 'STARTS WITH': 5, 'ENDS WITH': 5,
  '+': 6, '-': 6, '*': 7, '/': 7, '%': 7,
};
const ATOM = 9;

function precedence(e: Expr): number {
  switch (e.type) {
    case 'binary':
      return PREC[e.op];
    case 'not':
      return 4;
    case 'isnull':
      return 5;
    case 'neg':
      return 8;
    case 'literal':
      return typeof e.value === 'number' && e.value < 0 ? 8 : ATOM;
    default:
      return ATOM;
  }
}

/** Canonical spellings of the functions pinchQL knows, by lower-case name. */
export const FUNCTION_NAMES: Readonly<Record<string, string>> = {
  count: 'count', sum: 'sum', avg: 'avg', min: 'min', max: 'max', collect: 'collect',
  tolower: 'toLower', toupper: 'toUpper', size: 'size', length: 'length', type: 'type', exists: 'exists',
};

export function printExpr(e: Expr, min = 0): string {
  const text = printRaw(e);
  return precedence(e) < min ? `(${text})` : text;
}

function printRaw(e: Expr): string {
  switch (e.type) {
    case 'literal':
      return printLiteral(e.value, e.float === true);
    case 'list':
      return `[${e.items.map((i) => printExpr(i)).join(', ')}]`;
    case 'var':
      return printName(e.name);
    case 'prop':
      return `${printExpr(e.object, ATOM)}.${printWord(e.key.name)}`;
    case 'not':
      return `NOT ${printExpr(e.operand, 4)}`;
    case 'neg':
      return `-${printExpr(e.operand, ATOM)}`;
    case 'isnull':
      return `${printExpr(e.operand, 6)} IS ${e.negated ? 'NOT ' : ''}NULL`;
    case 'binary': {
      const p = PREC[e.op];
      // Comparisons do not chain: both sides bind tighter.
      const left = printExpr(e.left, p === 5 ? 6 : p);
      return `${left} ${e.op} ${printExpr(e.right, p + 1)}`;
    }
    case 'call': {
      const name = FUNCTION_NAMES[e.name.name.toLowerCase()] ?? e.name.name;
      if (e.star) return `${name}(*)`;
      return `${name}(${e.distinct ? 'DISTINCT ' : ''}${e.args.map((a) => printExpr(a)).join(', ')})`;
    }
    case 'pattern':
      return printPattern(e.pattern);
    case 'label':
      return `${printExpr(e.operand, ATOM)}:${e.labels.map((l) => printWord(l.name)).join('|')}`;
  }
}

export function printLiteral(value: Literal, float = false): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    const text = String(value);
    return float && !/[.eE]/.test(text) && Number.isFinite(value) ? `${text}.0` : text;
  }
  return `'${value.replace(/[\\'\n\r\t\b\f]/g, (c) => ESCAPE[c])}'`;
}

const ESCAPE: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
const PLAIN = /^[\p{L}_][\p{L}\p{N}_]*$/u;
const KEYWORDS = new Set([
  'MATCH', 'WHERE', 'RETURN', 'AND', 'OR', 'XOR', 'NOT', 'IN', 'IS', 'NULL', 'TRUE', 'FALSE', 'AS', 'DISTINCT', 'ORDER', 'BY', 'SKIP',
  'OFFSET', 'LIMIT', 'ASC', 'ASCENDING', 'DESC', 'DESCENDING', 'STARTS', 'ENDS', 'CONTAINS', 'WITH', 'OPTIONAL', 'UNWIND', 'UNION',
  'CREATE', 'MERGE', 'DELETE', 'DETACH', 'SET', 'REMOVE', 'CALL', 'CASE', 'WHEN', 'THEN', 'ELSE', 'END', 'FOREACH', 'LOAD', 'YIELD',
  'DROP', 'USE',
]);

/** A variable or alias: plain when it is an identifier and no keyword, else in backticks. */
export function printName(name: string): string {
  return PLAIN.test(name) && !KEYWORDS.has(name.toUpperCase()) ? name : quote(name);
}

/** A label, type or property key: keywords are fine there. */
function printWord(name: string): string {
  return PLAIN.test(name) ? name : quote(name);
}

function quote(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}
