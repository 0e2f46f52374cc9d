import { asc, count, eq, sql } from 'drizzle-orm';
import { db } from './client';
import { projects } from './schema';
import { EXTRACTOR_VERSION } from '../extract';
import { SCHEMA_VERSION } from '../version';

export type ProjectRow = typeof projects.$inferSelect;

/** Why a project's visible index predates this server (an older extractor or schema), or null when it does not. */
export function staleness(p: ProjectRow): string | null {
  if (p.extractorVersion !== null && p.extractorVersion < EXTRACTOR_VERSION) return `indexed by extractor ${p.extractorVersion}; this server runs ${EXTRACTOR_VERSION}`;
  if (p.schemaVersionAtIndex !== null && p.schemaVersionAtIndex < SCHEMA_VERSION) return `indexed under schema ${p.schemaVersionAtIndex}; this server runs ${SCHEMA_VERSION}`;
  return null;
}

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

export interface LanguageStat {
  language: string;
  files: number;
  symbols: number;
}

export interface FailureStat {
  status: string;
  reason: string;
  files: number;
}

/** Files and symbols per language of a project's visible index. */
export async function languageStats(d1: D1Database, projectId: string): Promise<LanguageStat[]> {
  const rows = await d1
    .prepare('SELECT language, count(*) AS files, sum(symbol_count) AS symbols FROM files WHERE project_id = ?1 GROUP BY language ORDER BY files DESC')
    .bind(projectId)
    .all<LanguageStat>();
  return rows.results.map((r) => ({ ...r, symbols: r.symbols ?? 0 }));
}

/** Files the extractor failed on or skipped, by status and reason code. */
export async function failureStats(d1: D1Database, projectId: string): Promise<FailureStat[]> {
  const rows = await d1
    .prepare("SELECT status, coalesce(reason, 'unknown') AS reason, count(*) AS files FROM files WHERE project_id = ?1 AND status != 'indexed' GROUP BY status, reason ORDER BY files DESC")
    .bind(projectId)
    .all<FailureStat>();
  return rows.results;
}

/** Up to `limit` failed or skipped paths of a project with their reason. */
export async function failedFiles(d1: D1Database, projectId: string, limit: number): Promise<{ path: string; status: string; reason: string | null }[]> {
  const rows = await d1
    .prepare("SELECT path, status, reason FROM files WHERE project_id = ?1 AND status != 'indexed' ORDER BY path LIMIT ?2")
    .bind(projectId, limit)
    .all<{ path: string; status: string; reason: string | null }>();
  return rows.results;
}
