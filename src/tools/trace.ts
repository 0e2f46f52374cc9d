import { z } from 'zod';
import { PincherError } from '../errors';
import { EDGE_KINDS, calleesOf, callersOf, fileSizes, graphState, resolveSymbolName, walk, type GraphNode, type Hop, type WalkDirection } from '../db/graph';
import type { ProjectRow } from '../db/projects';
import type { SymbolRow } from '../db/source';
import { emptyGraphReason, graphCoverage } from '../graph/coverage';
import type { EdgeKind } from '../graph/types';
import type { EmptyReason } from '../envelope/empty-reasons';
import { fullFileReadBaseline } from './baseline';
import { defineTool, type ToolContext } from './define';
import { resolveProject } from './project-scope';
import { lookupIds } from './read/lookup';
import { explainUnresolvedId } from './read/unresolved';

/** Default walk depth; an omitted depth may be trimmed below it (ENOUGH_HOPS). */
export const DEFAULT_DEPTH = 3;
/** An omitted depth is trimmed to the smallest one reaching this many hops. */
const ENOUGH_HOPS = 5;
const MAX_HOPS_CAP = 200;
const DEFAULT_MAX_HOPS = 50;
/** Alternatives of an ambiguous name shown (each with a next step). */
const ALTERNATIVES = 5;

/** Risk of changing the root for a hop, by depth: direct neighbours break first. */
export function riskOf(depth: number): 'high' | 'medium' | 'low' {
  return depth <= 1 ? 'high' : depth === 2 ? 'medium' : 'low';
}

const DIRECTIONS: Record<string, 'inbound' | 'outbound' | 'both'> = {
  inbound: 'inbound', in: 'inbound', callers: 'inbound', caller: 'inbound', up: 'inbound', upstream: 'inbound', incoming: 'inbound',
  outbound: 'outbound', out: 'outbound', callees: 'outbound', callee: 'outbound', down: 'outbound', downstream: 'outbound', outgoing: 'outbound',
  both: 'both', all: 'both',
};
const WALK: Record<'inbound' | 'outbound' | 'both', WalkDirection> = { inbound: 'in', outbound: 'out', both: 'both' };

/** The node fields every graph tool shows. */
export const nodeOut = z.object({
  id: z.string().nullable().describe('symbol id; null for the module level of file'),
  name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number(),
});

export function nodeView(n: Pick<GraphNode, 'id' | 'name' | 'kind' | 'file' | 'line'>): z.infer<typeof nodeOut> {
  return { id: n.id, name: n.name, kind: n.kind, file: n.file, line: n.line };
}

export function rootView(r: SymbolRow): z.infer<typeof nodeOut> {
  return { id: r.id, name: r.name, kind: r.kind, file: r.file_path, line: r.start_line };
}

const hopOut = nodeOut.extend({
  depth: z.number(),
  risk: z.enum(['high', 'medium', 'low']),
  via: z.string().describe('id of the predecessor (the root at depth 1)'),
  direction: z.enum(['inbound', 'outbound']),
  edge: z.string().describe('CALLS, IMPORTS, INHERITS or IMPLEMENTS'),
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
 */
export async function resolveTarget(ctx: ToolContext, tool: string, project: ProjectRow, target: { id?: string; name?: string }, stepArgs: Record<string, unknown> = {}): Promise<SymbolRow | null> {
  if (target.id !== undefined) {
    const found = await lookupIds(ctx, project.id, [target.id], { fields: ['name'], detail: 'full' });
    const row = found.rows.get(target.id);
    if (!row) await explainUnresolvedId(ctx, project, target.id);
    return row ?? null;
  }
  const name = target.name ?? '';
  const { chosen, alternatives } = await resolveSymbolName(ctx.db, project.id, name, { limit: ALTERNATIVES + 1 });
  if (!chosen) {
    const bare = name.replace(/@\d+$/, '').split(/\.| > /).pop()?.trim() || name;
    const spans = alternatives.map((a) => `${a.id} (lines ${a.start_line}–${a.end_line})`);
    ctx.meta.empty('target_not_resolved', spans.length ? `no '${name}' spans that line; matches: ${spans.join(', ')}` : `no symbol named '${name}' in project '${project.name}'`, { name });
    for (const a of alternatives) ctx.meta.next(tool, { project: project.name, id: a.id, ...stepArgs }, `${tool} from ${a.id}`);
    ctx.meta.next('search', { project: project.name, query: bare }, `find the exact id of '${bare}'`);
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

/** Whether a project's edges lag its index (resolution of the last push still running) and whether it has any edge. */
export interface GraphLag {
  pending: boolean;
  hasEdges: boolean;
  generation: number;
  graphGeneration: number;
}

export async function readGraphState(ctx: ToolContext, project: ProjectRow): Promise<GraphLag> {
  const state = await graphState(ctx.db, project.id);
  const generation = state?.generation ?? project.generation;
  const graphGeneration = state?.graphGeneration ?? project.graphGeneration;
  return { pending: graphGeneration < generation, hasEdges: state?.hasEdges ?? false, generation, graphGeneration };
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

/** Reads the graph state and warns graph_pending when the edges lag the index. */
export async function checkGraphState(ctx: ToolContext, project: ProjectRow): Promise<{ pending: boolean; hasEdges: boolean }> {
  const lag = await readGraphState(ctx, project);
  warnGraphPending(ctx, lag);
  return { pending: lag.pending, hasEdges: lag.hasEdges };
}

/** What a walk started from, for explaining an empty answer: one symbol, or every symbol of a file. */
export interface WalkSubject {
  ids: readonly string[];
  /** How diagnoses name it: a symbol id or a file path. */
  label: string;
  /** A symbol to send neighborhood to. */
  anchor: SymbolRow;
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
  q: { direction: WalkDirection; kinds: readonly EdgeKind[]; minConfidence: number; includeTests: boolean; pending: boolean },
  retry: (over: Record<string, unknown>) => { tool: string; args: Record<string, unknown> },
  /** The filters the calling tool has (a relaxed step may only change these). */
  filters: readonly ('kinds' | 'include_tests' | 'min_confidence')[] = ['kinds', 'include_tests', 'min_confidence'],
): Promise<EmptyReason> {
  const lookups = [];
  if (q.direction !== 'out') lookups.push(callersOf(ctx.db, project.id, subject.ids, { kinds: EDGE_KINDS, limit: 500 }));
  if (q.direction !== 'in') lookups.push(calleesOf(ctx.db, project.id, subject.ids, { kinds: EDGE_KINDS, limit: 500 }));
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

/** A bound checked at validation time but not spelled in the advertised schema (the description states it; the core list has a token budget). */
const within = (min: number, max: number) => (v: number) => v >= min && v <= max;
const chars = (max: number) => (v: string) => v.length <= max && /\S/.test(v);

const input = z.object({
  project: z.string().optional(),
  id: z.string().refine(chars(2000), 'must be 1–2000 characters').optional(),
  name: z.string().refine(chars(500), 'must be 1–500 characters').optional().describe('Name or Class.method'),
  direction: z.string().refine(chars(20), 'must be inbound, outbound or both').optional().describe('inbound (default), outbound, both'),
  depth: z.number().int().refine(within(1, 5), 'must be 1–5').optional().describe(`1–5; omitted: ${DEFAULT_DEPTH}, trimmed to ≥${ENOUGH_HOPS} hops`),
  kinds: z.array(z.enum(EDGE_KINDS as [EdgeKind, ...EdgeKind[]])).refine((a) => a.length > 0, 'must list at least one kind').optional().describe('Default CALLS'),
  include_tests: z.boolean().optional().describe('Default false'),
  min_confidence: z.number().refine(within(0, 1), 'must be 0–1').optional().describe('0–1, default 0'),
  max_hops: z.number().int().refine(within(1, MAX_HOPS_CAP), `must be 1–${MAX_HOPS_CAP}`).optional().describe(`1–${MAX_HOPS_CAP}, default ${DEFAULT_MAX_HOPS}`),
});

export const traceTool = defineTool({
  name: 'trace',
  title: 'Call graph walk',
  description:
    'Callers/callees of one symbol (exactly one of id, name); hops: risk (1 high, 2 medium, 3+ low), via, confidence, provenance, call_line.',
  tier: 'standard',
  toolset: 'core',
  readOnly: true,
  idempotent: true,
  baseline: 'full_file_read',
  input,
  output: z.object({
    root: nodeOut.nullable(),
    hops: z.array(hopOut),
    total: z.number().describe('hops found before max_hops'),
  }),
  handler: async (args, ctx) => {
    exactlyOne('trace', { id: args.id, name: args.name });
    const given = args.direction ?? 'inbound';
    const direction = DIRECTIONS[given.trim().toLowerCase()];
    if (!direction) {
      throw new PincherError('invalid_params', `invalid arguments for trace: direction '${given}' is not inbound, outbound or both`, {
        suggestion: 'pass direction inbound (callers), outbound (callees) or both',
        details: { issues: [{ param: 'direction', message: 'must be one of: inbound, outbound, both', allowed: ['inbound', 'outbound', 'both'] }] },
      });
    }
    if (direction !== given) ctx.meta.warn('direction_mapped', `direction '${given}' read as ${direction}`, { given, direction }, 'info');
    const kinds = args.kinds ?? ['CALLS'];
    const includeTests = args.include_tests ?? false;
    const minConfidence = args.min_confidence ?? 0;
    const maxHops = args.max_hops ?? DEFAULT_MAX_HOPS;
    const depth = args.depth ?? DEFAULT_DEPTH;
    const empty = { root: null, hops: [], total: 0 };
    const project = await resolveProject(ctx, args.project);
    if (!project) return empty;
    // The graph state is read alongside the target (it records nothing in _meta by itself).
    const [root, lag] = await Promise.all([
      resolveTarget(ctx, 'trace', project, { id: args.id, name: args.name }, { direction, ...(args.depth ? { depth } : {}) }),
      readGraphState(ctx, project),
    ]);
    if (!root) return empty;

    const walkDir = WALK[direction];
    const result = await walk(ctx.db, project.id, [root.id], { direction: walkDir, depth, kinds, minConfidence, includeTests, maxHops });
    let { hops, total } = result;
    let walked = depth;
    const base = { project: project.name, id: root.id, direction, kinds, include_tests: includeTests, min_confidence: minConfidence };
    if (args.depth === undefined) {
      // Omitted depth: the smallest depth that already gives ENOUGH_HOPS hops.
      let sum = 0;
      const enough = result.perDepth.findIndex((n) => (sum += n) >= ENOUGH_HOPS);
      if (enough >= 0 && enough + 1 < depth) {
        walked = enough + 1;
        total = result.perDepth.slice(0, walked).reduce((a, b) => a + b, 0);
        hops = hops.filter((h) => h.depth <= walked);
        ctx.meta.warn(
          'depth_trimmed',
          `depth trimmed to ${walked}: it already reaches ${total} hops (${result.total} at depth ${depth}); pass depth to walk further`,
          { depth: walked, hops_at_default: result.total },
          'info',
        );
        ctx.meta.next('trace', { ...base, depth, max_hops: maxHops }, `walk the default depth ${depth} (${result.total} hops)`);
      }
    }
    if (total > hops.length) {
      ctx.meta.warn('hops_truncated', `showing ${hops.length} of ${total} hops (max_hops ${maxHops}); raise max_hops or lower depth`, { total, max_hops: maxHops });
      if (maxHops < MAX_HOPS_CAP) ctx.meta.next('trace', { ...base, depth: walked, max_hops: MAX_HOPS_CAP }, `see up to ${MAX_HOPS_CAP} of the ${total} hops`);
    }
    if (!result.complete) ctx.meta.warn('walk_incomplete', 'a level of the walk hit the edge-row ceiling: total is a lower bound', { total });
    const reason =
      hops.length === 0
        ? await explainNoHops(ctx, project, { ids: [root.id], label: root.id, anchor: root }, { direction: walkDir, kinds, minConfidence, includeTests, pending: lag.pending }, (over) => ({
            tool: 'trace',
            args: { ...base, depth, ...over },
          }))
        : null;
    if (reason === null) warnCoverage(ctx, root.language);
    // A stale_index answer already says the graph lags.
    if (reason !== 'stale_index') warnGraphPending(ctx, lag);
    await fullFileReadBaseline(ctx, project.id, await fileSizes(ctx.db, project.id, [root.file_path, ...hops.map((h) => h.node.file)]));
    return { root: rootView(root), hops: hops.map(hopView), total };
  },
});
