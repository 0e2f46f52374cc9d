import * as z from 'zod';
import { schemaSnapshot } from '../db/architecture';
import type { EdgeKind, Provenance } from '../graph/types';
import { defineTool } from './define';
import { PROJECT_PARAM } from './describe';
import { explainEmptyIndex, graphWarnings, languageOut, languagesWithCoverage, projectTotals } from './architecture';
import { resolveProject } from './project-scope';
import { SYMBOL_KINDS } from '../symbols/symbol-id';

const EDGE_KINDS = ['CALLS', 'IMPORTS', 'INHERITS', 'IMPLEMENTS', 'REFERENCES'] as const satisfies readonly EdgeKind[];
const PROVENANCES = ['scip', 'import', 'same_file', 'receiver', 'package', 'unique_name', 'ambiguous', 'module'] as const satisfies readonly Provenance[];
// Fail to compile when graph/types.ts gains an edge kind or provenance these lists lack.
const _allEdgeKinds: Exclude<EdgeKind, (typeof EDGE_KINDS)[number]> extends never ? true : never = true;
const _allProvenances: Exclude<Provenance, (typeof PROVENANCES)[number]> extends never ? true : never = true;
void _allEdgeKinds;
void _allProvenances;

const property = z.object({
  name: z.string(),
  type: z.enum(['string', 'integer', 'number', 'boolean']),
  nullable: z.boolean().optional(),
  values: z.array(z.string()).optional().describe('the closed set of values, when there is one'),
  description: z.string(),
});
type Property = z.infer<typeof property>;

/** Node (symbol) properties a graph query can read and filter on. */
export const NODE_PROPERTIES: readonly Property[] = [
  { name: 'id', type: 'string', description: 'symbol id {file_path}::{qualified_name}#{Kind}' },
  { name: 'name', type: 'string', description: 'the bare name' },
  { name: 'qualified_name', type: 'string', description: 'enclosing names joined by . (Class.method)' },
  { name: 'kind', type: 'string', values: [...SYMBOL_KINDS], description: 'symbol kind' },
  { name: 'file', type: 'string', description: 'file path relative to the project root' },
  { name: 'line', type: 'integer', description: 'first line, 1-based' },
  { name: 'end_line', type: 'integer', description: 'last line, 1-based, inclusive' },
  { name: 'signature', type: 'string', description: 'declaration head, one line' },
  { name: 'language', type: 'string', description: 'language id of the file' },
  { name: 'is_exported', type: 'boolean', description: 'visible outside its file or module' },
  { name: 'is_test', type: 'boolean', description: 'declared in test code' },
];

/** Edge properties a graph query can read and filter on. */
export const EDGE_PROPERTIES: readonly Property[] = [
  { name: 'kind', type: 'string', values: [...EDGE_KINDS], description: 'edge kind' },
  { name: 'confidence', type: 'number', description: '0–1: how certain the target is (import 1.0 … ambiguous ≤ 0.5)' },
  { name: 'provenance', type: 'string', values: [...PROVENANCES], description: 'how the target was found' },
  { name: 'line', type: 'integer', description: 'line of the reference in the source file, 1-based' },
];

const output = z.object({
  project: z.string().nullable(),
  totals: z.object({ files: z.number(), symbols: z.number(), edges: z.number() }).nullable(),
  symbol_kinds: z.array(z.object({ kind: z.string(), count: z.number() })).describe('every symbol kind with its count in the project'),
  edge_kinds: z.array(z.object({ kind: z.string(), count: z.number() })).describe('every edge kind with its count in the project'),
  node_properties: z.array(property),
  edge_properties: z.array(property),
  languages: z.array(languageOut),
});

export const schemaTool = defineTool({
  name: 'schema',
  title: 'Graph vocabulary and totals',
  description:
    "A project's graph vocabulary: every symbol kind and edge kind with its count, the node and edge properties a graph query " +
    'can use (with their closed value sets), languages with edge reach, totals. Without a resolved project only the properties ' +
    'come back (no_project_indexed). No files: no_project_indexed; files without symbols: extractor_emitted_nothing; ' +
    'incomplete edges add graph_coverage or graph_pending warnings.',
  tier: 'lite',
  toolset: 'full',
  baseline: 'none',
  input: z.object({
    project: z.string().optional().describe(PROJECT_PARAM),
  }),
  output,
  handler: async (args, ctx) => {
    const vocabulary = { node_properties: [...NODE_PROPERTIES], edge_properties: [...EDGE_PROPERTIES] };
    const project = await resolveProject(ctx, args.project);
    if (!project) return { project: null, totals: null, symbol_kinds: [], edge_kinds: [], ...vocabulary, languages: [] };
    const { languages: langs, symbolKinds: kinds, edgeGroups: groups } = (await schemaSnapshot(ctx.db, project)).value;
    const totals = projectTotals(langs, groups);
    const languages = languagesWithCoverage(langs);
    if (!explainEmptyIndex(ctx, project, totals)) graphWarnings(ctx, project, languages, totals.edges);
    const kindCount = new Map(kinds.map((k) => [k.kind, k.count]));
    const edgeCount = new Map<string, number>();
    for (const g of groups) edgeCount.set(g.kind, (edgeCount.get(g.kind) ?? 0) + g.count);
    return {
      project: project.name,
      totals,
      symbol_kinds: SYMBOL_KINDS.map((kind) => ({ kind, count: kindCount.get(kind) ?? 0 })),
      edge_kinds: EDGE_KINDS.map((kind) => ({ kind, count: edgeCount.get(kind) ?? 0 })),
      ...vocabulary,
      languages,
    };
  },
});
