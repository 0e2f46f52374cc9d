import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { push, request, type Json } from '../upload/support';
import { moveStep, type MoveStepAnswer } from '../../../src/shards/move';
import { PROJECT_TABLES } from '../../../src/db/project-copy';
import { expectNameBests } from '../name-best-support';

export { env, type Json };

/** The two local databases: shard 0 (the primary) and shard 1. */
export const SHARDS: Record<number, D1Database> = {
  0: (env as unknown as { DB: D1Database }).DB,
  1: (env as unknown as { DB_SHARD_1: D1Database }).DB_SHARD_1,
};

export const ADMIN = 'test-admin-key';

/** The shard the catalog (on the primary) places `name` on, or null. */
export async function placedOn(name: string): Promise<number | null> {
  const row = await SHARDS[0].prepare('SELECT shard FROM project_shards WHERE name = ?1').bind(name).first<{ shard: number }>();
  return row?.shard ?? null;
}

/** How many `projects` rows named `name` shard `index` holds. */
export async function storedOn(index: number, name: string): Promise<number> {
  const row = await SHARDS[index].prepare('SELECT count(*) AS n FROM projects WHERE name = ?1').bind(name).first<{ n: number }>();
  return row?.n ?? 0;
}

/** D1's own figure of a database's stored bytes (the independent measure placement must follow). */
export async function bytesOf(index: number): Promise<number> {
  return (await SHARDS[index].prepare('SELECT 1').run()).meta.size_after;
}

/** Pushes `files` to `project` and expects the commit to succeed. */
export async function pushed(project: string, files: Record<string, string>): Promise<Json> {
  const r = await push(project, files);
  if (r.commit?.status !== 200) throw new Error(`push of ${project} failed: ${JSON.stringify(r.open.body).slice(0, 300)}`);
  return r.commit;
}

/** An admin route with the admin key (or `key`). */
export function admin(method: string, path: string, body?: unknown, key: string | null = ADMIN) {
  return request(method, `/v1/admin${path}`, body, key);
}

/** A budget small enough to force a project of MANY's size through many steps. */
export const TINY = 16;

export const MANY: Record<string, string> = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [
    `src/m${i}.ts`,
    `export function fn${i}(x: number) {\n  return helper${i}(x) + ${i};\n}\nexport function helper${i}(y: number) {\n  return y * 2;\n}\nexport class Box${i} {\n  get() {\n    return fn${i}(1);\n  }\n}\n`,
  ]),
);

/** The project is on `to` with every row it had on `from` once (its contents and extractions too), and gone from `from`. */
export async function expectMovedIntact(name: string, from: number, to: number, before: Record<string, Record<string, unknown>[]>): Promise<void> {
  expect(await placedOn(name)).toBe(to);
  expect(await dump(to, name)).toEqual(before);
  expect(await missingContent(to, name)).toBe(0);
  expect(await storedOn(from, name)).toBe(0);
  // The distinct names (symbol_names, kept by triggers) follow the symbols: all of them on the new shard, none left on the old.
  const id = await idOf(to, name);
  const names = (shard: number, sql: string) => SHARDS[shard].prepare(sql).bind(id).all<{ name: string }>().then((r) => r.results.map((x) => x.name));
  const held = await names(to, 'SELECT name FROM symbol_names WHERE project_id = ?1 ORDER BY name');
  expect(held.length).toBeGreaterThan(0);
  expect(held).toEqual(await names(to, 'SELECT DISTINCT name FROM symbols WHERE project_id = ?1 ORDER BY name'));
  expect(await names(from, 'SELECT name FROM symbol_names WHERE project_id = ?1')).toEqual([]);
  // Each name's best symbol, worked out again on the new shard for the rowids its copies were given there.
  await expectNameBests(SHARDS[to], id);
}

export interface Cursor {
  table_index: number;
  after_rowid: number;
  copied: Record<string, number>;
}

/** The move cursor of `name` on shard `shard` (not the record a finished move leaves), or null. */
export async function cursor(shard: number, name: string): Promise<Cursor | null> {
  const row = await SHARDS[shard].prepare("SELECT table_index, after_rowid, copied FROM project_moves WHERE name = ?1 AND phase <> 'moved'").bind(name).first<{ table_index: number; after_rowid: number; copied: string }>();
  return row ? { ...row, copied: JSON.parse(row.copied) } : null;
}

export function tableAt(index: number): string {
  return PROJECT_TABLES[index]?.table ?? 'projects';
}

/** Steps the move of `name` to `to` with `queries` per step until it is moved; `between` sees every answer before the last. */
export async function stepUntilMoved(name: string, to: number, queries: number, between?: (a: MoveStepAnswer, i: number) => Promise<void>): Promise<MoveStepAnswer[]> {
  const answers: MoveStepAnswer[] = [];
  for (let i = 0; i < 500; i++) {
    const a = await moveStep(env as never, name, to, { queries });
    answers.push(a);
    if (a.state === 'moved') return answers;
    await between?.(a, i);
  }
  throw new Error('the move did not finish in 500 steps');
}

export async function idOf(shard: number, name: string): Promise<string> {
  return (await SHARDS[shard].prepare('SELECT id FROM projects WHERE name = ?1').bind(name).first<{ id: string }>())?.id ?? '';
}

export async function movingTo(name: string): Promise<number | null> {
  return (await SHARDS[0].prepare('SELECT moving_to FROM project_shards WHERE name = ?1').bind(name).first<{ moving_to: number | null }>())?.moving_to ?? null;
}

export async function leftovers(shard: number): Promise<number> {
  return (await SHARDS[shard].prepare('SELECT count(*) AS n FROM shard_leftovers').first<{ n: number }>())?.n ?? 0;
}

/** Every row of the project's index on `shard`, table by table in rowid order, without the rowids (and edge end ids) a copy assigns afresh. */
export async function dump(shard: number, name: string): Promise<Record<string, Record<string, unknown>[]>> {
  const db = SHARDS[shard];
  const out: Record<string, Record<string, unknown>[]> = {};
  out.projects = (await db.prepare('SELECT * FROM projects WHERE name = ?1').bind(name).all<Record<string, unknown>>()).results;
  const id = (out.projects[0]?.id as string) ?? '';
  for (const table of ['files', 'symbols', 'edges', 'adrs', 'project_aggregates', 'uploads']) {
    const rows = (await db.prepare(`SELECT * FROM ${table} WHERE project_id = ?1 ORDER BY rowid`).bind(id).all<Record<string, unknown>>()).results;
    out[table] = rows.map(({ rowid: _rowid, src_end: _src, dst_end: _dst, ...rest }) => rest);
  }
  return out;
}

/** Files of the project on `shard` whose content or extraction the shard lacks. */
export async function missingContent(shard: number, name: string): Promise<number> {
  const id = await idOf(shard, name);
  const row = await SHARDS[shard]
    .prepare(
      'SELECT count(*) AS n FROM files f WHERE f.project_id = ?1 AND (NOT EXISTS (SELECT 1 FROM blobs b WHERE b.hash = f.hash) OR NOT EXISTS (SELECT 1 FROM extractions e WHERE e.hash = f.hash AND e.language = f.language AND e.extractor_version = f.extractor_version))',
    )
    .bind(id)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
