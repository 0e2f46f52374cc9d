/**
 * The commit-time resolution pass: turns a project's stored references into
 * `edges`, re-resolving only the files a push can affect.
 *
 * A file is the unit of resolution (its imports steer its calls). A file's
 * edges depend only on its own references, the project's paths and config
 * files, and the symbol rows (id, name, qualified name, kind, parent, export)
 * of the files it can see. After a commit, the files re-resolved are:
 *  - every new or changed file;
 *  - files with an edge into a deleted file, or into a changed file whose
 *    symbol rows changed, or into their directories (their targets moved or
 *    vanished); a change inside bodies moves no one else's edge;
 *  - files with a call or inherit reference to a name whose symbol rows the
 *    push added, removed or altered (a new candidate, or a candidate gone);
 *  - files with an import whose text names a file added or deleted by the
 *    push (an import that may now resolve, or no longer does);
 *  - everything, when a module-resolution config changed (tsconfig.json,
 *    package.json, go.mod, Cargo.toml…), when the graph was never built for
 *    this schema, or when an earlier pass did not finish.
 * The edges of those files are replaced in one atomic batch that applies only
 * while the project is still at the generation this pass resolved, so a pass
 * that loses a race to a newer commit changes nothing. `projects.graph_generation`
 * records the generation the edges reflect.
 */
import { isAbstractSignature } from '../graph/contract';
import { createResolver } from '../graph/resolve';
import { DECLARED_TYPE_LANGUAGES } from '../graph/languages';
import { DECLARING_KINDS } from '../graph/resolve/declared';
import type { ScipDocument } from '../graph/scip/decode';
import { scipEdges, type ScipEdgeStats, type ScipTargetRow } from '../graph/scip/edges';
import { EDGE_CODE_COLUMNS, edgeCodesSql } from './edge-columns';
import { edgeEnd, edgeEndIdSql, edgeEndUnusedSql, edgeFileSql } from './edge-ends';
import { edgeCountStatement } from './graph';
import { LAYOUT_CONFIG_FILES, type GraphEdge, type ProjectLayout, type RefInput, type SymbolInput } from '../graph/types';
import { jsonChunks } from './json-param';
import { decodeRefs } from './extraction-json';
import { INDEX_SCHEMA_VERSION } from '../version';
import { symbolsOfFilesSql } from './symbol-range';
import { scipTargets } from './scip';

/** What the pass needs to know about the push, read before its commit batch runs. */
export interface ResolutionPlan {
  projectId: string;
  /** New and changed paths. */
  incoming: string[];
  deleted: string[];
  added: string[];
  /** Symbol rows (SYMBOL_SIGNATURE) of the changed and deleted files before the commit, per file. */
  oldSymbols: Map<string, Set<string>>;
  /** The graph must be rebuilt for every file. */
  full: boolean;
}

export interface ResolutionResult {
  files: number;
  refs: number;
  edges: number;
  full: boolean;
  /** False when a newer commit overtook this pass (its edges were not written). */
  applied: boolean;
  /** The project's edges once the pass wrote them, read in the same batch. */
  total: number;
  ms: number;
  /** What a SCIP index pushed with the commit contributed; absent without one. */
  scip?: ScipEdgeStats & { files: number };
}

/**
 * Values per JSON-array parameter when reading. Each read's result crosses
 * from D1 to the Worker as one message: 200 files of references or symbols
 * (or 1,000 names' symbols) stay far below its size limit on large projects.
 */
const FILES_PER_READ = 200;
const NAMES_PER_READ = 1000;

/**
 * Values are matched against a JSON array parameter, `per` values per query. The chunks are read
 * at once (one round trip's wait for all of them); their rows come back in chunk order.
 */
async function eachChunk<R>(values: readonly string[], run: (json: string, chunk: readonly string[]) => Promise<R[]>, per = FILES_PER_READ): Promise<R[]> {
  const reads: Promise<R[]>[] = [];
  for (let i = 0; i < values.length; i += per) {
    const chunk = values.slice(i, i + per);
    reads.push(run(JSON.stringify(chunk), chunk));
  }
  return (await Promise.all(reads)).flat();
}

const isConfig = (path: string) => LAYOUT_CONFIG_FILES.includes(path.slice(path.lastIndexOf('/') + 1));

/** The upload's changed paths and the project's generations, `planResolution`'s two reads: the caller runs them in one of its batches. */
export function planResolutionStatements(d1: D1Database, uploadId: string): [D1PreparedStatement, D1PreparedStatement] {
  return [
    d1.prepare("SELECT path, change FROM upload_files WHERE upload_id = ?1 AND change <> 'unchanged'").bind(uploadId),
    // The upload's project (read by the upload: its claim, in the same batch, is what says the upload is open).
    d1.prepare('SELECT generation, graph_generation, schema_version_at_index FROM projects WHERE id = (SELECT project_id FROM uploads WHERE id = ?1)').bind(uploadId),
  ];
}

/** What `planResolutionStatements` read, as a batch answers them. */
export type PlanReads = [D1Result, D1Result];

/**
 * Reads, before the commit batch, what the old index knows about the files a push replaces (from `planResolutionStatements`' rows).
 * The whole graph is rebuilt on a first push, after a pass that did not finish, when a module-resolution config changes, and
 * when the project was indexed under a schema older than INDEX_SCHEMA_VERSION: a later migration carried every edge and
 * reference over as it was stored, so the graph it left is one this code would have built.
 */
export async function planResolution(d1: D1Database, projectId: string, reads: PlanReads): Promise<ResolutionPlan> {
  const changes = reads[0].results as { path: string; change: 'new' | 'changed' | 'deleted' }[];
  const project = (reads[1].results as { generation: number; graph_generation: number; schema_version_at_index: number | null }[])[0] ?? null;
  const incoming: string[] = [];
  const deleted: string[] = [];
  const added: string[] = [];
  for (const r of changes) {
    if (r.change === 'deleted') deleted.push(r.path);
    else incoming.push(r.path);
    if (r.change === 'new') added.push(r.path);
  }
  const replaced = [...incoming.filter((p) => !added.includes(p)), ...deleted];
  const full =
    !project ||
    project.generation === 0 ||
    project.graph_generation !== project.generation ||
    (project.schema_version_at_index ?? 0) < INDEX_SCHEMA_VERSION ||
    [...incoming, ...deleted].some(isConfig);
  const oldSymbols = new Map<string, Set<string>>();
  if (full || replaced.length === 0) return { projectId, incoming, deleted, added, oldSymbols, full };
  for (const row of await eachChunk(replaced, async (json) => (await symbolSignatures(d1, projectId, json)).results)) addSignature(oldSymbols, row);
  return { projectId, incoming, deleted, added, oldSymbols, full };
}

/** What other files' resolution reads of a symbol: its row minus positions and text, one string. */
const SYMBOL_SIGNATURE = "id || char(9) || name || char(9) || qualified_name || char(9) || kind || char(9) || coalesce(parent, '') || char(9) || is_exported";

function symbolSignatures(d1: D1Database, projectId: string, json: string) {
  return d1
    .prepare(`SELECT file_path, ${SYMBOL_SIGNATURE} AS sig FROM ${symbolsOfFilesSql('?1', '?2')}`)
    .bind(projectId, json)
    .all<{ file_path: string; sig: string }>();
}

function addSignature(into: Map<string, Set<string>>, row: { file_path: string; sig: string }): void {
  let set = into.get(row.file_path);
  if (!set) into.set(row.file_path, (set = new Set()));
  set.add(row.sig);
}

const nameOfSignature = (sig: string): string => sig.split('\t')[1] ?? '';

/**
 * The files whose symbol rows the push changed (deleted files included) and
 * the names of the rows it added, removed or altered.
 */
function symbolChanges(plan: ResolutionPlan, newSymbols: Map<string, Set<string>>): { files: string[]; names: string[] } {
  const files = new Set<string>(plan.deleted);
  const names = new Set<string>();
  for (const file of new Set([...plan.incoming, ...plan.deleted])) {
    const before = plan.oldSymbols.get(file) ?? new Set<string>();
    const after = newSymbols.get(file) ?? new Set<string>();
    let changed = false;
    for (const sig of before) if (!after.has(sig)) (changed = true), names.add(nameOfSignature(sig));
    for (const sig of after) if (!before.has(sig)) (changed = true), names.add(nameOfSignature(sig));
    if (changed) files.add(file);
  }
  names.delete('');
  return { files: [...files], names: [...names] };
}

/** The stem an import naming `path` must contain: the file name without extension, or its folder for index/package files. */
function importStem(path: string): string {
  const parts = path.split('/');
  const base = parts[parts.length - 1].replace(/\.[^.]+$/, '').replace(/\.d$/, '');
  if (['index', '__init__', 'mod', 'lib', 'main'].includes(base) && parts.length > 1) return parts[parts.length - 2];
  return base;
}

/** SQL: the join of files `f` to their extraction `e` (the content, language and extractor version a file was indexed with), as the `refs` view joins them. */
function fileExtractionsSql(f: string, e: string): string {
  return `JOIN extractions ${e} ON ${e}.hash = ${f}.hash AND ${e}.language = ${f}.language AND ${e}.extractor_version = ${f}.extractor_version`;
}

/**
 * A file's stored references as resolution reads them: the extraction's `refs_json` whole, decoded here
 * (`decodeRefs`, the `refs` view's reading), not one row per reference through the view. Reading every reference
 * of a large push through the view made SQLite take each apart with JSON functions and the binding carry each
 * as a row repeating the file's path: two seconds of a 1,500-file push, where the stored text crosses as it is.
 */
type StoredRefsRow = [path: string, language: string, refs_json: string];

function storedRefsOf(d1: D1Database, projectId: string, json: string): Promise<StoredRefsRow[]> {
  return d1
    .prepare(
      `SELECT f.path, f.language, e.refs_json FROM files f ${fileExtractionsSql('f', 'e')}
       WHERE f.project_id = ?1 AND f.path IN (SELECT value FROM json_each(?2)) ORDER BY f.path`,
    )
    .bind(projectId, json)
    .raw<StoredRefsRow>();
}

function refsOfFile([file, language, refsJson]: StoredRefsRow): RefInput[] {
  return decodeRefs(refsJson).map((r) => ({
    file,
    language,
    kind: r.kind as RefInput['kind'],
    name: r.name as string,
    target: r.target,
    importedNames: r.importedNames,
    enclosing: r.enclosingKey === null ? null : `${file}::${r.enclosingKey}`,
    line: r.line as number,
  }));
}

/**
 * A symbols row as `raw()` returns it, in SYMBOL_COLUMNS order; `signature` only when it may mark
 * the symbol abstract, or declares types (graph/resolve/declared.ts).
 */
type SymbolRow = [id: string, file_path: string, language: string, name: string, qualified_name: string, kind: string, parent: string | null, is_exported: number, signature: string | null];

const DECLARING = `language IN (${DECLARED_TYPE_LANGUAGES.map((l) => `'${l}'`).join(', ')}) AND kind IN (${[...DECLARING_KINDS].map((k) => `'${k}'`).join(', ')})`;
const SYMBOL_COLUMNS = `id, file_path, language, name, qualified_name, kind, parent, is_exported, CASE WHEN (kind = 'Method' AND signature LIKE '%abstract%') OR (${DECLARING}) THEN signature END AS signature`;

/**
 * The columns a SCIP push's symbols read adds after SYMBOL_COLUMNS: what scipEdges maps an index's definitions
 * onto (lines, the whole signature), so that the covered files' symbols are read once.
 */
const SCIP_COLUMNS = 'start_line, end_line, signature';
type ScipSymbolRow = [...SymbolRow, start_line: number, end_line: number, full_signature: string | null];

function scipRow(r: ScipSymbolRow): ScipTargetRow {
  return { id: r[0], file: r[1], name: r[3], kind: r[5], startLine: r[9], endLine: r[10], signature: r[11] };
}

function toSymbol([id, file, language, name, qualifiedName, kind, parent, isExported, signature]: SymbolRow): SymbolInput {
  const out: SymbolInput = { id, file, language, name, qualifiedName, kind, parent, isExported: isExported === 1 };
  if (isAbstractSignature(name, signature)) out.abstract = true;
  if (signature !== null && DECLARED_TYPE_LANGUAGES.includes(language) && DECLARING_KINDS.has(kind)) out.signature = signature;
  return out;
}

/** Which files of the new index to re-resolve. */
async function filesToResolve(d1: D1Database, plan: ResolutionPlan, allPaths: readonly string[]): Promise<string[]> {
  if (plan.full) return [...allPaths];
  const out = new Set<string>(plan.incoming);
  const newSymbols = new Map<string, Set<string>>();
  for (const row of await eachChunk(plan.incoming, async (json) => (await symbolSignatures(d1, plan.projectId, json)).results)) addSignature(newSymbols, row);
  const changed = symbolChanges(plan, newSymbols);
  // Edges still reflect the previous pass here: who pointed into what changed. Go and Java
  // imports point at a package directory, so a changed file's directory counts too.
  const dirs = [...new Set(changed.files.map((p) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '.')))];
  for (const file of await eachChunk([...changed.files, ...dirs], async (json) =>
    (
      await d1
        .prepare(`SELECT DISTINCT e.src_file FROM edges e WHERE ${edgeFileSql('e', 'dst', 'IN (SELECT value FROM json_each(?2))')}`)
        .bind(plan.projectId, json)
        .all<{ src_file: string }>()
    ).results.map((r) => r.src_file),
  ))
    out.add(file);
  for (const file of await eachChunk(changed.names, async (json, names) =>
    (
      await d1
        .prepare(
          `SELECT DISTINCT file_path FROM refs WHERE project_id = ?1 AND kind IN ('call', 'inherit')
           AND target IN (SELECT value FROM json_each(?2)) AND ${refsTextHoldsSql('file_path', '?3')}`,
        )
        .bind(plan.projectId, json, targetNeedles(names))
        .all<{ file_path: string }>()
    ).results.map((r) => r.file_path),
  NAMES_PER_READ))
    out.add(file);
  const stems = [...new Set([...plan.added, ...plan.deleted].map(importStem))].filter((s) => s.length > 0);
  for (const file of await eachChunk(stems, async (json, chunk) =>
    (
      await d1
        .prepare(
          `SELECT DISTINCT r.file_path FROM refs r, json_each(?2) s
           WHERE r.project_id = ?1 AND r.kind = 'import' AND ${refsTextHoldsSql('r.file_path', '?3')}
             AND (instr(r.name, s.value) > 0 OR instr(coalesce(r.imported_names, ''), s.value) > 0)`,
        )
        .bind(plan.projectId, json, textNeedles(chunk))
        .all<{ file_path: string }>()
    ).results.map((r) => r.file_path),
  ))
    out.add(file);
  const present = new Set(allPaths);
  return [...out].filter((p) => present.has(p));
}

/**
 * SQL condition: `path` (an SQL expression) is a file of project ?1 whose stored references' text
 * (`refs_json`, as `encodeRefs` wrote it with JSON.stringify) holds one of the strings of the JSON array
 * `param`. The incremental plan's lookups by target and by import text test it first: a substring test of
 * each file's text, before the `refs` view takes any file's references apart with JSON functions (on
 * 138,725 references, 0.30 → 0.02 s of SQLite for a rare name). It is a necessary condition of their own,
 * so they find the same files.
 */
function refsTextHoldsSql(path: string, param: string): string {
  return `${path} IN (SELECT hf.path FROM files hf ${fileExtractionsSql('hf', 'he')}, json_each(${param}) needle
    WHERE hf.project_id = ?1 AND instr(he.refs_json, needle.value) > 0)`;
}

/**
 * What the stored text of a reference whose target is one of `names` (a JSON array) must hold: the name
 * as the end of a JSON string, `Name"`. The target is stored as itself, as 1 (the name is the target) or
 * as -k (the name less its first k characters, so the name's string ends with the target's).
 */
function targetNeedles(names: readonly string[]): string {
  return JSON.stringify(names.map((n) => JSON.stringify(n).slice(1)));
}

/** What the stored text of an import whose name or imported names hold one of `texts` (a JSON array) must hold: each text as it is, or as JSON writes it inside a string. */
function textNeedles(texts: readonly string[]): string {
  return JSON.stringify([...new Set(texts.flatMap((t) => [t, JSON.stringify(t).slice(1, -1)]))]);
}

/** Build/config files that steer module resolution, with their stored content. */
async function layoutOf(d1: D1Database, projectId: string, paths: string[]): Promise<ProjectLayout> {
  const configPaths = paths.filter(isConfig);
  const configs = new Map<string, string>();
  for (const row of await eachChunk(configPaths, async (json) =>
    (
      await d1
        .prepare(
          `SELECT f.path, b.content FROM files f JOIN blobs b ON b.hash = f.hash
           WHERE f.project_id = ?1 AND f.path IN (SELECT value FROM json_each(?2))`,
        )
        .bind(projectId, json)
        .all<{ path: string; content: string }>()
    ).results,
  ))
    configs.set(row.path, row.content);
  return { paths, configs };
}

/** The project's stored paths, read in the commit's batch for `resolveCommitted` (its `committed`). */
export function committedPathsStatement(d1: D1Database, projectId: string): D1PreparedStatement {
  return d1.prepare('SELECT path FROM files WHERE project_id = ?1').bind(projectId);
}

/**
 * Runs the pass for a committed push. `generation` is the project's
 * generation right after that commit; edges are written only while it holds.
 * With `scip` (the checked documents of an index pushed with the commit), the
 * files it covers are re-resolved too, and their CALLS, INHERITS and
 * IMPLEMENTS edges are the index's exact ones (plus REFERENCES) instead of
 * the heuristic ones, in the same batch; their IMPORTS edges stay the
 * resolver's (file-level module resolution).
 */
export async function resolveCommitted(
  d1: D1Database,
  plan: ResolutionPlan,
  generation: number,
  committed: D1Result,
  scip?: readonly ScipDocument[],
): Promise<ResolutionResult> {
  const started = Date.now();
  const { projectId } = plan;
  const layout = await layoutOf(d1, projectId, (committed.results as { path: string }[]).map((r) => r.path));
  const covered = new Set(scip?.map((d) => d.relativePath) ?? []);
  const files = [...new Set([...(await filesToResolve(d1, plan, layout.paths)), ...covered])];
  const refs = (await eachChunk(files, (json) => storedRefsOf(d1, projectId, json))).flatMap(refsOfFile);
  let edges: GraphEdge[] = [];
  /** The covered files' symbol rows, when resolution reads them (below); else scipTargets reads them. */
  let scipRead: ScipTargetRow[] | undefined;
  if (refs.length > 0) {
    const resolver = createResolver(layout);
    // Resolving every file (a first push, a full rebuild) reads every file's symbols: nothing to plan.
    const resolving = new Set(files);
    const needs = layout.paths.every((p) => resolving.has(p)) ? { files: [], names: [] } : resolver.plan(refs);
    const symbolFiles = [...new Set([...files, ...needs.files])];
    const byId = new Map<string, SymbolInput>();
    // A SCIP push reads the covered files' lines and signatures with the rest (every covered file is resolved).
    const read: ScipTargetRow[] | undefined = covered.size > 0 ? [] : undefined;
    const columns = read ? `${SYMBOL_COLUMNS}, ${SCIP_COLUMNS}` : SYMBOL_COLUMNS;
    for (const r of await eachChunk(symbolFiles, (json) =>
      d1.prepare(`SELECT ${columns} FROM ${symbolsOfFilesSql('?1', '?2')}`).bind(projectId, json).raw<SymbolRow | ScipSymbolRow>(),
    )) {
      byId.set(r[0], toSymbol(r as SymbolRow));
      if (read && covered.has(r[1])) read.push(scipRow(r as ScipSymbolRow));
    }
    scipRead = read;
    // Every file's symbols read already hold every symbol a name could find.
    const symbolFileSet = new Set(symbolFiles);
    const names = layout.paths.every((p) => symbolFileSet.has(p)) ? [] : [...needs.names];
    for (const r of await eachChunk(
      names,
      (json) => d1.prepare(`SELECT ${SYMBOL_COLUMNS} FROM symbols WHERE project_id = ?1 AND name IN (SELECT value FROM json_each(?2))`).bind(projectId, json).raw<SymbolRow>(),
      NAMES_PER_READ,
    ))
      byId.set(r[0], toSymbol(r));
    edges = resolver.resolve(refs, [...byId.values()]);
  }
  let scipStats: ResolutionResult['scip'];
  if (scip && scip.length > 0) {
    const targets = await scipTargets(d1, projectId, [...covered], refs, scipRead);
    const exact = scipEdges(scip, targets.symbols, targets.refs);
    edges = [...edges.filter((e) => e.kind === 'IMPORTS' || !covered.has(e.srcFile)), ...exact.edges];
    scipStats = { ...exact.stats, files: covered.size };
  }
  const { applied, total } = await writeEdges(d1, projectId, generation, [...files, ...plan.deleted], edges, plan.full);
  return { files: files.length, refs: refs.length, edges: edges.length, full: plan.full, applied, total, ms: Date.now() - started, ...(scipStats ? { scip: scipStats } : {}) };
}

/**
 * Replaces the edges of `files` (all edges when `full`) and records the generation, in one batch guarded by the
 * generation; the same batch counts the project's edges after. Edges are written to their tables (schema.ts
 * `edge_ends`, `edge_rows`): the ends a chunk names that the project lacks, then the chunk's rows by their ends'
 * ids. The ends of `files` (all the project's when `full`) no edge uses any more are removed after: an unused end
 * in another file stays until that file's edges are rebuilt (at most one per symbol of a file that has not changed,
 * and one for the file itself), and an unused package directory's (Go, Java) until a full rebuild.
 */
async function writeEdges(
  d1: D1Database,
  projectId: string,
  generation: number,
  files: readonly string[],
  edges: readonly GraphEdge[],
  full: boolean,
): Promise<{ applied: boolean; total: number }> {
  const guard = 'EXISTS (SELECT 1 FROM projects WHERE id = ?1 AND generation = ?2)';
  const inFiles = (param: string) => `AND file IN (SELECT value FROM json_each(${param}))`;
  const fileChunks = full ? [null] : [...jsonChunks(files)];
  const stmts: D1PreparedStatement[] = [];
  for (const json of fileChunks) {
    const ends = `SELECT id FROM edge_ends WHERE project_id = ?1 ${json === null ? '' : inFiles('?3')}`;
    const stmt = d1.prepare(`DELETE FROM edge_rows WHERE src IN (${ends}) AND ${guard}`);
    stmts.push(json === null ? stmt.bind(projectId, generation) : stmt.bind(projectId, generation, json));
  }
  const rows = edges.map((e) => {
    const src = edgeEnd(e.srcId, e.srcFile);
    const dst = edgeEnd(e.dstId, e.dstFile);
    return [e.kind, src.key, src.file, dst.key, dst.file, e.name, e.line, e.confidence, e.provenance];
  });
  // In the order of the source ends (file, then key; stable, so one source keeps its edges' order): the ends and edge_rows_src
  // fill their pages one after another instead of splitting them half-empty.
  const at = (r: unknown[], i: number) => (r[i] as string | null) ?? '';
  rows.sort((a, b) => (at(a, 2) < at(b, 2) ? -1 : at(a, 2) > at(b, 2) ? 1 : at(a, 1) < at(b, 1) ? -1 : at(a, 1) > at(b, 1) ? 1 : 0));
  const endId = (file: string, key: string) => edgeEndIdSql(file, key, '?1', true);
  // Every end the edges name, once (a target outside the project, with no file, has none), by file then key: each is
  // sought in edge_ends_at once, not once per edge that names it (three times fewer seeks on real code).
  const ends = new Map<string, [string, string | null]>();
  for (const r of rows) {
    for (const [file, key] of [[r[2], r[1]], [r[4], r[3]]] as [string | null, string | null][]) {
      if (file !== null) ends.set(key === null ? file : `${file}\u0000${key}`, [file, key]);
    }
  }
  const endRows = [...ends.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : (a[1] ?? '') < (b[1] ?? '') ? -1 : (a[1] ?? '') > (b[1] ?? '') ? 1 : 0));
  for (const json of jsonChunks(endRows)) {
    stmts.push(
      d1
        .prepare(`INSERT INTO edge_ends (project_id, file, key) SELECT ?1, value ->> 0, value ->> 1 FROM json_each(?3) WHERE ${endId('value ->> 0', 'value ->> 1')} IS NULL AND ${guard}`)
        .bind(projectId, generation, json),
    );
  }
  for (const json of jsonChunks(rows)) {
    stmts.push(
      d1
        .prepare(
          `INSERT INTO edge_rows (src, dst, ${EDGE_CODE_COLUMNS}, name, line)
           SELECT ${endId('value ->> 2', 'value ->> 1')}, ${endId('value ->> 4', 'value ->> 3')},
             ${edgeCodesSql('value ->> 0', 'value ->> 8', 'value ->> 7')}, value ->> 5, value ->> 6
           FROM json_each(?3) WHERE ${guard}`,
        )
        .bind(projectId, generation, json),
    );
  }
  for (const json of fileChunks) {
    const stmt = d1.prepare(`DELETE FROM edge_ends WHERE project_id = ?1 ${json === null ? '' : inFiles('?2')} AND ${edgeEndUnusedSql('edge_ends')}`);
    stmts.push(json === null ? stmt.bind(projectId) : stmt.bind(projectId, json));
  }
  stmts.push(d1.prepare('UPDATE projects SET graph_generation = ?2 WHERE id = ?1 AND generation = ?2').bind(projectId, generation));
  stmts.push(edgeCountStatement(d1, projectId));
  const results = await d1.batch(stmts);
  return { applied: (results[results.length - 2].meta.changes ?? 0) > 0, total: (results[results.length - 1].results as { n: number }[])[0]?.n ?? 0 };
}
