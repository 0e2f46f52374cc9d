import { graphCoverage } from '../graph/coverage';
import * as z from 'zod';
import { EXTRACTOR_VERSION, LANGUAGES } from '../extract';
import { schemaState } from '../db/migrations';
import { staleness, type IndexedProjects } from '../db/projects';
import { fileHealthSnapshot } from '../db/architecture';
import { indexedProjectsAcross } from '../db/project-listing';
import { computeCapabilities } from '../envelope/capabilities';
import { SCHEMA_VERSION, VERSION } from '../version';
import { defineTool } from './define';
import { resolveProject } from './project-scope';

const projectHealth = z.object({
  name: z.string(),
  id: z.string(),
  indexed_at: z.string().nullable(),
  files: z.number(),
  symbols: z.number(),
  schema_version_at_index: z.number().nullable(),
  extractor_version: z.number().nullable(),
  stale: z.boolean(),
  stale_reason: z.string().nullable(),
  languages: z.array(
    z.object({ language: z.string(), files: z.number(), symbols: z.number(), tier: z.string().nullable(), confidence: z.number().nullable(), graph: z.enum(['cross_file', 'same_file', 'none']) }),
  ),
  extraction_failures: z.array(z.object({ status: z.string(), reason: z.string(), files: z.number() })),
  failed_paths: z.array(z.object({ path: z.string(), status: z.string(), reason: z.string().nullable() })).optional(),
});

const TIERS = new Map(LANGUAGES.map((l) => [l.id, l]));
/** Projects a server-wide answer shows by default: a server holding a hundred keeps its answer near 2,000 tokens. */
const DEFAULT_PROJECTS = 10;
const MAX_PROJECTS = 100;
/** Stale projects a stale_index warning names; the rest are counted. */
const NAMED_STALE = 10;

export const healthTool = defineTool({
  name: 'health',
  title: 'Server and index health',
  description:
    'Server version, D1 schema and migration state, drift, capabilities, supported languages, and per-project index state: ' +
    'languages with parser tier, extraction failures by reason, stale when indexed by an older schema or extractor. ' +
    `Without project: ${DEFAULT_PROJECTS} projects by default, stale first then latest indexed; projects_total counts all (projects_truncated).`,
  tier: 'lite',
  toolset: 'full',
  baseline: 'none',
  input: z.object({
    project: z.string().optional().describe('Limit the per-project section to this project and list its failed paths.'),
    limit: z.number().int().min(1).max(MAX_PROJECTS).default(DEFAULT_PROJECTS).describe(`Projects shown without project, 1–${MAX_PROJECTS}, default ${DEFAULT_PROJECTS}`),
    offset: z.number().int().min(0).max(10_000).default(0).describe('Projects skipped without project, 0–10000, default 0'),
  }),
  output: z.object({
    ok: z.boolean(),
    version: z.string(),
    schema_version: z.number(),
    applied_migrations: z.number().nullable().describe('On the primary database (shard 0); null when unreachable'),
    migrations_current: z.boolean().describe('Every shard has every migration applied'),
    shards: z
      .array(z.object({ shard: z.number(), applied_migrations: z.number().nullable(), migrations_current: z.boolean() }))
      .describe('Migration state of each D1 database (shard 0 is the primary)'),
    binary_drift: z.boolean(),
    extractor_version: z.number(),
    capabilities: z.array(z.string()),
    languages: z.array(z.object({ id: z.string(), corpus: z.string(), extensions: z.array(z.string()), tier: z.string(), confidence: z.number(), graph: z.enum(['cross_file', 'same_file', 'none']) })),
    projects: z.array(projectHealth),
    projects_total: z.number().describe('Indexed projects in scope; projects holds a page of them'),
    has_more: z.boolean(),
    next_offset: z.number().optional(),
  }),
  handler: async ({ project, limit, offset }, ctx) => {
    // The ?project= pin scopes health like any other call when the argument is omitted.
    const wanted = project ?? ctx.defaultProject;
    let scope: IndexedProjects;
    let shardOf: Map<string, number> | undefined;
    if (wanted) {
      const row = await resolveProject(ctx, wanted);
      const rows = row ? [row] : [];
      const stale = rows.filter((p) => staleness(p) !== null);
      scope = { total: rows.length, rows, stale: { total: stale.length, first: stale } };
    } else {
      // Server-wide: projects that need a re-index first, then the most recently indexed, then by name.
      // Every shard's, merged (src/db/project-listing.ts); each project's details come from its own shard.
      const shards = ctx.databases.all.map((s) => ({ index: s.index, db: ctx.databases.on(s.index) }));
      const across = await indexedProjectsAcross(shards, { limit, offset, staleNamed: NAMED_STALE });
      scope = across;
      shardOf = across.shardOf;
    }
    const { rows, total, stale } = scope;
    // Every shard's migration ledger (a shard left behind by a deploy fails the calls routed to it), asked for
    // with the projects' statistics: one round trip per shard, side by side.
    // Kept under each shard's binding, so the envelope's stamp (which asks shard 0's binding) reads no ledger again.
    const ledgersRead = Promise.all(ctx.databases.all.map(async (s) => ({ shard: s.index, state: await schemaState(ctx.databases.on(s.index), { fresh: true, cacheAs: s.db }) })));
    const projects = await Promise.all(
      rows.map(async (p) => {
        const db = shardOf ? ctx.databases.on(shardOf.get(p.id) ?? 0) : ctx.db;
        // Stored per project generation (src/db/architecture.ts): a warm call reads one row, not the project's files.
        const { languages: langs, failures, failedPaths } = (await fileHealthSnapshot(db, p)).value;
        const paths = wanted ? failedPaths : undefined;
        const reason = staleness(p);
        return {
          name: p.name,
          id: p.id,
          indexed_at: p.indexedAt === null ? null : new Date(p.indexedAt).toISOString(),
          files: p.fileCount,
          symbols: p.symbolCount,
          schema_version_at_index: p.schemaVersionAtIndex,
          extractor_version: p.extractorVersion,
          stale: reason !== null,
          stale_reason: reason,
          languages: langs.map((l) => ({ ...l, tier: TIERS.get(l.language)?.tier ?? null, confidence: TIERS.get(l.language)?.confidence ?? null, graph: graphCoverage(l.language) })),
          extraction_failures: failures,
          ...(paths ? { failed_paths: paths } : {}),
        };
      }),
    );
    const ledgers = await ledgersRead;
    const state = ledgers.find((l) => l.shard === 0)?.state ?? ledgers[0].state;
    const shards = ledgers.map(({ shard, state: st }) => ({ shard, applied_migrations: st.applied, migrations_current: st.applied === SCHEMA_VERSION }));
    const allCurrent = shards.every((s) => s.migrations_current);
    // Stale projects are counted over every project in scope, not only the page shown.
    if (stale.total) {
      const named = stale.first;
      const more = stale.total > named.length ? ` and ${stale.total - named.length} more` : '';
      ctx.meta.warn('stale_index', `${stale.total} project(s) indexed by an older schema or extractor: ${named.map((p) => p.name).join(', ')}${more}; push again or call index with force=true`, {
        projects: named.map((p) => ({ name: p.name, reason: staleness(p) })),
        total: stale.total,
      });
      for (const p of named.slice(0, 3)) ctx.meta.next('index', { project: p.name, force: true }, `re-extract ${p.name} with the current extractor`);
    }
    const hasMore = !wanted && offset + rows.length < total;
    if (hasMore) {
      const next = offset + rows.length;
      ctx.meta.warn(
        'projects_truncated',
        `showing ${rows.length} of ${total} indexed projects (from offset ${offset}; stale first, then latest indexed); pass project for one, or offset ${next} for the next page`,
        { total, shown: rows.length, offset, next_offset: next },
        'info',
      );
      ctx.meta.next('health', { ...(limit !== DEFAULT_PROJECTS ? { limit } : {}), offset: next }, `the next ${Math.min(limit, total - next)} of ${total} projects`);
    } else if (!wanted && rows.length === 0 && total > 0) {
      ctx.meta.empty('cap_dropped_all', `offset ${offset} is past the last of ${total} indexed projects`, { cap: 'offset', offset, total });
      ctx.meta.next('health', limit !== DEFAULT_PROJECTS ? { limit } : {}, 'rewind to the first page');
    }
    return {
      ok: allCurrent,
      version: VERSION,
      schema_version: SCHEMA_VERSION,
      applied_migrations: state.applied,
      migrations_current: allCurrent,
      shards,
      binary_drift: shards.some((s) => s.applied_migrations !== null && s.applied_migrations > SCHEMA_VERSION),
      extractor_version: EXTRACTOR_VERSION,
      capabilities: computeCapabilities(ctx.env),
      languages: LANGUAGES.map((l) => ({ id: l.id, corpus: l.corpus, extensions: [...l.extensions], tier: l.tier, confidence: l.confidence, graph: graphCoverage(l.id) })),
      projects,
      projects_total: total,
      has_more: hasMore,
      ...(hasMore ? { next_offset: offset + rows.length } : {}),
    };
  },
});
