import { didYouMean } from '../util/did-you-mean';
import type { Expr, Name, NodePattern, Pattern, PropEntry, Query, RelPattern, ReturnItem, Span } from './ast';
import { QueryError } from './errors';
import { MAX_LIST_ITEMS } from './limits';
import { FUNCTION_NAMES, printExpr } from './printer';
import { compileFullMatch, RegexProblem, type FullMatch } from './regex';
import { NODE_LABELS, REL_TYPES, propertiesOf, type PropertyDef, type ValueType } from './vocabulary';

/** A variable of the MATCH pattern and the SQL alias of its row. */
export interface Binding {
  name: string;
  kind: 'node' | 'rel' | 'path';
  alias: string;
}

export type LintCode = 'unknown_label' | 'unknown_relationship_type' | 'unknown_property' | 'null_comparison';

/** A query that runs but probably does not mean what it says. `fix` rewrites the span to the likely intent. */
export interface Lint {
  code: LintCode;
  message: string;
  data: Record<string, unknown>;
  fix?: { span: Span; replacement: string };
}

export interface OrderKey {
  expr: Expr;
  descending: boolean;
  /** Index of the RETURN item it sorts by, or null for an expression of its own. */
  ref: number | null;
}

/** A parsed query with every name resolved and every expression typed: what the compiler reads. */
export interface Analyzed {
  text: string;
  query: Query;
  bindings: Map<string, Binding>;
  /** SQL aliases of the pattern's nodes and relationship (named or not). */
  aliases: { left: string; right?: string; rel?: string };
  types: Map<Expr, ValueType>;
  /** Element type of lists (IN lists, collect()). */
  elements: Map<Expr, ValueType>;
  /** Property accesses and map entries: the column, or null for an unknown property (NULL). */
  properties: Map<Expr | PropEntry, { def: PropertyDef | null; binding?: Binding }>;
  functions: Map<Expr, string>;
  regexes: Map<Expr, FullMatch>;
  /** The RETURN items, `*` expanded. */
  items: ReturnItem[];
  columns: string[];
  columnTypes: ValueType[];
  columnElements: ValueType[];
  /** Which items hold an aggregate; the others group. */
  aggregates: boolean[];
  grouped: boolean;
  order: OrderKey[];
  /** The query reads edges (a relationship in MATCH or a pattern in an expression). */
  usesGraph: boolean;
  lints: Lint[];
}

export const AGGREGATES = new Set(['count', 'sum', 'avg', 'min', 'max', 'collect']);

type Context = 'where' | 'return' | 'order' | 'predicate';

interface Scope {
  context: Context;
  inAggregate: boolean;
}

const NUMERIC = new Set<ValueType>(['int', 'float']);
const LOOSE = new Set<ValueType>(['null', 'any']);

function describeType(t: ValueType): string {
  switch (t) {
    case 'int':
    case 'float':
      return 'a number';
    case 'string':
      return 'a string';
    case 'bool':
      return 'a boolean';
    case 'node':
      return 'a node';
    case 'rel':
      return 'a relationship';
    case 'path':
      return 'a variable-length relationship';
    case 'list':
      return 'a list';
    default:
      return 'a value';
  }
}

function fail(span: Span, message: string, suggestion: string, data: Record<string, unknown> = {}): never {
  throw new QueryError(message, span, suggestion, 'semantic', data);
}

/** Resolves names and types of a parsed query; throws QueryError on what cannot run, records lints for what probably is a mistake. */
export function analyze(text: string, query: Query): Analyzed {
  return new Analyzer(text, query).run();
}

class Analyzer {
  private readonly a: Analyzed;

  constructor(text: string, query: Query) {
    this.a = {
      text,
      query,
      bindings: new Map(),
      aliases: { left: 'n0' },
      types: new Map(),
      elements: new Map(),
      properties: new Map(),
      functions: new Map(),
      regexes: new Map(),
      items: [],
      columns: [],
      columnTypes: [],
      columnElements: [],
      aggregates: [],
      grouped: false,
      order: [],
      usesGraph: false,
      lints: [],
    };
  }

  run(): Analyzed {
    const q = this.a.query;
    this.bindPattern(q.match);
    if (q.where) {
      const t = this.type(q.where, { context: 'where', inAggregate: false });
      if (!this.boolish(t)) fail(q.where.span, `WHERE needs a condition that is true or false, not ${describeType(t)}`, "compare a value, e.g. WHERE a.name = 'main'");
    }
    this.returnItems();
    this.orderKeys();
    return this.a;
  }

  private lint(lint: Lint): void {
    if (!this.a.lints.some((l) => l.code === lint.code && l.message === lint.message)) this.a.lints.push(lint);
  }

  // — Pattern —

  private bindPattern(p: Pattern): void {
    const bind = (v: Name | undefined, kind: Binding['kind'], alias: string): string => {
      if (!v) return alias;
      const had = this.a.bindings.get(v.name);
      if (had) {
        if (had.kind === 'node' && kind === 'node') return had.alias;
        fail(v.span, `${v.name} names both a node and a relationship`, 'give the relationship its own variable, e.g. (a)-[r:CALLS]->(b)');
      }
      this.a.bindings.set(v.name, { name: v.name, kind, alias });
      return alias;
    };
    this.a.aliases.left = bind(p.left.variable, 'node', 'n0');
    this.nodeChecks(p.left);
    if (p.rel && p.right) {
      this.a.usesGraph = true;
      this.a.aliases.rel = bind(p.rel.variable, p.rel.range ? 'path' : 'rel', 'r0');
      this.a.aliases.right = bind(p.right.variable, 'node', 'n1');
      this.relChecks(p.rel);
      this.nodeChecks(p.right);
    }
  }

  private nodeChecks(n: NodePattern): void {
    this.labelChecks(n.labels);
    this.mapChecks(n.props, 'node');
  }

  private labelChecks(labels: readonly Name[]): void {
    for (const l of labels) {
      if ((NODE_LABELS as readonly string[]).includes(l.name)) continue;
      const guess = didYouMean(l.name, NODE_LABELS);
      this.lint({
        code: 'unknown_label',
        message: `:${l.name} is not a symbol kind, so it matches nothing${guess ? `; did you mean :${guess}?` : ''}`,
        data: { label: l.name, ...(guess ? { did_you_mean: guess } : {}), kinds: [...NODE_LABELS] },
        ...(guess ? { fix: { span: l.span, replacement: guess } } : {}),
      });
    }
  }

  private relChecks(r: RelPattern): void {
    this.typeChecks(r.types);
    // Map entries of a variable-length relationship apply to every hop: edge properties.
    this.mapChecks(r.props, 'rel');
  }

  private typeChecks(types: readonly Name[]): void {
    for (const t of types) {
      if ((REL_TYPES as readonly string[]).includes(t.name)) continue;
      const guess = didYouMean(t.name, REL_TYPES);
      this.lint({
        code: 'unknown_relationship_type',
        message: `:${t.name} is not a relationship type, so it matches nothing${guess ? `; did you mean :${guess}?` : ''}`,
        data: { type: t.name, ...(guess ? { did_you_mean: guess } : {}), types: [...REL_TYPES] },
        ...(guess ? { fix: { span: t.span, replacement: guess } } : {}),
      });
    }
  }

  private mapChecks(props: readonly PropEntry[], kind: 'node' | 'rel'): void {
    const defs = propertiesOf(kind);
    for (const p of props) {
      const def = Object.hasOwn(defs, p.key.name) ? defs[p.key.name] : null;
      this.a.properties.set(p, { def });
      const vt = this.type(p.value, { context: 'where', inAggregate: false });
      if (!def) {
        this.unknownProperty(p.key, kind === 'node' ? 'a node' : 'an edge', defs);
        continue;
      }
      if (vt === 'null') {
        this.lint({ code: 'null_comparison', message: `{${p.key.name}: null} never matches (a comparison with null is null)`, data: { property: p.key.name } });
      } else if (!this.comparable(def.type, vt, true)) {
        fail(p.span, `${p.key.name} holds ${describeType(def.type)}, so it never equals ${describeType(vt)}`, `write a value of the right type, e.g. {${p.key.name}: ${example(def.type)}}`);
      }
    }
  }

  private unknownProperty(key: Name, owner: string, defs: Readonly<Record<string, PropertyDef>>): void {
    const known = Object.keys(defs);
    const guess = didYouMean(key.name, known);
    this.lint({
      code: 'unknown_property',
      message: `${owner} has no property ${key.name}, so it reads as null${guess ? `; did you mean ${guess}?` : ''}`,
      data: { property: key.name, ...(guess ? { did_you_mean: guess } : {}), known },
      ...(guess ? { fix: { span: key.span, replacement: guess } } : {}),
    });
  }

  // — Expressions —

  private boolish(t: ValueType): boolean {
    return t === 'bool' || LOOSE.has(t);
  }

  private comparable(l: ValueType, r: ValueType, equality: boolean): boolean {
    if (LOOSE.has(l) || LOOSE.has(r)) return true;
    if (NUMERIC.has(l) && NUMERIC.has(r)) return true;
    if (l !== r) return false;
    return l === 'string' || (equality && (l === 'bool' || l === 'node' || l === 'rel'));
  }

  private type(e: Expr, s: Scope): ValueType {
    const t = this.compute(e, s);
    this.a.types.set(e, t);
    return t;
  }

  private lookup(name: string, span: Span): Binding {
    const b = this.a.bindings.get(name);
    if (b) return b;
    const known = [...this.a.bindings.keys()];
    const guess = didYouMean(name, known);
    fail(span, `${name} is not defined by the MATCH pattern${guess ? `; did you mean ${guess}?` : ''}`,
      known.length ? `use one of: ${known.join(', ')}` : 'name a node in MATCH, e.g. MATCH (a:Function) RETURN a.name', { variable: name, ...(guess ? { did_you_mean: guess } : {}) });
  }

  private expect(e: Expr, s: Scope, ok: (t: ValueType) => boolean, what: string): ValueType {
    const t = this.type(e, s);
    if (!ok(t) && !LOOSE.has(t)) fail(e.span, `expected ${what}, got ${describeType(t)}`, `use ${what} here`);
    return t;
  }

  private compute(e: Expr, s: Scope): ValueType {
    switch (e.type) {
      case 'literal':
        if (e.value === null) return 'null';
        if (typeof e.value === 'boolean') return 'bool';
        if (typeof e.value === 'number') return e.float ? 'float' : 'int';
        return 'string';
      case 'list':
        fail(e.span, 'a list is only supported after IN', "write a.kind IN ['Function', 'Method']");
      case 'var':
        return this.lookup(e.name, e.span).kind;
      case 'prop': {
        if (e.object.type !== 'var') fail(e.span, 'properties belong to a variable', 'write a.name or r.line');
        const b = this.lookup(e.object.name, e.object.span);
        this.a.types.set(e.object, b.kind);
        const defs = propertiesOf(b.kind);
        const def = Object.hasOwn(defs, e.key.name) ? defs[e.key.name] : null;
        this.a.properties.set(e, { def, binding: b });
        if (!def) this.unknownProperty(e.key, b.kind === 'node' ? `node ${b.name}` : b.kind === 'rel' ? `relationship ${b.name}` : `variable-length relationship ${b.name}`, defs);
        return def ? def.type : 'null';
      }
      case 'not':
        this.expect(e.operand, s, (t) => t === 'bool', 'a condition');
        return 'bool';
      case 'neg':
        return this.expect(e.operand, s, (t) => NUMERIC.has(t), 'a number');
      case 'isnull':
        this.type(e.operand, s);
        return 'bool';
      case 'binary':
        return this.binary(e, s);
      case 'call':
        return this.call(e, s);
      case 'pattern':
        this.patternPredicate(e.pattern);
        return 'bool';
      case 'label': {
        if (e.operand.type !== 'var') fail(e.span, 'a label test applies to a variable', 'write a:Function');
        const b = this.lookup(e.operand.name, e.operand.span);
        this.a.types.set(e.operand, b.kind);
        if (b.kind === 'node') this.labelChecks(e.labels);
        else if (b.kind === 'rel') this.typeChecks(e.labels);
        else fail(e.span, `${b.name} is a variable-length relationship and has no single type`, 'put the types in the pattern: -[:CALLS*1..3]->');
        return 'bool';
      }
    }
  }

  private binary(e: Extract<Expr, { type: 'binary' }>, s: Scope): ValueType {
    switch (e.op) {
      case 'AND':
      case 'OR':
      case 'XOR':
        this.expect(e.left, s, (t) => t === 'bool', 'a condition');
        this.expect(e.right, s, (t) => t === 'bool', 'a condition');
        return 'bool';
      case '=':
      case '<>':
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const l = this.type(e.left, s);
        const r = this.type(e.right, s);
        const equality = e.op === '=' || e.op === '<>';
        if (!this.comparable(l, r, equality)) {
          fail(e.span, `cannot compare ${describeType(l)} with ${describeType(r)} using ${e.op}`,
            equality ? 'compare values of one type: strings with strings, numbers with numbers (no quotes), booleans with true or false' : 'order only numbers with numbers or strings with strings');
        }
        if ((e.left.type === 'literal' && e.left.value === null) || (e.right.type === 'literal' && e.right.value === null)) {
          this.lint({ code: 'null_comparison', message: `${printExpr(e)} is always null, so it never holds; write IS NULL or IS NOT NULL`, data: { expression: printExpr(e) } });
        }
        return 'bool';
      }
      case '=~': {
        if (this.containsAggregate(e.left)) fail(e.left.span, '=~ cannot test an aggregate', 'test the values before aggregating, in WHERE');
        this.expect(e.left, s, (t) => t === 'string', 'a string before =~');
        if (e.right.type !== 'literal' || typeof e.right.value !== 'string') {
          fail(e.right.span, 'the regular expression after =~ must be a string literal', "write a.name =~ 'get.*'");
        }
        this.a.types.set(e.right, 'string');
        try {
          this.a.regexes.set(e, compileFullMatch(e.right.value));
        } catch (err) {
          if (!(err instanceof RegexProblem)) throw err;
          fail(e.right.span, `the regular expression ${err.message}`, err.suggestion, err.rule ? { rule: err.rule } : {});
        }
        return 'bool';
      }
      case 'IN': {
        const l = this.type(e.left, s);
        if (e.right.type !== 'list') fail(e.right.span, 'IN needs a list literal', "write a.kind IN ['Function', 'Method']");
        if (e.right.items.length > MAX_LIST_ITEMS) fail(e.right.span, `an IN list holds at most ${MAX_LIST_ITEMS} items`, 'split the query or narrow it with another condition');
        const seen = new Set<ValueType>();
        for (const item of e.right.items) {
          if (item.type !== 'literal') fail(item.span, 'IN lists hold literal values', "write ['a', 'b'] or [1, 2]");
          const t = this.type(item, s);
          if (!this.comparable(l, t, true)) fail(item.span, `${describeType(l)} never equals ${describeType(t)}`, 'put values of the same type as the left side in the list');
          if (t !== 'null') seen.add(t);
        }
        this.a.types.set(e.right, 'list');
        this.a.elements.set(e.right, seen.size === 1 ? [...seen][0] : 'any');
        return 'bool';
      }
      case 'CONTAINS':
      case 'STARTS WITH':
      case 'ENDS WITH':
        this.expect(e.left, s, (t) => t === 'string', `a string before ${e.op}`);
        this.expect(e.right, s, (t) => t === 'string', `a string after ${e.op}`);
        return 'bool';
      case '+': {
        const l = this.type(e.left, s);
        const r = this.type(e.right, s);
        if (l === 'null' || r === 'null') return 'null';
        if (NUMERIC.has(l) && NUMERIC.has(r)) return l === 'int' && r === 'int' ? 'int' : 'float';
        const text = (t: ValueType) => t === 'string' || NUMERIC.has(t) || t === 'any';
        if ((l === 'string' && text(r)) || (r === 'string' && text(l))) return 'string';
        if (l === 'any' || r === 'any') return 'any';
        fail(e.span, `cannot add ${describeType(l)} and ${describeType(r)}`, 'add numbers, or join a string with a string or number');
      }
      default: {
        const l = this.expect(e.left, s, (t) => NUMERIC.has(t), 'a number');
        const r = this.expect(e.right, s, (t) => NUMERIC.has(t), 'a number');
        if (l === 'null' || r === 'null') return 'null';
        return l === 'int' && r === 'int' ? 'int' : l === 'any' || r === 'any' ? 'any' : 'float';
      }
    }
  }

  private call(e: Extract<Expr, { type: 'call' }>, s: Scope): ValueType {
    const lower = e.name.name.toLowerCase();
    const name = FUNCTION_NAMES[lower];
    if (!name) {
      const known = Object.values(FUNCTION_NAMES);
      const guess = didYouMean(e.name.name, known);
      fail(e.name.span, `unknown function ${e.name.name}()${guess ? `; did you mean ${guess}()?` : ''}`, `use one of: ${known.join(', ')}`);
    }
    this.a.functions.set(e, name);
    if (e.star && name !== 'count') fail(e.span, '* is only valid in count(*)', `write ${name}(a.property)`);
    const aggregate = AGGREGATES.has(name);
    if (e.distinct && !aggregate) fail(e.span, `DISTINCT is only valid inside an aggregate, not ${name}()`, `drop DISTINCT, or use it in count/sum/avg/min/max/collect`);
    if (aggregate) {
      if (s.context === 'where' || s.context === 'predicate') fail(e.span, `aggregates such as ${name}() are not allowed in WHERE`, 'filter rows in WHERE and aggregate in RETURN, e.g. RETURN a.file, count(*) AS n ORDER BY n DESC');
      if (s.inAggregate) fail(e.span, 'aggregates cannot be nested', `write ${name}(…) over a plain value`);
    }
    const arity = e.star ? 0 : e.args.length;
    if ((name === 'count' && !e.star && arity !== 1) || (name !== 'count' && arity !== 1)) {
      fail(e.span, `${name}() takes exactly one argument`, name === 'count' ? 'write count(*) or count(a.name)' : `write ${name}(a.name)`);
    }
    const inner: Scope = { context: s.context, inAggregate: aggregate || s.inAggregate };
    const arg = e.args[0];
    switch (name) {
      case 'count':
        if (arg) this.type(arg, inner);
        return 'int';
      case 'sum': {
        const t = this.expect(arg, inner, (x) => NUMERIC.has(x), 'a number to sum');
        return t === 'float' ? 'float' : t === 'int' || t === 'null' ? 'int' : 'any';
      }
      case 'avg':
        this.expect(arg, inner, (x) => NUMERIC.has(x), 'a number to average');
        return 'float';
      case 'min':
      case 'max':
        return this.expect(arg, inner, (x) => x === 'string' || x === 'bool' || NUMERIC.has(x), `a string, number or boolean for ${name}()`);
      case 'collect': {
        const t = this.type(arg, inner);
        this.a.elements.set(e, t);
        return 'list';
      }
      case 'toLower':
      case 'toUpper':
        this.expect(arg, inner, (x) => x === 'string', `a string for ${name}()`);
        return 'string';
      case 'size':
      case 'length':
        this.expect(arg, inner, (x) => x === 'string' || x === 'path', `a string or a variable-length relationship for ${name}()`);
        return 'int';
      case 'type': {
        const t = this.type(arg, inner);
        if (arg.type !== 'var' || t !== 'rel') fail(arg.span, 'type() takes a single-hop relationship variable', 'write MATCH (a)-[r]->(b) RETURN type(r)');
        return 'string';
      }
      default: {
        // exists(pattern)
        if (arg.type !== 'pattern') fail(arg.span, 'exists() takes a relationship pattern', 'write exists((a)-[:CALLS]->()) or the pattern alone');
        this.type(arg, inner);
        return 'bool';
      }
    }
  }

  /** A relationship pattern used as a condition: its named nodes must come from MATCH. */
  private patternPredicate(p: Pattern): void {
    this.a.usesGraph = true;
    const rel = p.rel as RelPattern;
    if (rel.variable) fail(rel.variable.span, 'naming a relationship inside an expression pattern is not supported', 'drop the variable: (a)-[:CALLS]->()');
    if (rel.range) fail(rel.range.span, 'variable-length relationships are only supported in MATCH', 'use a single hop here, e.g. (a)-[:CALLS]->()');
    for (const n of [p.left, p.right as NodePattern]) {
      if (n.variable) {
        const b = this.lookup(n.variable.name, n.variable.span);
        if (b.kind !== 'node') fail(n.variable.span, `${b.name} is a relationship, not a node`, 'use a node variable or an anonymous node ()');
      }
      this.nodeChecks(n);
    }
    this.relChecks(rel);
  }

  private containsAggregate(e: Expr): boolean {
    switch (e.type) {
      case 'call':
        return AGGREGATES.has(FUNCTION_NAMES[e.name.name.toLowerCase()] ?? '') || e.args.some((a) => this.containsAggregate(a));
      case 'binary':
        return this.containsAggregate(e.left) || this.containsAggregate(e.right);
      case 'not':
      case 'neg':
      case 'isnull':
        return this.containsAggregate(e.operand);
      default:
        return false;
    }
  }

  /** Variables read outside any aggregate call. */
  private plainVariables(e: Expr): string[] {
    switch (e.type) {
      case 'var':
        return [e.name];
      case 'prop':
        return this.plainVariables(e.object);
      case 'call':
        return AGGREGATES.has(FUNCTION_NAMES[e.name.name.toLowerCase()] ?? '') ? [] : e.args.flatMap((a) => this.plainVariables(a));
      case 'binary':
        return [...this.plainVariables(e.left), ...this.plainVariables(e.right)];
      case 'not':
      case 'neg':
      case 'isnull':
      case 'label':
        return this.plainVariables(e.operand);
      default:
        return [];
    }
  }

  // — RETURN and ORDER BY —

  private returnItems(): void {
    const q = this.a.query;
    let items = q.items;
    if (q.star) {
      const named = [...this.a.bindings.values()];
      if (!named.length) fail(q.span, 'RETURN * needs a named variable in the pattern', 'name a node, e.g. MATCH (a:Function) RETURN *');
      items = named.map((b) => ({ expr: { type: 'var', name: b.name, span: q.span } as Expr, span: q.span }));
    }
    this.a.items = items;
    for (const item of items) {
      const t = this.type(item.expr, { context: 'return', inAggregate: false });
      const aggregate = this.containsAggregate(item.expr);
      if (aggregate && this.plainVariables(item.expr).length) {
        fail(item.span, 'this RETURN item mixes an aggregate with values outside it', 'return the plain value as its own item: RETURN a.kind, count(*)');
      }
      const column = item.alias?.name ?? printExpr(item.expr);
      if (this.a.columns.includes(column)) fail(item.span, `the column ${column} appears twice`, 'rename one of them with AS');
      this.a.columns.push(column);
      this.a.columnTypes.push(t);
      this.a.columnElements.push(t === 'list' ? (this.a.elements.get(item.expr) ?? 'any') : 'any');
      this.a.aggregates.push(aggregate);
    }
    this.a.grouped = this.a.aggregates.some(Boolean);
  }

  private orderKeys(): void {
    const q = this.a.query;
    const printed = this.a.items.map((i) => printExpr(i.expr));
    for (const o of q.order) {
      let ref: number | null = null;
      if (o.expr.type === 'var') {
        const k = this.a.items.findIndex((i) => i.alias?.name === (o.expr as { name: string }).name);
        if (k >= 0) ref = k;
      }
      if (ref === null) {
        const k = printed.indexOf(printExpr(o.expr));
        if (k >= 0) ref = k;
      }
      if (ref === null) {
        if (this.a.grouped || q.distinct) {
          fail(o.span, `with ${q.distinct ? 'DISTINCT' : 'an aggregate'}, ORDER BY can only use returned columns`, `order by one of: ${this.a.columns.join(', ')} (or add the expression to RETURN)`);
        }
        this.type(o.expr, { context: 'order', inAggregate: false });
        if (this.containsAggregate(o.expr)) fail(o.span, 'ORDER BY an aggregate needs it in RETURN', 'return it with an alias and order by the alias: RETURN a.kind, count(*) AS n ORDER BY n DESC');
      }
      this.a.order.push({ expr: o.expr, descending: o.descending, ref });
    }
  }
}

function example(t: ValueType): string {
  return t === 'string' ? "'text'" : t === 'bool' ? 'true' : t === 'float' ? '0.5' : '10';
}
