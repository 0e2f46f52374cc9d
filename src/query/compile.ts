import type { Analyzed, Binding } from './analyze';
import type { Expr, NodePattern, Pattern, PropEntry, RelPattern } from './ast';
import { QueryError } from './errors';
import { MAX_PARAMS, REGEX_CANDIDATES, WALK_CAP } from './limits';
import type { Required } from '../regex/literals';
import { NODE_VIEW, REL_VIEW } from './vocabulary';
import { DEFAULT_MIN_CONFIDENCE } from '../graph/view';
import { edgeEndIsSql, edgeEndIsSymbolSql, edgeIdSql } from '../db/edge-ends';
import { symbolInFileSql } from '../db/symbol-range';

/**
 * pinchQL → SQLite for D1. Every value from the query text is a bound
 * parameter (`?N`); identifiers come only from the fixed vocabulary and
 * generated aliases (n0, n1, r0, s, e…). `?1` is always the project id: every
 * table read is scoped to one project.
 */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** Values the caller computed for `=~` tests: the matching values of each regex expression. */
export type RegexValues = ReadonlyMap<Expr, readonly string[]>;

class Params {
  readonly values: unknown[];
  constructor(projectId: string) {
    this.values = [projectId];
  }
  add(value: unknown): string {
    this.values.push(value);
    return `?${this.values.length}`;
  }
}

/** A whole number the compiler itself produced (bounds, caps): safe to write into the SQL text. */
function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return String(n);
}

interface Ctx {
  a: Analyzed;
  p: Params;
  /** Variable name → SQL alias; the seed of a walk maps its variable to `s`. */
  aliases: Map<string, string>;
  regexValues: RegexValues;
  /** Counter for aliases of subqueries. */
  seq: { n: number };
}

function context(a: Analyzed, projectId: string, regexValues: RegexValues): Ctx {
  const aliases = new Map<string, string>();
  for (const b of a.bindings.values()) aliases.set(b.name, b.alias);
  return { a, p: new Params(projectId), aliases, regexValues, seq: { n: 0 } };
}

/** The top-level AND conditions of a WHERE. */
export function conjunctsOf(e: Expr | undefined): Expr[] {
  if (!e) return [];
  if (e.type === 'binary' && e.op === 'AND') return [...conjunctsOf(e.left), ...conjunctsOf(e.right)];
  return [e];
}

/** Variable names an expression reads (pattern nodes included). */
export function variablesOf(e: Expr): Set<string> {
  const out = new Set<string>();
  const walk = (x: Expr): void => {
    switch (x.type) {
      case 'var':
        out.add(x.name);
        return;
      case 'prop':
        return walk(x.object);
      case 'not':
      case 'neg':
      case 'isnull':
      case 'label':
        return walk(x.operand);
      case 'binary':
        walk(x.left);
        return walk(x.right);
      case 'call':
        return x.args.forEach(walk);
      case 'list':
        return x.items.forEach(walk);
      case 'pattern':
        for (const n of [x.pattern.left, x.pattern.right]) if (n?.variable) out.add(n.variable.name);
        return;
      default:
        return;
    }
  };
  walk(e);
  return out;
}

// — Expressions —

function aliasOf(c: Ctx, b: Binding): string {
  return c.aliases.get(b.name) ?? b.alias;
}

function sqlOf(e: Expr, c: Ctx): string {
  switch (e.type) {
    case 'literal':
      if (e.value === null) return 'NULL';
      if (typeof e.value === 'boolean') return e.value ? '1' : '0';
      // D1 binds every JS number as REAL: an integer literal stays an integer (7 / 2 = 3, as in Cypher).
      if (typeof e.value === 'number' && !e.float) return `CAST(${c.p.add(e.value)} AS INTEGER)`;
      return c.p.add(e.value);
    case 'list':
      return c.p.add(JSON.stringify(e.items.map((i) => (i.type === 'literal' ? i.value : null))));
    case 'var': {
      const b = c.a.bindings.get(e.name) as Binding;
      const alias = aliasOf(c, b);
      return b.kind === 'node' ? `${alias}.id` : b.kind === 'rel' ? `${alias}.rowid` : `${alias}.depth`;
    }
    case 'prop': {
      const found = c.a.properties.get(e);
      if (!found?.def || !found.binding) return 'NULL';
      return `${aliasOf(c, found.binding)}.${found.def.column}`;
    }
    case 'not':
      return `(NOT ${sqlOf(e.operand, c)})`;
    case 'neg':
      return `(- ${sqlOf(e.operand, c)})`;
    case 'isnull':
      return `(${sqlOf(e.operand, c)} IS ${e.negated ? 'NOT ' : ''}NULL)`;
    case 'binary':
      return binarySql(e, c);
    case 'call':
      return callSql(e, c);
    case 'pattern':
      return patternSql(e.pattern, c);
    case 'label': {
      const b = c.a.bindings.get((e.operand as { name: string }).name) as Binding;
      return `(${aliasOf(c, b)}.kind IN (${e.labels.map((l) => c.p.add(l.name)).join(', ')}))`;
    }
  }
}

function binarySql(e: Extract<Expr, { type: 'binary' }>, c: Ctx): string {
  if (e.op === '=~') {
    const values = c.regexValues.get(e);
    if (!values) throw new Error('regex values were not computed before compiling');
    return `(${sqlOf(e.left, c)} IN (SELECT value FROM json_each(${c.p.add(JSON.stringify(values))})))`;
  }
  if (e.op === '=') {
    const inFile = fileTestSql(e.left, e.right, c) ?? fileTestSql(e.right, e.left, c);
    if (inFile) return inFile;
  }
  const l = sqlOf(e.left, c);
  const r = sqlOf(e.right, c);
  switch (e.op) {
    case 'AND':
    case 'OR':
      return `(${l} ${e.op} ${r})`;
    case 'XOR':
      return `((${l}) <> (${r}))`;
    case 'IN':
      return `(${l} IN (SELECT value FROM json_each(${r})))`;
    case 'CONTAINS':
      return `(instr(${l}, ${r}) > 0)`;
    case 'STARTS WITH':
      return `(substr(${l}, 1, length(${r})) = ${r})`;
    case 'ENDS WITH':
      return `(CASE WHEN ${l} IS NULL OR ${r} IS NULL THEN NULL WHEN length(${r}) = 0 THEN 1 ELSE substr(${l}, -length(${r})) = ${r} END)`;
    case '+':
      return c.a.types.get(e.left) === 'string' || c.a.types.get(e.right) === 'string' ? `(${l} || ${r})` : `(${l} + ${r})`;
    default:
      // = <> < <= > >= - * / %: the same spelling in SQLite.
      return `(${l} ${e.op} ${r})`;
  }
}

/** `n.file = 'path'` for a node `n`: the file's range of the id index (db/symbol-range.ts); null for any other test. */
function fileTestSql(prop: Expr, value: Expr, c: Ctx): string | null {
  if (prop.type !== 'prop' || value.type !== 'literal' || typeof value.value !== 'string') return null;
  const found = c.a.properties.get(prop);
  if (!found?.def || !found.binding || found.binding.kind !== 'node' || found.def.column !== 'file_path') return null;
  return `(${symbolInFileSql(aliasOf(c, found.binding), sqlOf(value, c))})`;
}

function callSql(e: Extract<Expr, { type: 'call' }>, c: Ctx): string {
  const name = c.a.functions.get(e);
  const arg = e.args[0];
  const d = e.distinct ? 'DISTINCT ' : '';
  switch (name) {
    case 'count':
      return e.star ? 'count(*)' : `count(${d}${sqlOf(arg, c)})`;
    case 'sum':
      return `coalesce(sum(${d}${sqlOf(arg, c)}), 0)`;
    case 'avg':
    case 'min':
    case 'max':
      return `${name}(${d}${sqlOf(arg, c)})`;
    case 'collect':
      return `json_group_array(${d}${renderSql(arg, c)}) FILTER (WHERE ${sqlOf(arg, c)} IS NOT NULL)`;
    case 'toLower':
      return `lower(${sqlOf(arg, c)})`;
    case 'toUpper':
      return `upper(${sqlOf(arg, c)})`;
    case 'size':
    case 'length':
      return c.a.types.get(arg) === 'path' ? sqlOf(arg, c) : `length(${sqlOf(arg, c)})`;
    case 'type': {
      const b = c.a.bindings.get((arg as { name: string }).name) as Binding;
      return `${aliasOf(c, b)}.kind`;
    }
    case 'exists':
      return sqlOf(arg, c);
    default:
      throw new Error(`function ${name} has no SQL form`);
  }
}

/** A value as RETURN shows it: nodes and relationships become JSON objects, everything else its SQL value. */
function renderSql(e: Expr, c: Ctx): string {
  if (e.type !== 'var') return sqlOf(e, c);
  const b = c.a.bindings.get(e.name) as Binding;
  const alias = aliasOf(c, b);
  const view = b.kind === 'node' ? NODE_VIEW : b.kind === 'rel' ? REL_VIEW : [['depth', 'depth'] as const];
  return `json_object(${view.map(([key, column]) => `'${key}', ${columnSql(alias, column)}`).join(', ')})`;
}

/** A column of the view: an edge's `src_id` / `dst_id` is stored as its file and key (db/edge-ends.ts). */
function columnSql(alias: string, column: string): string {
  if (column === 'src_id') return edgeIdSql(alias, 'src');
  if (column === 'dst_id') return edgeIdSql(alias, 'dst');
  return `${alias}.${column}`;
}

// — Pattern conditions —

function mapSql(alias: string, props: readonly PropEntry[], c: Ctx): string[] {
  return props.map((p) => {
    const def = c.a.properties.get(p)?.def;
    if (!def) return 'NULL';
    // A symbol's file given as text: the file's range of the id index (db/symbol-range.ts), one bound value.
    if (def.column === 'file_path' && p.value.type === 'literal' && typeof p.value.value === 'string') return symbolInFileSql(alias, sqlOf(p.value, c));
    return `${alias}.${def.column} = ${sqlOf(p.value, c)}`;
  });
}

function nodeSql(alias: string, n: NodePattern, c: Ctx): string[] {
  const out: string[] = [];
  if (n.labels.length) out.push(`${alias}.kind IN (${n.labels.map((l) => c.p.add(l.name)).join(', ')})`);
  return [...out, ...mapSql(alias, n.props, c)];
}

function relSql(alias: string, r: RelPattern, c: Ctx): string[] {
  const out: string[] = [];
  if (r.types.length) out.push(`${alias}.kind IN (${r.types.map((t) => c.p.add(t.name)).join(', ')})`);
  return [...out, ...mapSql(alias, r.props, c)];
}

/** `(a)-[:CALLS]->()` as a condition: EXISTS over edges whose ends are symbols. */
function patternSql(p: Pattern, c: Ctx): string {
  const rel = p.rel as RelPattern;
  const right = p.right as NodePattern;
  const k = c.seq.n++;
  const e = `e${k}`;
  const joins: string[] = [];
  const where = [`${e}.project_id = ?1`, ...relSql(e, rel, c)];
  const [src, dst] = rel.direction === 'out' ? [p.left, right] : [right, p.left];
  for (const [node, end, side] of [[src, 'src', 's'], [dst, 'dst', 'd']] as const) {
    if (node.variable) {
      const b = c.a.bindings.get(node.variable.name) as Binding;
      const alias = aliasOf(c, b);
      where.push(edgeEndIsSymbolSql(e, end, alias), ...nodeSql(alias, node, c));
    } else {
      const alias = `o${k}${side}`;
      joins.push(`JOIN symbols ${alias} ON ${alias}.project_id = ${e}.project_id AND ${alias}.id = ${edgeIdSql(e, end)}`);
      where.push(...nodeSql(alias, node, c));
    }
  }
  return `EXISTS (SELECT 1 FROM edges ${e} ${joins.join(' ')} WHERE ${where.join(' AND ')})`;
}

// — The pattern as FROM / WHERE —

interface Core {
  /** `WITH RECURSIVE …` for variable-length patterns, else ''. */
  prefix: string;
  from: string;
  where: string[];
  walk: boolean;
  /**
   * A walk from every symbol (neither end narrowed) whose range takes one hop: its one-hop pairs, which are
   * matches themselves, as a FROM and WHERE over one edge (`SELECT DISTINCT` of `pair` counts them). Built on
   * demand: it binds values of its own.
   */
  oneHop?: () => { from: string; where: string[]; pair: string };
}

/** Which end of a variable-length relationship the walk starts from: the more constrained one. */
function anchorSide(a: Analyzed, conjuncts: readonly Expr[]): 'left' | 'right' {
  const m = a.query.match;
  return anchorScore(m.right, conjuncts) > anchorScore(m.left, conjuncts) ? 'right' : 'left';
}

/** How narrow a node's own conditions are: 1 for a label, 4 per id/name property, 2 per other property or WHERE test on it alone. */
function anchorScore(n: NodePattern | undefined, conjuncts: readonly Expr[]): number {
  if (!n) return 0;
  let s = n.labels.length ? 1 : 0;
  for (const p of n.props) s += ['id', 'name', 'qualified_name'].includes(p.key.name) ? 4 : 2;
  const v = n.variable?.name;
  if (v) for (const x of conjuncts) if (onlyReads(x, v)) s += 2;
  return s;
}

function onlyReads(e: Expr, variable: string): boolean {
  const vars = variablesOf(e);
  return vars.size === 1 && vars.has(variable);
}

function core(c: Ctx, conjuncts: readonly Expr[]): Core {
  const m = c.a.query.match;
  const { left: la, right: ra } = c.a.aliases;
  const filters = (): string[] => conjuncts.map((x) => sqlOf(x, c));
  if (!m.rel || !m.right || !ra) {
    return { prefix: '', from: `symbols ${la}`, where: [`${la}.project_id = ?1`, ...nodeSql(la, m.left, c), ...filters()], walk: false };
  }
  const self = la === ra;
  const [srcAlias, dstAlias] = m.rel.direction === 'out' ? [la, ra] : [ra, la];
  if (!m.rel.range) {
    // A node with conditions of its own is the anchor: the join starts from its
    // candidates and seeks their edges (CROSS JOIN fixes the order; without table
    // statistics SQLite would otherwise scan every edge of the project first).
    const anchor = anchorSide(c.a, conjuncts);
    const [anchorAlias, anchorNode] = anchor === 'left' ? [la, m.left] : [ra, m.right];
    const anchored = !self && anchorScore(anchorNode, conjuncts) >= 2;
    const [anchorEnd, otherEnd] = anchorAlias === srcAlias ? (['src', 'dst'] as const) : (['dst', 'src'] as const);
    const otherAlias = anchorAlias === srcAlias ? dstAlias : srcAlias;
    const from = self
      ? `edges r0 JOIN symbols ${la} ON ${la}.project_id = r0.project_id AND ${la}.id = ${edgeIdSql('r0', 'src')} AND ${la}.id = ${edgeIdSql('r0', 'dst')}`
      : anchored
        ? `symbols ${anchorAlias} CROSS JOIN edges r0 ON r0.project_id = ${anchorAlias}.project_id AND ${edgeEndIsSymbolSql('r0', anchorEnd, anchorAlias)} ` +
          `CROSS JOIN symbols ${otherAlias} ON ${otherAlias}.project_id = r0.project_id AND ${otherAlias}.id = ${edgeIdSql('r0', otherEnd)}`
        : `edges r0 JOIN symbols ${srcAlias} ON ${srcAlias}.project_id = r0.project_id AND ${srcAlias}.id = ${edgeIdSql('r0', 'src')} ` +
          `JOIN symbols ${dstAlias} ON ${dstAlias}.project_id = r0.project_id AND ${dstAlias}.id = ${edgeIdSql('r0', 'dst')}`;
    // A self pattern (a)-->(a) has one alias: both nodes' conditions apply to it.
    const where = ['r0.project_id = ?1', ...relSql('r0', m.rel, c), ...nodeSql(la, m.left, c), ...nodeSql(ra, m.right, c), ...filters()];
    return { prefix: '', from, where, walk: false };
  }
  return walkCore(c, conjuncts, m.rel, self);
}

/**
 * A variable-length pattern: a recursive walk from the anchor's candidates
 * along edges of the requested kinds, deduplicated on (start, node, depth) so
 * cycles end at the depth bound, capped at WALK_CAP steps; `reach` keeps one
 * row per (start, end) pair with its shortest depth within min..max.
 */
function walkCore(c: Ctx, conjuncts: readonly Expr[], rel: RelPattern, self: boolean): Core {
  const m = c.a.query.match;
  const range = rel.range as NonNullable<RelPattern['range']>;
  const { left: la, right: ra } = c.a.aliases as { left: string; right: string };
  const anchor = anchorSide(c.a, conjuncts);
  const [seed, seedAlias, other, otherAlias] = anchor === 'left' ? [m.left, la, m.right as NodePattern, ra] : [m.right as NodePattern, ra, m.left, la];
  // Walk along the edges when the anchor is their source, against them otherwise.
  const forward = (anchor === 'left') === (rel.direction === 'out');
  const [from, to] = forward ? (['src', 'dst'] as const) : (['dst', 'src'] as const);

  const seedVar = seed.variable?.name;
  const seedCtx: Ctx = { ...c, aliases: new Map(c.aliases) };
  if (seedVar) seedCtx.aliases.set(seedVar, 's');
  const seedWhere = ['s.project_id = ?1', ...nodeSql('s', seed, seedCtx)];
  if (seedVar) for (const x of conjuncts) if (onlyReads(x, seedVar)) seedWhere.push(sqlOf(x, seedCtx));
  const step = [`w.depth < ${int(range.max)}`, `+e.${to}_key IS NOT NULL`, ...relSql('e', rel, c)];
  // Name guesses under the default floor would join unrelated symbols into false paths and cycles;
  // a map entry on confidence or provenance states what to follow instead.
  const floored = !rel.props.some((p) => p.key.name === 'confidence' || p.key.name === 'provenance');
  if (floored) step.push(`e.confidence >= ${DEFAULT_MIN_CONFIDENCE}`);
  const prefix =
    `WITH RECURSIVE walk(start, node, depth) AS (SELECT s.id, s.id, 0 FROM symbols s WHERE ${seedWhere.join(' AND ')} ` +
    `UNION SELECT w.start, ${edgeIdSql('e', to)}, w.depth + 1 FROM walk w CROSS JOIN edges e ON e.project_id = ?1 AND ${edgeEndIsSql('e', from, 'w.node')} WHERE ${step.join(' AND ')} ` +
    `LIMIT ${int(WALK_CAP)}), ` +
    `reach(start, node, depth) AS (SELECT start, node, min(depth) FROM walk WHERE depth >= ${int(range.min)} GROUP BY start, node) `;
  const fromSql = self
    ? `reach r0 CROSS JOIN symbols ${seedAlias} ON ${seedAlias}.project_id = ?1 AND ${seedAlias}.id = r0.start AND r0.node = r0.start`
    : `reach r0 CROSS JOIN symbols ${seedAlias} ON ${seedAlias}.project_id = ?1 AND ${seedAlias}.id = r0.start ` +
      `CROSS JOIN symbols ${otherAlias} ON ${otherAlias}.project_id = ?1 AND ${otherAlias}.id = r0.node`;
  const where = [...nodeSql(seedAlias, seed, c), ...nodeSql(otherAlias, other, c), ...conjuncts.map((x) => sqlOf(x, c))];
  const core: Core = { prefix, from: fromSql, where: where.length ? where : ['1'], walk: true };
  // Seeded from every symbol, the walk expands them all before its first pair of depth 1 comes out (about 0.4 s on
  // 90k symbols); a count can often stop at the one-hop pairs. Not when a condition reads the relationship (its depth).
  const relVar = rel.variable?.name;
  const readsRel = relVar !== undefined && conjuncts.some((x) => variablesOf(x).has(relVar));
  if (!self && !readsRel && range.min <= 1 && range.max >= 1 && anchorScore(seed, conjuncts) === 0) {
    core.oneHop = () => ({
      from:
        `edges e1 CROSS JOIN symbols ${seedAlias} ON ${seedAlias}.project_id = ?1 AND ${seedAlias}.id = ${edgeIdSql('e1', from)} ` +
        `CROSS JOIN symbols ${otherAlias} ON ${otherAlias}.project_id = ?1 AND ${otherAlias}.id = ${edgeIdSql('e1', to)}`,
      where: [
        `e1.project_id = ?1`,
        `+e1.${to}_key IS NOT NULL`,
        ...relSql('e1', rel, c),
        ...(floored ? [`e1.confidence >= ${DEFAULT_MIN_CONFIDENCE}`] : []),
        ...core.where,
      ],
      pair: `${seedAlias}.id, ${otherAlias}.id`,
    });
  }
  return core;
}

// — Statements —

export interface MainStatement extends Statement {
  /** The last column of each row is the number of walk steps (compare with WALK_CAP). */
  walkColumn: boolean;
}

/** The column of the main statement holding the walk's steps (MainStatement.walkColumn). */
export const WALK_COLUMN = 'cwalk';

/** The main statement's column of each RETURN item, in order (unique names: a row read as an object keeps every value). */
export function mainColumns(a: Analyzed): string[] {
  return a.items.map((_, n) => `c${n}`);
}

/** The query itself: RETURN items as c0…cN, grouping, ordering, and the page [offset, offset + limit). */
export function compileMain(a: Analyzed, projectId: string, regexValues: RegexValues, page: { limit: number; offset: number }): MainStatement {
  const c = context(a, projectId, regexValues);
  const k = core(c, conjunctsOf(a.query.where));
  const items = a.items.map((i) => renderSql(i.expr, c));
  const columns = mainColumns(a);
  const select = items.map((s, n) => `${s} AS ${columns[n]}`);
  if (k.walk) select.push(`(SELECT count(*) FROM walk) AS ${WALK_COLUMN}`);
  let sql = `${k.prefix}SELECT ${a.query.distinct ? 'DISTINCT ' : ''}${select.join(', ')} FROM ${k.from} WHERE ${k.where.join(' AND ')}`;
  const keys = items.filter((_, n) => !a.aggregates[n]);
  if (a.grouped && keys.length) sql += ` GROUP BY ${keys.join(', ')}`;
  if (a.order.length) {
    const order = a.order.map((o) => `${o.ref !== null ? `c${o.ref}` : sqlOf(o.expr, c)} ${o.descending ? 'DESC NULLS FIRST' : 'ASC NULLS LAST'}`);
    sql += ` ORDER BY ${order.join(', ')}`;
  }
  sql += ` LIMIT ${int(page.limit)} OFFSET ${int(page.offset)}`;
  return { sql, params: c.p.values, walkColumn: k.walk };
}

/**
 * Compiles the statements a query will run, with placeholder regex values, and
 * throws a QueryError when one would bind more values than D1 allows.
 */
export function assertBindable(a: Analyzed): void {
  const placeholders = new Map(regexTests(a).map((t) => [t as Expr, [] as string[]]));
  const counts = [
    compileMain(a, '', placeholders, { limit: 1, offset: 0 }).params.length,
    ...regexTests(a).map((t) => compileRegexCandidates(a, '', t).params.length),
  ];
  const most = Math.max(...counts);
  if (most > MAX_PARAMS) {
    throw new QueryError(`the query binds ${most} values; at most ${MAX_PARAMS} fit in one statement`, a.query.span,
      "group equality tests into IN lists (a list counts as one value): a.name IN ['x', 'y'] instead of a.name = 'x' OR a.name = 'y'", 'semantic', { values: most, max_values: MAX_PARAMS });
  }
}

/** Matches of the pattern under the given WHERE conditions, counted up to `cap`. */
export function compileCount(a: Analyzed, projectId: string, regexValues: RegexValues, conjuncts: readonly Expr[], cap: number): Statement {
  const c = context(a, projectId, regexValues);
  const k = core(c, conjuncts);
  const matches = `SELECT 1 FROM ${k.from} WHERE ${k.where.join(' AND ')} LIMIT ${int(cap)}`;
  if (!k.oneHop) return { sql: `${k.prefix}SELECT count(*) AS n FROM (${matches})`, params: c.p.values };
  // Enough one-hop pairs answer the capped count without the walk (a CTE runs only when the ELSE branch reads it).
  const h = k.oneHop();
  const oneHop = `SELECT count(*) FROM (SELECT DISTINCT ${h.pair} FROM ${h.from} WHERE ${h.where.join(' AND ')} LIMIT ${int(cap)})`;
  return { sql: `${k.prefix}SELECT CASE WHEN (${oneHop}) >= ${int(cap)} THEN ${int(cap)} ELSE (SELECT count(*) FROM (${matches})) END AS n`, params: c.p.values };
}

/** The steps of a variable-length walk as the main query would take them (to tell a capped walk). */
export function compileWalkSize(a: Analyzed, projectId: string, regexValues: RegexValues): Statement | null {
  const c = context(a, projectId, regexValues);
  const k = core(c, conjunctsOf(a.query.where));
  if (!k.walk) return null;
  return { sql: `${k.prefix}SELECT count(*) AS n FROM walk`, params: c.p.values };
}

/**
 * The distinct non-null values the subject of one `=~` takes over the
 * pattern, under the WHERE conditions that hold no regex (a superset of the
 * rows the regex decides), narrowed by the literals the regex requires when
 * the regex is itself a top-level condition. At most REGEX_CANDIDATES + 1.
 * Without `whereFilters` the values hold for any subset of the WHERE
 * conditions (what the empty-result analysis needs when it drops one).
 */
export function compileRegexCandidates(a: Analyzed, projectId: string, test: Extract<Expr, { type: 'binary' }>, opts: { whereFilters: boolean } = { whereFilters: true }): Statement {
  const c = context(a, projectId, new Map());
  const conjuncts = conjunctsOf(a.query.where);
  const plain = opts.whereFilters ? conjuncts.filter((x) => !hasRegex(x)) : [];
  const k = core(c, plain);
  const subject = sqlOf(test.left, c);
  const where = [...k.where, `${subject} IS NOT NULL`];
  const regex = a.regexes.get(test);
  if (regex?.required && conjuncts.includes(test)) where.push(requiredSql(regex.required, subject, regex.ignoreCase, c));
  return { sql: `${k.prefix}SELECT DISTINCT ${subject} AS v FROM ${k.from} WHERE ${where.join(' AND ')} LIMIT ${int(REGEX_CANDIDATES + 1)}`, params: c.p.values };
}

function requiredSql(r: NonNullable<Required>, subject: string, ignoreCase: boolean, c: Ctx): string {
  if (r.op === 'lit') return ignoreCase ? `(instr(lower(${subject}), ${c.p.add(r.s.toLowerCase())}) > 0)` : `(instr(${subject}, ${c.p.add(r.s)}) > 0)`;
  return `(${r.items.map((i) => requiredSql(i, subject, ignoreCase, c)).join(r.op === 'and' ? ' AND ' : ' OR ')})`;
}

export function hasRegex(e: Expr): boolean {
  switch (e.type) {
    case 'binary':
      return e.op === '=~' || hasRegex(e.left) || hasRegex(e.right);
    case 'not':
    case 'neg':
    case 'isnull':
      return hasRegex(e.operand);
    case 'call':
      return e.args.some(hasRegex);
    default:
      return false;
  }
}

/** Every `=~` test of the query (WHERE, RETURN, ORDER BY), in text order. */
export function regexTests(a: Analyzed): Extract<Expr, { type: 'binary' }>[] {
  return [...a.regexes.keys()].filter((e): e is Extract<Expr, { type: 'binary' }> => e.type === 'binary').sort((x, y) => x.span[0] - y.span[0]);
}

/** Languages (with symbol counts) of the symbols one node pattern matches, WHERE ignored. */
export function compileLanguages(a: Analyzed, projectId: string, node: NodePattern): Statement {
  const c = context(a, projectId, new Map());
  const where = ['n.project_id = ?1', ...nodeSql('n', node, c)];
  return { sql: `SELECT n.language AS language, count(*) AS n FROM symbols n WHERE ${where.join(' AND ')} GROUP BY n.language ORDER BY n DESC`, params: c.p.values };
}
