import * as z from 'zod';
import { importersOf, isTestPath, walk, type FileImport, type Hop, type WalkResult } from '../db/graph';
import type { ProjectRow } from '../db/projects';
import { fileMeta, fileSymbolColumns, type SymbolColumn, type SymbolRow } from '../db/source';
import type { EdgeKind } from '../graph/types';
import { grepThenReadBaseline } from './baseline';
import { defineTool, type ToolContext } from './define';
import { resolveProject } from './project-scope';
import { normaliseRepoPath } from './read/files';
import { parseSymbolId } from '../symbols/symbol-id';
import { DEFAULT_MIN_CONFIDENCE } from '../graph/view';
import { exactlyOne, explainNoHops, graphLag, warnGraphPending, type GraphLag, hopView, nodeOut, resolveTarget, rootView, warnCoverage, warnHidden } from './graph-common';

/** Edges a change travels back along: callers, subclasses, implementers, and other references (only from a pushed SCIP index). */
const IMPACT_KINDS: readonly EdgeKind[] = ['CALLS', 'INHERITS', 'IMPLEMENTS', 'REFERENCES'];
const DEFAULT_DEPTH = 3;
const DEFAULT_MAX_HOPS = 100;
const MAX_HOPS_CAP = 500;
/** Direct callers from which the risk is high. */
const HIGH_DIRECT = 5;

/** Folders that hold modules rather than being one: `src/api/x.ts` is module `src/api`. */
const CONTAINER_ROOTS = new Set(['src', 'lib', 'packages', 'apps', 'app', 'internal', 'pkg', 'cmd', 'modules', 'services', 'crates']);

/**
 * The module of a path: its top-level directory, or its first two levels when
 * the top one is a source container (src, lib, packages, …); `.` at the root.
 */
export function moduleOf(path: string): string {
  const dirs = path.split('/').slice(0, -1);
  if (dirs.length === 0) return '.';
  return CONTAINER_ROOTS.has(dirs[0]) && dirs.length > 1 ? `${dirs[0]}/${dirs[1]}` : dirs[0];
}

/**
 * Risk of a change: high with ≥ 5 direct callers or callers in ≥ 2 other
 * modules, medium with any caller, low with none.
 */
export function riskLevel(direct: number, otherModules: number, affected: number): 'high' | 'medium' | 'low' {
  if (direct >= HIGH_DIRECT || otherModules >= 2) return 'high';
  return affected > 0 ? 'medium' : 'low';
}

const impactOut = nodeOut.extend({
  depth: z.number(),
  risk: z.enum(['high', 'medium', 'low']),
  via: z.string(),
  direction: z.enum(['inbound', 'outbound']),
  edge: z.string(),
  confidence: z.number(),
  provenance: z.string(),
  call_line: z.number(),
  module: z.string(),
  cross_module: z.boolean().describe("the hop's module differs from the target's"),
});

const testOut = z.object({
  id: z.string().nullable().describe('test symbol id; null when the whole file imports the target file'),
  file: z.string(),
  name: z.string(),
  reason: z.enum(['calls', 'imports']),
  depth: z.number(),
  via: z.string().describe('what it reaches: the symbol it calls, or the file it imports'),
});

const input = z.object({
  project: z.string().optional().describe('Project name; defaults to the ?project= pin of the MCP URL.'),
  id: z.string().min(1).max(2000).optional().describe('Target symbol id. Exactly one of id, name, path.'),
  name: z.string().max(500).regex(/\S/, 'name must be non-empty').optional().describe('Target Name or Class.method; non-empty. Exactly one of id, name, path.'),
  path: z.string().min(1).max(1024).optional().describe('Target file: every symbol it defines. Exactly one of id, name, path.'),
  depth: z.number().int().min(1).max(3).default(DEFAULT_DEPTH).describe(`Levels of callers, 1–3, default ${DEFAULT_DEPTH}.`),
  min_confidence: z.number().min(0).max(1).optional().describe(`0–1, default ${DEFAULT_MIN_CONFIDENCE}: edges under it (name guesses) are not followed.`),
  max_hops: z
    .number()
    .int()
    .min(1)
    .max(MAX_HOPS_CAP)
    .default(DEFAULT_MAX_HOPS)
    .describe(`Impact entries returned, 1–${MAX_HOPS_CAP}, default ${DEFAULT_MAX_HOPS}; the rest are counted in total (hops_truncated warning).`),
});

type Args = z.output<typeof input>;

export const planChangeTool = defineTool({
  name: 'plan_change',
  title: 'Blast radius of a change',
  description:
    'What a change to one symbol or file affects: callers, subclasses, implementers (and other references, with SCIP) walked inbound by depth (risk 1 high, 2 medium, 3 low), ' +
    'the modules they live in (top-level folder, or two levels under src/lib/packages/…; cross_module marked), affected tests ' +
    '(test callers, and test files importing the target file), and a risk summary (high: ≥5 direct callers or callers in ≥2 other modules; ' +
    'medium: any caller; low: none).',
  tier: 'heavy',
  toolset: 'full',
  baseline: 'grep_then_read',
  input,
  output: z.object({
    target: z.object({ kind: z.enum(['symbol', 'file']), file: z.string(), module: z.string(), symbol: nodeOut.optional(), symbols: z.number() }).nullable(),
    impact: z.array(impactOut),
    modules: z.array(z.object({ module: z.string(), hops: z.number(), cross_module: z.boolean() })),
    tests: z.array(testOut),
    risk: z.object({
      level: z.enum(['high', 'medium', 'low']),
      direct: z.number().describe('depth-1 callers (tests excluded)'),
      indirect: z.number(),
      other_modules: z.number(),
      tests: z.number(),
      untested: z.boolean().describe('no test reaches the target'),
    }),
    total: z.number().describe('impact entries before max_hops'),
  }),
  handler: async (args, ctx) => {
    exactlyOne('plan_change', { id: args.id, name: args.name, path: args.path });
    const empty = { target: null, impact: [], modules: [], tests: [], risk: { level: 'low' as const, direct: 0, indirect: 0, other_modules: 0, tests: 0, untested: true }, total: 0 };
    const project = await resolveProject(ctx, args.project);
    if (!project) return empty;
    // A symbol given by id is walked (and its file's importers read) in the target's own round trip; again only if the id resolves elsewhere.
    const earlyFile = args.id === undefined ? undefined : parseSymbolId(args.id)?.path;
    const early = args.id !== undefined && earlyFile !== undefined ? impactReads(ctx, project, [args.id], earlyFile, args) : null;
    early?.catch(() => undefined);
    const target = args.path !== undefined ? await fileTarget(ctx, project, args.path) : await symbolTarget(ctx, project, args);
    if (!target) return empty;
    const reads = early && target.kind === 'symbol' && target.rows[0].id === args.id && target.file === earlyFile ? early : impactReads(ctx, project, target.rows.map((r) => r.id), target.file, args);
    return plan(ctx, project, target, args, graphLag(project), await reads);
  },
});

/** The inbound walk from `startIds` and the files importing `file` (test files among them are affected tests), read together. */
function impactReads(ctx: ToolContext, project: ProjectRow, startIds: readonly string[], file: string, args: Args): Promise<[WalkResult, FileImport[]]> {
  const floor = args.min_confidence ?? DEFAULT_MIN_CONFIDENCE;
  return Promise.all([
    walk(ctx.db, project.id, startIds, { direction: 'in', depth: args.depth, kinds: IMPACT_KINDS, minConfidence: floor, includeTests: true, maxHops: 10_000, countHidden: args.min_confidence === undefined }),
    importersOf(ctx.db, project.id, [file]),
  ]);
}

/** What plan_change reads of its target's symbols: their ids and names, and the first one's view and language. */
const TARGET_COLUMNS = ['id', 'name', 'kind', 'file_path', 'start_line', 'language'] as const satisfies readonly SymbolColumn[];

interface Target {
  kind: 'symbol' | 'file';
  file: string;
  /** The symbol (kind symbol) or the file's symbols (kind file), in source order. */
  rows: Pick<SymbolRow, (typeof TARGET_COLUMNS)[number]>[];
}

async function symbolTarget(ctx: ToolContext, project: ProjectRow, args: Args): Promise<Target | null> {
  const row = await resolveTarget(ctx, 'plan_change', project, { id: args.id, name: args.name });
  return row ? { kind: 'symbol', file: row.file_path, rows: [row] } : null;
}

async function fileTarget(ctx: ToolContext, project: ProjectRow, raw: string): Promise<Target | null> {
  const path = normaliseRepoPath(raw);
  const [meta, rows] = await Promise.all([fileMeta(ctx.db, project.id, path), fileSymbolColumns(ctx.db, project.id, path, TARGET_COLUMNS)]);
  if (!meta) {
    ctx.meta.empty('target_not_resolved', `no file '${path}' in project '${project.name}'`, { path });
    ctx.meta.next('find', { project: project.name, pattern: path.slice(path.lastIndexOf('/') + 1) || path }, 'find the file by name');
    return null;
  }
  if (rows.length === 0) {
    ctx.meta.empty('extractor_emitted_nothing', `${path} is indexed (${meta.language}, ${meta.status}) but defines no symbols, so nothing can depend on it through the graph`, { path });
    ctx.meta.next('health', { project: project.name }, 'see extraction failures for the project');
    return null;
  }
  return { kind: 'file', file: path, rows };
}

async function plan(ctx: ToolContext, project: ProjectRow, target: Target, args: Args, lag: GraphLag, [result, allImporters]: [WalkResult, FileImport[]]) {
  const startIds = target.rows.map((r) => r.id);
  const floor = args.min_confidence ?? DEFAULT_MIN_CONFIDENCE;
  // Test files importing the target file (whole-file imports included), besides test callers.
  const home = moduleOf(target.file);
  const testHops = result.hops.filter((h) => h.node.isTest);
  const impactHops = result.hops.filter((h) => !h.node.isTest);
  const importers = allImporters.filter((i) => isTestPath(i.file));
  const tests = [
    ...testHops.map((h) => ({ id: h.node.id, file: h.node.file, name: h.node.name, reason: 'calls' as const, depth: h.depth, via: h.via })),
    ...[...new Map(importers.filter((i) => !testHops.some((h) => h.node.file === i.file)).map((i) => [i.file, i])).values()].map((i) => ({
      id: null,
      file: i.file,
      name: i.file.slice(i.file.lastIndexOf('/') + 1),
      reason: 'imports' as const,
      depth: 1,
      via: i.target,
    })),
  ];

  const byModule = new Map<string, number>();
  for (const h of impactHops) byModule.set(moduleOf(h.node.file), (byModule.get(moduleOf(h.node.file)) ?? 0) + 1);
  const modules = [...byModule].map(([module, hops]) => ({ module, hops, cross_module: module !== home })).sort((a, b) => b.hops - a.hops || a.module.localeCompare(b.module));
  const direct = impactHops.filter((h) => h.depth === 1).length;
  const otherModules = modules.filter((m) => m.cross_module).length;
  const shown = impactHops.slice(0, args.max_hops);
  const step = { project: project.name, ...(target.kind === 'file' ? { path: target.file } : { id: target.rows[0].id }), depth: args.depth, min_confidence: floor };

  if (shown.length < impactHops.length) {
    ctx.meta.warn('hops_truncated', `showing ${shown.length} of ${impactHops.length} impact entries (max_hops ${args.max_hops}); modules and risk count them all`, { total: impactHops.length, max_hops: args.max_hops });
    if (args.max_hops < MAX_HOPS_CAP) ctx.meta.next('plan_change', { ...step, max_hops: MAX_HOPS_CAP }, `see up to ${MAX_HOPS_CAP} of the ${impactHops.length} entries`);
  }
  warnHidden(ctx, result.hidden, floor, { tool: 'plan_change', args: step });
  if (!result.complete) ctx.meta.warn('walk_incomplete', 'a level of the walk hit the edge-row ceiling: the impact is a lower bound', {});
  const root = target.rows[0];
  if (impactHops.length === 0 && tests.length === 0) {
    const subject = { ids: startIds, label: target.kind === 'file' ? target.file : root.id, anchor: root };
    const q = { direction: 'in' as const, kinds: IMPACT_KINDS, minConfidence: floor, includeTests: true, pending: lag.pending };
    const reason = await explainNoHops(ctx, project, subject, q, (over) => ({ tool: 'plan_change', args: { ...step, ...over } }), ['min_confidence']);
    // A stale_index answer already says the graph lags.
    if (reason !== 'stale_index') warnGraphPending(ctx, lag);
  } else {
    warnGraphPending(ctx, lag);
    warnCoverage(ctx, root.language);
    if (target.kind === 'symbol') ctx.meta.next('trace', { project: project.name, id: root.id, direction: 'inbound', depth: args.depth, include_tests: true }, 'walk the callers hop by hop');
  }
  await grepThenReadBaseline(ctx, project, target.rows.map((r) => r.name), [...shown, ...testHops].map((h) => h.node));
  return {
    target: {
      kind: target.kind,
      file: target.file,
      module: home,
      ...(target.kind === 'symbol' ? { symbol: rootView(root) } : {}),
      symbols: target.rows.length,
    },
    impact: shown.map((h: Hop) => ({ ...hopView(h), module: moduleOf(h.node.file), cross_module: moduleOf(h.node.file) !== home })),
    modules,
    tests,
    risk: {
      level: riskLevel(direct, otherModules, impactHops.length),
      direct,
      indirect: impactHops.length - direct,
      other_modules: otherModules,
      tests: tests.length,
      untested: tests.length === 0,
    },
    total: impactHops.length,
  };
}
