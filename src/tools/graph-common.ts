/**
 * What the graph tools share: node and hop views, target resolution (exactly
 * one of id/name, ambiguous names with alternatives), the graph's state
 * (graph_pending), and the diagnosis of a walk that found nothing.
 */
import * as z from 'zod';
import { PincherError } from '../errors';
import { EDGE_KINDS, calleesOf, callersOf, resolveSymbolName, type GraphNode, type Hop, type WalkDirection } from '../db/graph';
import type { ProjectRow } from '../db/projects';
import type { SymbolRow } from '../db/source';
import { ownerOf, startNearestNames } from './nearest-names';
import { explainNoSymbols } from './no-symbols';
import { emptyGraphReason, graphCoverage } from '../graph/coverage';
import type { EdgeKind } from '../graph/types';
import type { EmptyReason } from '../envelope/empty-reasons';
import type { ToolContext } from './define';
import { startExtractionGaps } from './extraction-gaps';
import { lookupOrExplain } from './read/unresolved';

/**
 * A default-floor walk left out nodes that only name-guess edges under the floor reach: say
 * how many, and give the same call with min_confidence 0 to see them.
 */
export function warnHidden(ctx: ToolContext, hidden: number, floor: number, step: { tool: string; args: Record<string, unknown> } | null): void {
  if (hidden === 0) return;
  ctx.meta.warn(
    'low_confidence_hidden',
    `${hidden} symbol(s) reached only through name-guess edges under confidence ${floor} are hidden (calls on values of unknown type); pass min_confidence 0 to see them`,
    { hidden, min_confidence: floor },
    'info',
  );
  if (step) ctx.meta.next(step.tool, { ...step.args, min_confidence: 0 }, `also follow the ${hidden} lower-confidence name-guess edge(s)`);
}

/** Alternatives of an ambiguous name shown (each with a next step). */
const ALTERNATIVES = 5;

/** Risk of changing the root for a hop, by depth: direct neighbours break first. */
export function riskOf(depth: number): 'high' | 'medium' | 'low' {
  return depth <= 1 ? 'high' : depth === 2 ? 'medium' : 'low';
}

/** The node fields every graph tool shows. */
export const nodeOut = z.object({
  id: z.string().nullable().describe('symbol id; null for the module level of file'),
  name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number(),
});

/** A symbol with its span, as the composites list the symbols they start from. */
export const symbolSpanOut = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  file_path: z.string(),
  start_line: z.number(),
  end_line: z.number(),
  signature: z.string(),
});

/** The span fields of a symbol row. */
export function spanView(r: Pick<SymbolRow, 'id' | 'name' | 'kind' | 'file_path' | 'start_line' | 'end_line' | 'signature'>): z.infer<typeof symbolSpanOut> {
  return { id: r.id, name: r.name, kind: r.kind, file_path: r.file_path, start_line: r.start_line, end_line: r.end_line, signature: r.signature };
}

export function nodeView(n: Pick<GraphNode, 'id' | 'name' | 'kind' | 'file' | 'line'>): z.infer<typeof nodeOut> {
  return { id: n.id, name: n.name, kind: n.kind, file: n.file, line: n.line };
}

export function rootView(r: Pick<SymbolRow, 'id' | 'name' | 'kind' | 'file_path' | 'start_line'>): z.infer<typeof nodeOut> {
  return { id: r.id, name: r.name, kind: r.kind, file: r.file_path, line: r.start_line };
}

export const hopOut = nodeOut.extend({
  depth: z.number(),
  risk: z.enum(['high', 'medium', 'low']),
  via: z.string().describe('id of the predecessor (the root at depth 1)'),
  direction: z.enum(['inbound', 'outbound']),
  edge: z.string().describe('edge kind'),
  confidence: z.number(),
  provenance: z.string(),
  call_line: z.number().describe("line of the reference in the caller's file"),
});

export function hopView(h: Hop): z.infer<typeof hopOut> {
  return {
    ...nodeView(h.node),
    depth: h.depth,
    risk: riskOf(h.depth),
    via: h.via,
    direction: h.direction === 'in' ? 'inbound' : 'outbound',
    edge: h.kind,
    confidence: h.confidence,
    provenance: h.provenance,
    call_line: h.line,
  };
}

/** Throws invalid_params unless exactly one of the target parameters is given. */
export function exactlyOne(tool: string, given: Record<string, unknown>): void {
  const present = Object.entries(given).filter(([, v]) => v !== undefined);
  if (present.length === 1) return;
  const names = Object.keys(given);
  const list = `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  throw new PincherError('invalid_params', `invalid arguments for ${tool}: pass exactly one of ${list}`, {
    suggestion: `pass ${list} alone: an id comes from search or symbol; a name is Name or Class.method${names.includes('path') ? '; a path is a file of the project' : ''}`,
    details: { issues: [{ param: present[1]?.[0] ?? names[0], message: `exactly one of ${list}` }] },
  });
}

/**
 * The symbol a graph call starts from, by id or by name. An unknown target
 * records target_not_resolved with steps; an ambiguous name picks the first
 * match and lists the others (warning ambiguous_symbol, one step each).
 * `target.idAbsent`: the caller read the id's row and found none (its moved
 * file is still looked for).
 */
export async function resolveTarget(
  ctx: ToolContext,
  tool: string,
  project: ProjectRow,
  target: { id?: string; name?: string; idAbsent?: boolean },
  stepArgs: Record<string, unknown> = {},
): Promise<SymbolRow | null> {
  if (target.id !== undefined) {
    const knownAbsent = target.idAbsent ? new Set([target.id]) : undefined;
    const { found, explain } = await lookupOrExplain(ctx, project, target.id, { fields: ['name'], detail: 'full', knownAbsent });
    const row = found.rows.get(target.id);
    if (!row) await explain();
    return row ?? null;
  }
  const name = target.name ?? '';
  const { chosen, alternatives } = await resolveSymbolName(ctx.db, project.id, name, { limit: ALTERNATIVES + 1 });
  if (!chosen) {
    const bare = name.replace(/@\d+$/, '').split(/\.| > /).pop()?.trim() || name;
    if (explainNoSymbols(ctx, project, bare, 'no name')) return null;
    const spans = alternatives.map((a) => `${a.id} (lines ${a.start_line}–${a.end_line})`);
    ctx.meta.empty('target_not_resolved', spans.length ? `no '${name}' spans that line; matches: ${spans.join(', ')}` : `no symbol named '${name}' in project '${project.name}'`, { name });
    for (const a of alternatives) ctx.meta.next(tool, { project: project.name, id: a.id, ...stepArgs }, `${tool} from ${a.id}`);
    // Both recoveries are asked at once (one round trip); their steps are written in this order.
    const near = alternatives.length ? null : startNearestNames(ctx, project, bare, tool, (id) => ({ id, ...stepArgs }), null, { parent: ownerOf(name) });
    const gaps = startExtractionGaps(ctx, project, bare, { setEmpty: false });
    if (near) await near();
    await gaps();
    return null;
  }
  if (alternatives.length > 0) {
    ctx.meta.warn('ambiguous_symbol', `'${name}' names ${alternatives.length + 1}+ symbols; used ${chosen.id}. Pass id to pick another`, {
      chosen: chosen.id,
      candidates: alternatives.map((a) => a.id),
    });
    for (const a of alternatives) ctx.meta.next(tool, { project: project.name, id: a.id, ...stepArgs }, `${tool} from ${a.id} instead`);
  }
  return chosen;
}

/** Whether a project's edges lag its index (resolution of the last push still running). */
export interface GraphLag {
  pending: boolean;
  generation: number;
  graphGeneration: number;
}

/** The lag as the project row read for this call records it. */
export function graphLag(project: ProjectRow): GraphLag {
  return { pending: project.graphGeneration < project.generation, generation: project.generation, graphGeneration: project.graphGeneration };
}

/** The graph_pending warning: some edges of the last push may be missing. */
export function warnGraphPending(ctx: ToolContext, lag: GraphLag): void {
  if (!lag.pending) return;
  ctx.meta.warn(
    'graph_pending',
    `the call graph reflects push ${lag.graphGeneration} of ${lag.generation}: edges of the last push are still being resolved, so some may be missing`,
    { graph_generation: lag.graphGeneration, generation: lag.generation },
  );
}

/** Warns graph_pending when the project's edges lag its index; returns whether they do. */
export function checkGraphState(ctx: ToolContext, project: ProjectRow): boolean {
  const lag = graphLag(project);
  warnGraphPending(ctx, lag);
  return lag.pending;
}

/** What a walk started from, for explaining an empty answer: one symbol, or every symbol of a file. */
export interface WalkSubject {
  ids: readonly string[];
  /** How diagnoses name it: a symbol id or a file path. */
  label: string;
  /** A symbol to send neighborhood to. */
  anchor: Pick<SymbolRow, 'id' | 'name' | 'language' | 'file_path'>;
}

/**
 * Records why a walk from `subject` found nothing: a filter (query_too_narrow,
 * naming it, with a relaxed step), a lagging graph (stale_index), the
 * language's edge coverage (same_file_only / cross_file_unavailable), or no
 * such edge in the project (no_results_in_corpus).
 */
export async function explainNoHops(
  ctx: ToolContext,
  project: ProjectRow,
  subject: WalkSubject,
  q: {
    direction: WalkDirection;
    kinds: readonly EdgeKind[];
    minConfidence: number;
    includeTests: boolean;
    pending: boolean;
    /** The walk saw no edge at all touching the subject in these directions (WalkResult.untouched): nothing to read again. */
    untouched?: boolean;
  },
  retry: (over: Record<string, unknown>) => { tool: string; args: Record<string, unknown> },
  /** The filters the calling tool has (a relaxed step may only change these). */
  filters: readonly ('kinds' | 'include_tests' | 'min_confidence')[] = ['kinds', 'include_tests', 'min_confidence'],
): Promise<EmptyReason> {
  const lookups = [];
  if (!q.untouched && q.direction !== 'out') lookups.push(callersOf(ctx.db, project.id, subject.ids, { kinds: EDGE_KINDS, limit: 500 }));
  if (!q.untouched && q.direction !== 'in') lookups.push(calleesOf(ctx.db, project.id, subject.ids, { kinds: EDGE_KINDS, limit: 500 }));
  const ids = new Set(subject.ids);
  const any = (await Promise.all(lookups)).flat().filter((n) => n.node.id === null || !ids.has(n.node.id));
  const where = q.direction === 'in' ? 'into' : q.direction === 'out' ? 'out of' : 'into or out of';
  const root = subject.anchor;
  const byKind = any.filter((n) => !q.kinds.includes(n.kind));
  const byTest = any.filter((n) => q.kinds.includes(n.kind) && !q.includeTests && n.node.isTest);
  const byConf = any.filter((n) => q.kinds.includes(n.kind) && n.confidence < q.minConfidence);
  const cands = [
    { filter: 'kinds' as const, n: byKind.length, over: { kinds: [...new Set(any.map((n) => n.kind))] } },
    { filter: 'include_tests' as const, n: byTest.length, over: { include_tests: true } },
    { filter: 'min_confidence' as const, n: byConf.length, over: { min_confidence: 0 } },
  ]
    .filter((c) => c.n > 0 && filters.includes(c.filter))
    .sort((a, b) => b.n - a.n);
  if (cands.length > 0) {
    const top = cands[0];
    ctx.meta.empty('query_too_narrow', `${any.length} edge(s) go ${where} ${subject.label}, but the ${top.filter} filter excluded ${top.n === any.length ? 'all of them' : `${top.n} of them and the other filters the rest`}`, {
      filter: top.filter,
      excluded: Object.fromEntries(cands.map((c) => [c.filter, c.n])),
    });
    const step = retry(top.over);
    ctx.meta.next(step.tool, step.args, `retry without the ${top.filter} restriction`);
    return 'query_too_narrow';
  }
  if (q.pending) {
    ctx.meta.empty('stale_index', `no edge goes ${where} ${subject.label} yet: the call graph of '${project.name}' is still being resolved for its last push; retry shortly or re-index`, { target: subject.label });
    ctx.meta.next('health', { project: project.name }, 'see the state of the index');
    return 'stale_index';
  }
  const reason = emptyGraphReason(root.language);
  const bare = root.name;
  if (reason === 'cross_file_unavailable') {
    ctx.meta.empty('cross_file_unavailable', `${root.language || 'this file type'} has no edge graph (its extractor emits no references), so nothing links to ${subject.label}`, { language: root.language });
    ctx.meta.next('grep', { project: project.name, pattern: bare }, `find textual references to '${bare}'`);
    return 'cross_file_unavailable';
  }
  if (reason === 'same_file_only') {
    ctx.meta.empty('same_file_only', `${root.language} references resolve within a file only, and no edge in ${root.file_path} goes ${where} ${subject.label}; references from other files are not in the graph`, { language: root.language });
    ctx.meta.next('neighborhood', { project: project.name, id: root.id }, `what else ${root.file_path} defines`);
    ctx.meta.next('grep', { project: project.name, pattern: bare }, `find textual references to '${bare}' in other files`);
    return 'same_file_only';
  }
  ctx.meta.empty('no_results_in_corpus', `no edge goes ${where} ${subject.label} in project '${project.name}': nothing indexed ${q.direction === 'out' ? 'is referenced by it' : 'references it'} (dynamic or external uses are not seen)`, { target: subject.label });
  ctx.meta.next('grep', { project: project.name, pattern: bare }, `look for dynamic or textual uses of '${bare}'`);
  return 'no_results_in_corpus';
}

/** The coverage warning when a language's edges stop at its files. */
export function warnCoverage(ctx: ToolContext, language: string): void {
  if (graphCoverage(language) === 'same_file') {
    ctx.meta.warn('graph_coverage', `${language} references resolve within a file only: callers and callees in other files are missing`, { language, coverage: 'same_file' }, 'info');
  }
}
