import { z } from 'zod';
import { schemaState } from '../db/migrations';
import { listProjects } from '../db/projects';
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
});

export const healthTool = defineTool({
  name: 'health',
  title: 'Server and index health',
  description:
    'Server version, D1 schema and migration state, drift, capabilities, and per-project index state (stale when indexed under an older schema).',
  tier: 'lite',
  toolset: 'full',
  readOnly: true,
  idempotent: true,
  baseline: 'none',
  input: z.object({
    project: z.string().optional().describe('Limit the per-project section to this project.'),
  }),
  output: z.object({
    ok: z.boolean(),
    version: z.string(),
    schema_version: z.number(),
    applied_migrations: z.number().nullable(),
    migrations_current: z.boolean(),
    binary_drift: z.boolean(),
    capabilities: z.array(z.string()),
    projects: z.array(projectHealth),
  }),
  handler: async ({ project }, ctx) => {
    const state = await schemaState(ctx.db, true);
    let rows;
    if (project) {
      const row = await resolveProject(ctx, project);
      rows = row ? [row] : [];
    } else {
      rows = (await listProjects(ctx.db, { limit: 1000, offset: 0 })).rows;
    }
    const projects = rows.map((p) => ({
      name: p.name,
      id: p.id,
      indexed_at: p.indexedAt === null ? null : new Date(p.indexedAt).toISOString(),
      files: p.fileCount,
      symbols: p.symbolCount,
      schema_version_at_index: p.schemaVersionAtIndex,
      extractor_version: p.extractorVersion,
      stale: p.schemaVersionAtIndex !== null && p.schemaVersionAtIndex < SCHEMA_VERSION,
    }));
    const stale = projects.filter((p) => p.stale);
    if (stale.length) {
      ctx.meta.warn('stale_index', `${stale.length} project(s) indexed under an older schema: ${stale.map((p) => p.name).join(', ')}; push them again`, {
        projects: stale.map((p) => p.name),
      });
    }
    return {
      ok: state.applied === SCHEMA_VERSION,
      version: VERSION,
      schema_version: SCHEMA_VERSION,
      applied_migrations: state.applied,
      migrations_current: state.applied === SCHEMA_VERSION,
      binary_drift: state.applied !== null && state.applied > SCHEMA_VERSION,
      capabilities: computeCapabilities(ctx.env),
      projects,
    };
  },
});
