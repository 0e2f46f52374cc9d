import * as z from 'zod';
import type { ProjectRow } from '../db/projects';
import { listProjectsAcross } from '../db/project-listing';
import { tokensForBytes } from '../envelope/tokens';
import { defineTool } from './define';
import { STATED_ONCE } from './describe';

const projectOut = z.object({
  name: z.string(),
  id: z.string(),
  files: z.number(),
  symbols: z.number(),
  ref: z.string().nullable(),
  commit: z.string().nullable(),
  indexed_at: z.string().nullable(),
  extractor_version: z.number().nullable(),
  schema_version_at_index: z.number().nullable(),
});

/** A project as `list` and `GET /v1/projects` show it. */
export function projectView(p: ProjectRow): z.infer<typeof projectOut> {
  return {
    name: p.name,
    id: p.id,
    files: p.fileCount,
    symbols: p.symbolCount,
    ref: p.ref,
    commit: p.commitSha,
    indexed_at: p.indexedAt === null ? null : new Date(p.indexedAt).toISOString(),
    extractor_version: p.extractorVersion,
    schema_version_at_index: p.schemaVersionAtIndex,
  };
}

export const listTool = defineTool({
  name: 'list',
  title: 'Projects',
  description: `Indexed projects. ${STATED_ONCE}`,
  tier: 'lite',
  toolset: 'core',
  baseline: 'walk_directory',
  input: z.object({
    name_contains: z.string().max(100).optional().describe('Any case, ≤100 chars'),
    limit: z.number().int().min(1).max(200).default(50).describe('1–200, default 50'),
    offset: z.number().int().min(0).max(10_000).default(0).describe('0–10000, default 0'),
  }),
  output: z.object({
    projects: z.array(projectOut),
    total: z.number(),
    has_more: z.boolean(),
    next_offset: z.number().optional(),
  }),
  handler: async ({ name_contains, limit, offset }, ctx) => {
    // Every shard's projects, merged by name (src/db/project-listing.ts).
    const shards = ctx.databases.all.map((s) => ({ index: s.index, db: ctx.databases.on(s.index) }));
    const page = await listProjectsAcross(shards, { nameContains: name_contains, limit, offset });
    const projects = page.rows.map(projectView);
    // Baseline: the unpaginated listing of every matching project.
    // Across shards the page was cut from every matching row, which it hands back; one shard pages in SQL.
    const all = page.every ?? (page.total > projects.length ? (await listProjectsAcross(shards, { nameContains: name_contains, limit: 10_000, offset: 0 })).rows : page.rows);
    ctx.meta.baseline('walk_directory', tokensForBytes(JSON.stringify(all.map(projectView)).length));
    const hasMore = offset + projects.length < page.total;
    if (projects.length === 0) {
      if (page.total > 0) {
        ctx.meta.empty('cap_dropped_all', `offset ${offset} is past the last project (total ${page.total})`, { cap: 'offset', total: page.total });
        ctx.meta.next('list', { ...(name_contains ? { name_contains } : {}), limit, offset: 0 }, 'rewind to the first page');
      } else if (name_contains && (await listProjectsAcross(shards, { limit: 1, offset: 0 })).total > 0) {
        ctx.meta.empty('query_too_narrow', `no project name contains '${name_contains}'; dropping name_contains lists every project`, { filter: 'name_contains' });
        ctx.meta.next('list', {}, 'list every project without the name filter');
      } else {
        ctx.meta.empty('no_project_indexed', 'no project is indexed on this server yet; push one from CI with `npx --yes <server>/v1/cli.tgz push`');
      }
    } else if (hasMore) {
      ctx.meta.next('list', { ...(name_contains ? { name_contains } : {}), limit, offset: offset + limit }, 'fetch the next page');
    }
    return { projects, total: page.total, has_more: hasMore, ...(hasMore ? { next_offset: offset + limit } : {}) };
  },
});
