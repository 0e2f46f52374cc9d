import { staleness, type ProjectRow } from '../db/projects';
import type { MetaCollector } from '../envelope/collector';
import type { ReferenceKind } from '../extract/captures';
import { edgeKinds } from '../extract/reference-kinds';
import { graphCoverage } from '../graph/coverage';
import type { Analyzed } from './analyze';
import type { Expr, NodePattern, Query } from './ast';
import { compileLanguages, conjunctsOf, variablesOf, type RegexValues } from './compile';
import { countMatches, evaluateRegexes, hasRowsWithoutSkip, prepare, walkSize } from './execute';
import { QueryError } from './errors';
import { WALK_CAP } from './limits';
import { printExpr, printName, printPattern, printQuery } from './printer';
import { REL_TYPES } from './vocabulary';

/** Counts in diagnoses stop here ("1000+"). */
const COUNT_CAP = 1000;
/** WHERE conditions tried one at a time when looking for the one that excluded everything. */
const MAX_RELAXATIONS = 8;

const KIND_HISTOGRAM = 'MATCH (n) RETURN n.kind AS kind, count(*) AS symbols ORDER BY symbols DESC';
const EDGE_HISTOGRAM = 'MATCH ()-[r]->() RETURN r.kind AS kind, count(*) AS edges ORDER BY edges DESC';

const REF_KIND: Record<string, ReferenceKind> = { CALLS: 'call', IMPORTS: 'import', INHERITS: 'inherit', IMPLEMENTS: 'inherit' };

export interface Explainer {
  /** The calling tool's database and envelope collector. */
  ctx: { db: D1Database; meta: MetaCollector };
  a: Analyzed;
  project: ProjectRow;
  regexValues: RegexValues;
}

/** Whether the project's edges were built for its visible index (the resolution pass ran for this generation). */
export function graphPending(p: ProjectRow): boolean {
  return p.graphGeneration < p.generation;
}

function counted(n: number): string {
  return n >= COUNT_CAP ? `${COUNT_CAP}+` : String(n);
}

function joinAnd(conds: readonly Expr[]): Expr | undefined {
  return conds.reduce<Expr | undefined>((l, r) => (l ? { type: 'binary', op: 'AND', left: l, right: r, span: [l.span[0], r.span[1]] } : r), undefined);
}

/**
 * Names why a query returned no rows, most specific cause first, with next
 * steps that are queries (or tools) this server runs: a cap that dropped every
 * row, WHERE conditions that excluded every match of the pattern, a graph not
 * built or not reaching across files for the languages involved, a stale
 * index, or a genuine absence.
 */
export async function explainEmpty(x: Explainer): Promise<void> {
  const { ctx, a, project } = x;
  const q = a.query;
  const step = (query: string, why: string) => ctx.meta.next('query', { project: project.name, query }, why);

  if (project.symbolCount === 0) {
    ctx.meta.empty('extractor_emitted_nothing', `project '${project.name}' holds ${project.fileCount} file(s) but no symbols, so no pattern can match`, { files: project.fileCount });
    ctx.meta.next('health', { project: project.name }, 'see extraction failures by reason');
    return;
  }
  if (q.limit?.value === 0) {
    ctx.meta.empty('cap_dropped_all', 'LIMIT 0 drops every row', { cap: 'LIMIT', limit: 0 });
    step(printQuery({ ...q, limit: undefined }), 'the same query without LIMIT 0');
    return;
  }
  const asked = askAll(x);
  if (q.skip && q.skip.value > 0 && (await asked.rowsWithoutSkip)) {
    ctx.meta.empty('cap_dropped_all', `SKIP ${q.skip.value} is past the last row of the answer`, { cap: 'SKIP', skip: q.skip.value });
    step(printQuery({ ...q, skip: undefined }), 'the first page of the same query');
    return;
  }
  if ((await asked.walkSize) === WALK_CAP) {
    ctx.meta.empty('cap_dropped_all', `the variable-length walk stopped at its cap of ${WALK_CAP} steps before reaching a match`, { cap: 'walk', walk_cap: WALK_CAP });
    nodeStep(x, 'list the start candidates, then anchor the walk on one of them');
    return;
  }
  if (await explainWhere(x, asked)) return;
  if (q.match.rel && (await explainGraph(x, asked))) return;

  const stale = staleness(project);
  if (stale) {
    ctx.meta.empty('stale_index', `nothing matches, and project '${project.name}' was ${stale}: re-index to see what the current extractor finds`, {
      extractor_version: project.extractorVersion,
      schema_version_at_index: project.schemaVersionAtIndex,
    });
    ctx.meta.next('index', { project: project.name, force: true }, 're-extract the stored files with the current extractor');
    ctx.meta.next('health', { project: project.name }, 'see the index state of this project');
    return;
  }
  const what = q.match.rel ? `the pattern ${printPattern(q.match)}` : `the node pattern ${printPattern(q.match)}`;
  ctx.meta.empty('no_results_in_corpus', `nothing in project '${project.name}' matches ${what}`, { pattern: printPattern(q.match) });
  const words = searchWords(q);
  if (words) ctx.meta.next('search', { project: project.name, query: words }, `ranked search for '${words}' finds near spellings`);
  step(q.match.rel ? EDGE_HISTOGRAM : KIND_HISTOGRAM, q.match.rel ? 'count the edges of each kind in this project' : 'count the symbols of each kind in this project');
}

/** The answers explainEmpty may read, each asked (or not needed: a constant) before any is read. */
interface Asked {
  /** SKIP > 0: whether the query has rows without it. */
  rowsWithoutSkip: Promise<boolean>;
  /** The variable-length walk's steps, or null without one. */
  walkSize: Promise<number | null>;
  /** With WHERE: the pattern's matches with no condition, then without each of the first conditions in turn (null without WHERE). */
  counts: Promise<number[]> | null;
  /** The languages of the pattern's two ends, when only the graph can explain the answer (null: not asked yet). */
  languages: Promise<[Map<string, number>, Map<string, number>]> | null;
}

/** A question asked ahead, whose answer may never be read: its failure is then nobody's (it rejects for the reader that awaits it). */
function ahead<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * Asks at once every question the explanation may read, so they share one round trip (the request database
 * gathers statements sent together): the rows without SKIP, the walk's size, the WHERE counts, and the two
 * ends' languages when there is no WHERE to explain the answer first. A question whose answer the order of
 * explainEmpty never reaches costs its statement and no round trip. Two answers wait on another: dropping a
 * condition of a query with a regex needs the regex's values without the other conditions first, and the
 * languages after WHERE counts that found no match of the pattern.
 */
function askAll(x: Explainer): Asked {
  const { ctx, a, project } = x;
  const q = a.query;
  const conjuncts = conjunctsOf(q.where);
  const rowsWithoutSkip = q.skip && q.skip.value > 0 ? ahead(hasRowsWithoutSkip(ctx.db, a, project.id, x.regexValues)) : Promise.resolve(false);
  const walk = ahead(walkSize(ctx.db, a, project.id, x.regexValues));
  let counts: Promise<number[]> | null = null;
  if (conjuncts.length) {
    const singles = conjuncts.length > 1 ? conjuncts.slice(0, MAX_RELAXATIONS) : [];
    const variants = [[], ...singles.map((c) => conjuncts.filter((o) => o !== c))];
    // The regex values of the main run were narrowed by the other conditions; dropping one needs values that hold without them.
    const values =
      singles.length && a.regexes.size
        ? evaluateRegexes(ctx.db, a, project.id, { whereFilters: false }).catch((err: unknown) => {
            if (err instanceof QueryError) return x.regexValues;
            throw err;
          })
        : null;
    counts = ahead(values ? values.then((v) => countMatches(ctx.db, a, project.id, v, variants, COUNT_CAP)) : countMatches(ctx.db, a, project.id, x.regexValues, variants, COUNT_CAP));
  }
  return { rowsWithoutSkip, walkSize: walk, counts, languages: counts ? null : graphLanguages(x) };
}

/** WHERE excluded every match of the pattern: query_too_narrow, naming the condition to drop when one alone is enough. */
async function explainWhere(x: Explainer, asked: Asked): Promise<boolean> {
  const { ctx, a, project } = x;
  const q = a.query;
  const conjuncts = conjunctsOf(q.where);
  if (!asked.counts) return false;
  const singles = conjuncts.length > 1 ? conjuncts.slice(0, MAX_RELAXATIONS) : [];
  const [pattern, ...without] = await asked.counts;
  if (pattern === 0) return false;
  const rescues = singles.map((c, k) => ({ c, n: without[k] })).filter((r) => r.n > 0).sort((l, r) => r.n - l.n);
  const stale = staleness(project);
  if (rescues.length) {
    const top = rescues[0];
    ctx.meta.empty('query_too_narrow', `the condition ${printExpr(top.c)} excluded every match; without it the query finds ${counted(top.n)} match(es)`, {
      condition: printExpr(top.c),
      matches: top.n,
    });
    for (const r of rescues.slice(0, 3)) {
      ctx.meta.next('query', { project: project.name, query: printQuery({ ...q, where: joinAnd(conjuncts.filter((o) => o !== r.c)) }) }, `drop ${printExpr(r.c)}: finds ${counted(r.n)} match(es)`);
    }
  } else {
    ctx.meta.empty('query_too_narrow', `the WHERE conditions together excluded all ${counted(pattern)} match(es) of the pattern ${printPattern(q.match)}`, {
      conditions: conjuncts.map((c) => printExpr(c)),
      matches: pattern,
    });
    ctx.meta.next('query', { project: project.name, query: printQuery({ ...q, where: undefined }) }, `the pattern alone finds ${counted(pattern)} match(es)`);
  }
  if (stale) ctx.meta.diagnose('stale_index', 'info', `project '${project.name}' was also ${stale}; re-index to refresh it`);
  return true;
}

/** The rel types the pattern names that exist (all of them when it names none); null when it names only misspelled ones. */
function knownTypes(rel: NonNullable<Query['match']['rel']>): string[] | null {
  const known = rel.types.map((t) => t.name).filter((t) => (REL_TYPES as readonly string[]).includes(t));
  return rel.types.length && !known.length ? null : known;
}

/** The languages of the two ends of a relationship pattern, asked now; null when explainGraph would not read them. */
function graphLanguages(x: Explainer): Promise<[Map<string, number>, Map<string, number>]> | null {
  const m = x.a.query.match;
  if (!m.rel || !m.right || graphPending(x.project) || !knownTypes(m.rel)) return null;
  return ahead(Promise.all([languages(x, m.left), languages(x, m.right)]));
}

/** An empty relationship pattern: the graph is not built yet, or the languages involved have no (cross-file) edges of that kind. */
async function explainGraph(x: Explainer, asked: Asked): Promise<boolean> {
  const { ctx, a, project } = x;
  const m = a.query.match;
  const rel = m.rel;
  if (!rel || !m.right) return false;
  if (graphPending(project)) {
    ctx.meta.empty('stale_index', `the edges of project '${project.name}' were not built for its current index (graph generation ${project.graphGeneration}, index generation ${project.generation}), so relationship patterns find nothing yet`, {
      generation: project.generation,
      graph_generation: project.graphGeneration,
    });
    ctx.meta.next('index', { project: project.name, force: true }, 're-index the stored files, which rebuilds the edges');
    ctx.meta.next('health', { project: project.name }, 'see the index state of this project');
    return true;
  }
  const known = knownTypes(rel);
  if (!known) return false; // only misspelled types: the lint names the fix
  const wanted = new Set((known.length ? known : REL_TYPES).map((t) => REF_KIND[t]));
  const [left, right] = await (asked.languages ?? graphLanguages(x)!);
  // Either end matches no symbol at all: the absence is in the corpus, not in the graph.
  if (!left.size || !right.size) return false;
  // An edge is extracted from the file of its source: the source end's languages decide what the graph can hold.
  const sources = [...(rel.direction === 'out' ? left : right).keys()].sort();
  const names = (known.length ? known : ['any']).join('|');
  const withEdges = sources.filter((l) => [...edgeKinds(l)].some((k) => wanted.has(k)));
  if (!withEdges.length) {
    ctx.meta.empty('cross_file_unavailable', `the symbols this pattern's edges would start from are ${sources.join(', ')}, whose extractor emits no ${names} edges, so there is no graph to match`, {
      languages: sources,
      types: known,
    });
  } else if (withEdges.every((l) => graphCoverage(l) === 'same_file')) {
    ctx.meta.empty('same_file_only', `${withEdges.join(', ')} references resolve within their own file only, so no ${names} edge links symbols across files; nothing matches the pattern ${printPattern(m)}`, {
      languages: withEdges,
      types: known,
    });
  } else return false;
  const side = m.left.labels.length || m.left.props.length || !(m.right.labels.length || m.right.props.length) ? 'left' : 'right';
  nodeStep(x, 'the symbols at this end of the pattern, without the graph', side);
  return true;
}

async function languages(x: Explainer, node: NodePattern): Promise<Map<string, number>> {
  const s = compileLanguages(x.a, x.project.id, node);
  const rows = await prepare(x.ctx.db, s).all<{ language: string; n: number }>();
  return new Map(rows.results.map((r) => [r.language, r.n]));
}

/** A next step listing the symbols one end of the pattern matches, with the WHERE conditions that read only that end. */
function nodeStep(x: Explainer, why: string, side: 'left' | 'right' = 'left'): void {
  const q = x.a.query;
  const node = (side === 'left' ? q.match.left : q.match.right) ?? q.match.left;
  const v = node.variable?.name ?? 'n';
  const named: NodePattern = node.variable ? node : { ...node, variable: { name: v, span: node.span } };
  const conds = conjunctsOf(q.where).filter((c) => {
    const vars = variablesOf(c);
    return vars.size === 1 && vars.has(v) && node.variable !== undefined;
  });
  const where = joinAnd(conds);
  const p = printName(v);
  const text = `MATCH ${printPattern({ left: named, span: node.span })}${where ? ` WHERE ${printExpr(where)}` : ''} RETURN ${p}.id AS id, ${p}.file AS file, ${p}.line AS line LIMIT 20`;
  x.ctx.meta.next('query', { project: x.project.name, query: text }, why);
}

/** Words for a `search` step from name-like conditions (name / qualified_name equality or string tests), if any. */
function searchWords(q: Query): string | null {
  const literals: string[] = [];
  for (const n of [q.match.left, q.match.right]) {
    for (const p of n?.props ?? []) if (['name', 'qualified_name'].includes(p.key.name) && p.value.type === 'literal' && typeof p.value.value === 'string') literals.push(p.value.value);
  }
  for (const c of conjunctsOf(q.where)) {
    if (c.type !== 'binary' || !['=', 'STARTS WITH', 'CONTAINS', 'ENDS WITH'].includes(c.op)) continue;
    if (c.left.type === 'prop' && ['name', 'qualified_name'].includes(c.left.key.name) && c.right.type === 'literal' && typeof c.right.value === 'string') literals.push(c.right.value);
  }
  const words = literals.flatMap((l) => l.match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => !['AND', 'OR', 'NOT'].includes(w));
  const text = [...new Set(words)].slice(0, 8).join(' ');
  return text && text.length <= 500 ? text : null;
}

