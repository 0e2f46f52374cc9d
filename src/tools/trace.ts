import * as z from 'zod';
import { EDGE_KINDS, scipCovers, walk, walkFromId, walkFromName, type WalkDirection, type WalkRoot } from '../db/graph';
import { PincherError } from '../errors';
import type { EdgeKind } from '../graph/types';
import { grepThenReadBaseline } from './baseline';
import { defineTool } from './define';
import { DEFAULT_MIN_CONFIDENCE } from '../graph/view';
import { PROJECT_PARAM } from './describe';
import { exactlyOne, explainNoHops, hopOut, hopView, nodeOut, graphLag, resolveTarget, rootView, warnCoverage, warnGraphPending, warnHidden } from './graph-common';
import { resolveProject } from './project-scope';
import { parseSymbolId } from '../symbols/symbol-id';

/** Default walk depth; an omitted depth may be trimmed below it (ENOUGH_HOPS). */
export const DEFAULT_DEPTH = 3;
/** An omitted depth is trimmed to the smallest one reaching this many hops. */
const ENOUGH_HOPS = 5;
const MAX_HOPS_CAP = 200;
const DEFAULT_MAX_HOPS = 50;

const DIRECTIONS: Record<string, 'inbound' | 'outbound' | 'both'> = {
  inbound: 'inbound', in: 'inbound', callers: 'inbound', caller: 'inbound', up: 'inbound', upstream: 'inbound', incoming: 'inbound',
  outbound: 'outbound', out: 'outbound', callees: 'outbound', callee: 'outbound', down: 'outbound', downstream: 'outbound', outgoing: 'outbound',
  both: 'both', all: 'both',
};
const WALK: Record<'inbound' | 'outbound' | 'both', WalkDirection> = { inbound: 'in', outbound: 'out', both: 'both' };

/** A bound checked at validation time but not spelled in the advertised schema (the description states it; the core list has a token budget). */
const within = (min: number, max: number) => (v: number) => v >= min && v <= max;
const chars = (max: number) => (v: string) => v.length <= max && /\S/.test(v);

const input = z.object({
  project: z.string().optional().describe(PROJECT_PARAM),
  id: z.string().refine(chars(2000), 'must be 1–2000 characters').optional(),
  name: z.string().refine(chars(500), 'must be 1–500 characters').optional().describe('Name or Class.method'),
  direction: z.string().refine(chars(20), 'must be inbound, outbound or both').optional().describe('inbound (default), outbound, both'),
  depth: z.number().int().refine(within(1, 5), 'must be 1–5').optional().describe(`1–5; omitted: ${DEFAULT_DEPTH}, trimmed to ≥${ENOUGH_HOPS} hops`),
  kinds: z.array(z.enum(EDGE_KINDS as [EdgeKind, ...EdgeKind[]])).refine((a) => a.length > 0, 'must list at least one kind').optional().describe('Default CALLS'),
  include_tests: z.boolean().optional().describe('Default false'),
  min_confidence: z.number().refine(within(0, 1), 'must be 0–1').optional().describe(`0–1, default ${DEFAULT_MIN_CONFIDENCE} (hides name guesses)`),
  max_hops: z.number().int().refine(within(1, MAX_HOPS_CAP), `must be 1–${MAX_HOPS_CAP}`).optional().describe(`1–${MAX_HOPS_CAP}, default ${DEFAULT_MAX_HOPS}`),
});

export const traceTool = defineTool({
  name: 'trace',
  title: 'Call graph walk',
  description:
    'Callers/callees of one symbol, instead of grep (exactly one of id, name); risk (1 high, 2 medium, 3+ low); REFERENCES need SCIP.',
  tier: 'standard',
  toolset: 'core',
  baseline: 'grep_then_read',
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
    const minConfidence = args.min_confidence ?? DEFAULT_MIN_CONFIDENCE;
    const maxHops = args.max_hops ?? DEFAULT_MAX_HOPS;
    const depth = args.depth ?? DEFAULT_DEPTH;
    const empty = { root: null, hops: [], total: 0 };
    const project = await resolveProject(ctx, args.project);
    if (!project) return empty;
    const walkDir = WALK[direction];
    // probeEdges: an empty walk from an id says whether any edge touches it at all, so explainNoHops need not read them again.
    const options = { direction: walkDir, depth, kinds, minConfidence, includeTests, maxHops, countHidden: args.min_confidence === undefined, probeEdges: true };
    const walkFrom = (id: string) => walk(ctx.db, project.id, [id], options);
    // One round trip: an id's walk reads the id's symbol row in the same statement; a name is resolved in SQL by the
    // walk and by the resolver beside it. The target is looked up on its own only when the walk did not find it (a
    // moved file, an unknown id) and walked again only if it resolves elsewhere (a moved file, a name whose pick differs
    // from the resolver's). An id the walk's statement read and found absent is not read again: only its moved file is looked for.
    const early = args.id !== undefined && parseSymbolId(args.id) ? await walkFromId(ctx.db, project.id, args.id, options) : null;
    const named = args.name === undefined ? null : walkFromName(ctx.db, project.id, args.name, options).catch(() => null);
    const root: WalkRoot | null =
      early?.root ?? (await resolveTarget(ctx, 'trace', project, { id: args.id, name: args.name, idAbsent: early?.root === null }, { direction, ...(args.depth ? { depth } : {}) }));
    if (!root) return empty;
    const lag = graphLag(project);

    const picked = named ? await named : null;
    const result = await (early && root.id === args.id ? early.result : picked?.start === root.id ? picked.result : walkFrom(root.id));
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
    warnHidden(ctx, result.hidden, minConfidence, { tool: 'trace', args: { ...base, depth: walked, max_hops: maxHops } });
    if (!result.complete) ctx.meta.warn('walk_incomplete', 'a level of the walk hit the edge-row ceiling: total is a lower bound', { total });
    const reason =
      hops.length === 0
        ? await explainNoHops(ctx, project, { ids: [root.id], label: root.id, anchor: root }, { direction: walkDir, kinds, minConfidence, includeTests, pending: lag.pending, untouched: result.untouched }, (over) => ({
            tool: 'trace',
            args: { ...base, depth, ...over },
          }))
        : null;
    if (reason === null) warnCoverage(ctx, root.language);
    if (kinds.includes('REFERENCES') && !(await scipCovers(ctx.db, project.id, root.file_path))) {
      ctx.meta.warn(
        'references_need_scip',
        `REFERENCES edges come only from a SCIP index pushed with the project, and none covers ${root.file_path}: only the calls, imports and base types the heuristic resolver found are shown, not every reference. Push with --scip index.scip (docs/graph.md)`,
        { file: root.file_path },
      );
    }
    // A stale_index answer already says the graph lags.
    if (reason !== 'stale_index') warnGraphPending(ctx, lag);
    await grepThenReadBaseline(ctx, project, [root.name], hops.map((h) => h.node));
    return { root: rootView(root), hops: hops.map(hopView), total };
  },
});
