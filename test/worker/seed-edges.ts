import { env } from 'cloudflare:workers';
import { EDGE_CODE_COLUMNS, edgeCodesSql } from '../../src/db/edge-columns';

const DB = (env as unknown as { DB: D1Database }).DB;

/** One edge row as the resolution pass writes it. */
export interface EdgeRowSeed {
  kind: 'CALLS' | 'IMPORTS' | 'INHERITS' | 'IMPLEMENTS' | 'REFERENCES';
  src: string | null;
  srcFile: string;
  dst: string | null;
  dstFile: string | null;
  name: string;
  line: number;
  confidence: number;
  provenance: string;
}

/** A terse edge: what `edgeRow` completes into a row. */
export interface SeedEdge {
  kind?: EdgeRowSeed['kind'];
  src: string | null;
  /** Needed when src is null (module level); else taken from src. */
  srcFile?: string;
  dst: string | null;
  dstFile?: string | null;
  name?: string;
  line: number;
  confidence?: number;
  provenance?: string;
}

const fileOf = (id: string): string => id.slice(0, id.indexOf('::'));

/**
 * An edge row from a terse seed: the kind defaults to CALLS, files come from
 * the ids, the name from the target's qualified name (its last segment) or
 * the target file, confidence and provenance from `defaults`.
 */
export function edgeRow(e: SeedEdge, defaults: { confidence: number; provenance: string }): EdgeRowSeed {
  return {
    kind: e.kind ?? 'CALLS',
    src: e.src,
    srcFile: e.srcFile ?? (e.src ? fileOf(e.src) : ''),
    dst: e.dst,
    dstFile: e.dstFile !== undefined ? e.dstFile : e.dst ? fileOf(e.dst) : null,
    name: e.name ?? (e.dst ? (e.dst.slice(e.dst.indexOf('::') + 2, e.dst.lastIndexOf('#')).split('.').pop() ?? '') : (e.dstFile ?? '')),
    line: e.line,
    confidence: e.confidence ?? defaults.confidence,
    provenance: e.provenance ?? defaults.provenance,
  };
}

/**
 * Replaces a project's edges with `rows`, as a resolution pass would, and
 * marks the graph current (graph_generation = generation) or one push behind
 * (`pending`). Aggregates kept for the old edges are dropped with them.
 */
export async function writeSeedEdges(projectId: string, rows: readonly EdgeRowSeed[], opts: { pending?: boolean } = {}): Promise<void> {
  await DB.batch([
    DB.prepare('DELETE FROM edges WHERE project_id = ?1').bind(projectId),
    DB.prepare('DELETE FROM project_aggregates WHERE project_id = ?1').bind(projectId),
    DB.prepare(
      `INSERT INTO edges (project_id, ${EDGE_CODE_COLUMNS}, src_key, src_file, dst_key, dst_file, name, line)
       SELECT ?1, ${edgeCodesSql("json_extract(value, '$.kind')", "json_extract(value, '$.provenance')", "json_extract(value, '$.confidence')")},
              substr(json_extract(value, '$.src'), instr(json_extract(value, '$.src'), '::') + 2), json_extract(value, '$.srcFile'), substr(json_extract(value, '$.dst'), instr(json_extract(value, '$.dst'), '::') + 2),
              json_extract(value, '$.dstFile'), json_extract(value, '$.name'), json_extract(value, '$.line')
       FROM json_each(?2)`,
    ).bind(projectId, JSON.stringify(rows)),
    DB.prepare(`UPDATE projects SET graph_generation = CASE WHEN ?2 THEN generation - 1 ELSE generation END WHERE id = ?1`).bind(projectId, opts.pending ? 1 : 0),
  ]);
}
