/**
 * Aggregate reads over one project's index for the architecture, schema and
 * health tools: counts by symbol kind and edge kind, entry points, the
 * most-called symbols, the module layout with its cross-module dependencies,
 * and the files' languages and extraction failures. Every statement is bound
 * to one project and answers from indexes or one grouped scan. Those scans
 * cost seconds on a project of 200k edges, so each snapshot keeps its result
 * in `project_aggregates` once per (generation, graph_generation): the answer
 * always reflects the visible index and graph, and only the first call after
 * a push pays for the scans (cachedAggregate, src/db/aggregates.ts).
 */
import { failedFiles, failureStats, languageStats, type FailureStat, type LanguageStat, type ProjectRow } from './projects';
import { allRows } from './client';
import { cachedAggregate, type AggregateRead } from './aggregates';
import { edgeIdSql } from './edge-ends';

export interface KindCount {
  kind: string;
  count: number;
}

export interface EdgeGroup {
  kind: string;
  provenance: string;
  count: number;
}

/** Symbols per kind. */
export async function symbolKindCounts(d1: D1Database, projectId: string): Promise<KindCount[]> {
  return allRows<KindCount>(
    d1
      .prepare('SELECT kind, count(*) AS count FROM symbols WHERE project_id = ?1 GROUP BY kind ORDER BY count DESC, kind')
      .bind(projectId),
  );
}

/** Edges per (kind, provenance). */
export async function edgeGroups(d1: D1Database, projectId: string): Promise<EdgeGroup[]> {
  return allRows<EdgeGroup>(
    d1
      .prepare('SELECT kind, provenance, count(*) AS count FROM edges WHERE project_id = ?1 GROUP BY kind, provenance ORDER BY count DESC, kind, provenance')
      .bind(projectId),
  );
}

export interface EntryPointRow {
  id: string;
  name: string;
  kind: string;
  file_path: string;
  start_line: number;
  rule: 'main' | 'entry_file_export';
}

/** File stems whose exported top-level symbols are entry points (`index.ts`, `main.go`, `__main__.py`). */
export const ENTRY_FILE_STEMS = ['index', 'main', '__main__'] as const;

/**
 * Entry points, outside test code: callables named `main` or `Main` (rule
 * `main`), then exported top-level symbols (functions, classes, variables,
 * constants) of files whose stem is index, main or __main__ (rule
 * `entry_file_export`: a package's or a Worker's exported handlers). Ordered
 * by rule, path, line; `total` counts past `limit`.
 */
export async function entryPoints(d1: D1Database, projectId: string, limit: number): Promise<{ rows: EntryPointRow[]; total: number }> {
  // The stem: the file name up to its first dot (index.d.ts, main.rs, __main__.py).
  const stem = "substr(base, 1, CASE WHEN instr(base, '.') > 0 THEN instr(base, '.') - 1 ELSE length(base) END)";
  const base = "replace(file_path, rtrim(file_path, replace(file_path, '/', '')), '')";
  const matches = `
    SELECT id, name, kind, file_path, start_line,
      CASE WHEN name IN ('main', 'Main') AND kind IN ('Function', 'Method') THEN 'main' ELSE 'entry_file_export' END AS rule
    FROM (SELECT *, ${base} AS base FROM symbols WHERE project_id = ?1 AND corpus = 'code' AND is_test = 0)
    WHERE (name IN ('main', 'Main') AND kind IN ('Function', 'Method'))
       OR (parent IS NULL AND is_exported = 1 AND kind IN ('Function', 'Class', 'Variable', 'Constant')
           AND ${stem} IN (SELECT value FROM json_each(?2)))`;
  const stems = JSON.stringify(ENTRY_FILE_STEMS);
  const [page, total] = await d1.batch<unknown>([
    d1.prepare(`${matches} ORDER BY rule = 'entry_file_export', file_path, start_line LIMIT ?3`).bind(projectId, stems, limit),
    d1.prepare(`SELECT count(*) AS n FROM (${matches})`).bind(projectId, stems),
  ]);
  return { rows: page.results as EntryPointRow[], total: (total.results[0] as { n: number }).n };
}

export interface HotspotRow {
  id: string;
  name: string;
  kind: string;
  file_path: string;
  start_line: number;
  inbound: number;
  caller_files: number;
}

/** The symbols with the most inbound CALLS edges (recursion excluded), most first. */
export async function hotspots(d1: D1Database, projectId: string, limit: number): Promise<HotspotRow[]> {
  return allRows<HotspotRow>(
    d1
      .prepare(
        `SELECT s.id, s.name, s.kind, s.file_path, s.start_line, h.inbound, h.caller_files
         FROM (SELECT ${edgeIdSql('edges', 'dst')} AS dst_id, count(*) AS inbound, count(DISTINCT src_file) AS caller_files
               FROM edges
               WHERE project_id = ?1 AND kind = 'CALLS' AND dst_key IS NOT NULL AND (src_key IS NULL OR src_file <> dst_file OR src_key <> dst_key)
               GROUP BY dst_file, dst_key) AS h
         JOIN symbols s ON s.project_id = ?1 AND s.id = h.dst_id
         ORDER BY h.inbound DESC, h.caller_files DESC, s.id
         LIMIT ?2`,
      )
      .bind(projectId, limit),
  );
}

/**
 * The module of a path, as SQL over `column`: files at the root are `(root)`;
 * under `src/` the module is the second segment (`src/tools/run.ts` →
 * `src/tools`; `src/index.ts` → `src`); elsewhere the first (`lib/a/b.py` → `lib`).
 */
function moduleOf(column: string): string {
  return `CASE
    WHEN instr(${column}, '/') = 0 THEN '(root)'
    WHEN substr(${column}, 1, 4) = 'src/' AND instr(substr(${column}, 5), '/') > 0 THEN substr(${column}, 1, 3 + instr(substr(${column}, 5), '/'))
    ELSE substr(${column}, 1, instr(${column}, '/') - 1)
  END`;
}

export interface ModuleRow {
  module: string;
  files: number;
  symbols: number;
}

export interface DependencyRow {
  from: string;
  to: string;
  edges: number;
}

/** Files and symbols per module, most symbols first. */
export async function moduleStats(d1: D1Database, projectId: string): Promise<ModuleRow[]> {
  return allRows<ModuleRow>(
    d1
      .prepare(
        `SELECT ${moduleOf('path')} AS module, count(*) AS files, coalesce(sum(symbol_count), 0) AS symbols
         FROM files WHERE project_id = ?1 GROUP BY module ORDER BY symbols DESC, files DESC, module`,
      )
      .bind(projectId),
  );
}

/**
 * Edges whose source and target files lie in different modules, counted per
 * (from, to) pair, most first; `total` is the number of distinct pairs.
 * Edges to nothing in the project (dst_file null) are not dependencies.
 */
export async function moduleDependencies(d1: D1Database, projectId: string, limit: number): Promise<{ rows: DependencyRow[]; total: number }> {
  const pairs = `
    SELECT src AS "from", dst AS "to", count(*) AS edges
    FROM (SELECT ${moduleOf('src_file')} AS src, ${moduleOf('dst_file')} AS dst FROM edges WHERE project_id = ?1 AND dst_file IS NOT NULL)
    WHERE src <> dst
    GROUP BY src, dst`;
  const [page, total] = await d1.batch<unknown>([
    d1.prepare(`${pairs} ORDER BY edges DESC, "from", "to" LIMIT ?2`).bind(projectId, limit),
    d1.prepare(`SELECT count(*) AS n FROM (${pairs})`).bind(projectId),
  ]);
  return { rows: page.results as DependencyRow[], total: (total.results[0] as { n: number }).n };
}

/** Rows kept for the ranked lists (entry points, hotspots, dependencies): the most any call may ask for. */
export const SNAPSHOT_LIST_ROWS = 100;

/** Everything architecture and schema report, as computed for one (generation, graph_generation). */
export interface ArchitectureSnapshot {
  languages: LanguageStat[];
  symbolKinds: KindCount[];
  edgeGroups: EdgeGroup[];
  entryPoints: { rows: EntryPointRow[]; total: number };
  hotspots: HotspotRow[];
  modules: ModuleRow[];
  dependencies: { rows: DependencyRow[]; total: number };
}

/** Everything architecture reports, ranked lists at SNAPSHOT_LIST_ROWS rows. */
export function architectureSnapshot(d1: D1Database, project: ProjectRow): Promise<AggregateRead<ArchitectureSnapshot>> {
  return cachedAggregate(d1, project, 'architecture', async () => {
    const id = project.id;
    const [languages, symbolKinds, groups, entries, hot, modules, deps] = await Promise.all([
      languageStats(d1, id),
      symbolKindCounts(d1, id),
      edgeGroups(d1, id),
      entryPoints(d1, id, SNAPSHOT_LIST_ROWS),
      hotspots(d1, id, SNAPSHOT_LIST_ROWS),
      moduleStats(d1, id),
      moduleDependencies(d1, id, SNAPSHOT_LIST_ROWS),
    ]);
    return { languages, symbolKinds, edgeGroups: groups, entryPoints: entries, hotspots: hot, modules, dependencies: deps };
  });
}

/** What schema reports: languages, symbol kinds, edge groups. */
export function schemaSnapshot(d1: D1Database, project: ProjectRow): Promise<AggregateRead<Pick<ArchitectureSnapshot, 'languages' | 'symbolKinds' | 'edgeGroups'>>> {
  return cachedAggregate(d1, project, 'schema', async () => {
    const [languages, symbolKinds, groups] = await Promise.all([languageStats(d1, project.id), symbolKindCounts(d1, project.id), edgeGroups(d1, project.id)]);
    return { languages, symbolKinds, edgeGroups: groups };
  });
}

/** Failed or skipped paths a health snapshot keeps (health lists them for one project). */
export const HEALTH_FAILED_PATHS = 100;

/** What health reports of one project's files: its languages, its extraction failures by reason, and the first failed paths. */
export interface FileHealth {
  languages: LanguageStat[];
  failures: FailureStat[];
  failedPaths: { path: string; status: string; reason: string | null }[];
}

/**
 * Health's per-project figures, as computed for one (generation, graph_generation): each is a pass over
 * the project's files (a push changes them and its generation together), so a warm health call reads
 * one stored row instead.
 */
export function fileHealthSnapshot(d1: D1Database, project: ProjectRow): Promise<AggregateRead<FileHealth>> {
  return cachedAggregate(d1, project, 'health', async () => {
    const [languages, failures, failedPaths] = await Promise.all([
      languageStats(d1, project.id),
      failureStats(d1, project.id),
      failedFiles(d1, project.id, HEALTH_FAILED_PATHS),
    ]);
    return { languages, failures, failedPaths };
  });
}
