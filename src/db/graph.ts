/**
 * Reads over a project's resolved graph (`edges`) for the graph tools and
 * the composites built on them: a bounded breadth-first walk, one-hop
 * callers/callees, callables nobody calls, importers of files, and a
 * `Name` / `Class.method` resolver.
 *
 * A walk level reads its frontier (a `json_each` list) joined with CROSS
 * JOIN, so SQLite loops over the list and, per item, seeks the end in
 * `edge_ends_at` by the id's file and key and then `edge_rows_dst` (inbound)
 * or `edge_rows_src` (outbound) by the end's id (edge-ends.ts);
 * the node's symbol row comes from `symbols_project_id` in the same
 * statement. A whole walk, both directions and every level, is one
 * recursive statement (walk-sql.ts): one round trip.
 *
 * Node identity: a symbol id, or — when an edge starts at module level
 * (`src_key` null) or imports a whole file (`dst_key` null) — the module of a
 * file, shown as `id: null` with its `file`. Module nodes are leaves: a walk
 * never expands them.
 */
import { rowForPath } from '../extract/languages/table';
import type { EdgeKind, Provenance } from '../graph/types';
import { resolutionOrder, resolveRef } from '../symbols/resolve';
import { parseSymbolRef } from '../symbols/symbol-id';
import { edgeConfidenceSql, edgeKindCode } from './edge-columns';
import { edgeEnd, edgeEndIsSql, edgeEndIsSymbolSql, edgeFileSql, edgeIdSql, endRowIdSql, symbolEndJoinSql, type EdgeEnd } from './edge-ends';
import { LEVEL_ORDER, levelSql, walkStatementSql } from './walk-sql';
import { mayCrowd, namePick, type NamePick } from './name-pick';
import { symbolsByNames, type SymbolRow } from './source';
import { uncalledCandidateSql, type CallableKind } from './uncalled-sql';

export type WalkDirection = 'in' | 'out' | 'both';

/** The edge kinds, in the order tools list them (REFERENCES only from a pushed SCIP index). */
export const EDGE_KINDS: readonly EdgeKind[] = ['CALLS', 'IMPORTS', 'INHERITS', 'IMPLEMENTS', 'REFERENCES'];

/** What a walk returns per reached node. */
export interface GraphNode {
  /** Symbol id; null for the module level of `file` (module-level references, whole-file imports). */
  id: string | null;
  file: string;
  /** Symbol name; the file's base name for a module node. */
  name: string;
  qualifiedName: string;
  /** Symbol kind; 'Module' for a module node. */
  kind: string;
  /** First line of the symbol; 1 for a module node. */
  line: number;
  endLine: number;
  language: string;
  isTest: boolean;
  isExported: boolean;
  /** Stored size of `file` in bytes (for full_file_read baselines); null when the file is not in the index. */
  fileSize: number | null;
}

export interface Hop {
  node: GraphNode;
  /** 1 for a neighbour of a start symbol. */
  depth: number;
  /** The predecessor this hop was reached from: a start id or an earlier hop's id. */
  via: string;
  /** 'in': node references `via` (a caller); 'out': `via` references node (a callee). */
  direction: 'in' | 'out';
  kind: EdgeKind;
  confidence: number;
  provenance: Provenance;
  /** 1-based line of the reference in the referencing file: the node's file for 'in', the predecessor's for 'out'. */
  line: number;
  /** The reference text as written. */
  ref: string;
}

export interface WalkOptions {
  direction: WalkDirection;
  /** Levels to walk, at least 1. */
  depth: number;
  /** Edge kinds followed; default CALLS only. */
  kinds?: readonly EdgeKind[];
  /** Edges under this confidence are not followed; default 0. */
  minConfidence?: number;
  /** Also count the nodes only edges under minConfidence would have reached (WalkResult.hidden). */
  countHidden?: boolean;
  /** Reach test symbols and module levels of test files; default false (they are neither returned nor expanded). */
  includeTests?: boolean;
  /** Hops returned (BFS order); the rest only count in `total`. Default 50. */
  maxHops?: number;
  /** From one symbol id: also say whether any edge at all touches it in the walked directions (WalkResult.untouched). */
  probeEdges?: boolean;
}

export interface WalkResult {
  /** Shallowest first; within a level, in order of their predecessor, then file and line. */
  hops: Hop[];
  /** Distinct nodes reached within `depth`, before `maxHops`. */
  total: number;
  /** `total` per level: `perDepth[0]` is level 1. */
  perDepth: number[];
  truncated: boolean;
  /** False when a level hit the row ceiling: `total` is then a lower bound. */
  complete: boolean;
  /** Nodes dropped because they are tests (includeTests false), counted once each. */
  testsDropped: number;
  /** With countHidden: distinct nodes next to a walked node reached only through edges under minConfidence. */
  hidden: number;
  /**
   * With probeEdges: true when no edge of any kind, at any confidence, touches the start in the walked
   * directions; false when one does; undefined when the walk could not tell (several start ids, or read level by level).
   */
  untouched?: boolean;
}

/** (predecessor, node) pairs read per level; past it a level is cut (WalkResult.complete = false). */
export const LEVEL_ROW_CEILING = 5000;

interface LevelRow {
  via: string;
  kind: EdgeKind;
  node_id: string | null;
  node_file: string | null;
  line: number;
  confidence: number;
  provenance: Provenance;
  ref: string;
  name: string | null;
  qualified_name: string | null;
  node_kind: string | null;
  start_line: number | null;
  end_line: number | null;
  language: string | null;
  is_test: number | null;
  is_exported: number | null;
  file_size: number | null;
}

/** Whether `path` is a test file for its language (the extractor's test-path rules). */
export function isTestPath(path: string): boolean {
  const row = rowForPath(path);
  return row !== null && 'testPaths' in row && row.testPaths.some((re) => re.test(path));
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function nodeOf(r: LevelRow): GraphNode | null {
  const file = r.node_file;
  if (r.node_id !== null && r.name !== null) {
    return {
      id: r.node_id,
      file: file ?? '',
      name: r.name,
      qualifiedName: r.qualified_name ?? r.name,
      kind: r.node_kind ?? '',
      line: r.start_line ?? 1,
      endLine: r.end_line ?? r.start_line ?? 1,
      language: r.language ?? '',
      isTest: r.is_test === 1,
      isExported: r.is_exported === 1,
      fileSize: r.file_size,
    };
  }
  // An edge to a symbol missing from the index (a stale row) is no node.
  if (r.node_id !== null || file === null) return null;
  return {
    id: null,
    file,
    name: baseName(file),
    qualifiedName: file,
    kind: 'Module',
    line: 1,
    endLine: 1,
    language: rowForPath(file)?.id ?? '',
    isTest: isTestPath(file),
    isExported: false,
    fileSize: r.file_size,
  };
}

const nodeKey = (n: GraphNode): string => n.id ?? `${n.file}::`;

/**
 * One level of edges from `ids` in one direction, with the far end's symbol
 * row. Ordered by frontier position, then the far end's file and the line.
 * With `perPair`, one row per (frontier id, far end): its most confident
 * edge, a call before another reference and the earliest line among equals — a caller with forty call sites of
 * the same callee is one row, not forty.
 */
async function level(
  d1: D1Database,
  projectId: string,
  ids: readonly string[],
  direction: 'in' | 'out',
  kinds: readonly EdgeKind[],
  minConfidence: number,
  limit: number,
  perPair = false,
): Promise<LevelRow[]> {
  if (ids.length === 0) return [];
  const rows = await d1
    .prepare(`${levelSql({ from: 'json_each(?2) j', k: 'j.key', id: 'j.value' }, direction, perPair)} ORDER BY ${LEVEL_ORDER} LIMIT ?5`)
    .bind(projectId, JSON.stringify(ids), JSON.stringify(kinds), minConfidence, limit)
    .all<LevelRow>();
  return rows.results;
}

/** A walk statement's answer: where it started, each level's rows, and the frontier each level leads to. */
interface PlannedLevels {
  /** The start ids the statement read from (level 0's frontier). */
  start: string[];
  levels: (LevelRow & { pos: number })[][];
  /** `frontiers[i]`: the ids the level after `levels[i]` reads from. */
  frontiers: { id: string; pos: number }[][];
}

/** Where a walk starts: symbol ids, or the symbol a name resolves to (worked out in the walk's own statement). */
type WalkStart = { ids: readonly string[] } | { name: NamePick };

/** The symbol row of a walk's start, as the walk statement read it (the fields a graph answer shows of its root). */
export type WalkRoot = Pick<SymbolRow, 'id' | 'file_path' | 'name' | 'qualified_name' | 'kind' | 'start_line' | 'end_line' | 'language' | 'is_test' | 'is_exported' | 'file_size'>;

/** A walk statement's answer: each direction's levels, and with `roots` the start ids' symbol rows. */
interface PlannedWalk {
  byDirection: Map<'in' | 'out', PlannedLevels>;
  roots: WalkRoot[];
  /** With `probe`: whether an edge touches the start in a walked direction (the t = 3 row); else undefined. */
  touched?: boolean;
}

/** Reads a whole walk in every direction asked for in one statement: each direction's levels, by direction. */
async function walkStatement(
  d1: D1Database,
  projectId: string,
  start: WalkStart,
  directions: readonly ('in' | 'out')[],
  opts: WalkRules,
  ceiling: number,
  roots = false,
  /** The one start id's edge ends, to ask whether any edge touches it (touchedRow). */
  probe: { file: string; key: string } | null = null,
): Promise<PlannedWalk> {
  const floor = opts.countHidden ? 0 : opts.minConfidence;
  const from = 'ids' in start ? JSON.stringify([...new Set(start.ids)]) : JSON.stringify(start.name);
  const binds = [projectId, from, JSON.stringify(opts.kinds), floor, ceiling + 1, ceiling, opts.includeTests ? 1 : 0, opts.minConfidence, opts.depth];
  const rows = await d1
    .prepare(walkStatementSql(directions, opts.kinds, 'ids' in start ? 'ids' : mayCrowd([start.name]) ? 'name' : 'uncrowded name', roots, probe !== null))
    .bind(...binds, ...(probe ? [probe.file, probe.key] : []))
    .all<LevelRow & { dir: 'in' | 'out'; lvl: number; t: number; pos: number }>();
  const levels = opts.depth;
  const byDirection = new Map<'in' | 'out', PlannedLevels & { starts: { id: string; pos: number }[] }>();
  for (const dir of directions) byDirection.set(dir, { start: [], starts: [], levels: Array.from({ length: levels }, () => []), frontiers: Array.from({ length: levels }, () => []) });
  const found: (WalkRoot & { pos: number })[] = [];
  let touched = false;
  for (const row of rows.results) {
    if (row.t === 3) {
      touched = true;
      continue;
    }
    if (row.t === 2) {
      found.push(rootOf(row));
      continue;
    }
    const planned = byDirection.get(row.dir);
    if (!planned) continue;
    if (row.t === 0) planned.levels[row.lvl - 1].push(row);
    else (row.lvl === 0 ? planned.starts : planned.frontiers[row.lvl - 1]).push({ id: row.node_id as string, pos: row.pos });
  }
  const out = new Map<'in' | 'out', PlannedLevels>();
  for (const [dir, { starts, ...planned }] of byDirection) {
    for (const list of [starts, ...planned.levels, ...planned.frontiers]) list.sort((a, b) => a.pos - b.pos);
    out.set(dir, { ...planned, start: starts.map((f) => f.id) });
  }
  found.sort((a, b) => a.pos - b.pos);
  return { byDirection: out, roots: found.map(({ pos: _, ...root }) => root), ...(probe ? { touched } : {}) };
}

/** A root row (t = 2) of the walk statement as the symbol row it is. */
function rootOf(r: LevelRow & { pos: number }): WalkRoot & { pos: number } {
  return {
    id: r.node_id as string,
    file_path: r.node_file as string,
    name: r.name as string,
    qualified_name: r.qualified_name as string,
    kind: r.node_kind as string,
    start_line: r.start_line as number,
    end_line: r.end_line as number,
    language: r.language as string,
    is_test: r.is_test as number,
    is_exported: r.is_exported as number,
    file_size: r.file_size as number,
    pos: r.pos,
  };
}

type WalkRules = Required<Omit<WalkOptions, 'direction' | 'maxHops' | 'probeEdges'>>;

/** How a walk reads its levels: one statement for the whole walk (levels read one by one where it cannot answer), or a statement per level. */
export interface WalkPlan {
  plan: 'statement' | 'levels';
  /** Rows read per level at most; LEVEL_ROW_CEILING unless a test lowers it. */
  ceiling?: number;
}

const sameIds = (a: readonly string[], b: readonly { id: string }[]): boolean => a.length === b.length && a.every((id, i) => id === b[i].id);

/**
 * One direction of a walk: the levels `planned` read (each checked against the frontier worked out
 * here, read one by one from where it differs), or, without it, a statement per level from `ids`.
 */
async function walkOne(d1: D1Database, projectId: string, planned: PlannedLevels | null, ids: readonly string[], direction: 'in' | 'out', opts: WalkRules, how: WalkPlan) {
  const ceiling = how.ceiling ?? LEVEL_ROW_CEILING;
  let valid = planned !== null;
  const startIds = planned?.start ?? [...new Set(ids)];
  const seen = new Set<string>(startIds);
  const dropped = new Set<string>();
  const weak = new Set<string>();
  const hops: Hop[] = [];
  const perDepth: number[] = [];
  let complete = true;
  let frontier = startIds;
  for (let depth = 1; depth <= opts.depth && frontier.length > 0; depth++) {
    const at = depth - 1;
    // Counting hidden nodes reads the weak edges too (one query either way) and sets them aside.
    const floor = opts.countHidden ? 0 : opts.minConfidence;
    const rows: LevelRow[] = planned && valid ? planned.levels[at] : await level(d1, projectId, frontier, direction, opts.kinds, floor, ceiling + 1, true);
    if (rows.length > ceiling) {
      complete = false;
      rows.length = ceiling;
    }
    // Per new node keep its best edge: highest confidence, then the earliest predecessor and line (row order).
    const best = new Map<string, { row: LevelRow; node: GraphNode; order: number }>();
    rows.forEach((row, order) => {
      const node = nodeOf(row);
      if (!node) return;
      const key = nodeKey(node);
      if (seen.has(key)) return;
      if (!opts.includeTests && node.isTest) {
        dropped.add(key);
        return;
      }
      if (row.confidence < opts.minConfidence) {
        weak.add(key);
        return;
      }
      const held = best.get(key);
      // Among equally sure edges a call says more than another reference.
      if (!held || row.confidence > held.row.confidence || (row.confidence === held.row.confidence && held.row.kind === 'REFERENCES' && row.kind !== 'REFERENCES')) best.set(key, { row, node, order });
    });
    const reached = [...best.values()].sort((a, b) => a.order - b.order);
    for (const { row, node } of reached) {
      seen.add(nodeKey(node));
      hops.push({ node, depth, via: row.via, direction, kind: row.kind, confidence: row.confidence, provenance: row.provenance, line: row.line, ref: row.ref });
    }
    perDepth.push(reached.length);
    frontier = reached.flatMap(({ node }) => (node.id === null ? [] : [node.id]));
    if (planned && valid && at + 1 < planned.levels.length) valid = sameIds(frontier, planned.frontiers[at]);
  }
  for (const key of seen) weak.delete(key);
  return { start: startIds, hops, perDepth, complete, dropped, hidden: weak.size };
}

/**
 * Breadth-first walk from `startIds` (symbol ids of one project). Each node
 * is reached once, at its shallowest depth, through its most confident edge;
 * start symbols are never returned. `both` walks inbound and outbound
 * separately (a node may then appear once per direction) and merges them by
 * depth, inbound first.
 *
 * @example
 * const { hops, total } = await walk(env.DB, project.id, ['src/app.ts::listen#Function'], { direction: 'in', depth: 3 });
 */
export function walk(d1: D1Database, projectId: string, startIds: readonly string[], options: WalkOptions): Promise<WalkResult> {
  return walkWith(d1, projectId, startIds, options, { plan: 'statement' });
}

/** walk, read as `how` says: the equivalence test runs both plans (walk takes the one-statement plan). */
export async function walkWith(d1: D1Database, projectId: string, startIds: readonly string[], options: WalkOptions, how: WalkPlan): Promise<WalkResult> {
  return (await walkFrom(d1, projectId, { ids: startIds }, options, how)).result;
}

/**
 * walk from the symbol `text` (`Name` or `Class.method`) resolves to, the
 * name resolved in the walk's own statement: `start` is the id it walked
 * from (null when none matched, or the directions disagreed). The pick
 * orders paths by bytes where resolveSymbolName orders them by locale, so a
 * caller walks from its own resolution unless `start` equals it. Null for a
 * `Name@line` (no walk is read).
 */
export async function walkFromName(d1: D1Database, projectId: string, text: string, options: WalkOptions): Promise<{ start: string | null; result: WalkResult } | null> {
  const ref = parseSymbolRef(text);
  if (ref.line !== undefined) return null;
  const { starts, result } = await walkFrom(d1, projectId, { name: namePick(ref.name) }, options, { plan: 'statement' });
  const [first] = starts;
  const start = first?.length === 1 && starts.every((s) => s.length === 1 && s[0] === first[0]) ? first[0] : null;
  return { start, result };
}

/**
 * walk from one symbol id, reading the id's symbol row in the walk's own
 * statement: `root` is that row as symbolsByIds reads it, null when the id
 * names no symbol (a moved file, a stale or malformed id), and undefined
 * when the statement could not answer (the walk was read level by level).
 */
export async function walkFromId(d1: D1Database, projectId: string, id: string, options: WalkOptions): Promise<{ root: WalkRoot | null | undefined; result: WalkResult }> {
  const { roots, result } = await walkFrom(d1, projectId, { ids: [id] }, options, { plan: 'statement' }, true);
  return { root: roots ? (roots[0] ?? null) : undefined, result };
}

async function walkFrom(
  d1: D1Database,
  projectId: string,
  start: WalkStart,
  options: WalkOptions,
  how: WalkPlan,
  withRoots = false,
): Promise<{ starts: string[][]; result: WalkResult; roots: WalkRoot[] | null }> {
  const opts: WalkRules = {
    depth: Math.max(1, Math.floor(options.depth)),
    kinds: options.kinds?.length ? [...new Set(options.kinds)] : (['CALLS'] as EdgeKind[]),
    minConfidence: options.minConfidence ?? 0,
    includeTests: options.includeTests ?? false,
    countHidden: options.countHidden ?? false,
  };
  const maxHops = Math.max(0, options.maxHops ?? 50);
  const directions: ('in' | 'out')[] = options.direction === 'both' ? ['in', 'out'] : [options.direction];
  // Every direction in one statement (one round trip); the per-level plan reads each direction's levels side by side.
  const ids = 'ids' in start ? start.ids : [];
  const read = 'ids' in start ? how.plan === 'statement' && ids.length > 0 : true;
  // A statement D1 refuses (a walk whose carried state passes D1's 2 MB value limit) leaves the walk to the per-level
  // plan; a name it was to resolve then has no walk (`start` null: the caller walks from its own resolution).
  const probe = options.probeEdges && 'ids' in start ? probeOf(start.ids) : null;
  const planned = read ? await walkStatement(d1, projectId, start, directions, opts, how.ceiling ?? LEVEL_ROW_CEILING, withRoots, probe).catch(() => null) : null;
  const parts = await Promise.all(directions.map((dir) => walkOne(d1, projectId, planned?.byDirection.get(dir) ?? null, ids, dir, opts, how)));
  const all = parts.flatMap((p) => p.hops).sort((a, b) => a.depth - b.depth);
  const perDepth: number[] = [];
  for (const p of parts) p.perDepth.forEach((n, i) => (perDepth[i] = (perDepth[i] ?? 0) + n));
  const result: WalkResult = {
    hops: all.slice(0, maxHops),
    total: all.length,
    perDepth,
    truncated: all.length > maxHops,
    complete: parts.every((p) => p.complete),
    testsDropped: parts.reduce((n, p) => n + p.dropped.size, 0),
    hidden: parts.reduce((n, p) => n + p.hidden, 0),
  };
  if (planned?.touched !== undefined) result.untouched = !planned.touched;
  return { starts: parts.map((p) => p.start), result, roots: planned && withRoots ? planned.roots : null };
}

/**
 * The stored ends (edgeEnd) of a walk's one start id; null for several ids or an id without `::` (the walk then
 * does not probe).
 */
function probeOf(ids: readonly string[]): { file: string; key: string } | null {
  const unique = [...new Set(ids)];
  if (unique.length !== 1) return null;
  const { file, key } = edgeEnd(unique[0], null);
  return file === null || key === null ? null : { file, key };
}

/** One edge next to a queried symbol, with the far end as a node. */
export interface Neighbour {
  /** The queried id this edge touches. */
  of: string;
  node: GraphNode;
  kind: EdgeKind;
  confidence: number;
  provenance: Provenance;
  /** Line of the reference in the referencing file. */
  line: number;
  ref: string;
}

export interface NeighbourOptions {
  /** Default CALLS only. */
  kinds?: readonly EdgeKind[];
  minConfidence?: number;
  /** Rows read at most; default 1000. */
  limit?: number;
}

async function neighbours(d1: D1Database, projectId: string, ids: readonly string[], direction: 'in' | 'out', opts: NeighbourOptions): Promise<Neighbour[]> {
  const rows = await level(d1, projectId, [...new Set(ids)], direction, opts.kinds?.length ? opts.kinds : ['CALLS'], opts.minConfidence ?? 0, opts.limit ?? 1000);
  return rows.flatMap((r) => {
    const node = nodeOf(r);
    return node ? [{ of: r.via, node, kind: r.kind, confidence: r.confidence, provenance: r.provenance, line: r.line, ref: r.ref }] : [];
  });
}

/** Every edge into `ids` (one hop, every call site, tests included): who calls / inherits / imports them. */
export function callersOf(d1: D1Database, projectId: string, ids: readonly string[], opts: NeighbourOptions = {}): Promise<Neighbour[]> {
  return neighbours(d1, projectId, ids, 'in', opts);
}

/** Every edge out of `ids` (one hop, every reference site): what they call / inherit / import. */
export function calleesOf(d1: D1Database, projectId: string, ids: readonly string[], opts: NeighbourOptions = {}): Promise<Neighbour[]> {
  return neighbours(d1, projectId, ids, 'out', opts);
}

/** What the graph of a project reflects. */
export interface GraphState {
  generation: number;
  /** Generation the edges reflect; behind `generation` while resolution of the last push is pending. */
  graphGeneration: number;
  /** The project holds at least one edge. */
  hasEdges: boolean;
}

export async function graphState(d1: D1Database, projectId: string): Promise<GraphState | null> {
  const row = await d1
    .prepare(
      `SELECT generation, graph_generation, EXISTS (SELECT 1 FROM edges WHERE project_id = ?1) AS has_edges
       FROM projects WHERE id = ?1`,
    )
    .bind(projectId)
    .first<{ generation: number; graph_generation: number; has_edges: number }>();
  return row ? { generation: row.generation, graphGeneration: row.graph_generation, hasEdges: row.has_edges === 1 } : null;
}

/** The project's edge count (a row `{ n }`). */
export function edgeCountStatement(d1: D1Database, projectId: string): D1PreparedStatement {
  return d1.prepare('SELECT count(*) AS n FROM edges WHERE project_id = ?1').bind(projectId);
}

/** Stored sizes of files of a project (for full_file_read baselines); unknown paths are left out. */
export async function fileSizes(d1: D1Database, projectId: string, paths: readonly string[]): Promise<{ path: string; size: number }[]> {
  const distinct = [...new Set(paths)];
  if (distinct.length === 0) return [];
  const rows = await d1
    .prepare('SELECT f.path, f.size FROM json_each(?2) j CROSS JOIN files f ON f.project_id = ?1 AND f.path = j.value')
    .bind(projectId, JSON.stringify(distinct))
    .all<{ path: string; size: number }>();
  return rows.results;
}

/** One IMPORTS edge into a file: `file` imports `target` at `line`. */
export interface FileImport {
  file: string;
  target: string;
  line: number;
  confidence: number;
}

/** Rows importersOf reads unless told otherwise. */
export const IMPORTERS_LIMIT = 1000;

/** Files importing any of `files` (IMPORTS edges whose dst_file is one of them, whole-file or by symbol). */
export async function importersOf(d1: D1Database, projectId: string, files: readonly string[], limit = IMPORTERS_LIMIT): Promise<FileImport[]> {
  const distinct = [...new Set(files)];
  if (distinct.length === 0) return [];
  const rows = await d1
    .prepare(
      `SELECT DISTINCT e.src_file AS file, e.dst_file AS target, e.line, e.confidence FROM json_each(?2) j
       CROSS JOIN edges e ON ${edgeFileSql('e', 'dst', '= j.value')}
       WHERE e.kind = 'IMPORTS' ORDER BY e.src_file, e.line LIMIT ?3`,
    )
    .bind(projectId, JSON.stringify(distinct), limit)
    .all<FileImport>();
  return rows.results;
}

/** A callable with no inbound CALLS edge at the asked confidence. */
export interface UncalledRow {
  id: string;
  file_path: string;
  name: string;
  qualified_name: string;
  kind: string;
  signature: string;
  parent: string | null;
  language: string;
  start_line: number;
  end_line: number;
  file_size: number;
  /** Best confidence of the CALLS edges into it that stayed under the floor; null when nothing calls it at all. */
  best_below: number | null;
}

/** Kind codes uncalledSymbols reads `edge_rows` by. */
const CALLS_CODE = edgeKindCode('CALLS');
const REFERENCES_CODE = edgeKindCode('REFERENCES');

/**
 * Non-exported, non-test code symbols of `kinds` with no inbound CALLS edge
 * of confidence ≥ `minConfidence` and no REFERENCES edge from elsewhere (a
 * pushed SCIP index saw it used: passed as a value, stored, read), in path
 * and source order, at most `limit`
 * rows (ask for one more than you need to know whether the list was cut).
 * The candidates are sought in that order through `symbols_uncalled`
 * (src/db/uncalled-sql.ts), so the statement stops at `limit`; each one's
 * edge end is sought once, and its inbound edges read from `edge_rows` by
 * that end's id (not the `edges` view, which joins and decodes both ends).
 */
export async function uncalledSymbols(
  d1: D1Database,
  projectId: string,
  opts: { kinds: readonly CallableKind[]; minConfidence: number; language?: string; limit: number },
): Promise<UncalledRow[]> {
  const rows = await d1
    .prepare(
      `SELECT s.id, s.file_path, s.name, s.qualified_name, s.kind, s.signature, s.parent, s.language, s.start_line, s.end_line,
              f.size AS file_size,
              (SELECT max(${edgeConfidenceSql('r')}) FROM edge_rows r WHERE r.dst = en.id AND r.kind_code = ${CALLS_CODE}) AS best_below
       FROM symbols s JOIN files f ON f.project_id = s.project_id AND f.path = s.file_path
       LEFT JOIN edge_ends en ON ${symbolEndJoinSql('en', 's')}
       WHERE s.project_id = ?1 AND ${uncalledCandidateSql('s.')}
         AND s.kind IN (SELECT value FROM json_each(?2))
         AND (?3 IS NULL OR s.language = ?3)
         AND NOT EXISTS (SELECT 1 FROM edge_rows r WHERE r.dst = en.id AND r.kind_code = ${CALLS_CODE} AND ${edgeConfidenceSql('r')} >= ?4)
         AND NOT EXISTS (SELECT 1 FROM edge_rows r JOIN edge_ends se ON se.id = r.src
                         WHERE r.dst = en.id AND r.kind_code = ${REFERENCES_CODE} AND ${edgeConfidenceSql('r')} >= ?4 AND ${endRowIdSql('se')} IS NOT s.id)
       ORDER BY s.file_path, s.start_byte
       LIMIT ?5`,
    )
    .bind(projectId, JSON.stringify(opts.kinds), opts.language ?? null, opts.minConfidence, opts.limit)
    .all<UncalledRow>();
  return rows.results;
}

/** What a `Name` / `Class.method` / `Name@line` input resolved to. */
export interface NameResolution {
  /** The first match: best name quality, then non-test, exported, path and source order. */
  chosen: SymbolRow | null;
  /** The other matches in the same order (at most `limit` − 1). */
  alternatives: SymbolRow[];
}

/**
 * Resolves a symbol name in one project: an exact qualified name first, then
 * a bare name, then a qualified-name suffix; `Name@line` keeps the matches
 * spanning that line. `path` restricts the lookup to one file.
 */
export async function resolveSymbolName(d1: D1Database, projectId: string, text: string, opts: { path?: string; limit?: number } = {}): Promise<NameResolution> {
  const ref = parseSymbolRef(text);
  const rows = await symbolsByNames(d1, projectId, [namePick(ref.name)], [], { path: opts.path });
  rows.sort(resolutionOrder);
  const { chosen, matches } = resolveRef(rows, ref);
  const limit = opts.limit ?? 10;
  return { chosen, alternatives: matches.filter((m) => m !== chosen).slice(0, Math.max(0, limit - 1)) };
}

/**
 * Whether a SCIP index pushed with the project covered `file`: an edge of provenance `scip`
 * starts or ends there (REFERENCES edges exist only then).
 */
export async function scipCovers(d1: D1Database, projectId: string, file: string): Promise<boolean> {
  const row = await d1
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM edges e WHERE ${edgeFileSql('e', 'src', '= ?2')} AND e.provenance = 'scip')
           OR EXISTS (SELECT 1 FROM edges e WHERE ${edgeFileSql('e', 'dst', '= ?2')} AND e.provenance = 'scip') AS n`,
    )
    .bind(projectId, file)
    .first<{ n: number }>();
  return (row?.n ?? 0) === 1;
}
