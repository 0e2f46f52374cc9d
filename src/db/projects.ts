import type { projects } from './schema';
import { EXTRACTOR_VERSION } from '../extract';
import { INDEX_SCHEMA_VERSION, SCHEMA_VERSION } from '../version';
import { allRows } from './client';

export type ProjectRow = typeof projects.$inferSelect;

/** Why a project's visible index predates this server (an older extractor or schema), or null when it does not. */
export function staleness(p: ProjectRow): string | null {
  if (p.extractorVersion !== null && p.extractorVersion < EXTRACTOR_VERSION) return `indexed by extractor ${p.extractorVersion}; this server runs ${EXTRACTOR_VERSION}`;
  if (p.schemaVersionAtIndex !== null && p.schemaVersionAtIndex < INDEX_SCHEMA_VERSION) return `indexed under schema ${p.schemaVersionAtIndex}; this server runs ${SCHEMA_VERSION}`;
  return null;
}

/** Every column of `projects` by the key ProjectRow names it (the compiler checks the list against the schema's row type). */
const COLUMN_OF = {
  id: 'id',
  name: 'name',
  createdAt: 'created_at',
  indexedAt: 'indexed_at',
  ref: 'ref',
  commitSha: 'commit_sha',
  extractorVersion: 'extractor_version',
  schemaVersionAtIndex: 'schema_version_at_index',
  fileCount: 'file_count',
  symbolCount: 'symbol_count',
  generation: 'generation',
  graphGeneration: 'graph_generation',
} satisfies Record<keyof ProjectRow, string>;

const COLUMNS = Object.entries(COLUMN_OF) as [keyof ProjectRow, string][];

/** Every column of `projects`, named as ProjectRow names it. */
const PROJECT_COLUMNS = COLUMNS.map(([key, column]) => `${column} AS ${key}`).join(', ');

/**
 * SQL true exactly when `projects` holds `row` as it is, every column alike
 * (the project was not re-pushed, dropped, recreated or moved away), its
 * parameters numbered from `?from`. A check a cached row rides along with
 * (src/tools/project-cache.ts), folded into a SELECT of a call's first round trip.
 */
export function projectRowHolds(row: ProjectRow, from: number): { sql: string; values: unknown[] } {
  const terms = COLUMNS.map(([, column], i) => `${column} ${column === 'name' ? '=' : 'IS'} ?${from + i}`);
  return { sql: `EXISTS (SELECT 1 FROM projects WHERE ${terms.join(' AND ')})`, values: COLUMNS.map(([key]) => row[key]) };
}

/** The statement reading one project's row by name (no row: no such project). */
export function projectByNameStatement(d1: Pick<D1Database, 'prepare'>, name: string): D1PreparedStatement {
  return d1.prepare(`SELECT ${PROJECT_COLUMNS} FROM projects WHERE name = ?1`).bind(name);
}

export async function getProjectByName(d1: Pick<D1Database, 'prepare'>, name: string): Promise<ProjectRow | undefined> {
  const row = await projectByNameStatement(d1, name).first<ProjectRow>();
  return row ?? undefined;
}

/** What a commit reports of its project once the index is swapped in. */
export interface CommitTotals {
  symbol_count: number;
  schema_version_at_index: number | null;
  generation: number;
}

export function commitTotalsStatement(d1: D1Database, projectId: string): D1PreparedStatement {
  return d1.prepare('SELECT symbol_count, schema_version_at_index, generation FROM projects WHERE id = ?1').bind(projectId);
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
  // ?1 IS NULL: no filter; otherwise a case-insensitive substring of the name.
  const where = 'WHERE ?1 IS NULL OR instr(lower(name), lower(?1)) > 0';
  const filter = opts.nameContains || null;
  const [total, rows] = await d1.batch([
    d1.prepare(`SELECT count(*) AS n FROM projects ${where}`).bind(filter),
    d1.prepare(`SELECT ${PROJECT_COLUMNS} FROM projects ${where} ORDER BY name LIMIT ?2 OFFSET ?3`).bind(filter, opts.limit, opts.offset),
  ]);
  return { total: (total.results[0] as { n: number } | undefined)?.n ?? 0, rows: rows.results as ProjectRow[] };
}

/** staleness() as SQL over `projects`, with `?1` the extractor version and `?2` the oldest schema whose index is current (INDEX_SCHEMA_VERSION). */
const STALE = '((extractor_version IS NOT NULL AND extractor_version < ?1) OR (schema_version_at_index IS NOT NULL AND schema_version_at_index < ?2))';

export interface IndexedProjects extends ProjectPage {
  /** Stale projects among all the indexed ones: how many, and the first of them in page order. */
  stale: { total: number; first: ProjectRow[] };
}

/**
 * A page of the indexed projects, stale first, then the latest indexed, then
 * by name; `total` and `stale.total` count every indexed project, and
 * `stale.first` holds up to `staleNamed` stale ones.
 */
export async function indexedProjects(d1: D1Database, opts: { limit: number; offset: number; staleNamed: number }): Promise<IndexedProjects> {
  const versions = [EXTRACTOR_VERSION, INDEX_SCHEMA_VERSION];
  const [counts, page, stale] = await d1.batch([
    d1.prepare(`SELECT count(*) AS n, coalesce(sum(${STALE}), 0) AS stale FROM projects WHERE indexed_at IS NOT NULL`).bind(...versions),
    d1
      .prepare(`SELECT ${PROJECT_COLUMNS} FROM projects WHERE indexed_at IS NOT NULL ORDER BY ${STALE} DESC, indexed_at DESC, name LIMIT ?3 OFFSET ?4`)
      .bind(...versions, opts.limit, opts.offset),
    d1
      .prepare(`SELECT ${PROJECT_COLUMNS} FROM projects WHERE indexed_at IS NOT NULL AND ${STALE} ORDER BY indexed_at DESC, name LIMIT ?3`)
      .bind(...versions, opts.staleNamed),
  ]);
  const n = (counts.results[0] as { n: number; stale: number } | undefined) ?? { n: 0, stale: 0 };
  return { total: n.n, rows: page.results as ProjectRow[], stale: { total: n.stale, first: stale.results as ProjectRow[] } };
}



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
  return allRows<FailureStat>(
    d1
      .prepare("SELECT status, coalesce(reason, 'unknown') AS reason, count(*) AS files FROM files WHERE project_id = ?1 AND status != 'indexed' GROUP BY status, reason ORDER BY files DESC")
      .bind(projectId),
  );
}

/** Up to `limit` failed or skipped paths of a project with their reason. */
export async function failedFiles(d1: D1Database, projectId: string, limit: number): Promise<{ path: string; status: string; reason: string | null }[]> {
  const rows = await d1
    .prepare("SELECT path, status, reason FROM files WHERE project_id = ?1 AND status != 'indexed' ORDER BY path LIMIT ?2")
    .bind(projectId, limit)
    .all<{ path: string; status: string; reason: string | null }>();
  return rows.results;
}
