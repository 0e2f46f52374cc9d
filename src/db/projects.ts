import { asc, count, eq, sql } from 'drizzle-orm';
import { db } from './client';
import { projects } from './schema';

export type ProjectRow = typeof projects.$inferSelect;

export async function getProjectByName(d1: D1Database, name: string): Promise<ProjectRow | undefined> {
  const rows = await db(d1).select().from(projects).where(eq(projects.name, name)).limit(1);
  return rows[0];
}

export interface ProjectPage {
  total: number;
  rows: ProjectRow[];
}

/** Projects ordered by name; `nameContains` is a case-insensitive substring filter. */
export async function listProjects(
  d1: D1Database,
  opts: { nameContains?: string; limit: number; offset: number },
): Promise<ProjectPage> {
  const where = opts.nameContains
    ? sql`instr(lower(${projects.name}), lower(${opts.nameContains})) > 0`
    : undefined;
  const [totalRow] = await db(d1).select({ n: count() }).from(projects).where(where);
  const rows = await db(d1)
    .select()
    .from(projects)
    .where(where)
    .orderBy(asc(projects.name))
    .limit(opts.limit)
    .offset(opts.offset);
  return { total: totalRow?.n ?? 0, rows };
}

export async function countProjects(d1: D1Database): Promise<number> {
  const [row] = await db(d1).select({ n: count() }).from(projects);
  return row?.n ?? 0;
}

// `like` stays imported for callers that build prefix filters on short patterns.
