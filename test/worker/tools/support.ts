import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { rest, type Json } from '../helpers';
import { edgeRow, writeSeedEdges, type EdgeRowSeed } from '../seed-edges';

export const DB = (env as unknown as { DB: D1Database }).DB;

/** Indexes `files` ({path: content}) into `project` through the real index tool. */
export async function indexProject(project: string, files: Record<string, string>): Promise<string> {
  const r = await rest('index', { project, files: Object.entries(files).map(([path, content]) => ({ path, content })) });
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  const row = await DB.prepare('SELECT id FROM projects WHERE name = ?1').bind(project).first<{ id: string }>();
  if (!row) throw new Error(`project ${project} missing after index`);
  return row.id;
}

/** An edge row with confidence and provenance optional (1.0, 'import'). */
export type EdgeSeed = Omit<EdgeRowSeed, 'confidence' | 'provenance'> & Partial<Pick<EdgeRowSeed, 'confidence' | 'provenance'>>;

/**
 * Replaces the project's edges with `edges` (whatever the resolution pass
 * wrote at push) and marks the graph current, or `pending` behind the index.
 */
export async function seedEdges(projectId: string, edges: readonly EdgeSeed[], opts: { pending?: boolean } = {}): Promise<void> {
  await writeSeedEdges(projectId, edges.map((e) => edgeRow(e, { confidence: 1, provenance: 'import' })), opts);
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
