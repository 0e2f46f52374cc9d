import { getProjectByName, type ProjectRow } from '../db/projects';
import type { ToolContext } from './define';

export { staleness } from '../db/projects';

/**
 * Resolves the project a call is scoped to (`project` argument, else the URL
 * pin). On a miss it records `no_project_indexed` with recovery steps and
 * returns null; the handler then returns its empty shape.
 */
export async function resolveProject(ctx: ToolContext, name: string | undefined): Promise<ProjectRow | null> {
  const wanted = name ?? ctx.defaultProject;
  if (!wanted) {
    ctx.meta.empty(
      'no_project_indexed',
      'this call needs a project and none was given: pass project=NAME or pin one with ?project=NAME on the MCP URL',
    );
    ctx.meta.next('list', {}, 'see which projects are indexed');
    return null;
  }
  const row = await (ctx.projects ? ctx.projects.byName(wanted) : getProjectByName(ctx.db, wanted));
  if (!row || row.indexedAt === null) {
    ctx.meta.empty(
      'no_project_indexed',
      `project '${wanted}' is not indexed on this server; push it with \`npx --yes <server>/v1/cli.tgz push --project ${wanted}\` or pick one from list`,
      { project: wanted },
    );
    ctx.meta.next('list', {}, 'see which projects are indexed');
    return null;
  }
  ctx.meta.scope({ id: row.id, name: row.name, schemaVersionAtIndex: row.schemaVersionAtIndex });
  return row;
}

/** Records that `project` is indexed but holds no files (no_project_indexed), with a list step. */
export function markNoFiles(ctx: ToolContext, project: ProjectRow): void {
  ctx.meta.empty('no_project_indexed', `project '${project.name}' is indexed but holds no files; push its sources first`, { project: project.name });
  ctx.meta.next('list', {}, 'see which projects hold files');
}

/** resolveProject, then null (with no_project_indexed) as well for a project that holds no files. */
export async function resolveProjectWithFiles(ctx: ToolContext, name: string | undefined): Promise<ProjectRow | null> {
  const project = await resolveProject(ctx, name);
  if (!project) return null;
  if (project.fileCount === 0) {
    markNoFiles(ctx, project);
    return null;
  }
  return project;
}
