import { env } from 'cloudflare:workers';
import { push, request, type Json } from '../upload/support';

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
