import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { rest, type Json } from '../helpers';

export const DB = (env as unknown as { DB: D1Database }).DB;

/** Indexes `files` ({path: content}) into `project` through the real index tool. */
export async function indexProject(project: string, files: Record<string, string>): Promise<string> {
  const r = await rest('index', { project, files: Object.entries(files).map(([path, content]) => ({ path, content })) });
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  const row = await DB.prepare('SELECT id FROM projects WHERE name = ?1').bind(project).first<{ id: string }>();
  if (!row) throw new Error(`project ${project} missing after index`);
  return row.id;
}

export interface EdgeSeed {
  kind: 'CALLS' | 'IMPORTS' | 'INHERITS' | 'IMPLEMENTS';
  src: string | null;
  srcFile: string;
  dst: string | null;
  dstFile: string | null;
  name: string;
  line: number;
  confidence?: number;
  provenance?: string;
}

/**
 * Replaces the project's edges with `edges` (whatever the resolution pass
 * wrote at push) and marks the graph current, or `pending` behind the index.
 */
export async function seedEdges(projectId: string, edges: readonly EdgeSeed[], opts: { pending?: boolean } = {}): Promise<void> {
  await DB.batch([
    DB.prepare('DELETE FROM edges WHERE project_id = ?1').bind(projectId),
    // Edges written outside a resolution pass: drop the aggregates kept for the old ones.
    DB.prepare('DELETE FROM project_aggregates WHERE project_id = ?1').bind(projectId),
    DB.prepare(
      `INSERT INTO edges (project_id, kind, src_id, src_file, dst_id, dst_file, name, line, confidence, provenance)
       SELECT ?1, json_extract(value, '$.kind'), json_extract(value, '$.src'), json_extract(value, '$.srcFile'), json_extract(value, '$.dst'),
              json_extract(value, '$.dstFile'), json_extract(value, '$.name'), json_extract(value, '$.line'),
              coalesce(json_extract(value, '$.confidence'), 1.0), coalesce(json_extract(value, '$.provenance'), 'import')
       FROM json_each(?2)`,
    ).bind(projectId, JSON.stringify(edges)),
    DB.prepare(`UPDATE projects SET graph_generation = CASE WHEN ?2 THEN generation - 1 ELSE generation END WHERE id = ?1`).bind(projectId, opts.pending ? 1 : 0),
  ]);
}

/** `POST /v1/tools/batch`. */
export function batch(args: Json, headers: Record<string, string> = {}) {
  return rest('batch', args, headers);
}

/** Tokens of a JSON value as the default accounting counts them. */
export const tokens = (v: unknown) => Math.ceil(JSON.stringify(v).length / 4);

/** Runs a next step over REST and expects a clean 200 without unknown_arg warnings. */
export async function runStep(step: Json, headers: Record<string, string> = {}): Promise<Json> {
  const r = await rest(step.tool, step.args, headers);
  expect(r.status, JSON.stringify(step).slice(0, 300)).toBe(200);
  expect(((r.body._meta.warnings_v2 ?? []) as Json[]).filter((w) => w.code === 'unknown_arg')).toEqual([]);
  return r.body;
}
