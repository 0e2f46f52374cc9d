import * as z from 'zod';
import { PincherError } from '../errors';
import { tokensOf } from '../envelope/tokens';
import { candidatesByNames, likelyNamedSymbol, refsOfSymbol, symbolsByIds, namedRowsByNames, type RefRow, type SymbolRow } from '../db/source';
import { fullFileReadBaseline } from './baseline';
import type { ProjectRow } from '../db/projects';
import { ownerOf, startNearestNames } from './nearest-names';
import { explainNoSymbols } from './no-symbols';
import { defineTool, type ToolContext } from './define';
import { PROJECT_PARAM } from './describe';
import { resolveProject } from './project-scope';
import { resolveDependencies, wantedNames, type PlannedDependency } from './read/deps';
import { edgeKinds } from '../extract/reference-kinds';
import { normaliseRepoPath } from './read/files';
import { lookupIds } from './read/lookup';
import { startExtractionGaps } from './extraction-gaps';
import { refLabels, resolutionOrder, resolveRef } from '../symbols/resolve';
import { parseSymbolRef } from '../symbols/symbol-id';
import { namePick } from '../db/name-pick';
import { lookupOrExplain } from './read/unresolved';
import { symbolView, viewOf, type SymbolView } from './read/view';
import { MAX_IDS } from './symbols';

export const DEFAULT_MAX_TOKENS = 4000;
/** Dependencies considered per call (one `symbols` call fetches what the budget drops). */
const MAX_DEPENDENCIES = MAX_IDS;
/** Candidates per referenced name, best first (same file, callable kinds). */
const CANDIDATES_PER_NAME = 25;
/** Distinct referenced names resolved per call. */
const MAX_NAMES = 300;

const dependency = z.object({
  id: z.string(),
  kind: z.string(),
  relation: z.enum(['call', 'import', 'inherit']),
  resolution: z.enum(['same_file', 'import', 'name']).describe('same_file, import (via the module specifier), or name (matched by name in another file)'),
  line: z.number().describe('first line of the symbol that references it'),
  signature: z.string(),
  start_line: z.number(),
  end_line: z.number(),
  source: z.string(),
});
type Dependency = z.infer<typeof dependency>;

export const contextTool = defineTool({
  name: 'context',
  title: 'Symbol with dependencies',
  description:
    "A symbol's source plus its callees, bases and imports in one call within max_tokens; the rest: dropped (budget_truncated). " +
    'Exactly one of id or name.',
  tier: 'standard',
  toolset: 'core',
  baseline: 'full_file_read',
  input: z.object({
    project: z.string().optional().describe(PROJECT_PARAM),
    id: z.string().min(1).max(2000).optional().describe('1–2000 chars'),
    name: z
      .string()
      .max(500)
      .regex(/\S/, 'name must be non-empty')
      .optional()
      .describe('Name, Class.method or Name@line; non-empty, ≤500 chars'),
    path: z.string().max(1024).optional().describe('With name only: its file, ≤1024 chars'),
    max_tokens: z
      .number()
      .int()
      .min(200)
      .max(50_000)
      .default(DEFAULT_MAX_TOKENS)
      .describe(`200–50000, default ${DEFAULT_MAX_TOKENS}; a symbol alone over it: skeleton`),
  }),
  output: z.object({
    symbol: symbolView.nullable(),
    dependencies: z.array(dependency),
    dropped: z.array(z.string()).optional().describe('ids of dependencies left out by max_tokens'),
    unresolved: z.array(z.string()).optional().describe('referenced names that match no symbol of the project (libraries, dynamic calls)'),
    used_tokens: z.number(),
    max_tokens: z.number(),
  }),
  handler: async (args, ctx) => {
    if ((args.id === undefined) === (args.name === undefined)) {
      throw new PincherError('invalid_params', 'invalid arguments for context: pass exactly one of id or name', {
        suggestion: 'pass id (from search or symbol) or name (Name, Class.method or Name@line, optionally with path)',
        details: { issues: [{ param: 'id', message: 'exactly one of id or name' }] },
      });
    }
    if (args.path !== undefined && args.name === undefined) {
      throw new PincherError('invalid_params', 'invalid arguments for context: path only narrows name', {
        suggestion: 'drop path (an id already names its file), or pass name with path',
        details: { issues: [{ param: 'path', message: 'with name only' }] },
      });
    }
    const empty = { symbol: null, dependencies: [], used_tokens: 0, max_tokens: args.max_tokens };
    const project = await resolveProject(ctx, args.project);
    if (!project) return empty;
    const path = args.path === undefined ? undefined : normaliseRepoPath(args.path);
    const named = args.name === undefined ? null : await idForName(ctx, project, args.name, path);
    // The name's look-up brought the row, source and references of the symbol it resolves to: no read by id.
    if (named?.root) return buildContext(ctx, project, named.root, args.max_tokens);
    const rootId = args.id ?? named?.id;
    if (!rootId) return empty;
    // The symbol's references ride with its look-up (one round trip); a symbol found in its moved file reads its own after.
    const refs = refsOfSymbol(ctx.db, project.id, rootId);
    refs.catch(() => undefined);
    const { found, explain } = await lookupOrExplain(ctx, project, rootId, { detail: 'full' });
    const view = found.found.get(rootId);
    const row = found.rows.get(rootId);
    if (!view || !row) {
      await explain();
      return empty;
    }
    return buildContext(ctx, project, { view, row, refs: row.id === rootId ? await refs : null }, args.max_tokens);
  },
});

/** The root a name resolves to: its id, and its row, view and references when the name's look-up carried them. */
interface NamedRoot {
  id: string;
  root: { view: SymbolView; row: SymbolRow; refs: RefRow[] } | null;
}

async function idForName(ctx: ToolContext, project: ProjectRow, name: string, path: string | undefined): Promise<NamedRoot | null> {
  const ref = parseSymbolRef(name);
  const pick = namePick(ref.name);
  // The symbol the name most likely resolves to comes with the look-up, its source and references with it (one round
  // trip); it is used only when it is the one chosen below. With `@line` the choice is by span: nothing is guessed.
  const [rows, likely] = await Promise.all([
    namedRowsByNames(ctx.db, project.id, [pick], { path }),
    ref.line === undefined ? likelyNamedSymbol(ctx.db, project.id, pick, path) : null,
  ]);
  rows.sort(resolutionOrder);
  const { chosen, matches } = resolveRef(rows, ref);
  if (chosen) {
    if (ref.line === undefined && matches.length > 1) {
      ctx.meta.warn('ambiguous_symbol', `'${ref.name}' names ${matches.length} symbols; used ${chosen.id}. Pass id, or name with path (and Name@line)`, {
        candidates: matches.slice(0, 10).map((m) => m.id),
      });
      for (const m of matches.filter((x) => x.id !== chosen.id).slice(0, 3)) ctx.meta.next('context', { project: project.name, id: m.id }, `context of ${m.id} instead`);
    }
    const carried = likely && likely.row.id === chosen.id ? likely : null;
    return { id: chosen.id, root: carried ? { view: viewOf(carried.row, { detail: 'full' }), row: carried.row, refs: carried.refs } : null };
  }
  if (explainNoSymbols(ctx, project, ref.name.split(/\.| > /).pop() ?? ref.name, 'no name')) return null;
  const where = path ? ` in ${path}` : '';
  const why = matches.length
    ? `no '${ref.name}'${where} spans line ${ref.line}; it is at ${refLabels(matches, ref.name).join(', ')}`
    : `no symbol named '${ref.name}'${where} in project '${project.name}'`;
  ctx.meta.empty('target_not_resolved', why, { name, ...(path ? { path } : {}) });
  for (const m of matches.slice(0, 3)) ctx.meta.next('context', { project: project.name, id: m.id }, `context of ${m.id}`);
  const bare = ref.name.split(/\.| > /).pop() ?? ref.name;
  // Both recoveries are asked at once (one round trip); their steps are written in this order.
  const near = matches.length ? null : startNearestNames(ctx, project, ref.name, 'context', (id) => ({ id }), null, { path: path ?? null, parent: ownerOf(ref.name) });
  const gaps = startExtractionGaps(ctx, project, bare, { setEmpty: false, path });
  if (near) await near();
  await gaps();
  return null;
}

/**
 * Source bytes the candidate look-up carries ahead of the choice, as a multiple of the answer's budget (max_tokens
 * × 4 bytes): enough for the chosen dependencies of most answers, so that their sources need no round trip of their own.
 */
const CARRIED_PER_BUDGET = 4;
/** Source bytes the candidate look-up carries at least. */
const CARRIED_MIN_BYTES = 64 * 1024;

async function buildContext(
  ctx: ToolContext,
  project: { id: string; name: string },
  root: { view: SymbolView; row: SymbolRow; refs: RefRow[] | null },
  maxTokens: number,
) {
  const { row } = root;
  const refs = root.refs ?? (await refsOfSymbol(ctx.db, project.id, row.id));
  const wanted = wantedNames(row, row.source ?? '', refs).slice(0, MAX_NAMES);
  let symbol = root.view;
  const skeleton = tokensOf(symbol) > maxTokens;
  // The candidates carry their sources (a candidate longer than the whole budget could not be used), and the
  // skeleton of a symbol over budget is read with them: one round trip.
  const budgetBytes = maxTokens * 4;
  const [candidates, outline] = await Promise.all([
    candidatesByNames(ctx.db, project.id, wanted.map((w) => w.name), row.file_path, CANDIDATES_PER_NAME, {
      eachUpTo: budgetBytes,
      totalUpTo: Math.max(CARRIED_MIN_BYTES, CARRIED_PER_BUDGET * budgetBytes),
    }),
    skeleton ? lookupIds(ctx, project.id, [row.id], { detail: 'skeleton' }) : null,
  ]);
  const { deps, unresolved } = resolveDependencies(row, wanted, candidates);
  const planned = deps.slice(0, MAX_DEPENDENCIES);

  if (skeleton) {
    // The symbol alone is over budget: its skeleton, and a step that fetches the whole source.
    symbol = outline?.found.get(row.id) ?? { id: row.id, signature: row.signature };
    ctx.meta.next('symbol', { project: project.name, id: row.id }, `the full source of ${row.id} (${tokensOf(root.view)} tokens, over max_tokens ${maxTokens})`);
  }
  const { included, dropped } = await fitDependencies(ctx, project.id, planned, maxTokens - tokensOf(symbol) - tokensOf({ dependencies: [] }));
  const left = [...dropped, ...deps.slice(MAX_DEPENDENCIES).map((d) => d.row.id)];
  if (left.length > 0 || skeleton) {
    ctx.meta.warn(
      'budget_truncated',
      `max_tokens ${maxTokens} left out ${left.length} dependenc${left.length === 1 ? 'y' : 'ies'}${skeleton ? ' and the body of the symbol itself' : ''}; next_steps fetches them`,
      { max_tokens: maxTokens, dropped: left, ...(skeleton ? { root_skeleton: row.id } : {}) },
    );
    if (left.length > 0) ctx.meta.next('symbols', { project: project.name, ids: left.slice(0, MAX_IDS) }, `fetch the ${Math.min(left.length, MAX_IDS)} dependencies max_tokens left out`);
  }
  if (deps.length === 0) explainNoDependencies(ctx, project.name, row, unresolved);

  // Baseline: the distinct files whose source this answer carries.
  const files = new Map<string, number>([[row.file_path, row.file_size]]);
  for (const d of included) files.set(d.row.file_path, d.row.file_size);
  fullFileReadBaseline(ctx, project.id, [...files].map(([path, size]) => ({ path, size })));

  const dependencies = included.map((d) => d.view);
  return {
    symbol,
    dependencies,
    ...(left.length ? { dropped: left } : {}),
    ...(unresolved.length ? { unresolved: unresolved.slice(0, 50) } : {}),
    used_tokens: tokensOf(symbol) + tokensOf({ dependencies }),
    max_tokens: maxTokens,
  };
}

interface Fitted {
  row: SymbolRow;
  view: Dependency;
}

function dependencyView(d: PlannedDependency, source: string): Dependency {
  const r = d.row;
  return { id: r.id, kind: r.kind, relation: d.relation, resolution: d.resolution, line: d.line, signature: r.signature, start_line: r.start_line, end_line: r.end_line, source };
}

/**
 * Greedy fill in reading order: a dependency is fetched when its estimated
 * size (UTF-8 bytes ≥ characters) fits what is left, then kept only if its
 * exact JSON size still fits. Only fitting sources leave the database.
 */
async function fitDependencies(ctx: ToolContext, projectId: string, planned: readonly PlannedDependency[], budget: number): Promise<{ included: Fitted[]; dropped: string[] }> {
  let left = budget;
  const chosen: PlannedDependency[] = [];
  for (const d of planned) {
    const estimate = tokensOf(dependencyView(d, '')) + Math.ceil((d.row.end_byte - d.row.start_byte) / 4);
    if (estimate <= left) {
      chosen.push(d);
      left -= estimate;
    }
  }
  // Sources the candidates carried are used as they came; only the others are read.
  const sources = new Map<string, string>();
  for (const d of chosen) if (typeof d.row.source === 'string') sources.set(d.row.id, d.row.source);
  const missing = chosen.filter((d) => !sources.has(d.row.id)).map((d) => d.row.id);
  for (const r of await symbolsByIds(ctx.db, projectId, missing, true)) sources.set(r.id, r.source ?? '');
  left = budget;
  const included: Fitted[] = [];
  const kept = new Set<string>();
  for (const d of chosen) {
    const view = dependencyView(d, sources.get(d.row.id) ?? '');
    const cost = tokensOf(view) + 1;
    if (cost > left) continue;
    left -= cost;
    included.push({ row: d.row, view });
    kept.add(d.row.id);
  }
  return { included, dropped: planned.filter((d) => !kept.has(d.row.id)).map((d) => d.row.id) };
}

function explainNoDependencies(ctx: ToolContext, projectName: string, root: SymbolRow, unresolved: readonly string[]): void {
  const kinds = edgeKinds(root.language);
  const step = () => ctx.meta.next('read', { project: projectName, path: root.file_path, map: true }, `see the other symbols of ${root.file_path}`);
  if (kinds.size === 0) {
    ctx.meta.empty(
      'cross_file_unavailable',
      `${root.language} files carry no call, import or inherit edges (the extractor emits symbols only), so context returns ${root.id} alone`,
      { language: root.language },
    );
    step();
    return;
  }
  const why =
    unresolved.length === 0
      ? `${root.id} references no other symbol; ${root.language} edges are matched by name with no cross-file resolver, so calls made through values are not seen`
      : `${root.id} references ${unresolved.length} name(s) (${unresolved.slice(0, 8).join(', ')}) that match no symbol of this project: library or dynamic calls; ${root.language} has no cross-file resolver`;
  ctx.meta.empty('same_file_only', why, { language: root.language, ...(unresolved.length ? { unresolved: unresolved.slice(0, 20) } : {}) });
  step();
}
