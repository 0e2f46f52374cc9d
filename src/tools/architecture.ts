import * as z from 'zod';
import { architectureSnapshot, ENTRY_FILE_STEMS, type EdgeGroup } from '../db/architecture';
import type { LanguageStat, ProjectRow } from '../db/projects';
import { LANGUAGES } from '../extract';
import { graphCoverage, type GraphCoverage } from '../graph/coverage';
import { defineTool, type ToolContext } from './define';
import { PROJECT_PARAM } from './describe';
import { markNoFiles, resolveProject } from './project-scope';

const DEFAULT_LIMIT = 10;
const COVERAGE = ['cross_file', 'same_file', 'none'] as const satisfies readonly GraphCoverage[];

export const languageOut = z.object({
  language: z.string(),
  files: z.number(),
  symbols: z.number(),
  graph: z.enum(COVERAGE).describe('edge reach: cross_file, same_file (references resolved only inside their file), none (no edges)'),
});


const output = z.object({
  project: z.string().nullable(),
  files: z.number(),
  symbols: z.number(),
  edges: z.number(),
  graph_pending: z.boolean().describe('true while the edges reflect an earlier push than the visible index'),
  languages: z.array(languageOut),
  symbol_kinds: z.array(z.object({ kind: z.string(), count: z.number() })),
  edge_kinds: z.array(z.object({ kind: z.string(), count: z.number() })),
  edge_provenance: z.array(z.object({ provenance: z.string(), count: z.number() })),
  entry_points: z.array(
    z.object({ id: z.string(), name: z.string(), kind: z.string(), file_path: z.string(), line: z.number(), rule: z.enum(['main', 'entry_file_export']) }),
  ),
  entry_points_total: z.number(),
  hotspots: z.array(
    z.object({ id: z.string(), name: z.string(), kind: z.string(), file_path: z.string(), line: z.number(), inbound_calls: z.number(), caller_files: z.number() }),
  ),
  modules: z.array(z.object({ module: z.string(), files: z.number(), symbols: z.number() })),
  dependencies: z.array(z.object({ from: z.string(), to: z.string(), edges: z.number() })).describe('edges between different modules, most first'),
  dependencies_total: z.number().describe('distinct (from, to) module pairs'),
});
type Output = z.infer<typeof output>;

function emptyOutput(project: string | null): Output {
  return {
    project,
    files: 0,
    symbols: 0,
    edges: 0,
    graph_pending: false,
    languages: [],
    symbol_kinds: [],
    edge_kinds: [],
    edge_provenance: [],
    entry_points: [],
    entry_points_total: 0,
    hotspots: [],
    modules: [],
    dependencies: [],
    dependencies_total: 0,
  };
}

export const architectureTool = defineTool({
  name: 'architecture',
  title: 'Project architecture overview',
  description:
    'One project at a glance: languages (files, symbols, edge reach), symbol kinds, edges by kind and provenance, entry points ' +
    `(callables named main/Main, then exported top-level functions, classes, variables and constants of ${ENTRY_FILE_STEMS.join('/')} files; ` +
    'tests excluded), hotspots (most inbound CALLS), modules (first path segment, the second under src/; root files are (root)) ' +
    'with symbol counts and cross-module edge counts. Languages whose edges stay in one file or are absent add a graph_coverage ' +
    'warning; edges older than the index add graph_pending. Computed once per push, then reused. No files: no_project_indexed; files without symbols: extractor_emitted_nothing.',
  tier: 'heavy',
  toolset: 'full',
  baseline: 'none',
  input: z.object({
    project: z.string().optional().describe(PROJECT_PARAM),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(DEFAULT_LIMIT)
      .describe(`Rows of entry_points, hotspots and dependencies each: 1–100, default ${DEFAULT_LIMIT}; obvious base-10 strings accepted.`),
  }),
  output,
  handler: async (args, ctx) => {
    const project = await resolveProject(ctx, args.project);
    if (!project) return emptyOutput(null);
    const { value: snapshot } = await architectureSnapshot(ctx.db, project);
    const { languages: langs, symbolKinds: kinds, edgeGroups: groups, modules } = snapshot;
    const entries = { rows: snapshot.entryPoints.rows.slice(0, args.limit), total: snapshot.entryPoints.total };
    const hot = snapshot.hotspots.slice(0, args.limit);
    const deps = { rows: snapshot.dependencies.rows.slice(0, args.limit), total: snapshot.dependencies.total };
    const totals = projectTotals(langs, groups);
    const languages = languagesWithCoverage(langs);
    if (!explainEmptyIndex(ctx, project, totals)) graphWarnings(ctx, project, languages, totals.edges);
    return {
      project: project.name,
      ...totals,
      graph_pending: isGraphPending(project),
      languages,
      symbol_kinds: kinds,
      edge_kinds: sumBy(groups, 'kind').map(([kind, count]) => ({ kind, count })),
      edge_provenance: sumBy(groups, 'provenance').map(([provenance, count]) => ({ provenance, count })),
      entry_points: entries.rows.map((e) => ({ id: e.id, name: e.name, kind: e.kind, file_path: e.file_path, line: e.start_line, rule: e.rule })),
      entry_points_total: entries.total,
      hotspots: hot.map((h) => ({
        id: h.id,
        name: h.name,
        kind: h.kind,
        file_path: h.file_path,
        line: h.start_line,
        inbound_calls: h.inbound,
        caller_files: h.caller_files,
      })),
      modules,
      dependencies: deps.rows,
      dependencies_total: deps.total,
    };
  },
});

export interface Totals {
  files: number;
  symbols: number;
  edges: number;
}

export function projectTotals(langs: readonly LanguageStat[], groups: readonly EdgeGroup[]): Totals {
  return {
    files: langs.reduce((n, l) => n + l.files, 0),
    symbols: langs.reduce((n, l) => n + l.symbols, 0),
    edges: groups.reduce((n, g) => n + g.count, 0),
  };
}

export function languagesWithCoverage(langs: readonly LanguageStat[]): z.infer<typeof languageOut>[] {
  return langs.map((l) => ({ language: l.language, files: l.files, symbols: l.symbols, graph: graphCoverage(l.language) }));
}

/** The edges table reflects an earlier generation than the visible index: resolution of the last push has not finished. */
export function isGraphPending(project: ProjectRow): boolean {
  return project.graphGeneration < project.generation;
}

function sumBy(groups: readonly EdgeGroup[], key: 'kind' | 'provenance'): [string, number][] {
  const out = new Map<string, number>();
  for (const g of groups) out.set(g[key], (out.get(g[key]) ?? 0) + g.count);
  return [...out].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/**
 * An index with nothing to describe: no files (no_project_indexed, as search
 * answers it) or files without one symbol (extractor_emitted_nothing). Returns
 * true when it marked the result empty.
 */
export function explainEmptyIndex(ctx: ToolContext, project: ProjectRow, totals: Pick<Totals, 'files' | 'symbols'>): boolean {
  if (totals.files === 0) {
    markNoFiles(ctx, project);
    return true;
  }
  if (totals.symbols === 0) {
    ctx.meta.empty(
      'extractor_emitted_nothing',
      `project '${project.name}' holds ${totals.files} file(s) but the extractor found no symbol in any of them; health lists its extraction failures`,
      { project: project.name, files: totals.files },
    );
    ctx.meta.next('health', { project: project.name }, 'see the extraction failures by reason');
    return true;
  }
  return false;
}

const CODE_LANGUAGES: ReadonlySet<string> = new Set(LANGUAGES.filter((l) => l.corpus === 'code').map((l) => l.id));

/**
 * Honest limits of the graph numbers: code languages whose references
 * resolve only inside their file, or are not extracted at all
 * (graph_coverage), and edges still reflecting an earlier push (graph_pending).
 */
export function graphWarnings(ctx: ToolContext, project: ProjectRow, languages: readonly z.infer<typeof languageOut>[], edges: number): void {
  const code = languages.filter((l) => CODE_LANGUAGES.has(l.language) && l.symbols > 0);
  const sameFile = code.filter((l) => l.graph === 'same_file').map((l) => l.language);
  const none = code.filter((l) => l.graph === 'none').map((l) => l.language);
  if (sameFile.length || none.length) {
    const parts = [
      ...(sameFile.length ? [`${sameFile.join(', ')}: references resolve only inside their file, so cross-file calls and cross-module dependencies are missing`] : []),
      ...(none.length ? [`${none.join(', ')}: no references are extracted, so these files have no edges`] : []),
    ];
    ctx.meta.warn('graph_coverage', `edge counts are incomplete — ${parts.join('; ')}`, { same_file: sameFile, none });
  }
  if (isGraphPending(project)) {
    ctx.meta.warn(
      'graph_pending',
      `the edges reflect push generation ${project.graphGeneration} and the index is at ${project.generation}: references of the last push are not resolved yet${edges === 0 ? ', so there are no edges yet' : ''}`,
      { generation: project.generation, graph_generation: project.graphGeneration },
    );
  }
}
