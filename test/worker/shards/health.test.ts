import { afterEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../../src/version';
import { request } from '../upload/support';
import { SHARDS } from './support';

type ShardState = { shard: number; applied_migrations: number | null; migrations_current: boolean };
type Health = { ok: boolean; applied_migrations: number | null; migrations_current: boolean; binary_drift: boolean; shards: ShardState[] };

async function health(): Promise<Health> {
  const res = await request('POST', '/v1/tools/health', {});
  expect(res.status).toBe(200);
  return (res.body as unknown as { result: Health }).result;
}

/** The ledger row of shard 1's newest migration, removed by a test and put back after it. */
let removed: { id: number; name: string; applied_at: string } | null = null;

afterEach(async () => {
  if (!removed) return;
  await SHARDS[1].prepare('INSERT INTO d1_migrations (id, name, applied_at) VALUES (?1, ?2, ?3)').bind(removed.id, removed.name, removed.applied_at).run();
  removed = null;
});

describe('health across two local D1 databases', () => {
  it('reports the migration ledger of every shard, all current', async () => {
    const h = await health();
    expect(h.shards).toEqual([
      { shard: 0, applied_migrations: SCHEMA_VERSION, migrations_current: true },
      { shard: 1, applied_migrations: SCHEMA_VERSION, migrations_current: true },
    ]);
    expect(h).toMatchObject({ ok: true, migrations_current: true, binary_drift: false, applied_migrations: SCHEMA_VERSION });
  });

  it('is not ok, and names the shard, when one shard misses a migration the primary has', async () => {
    removed = await SHARDS[1].prepare('SELECT id, name, applied_at FROM d1_migrations ORDER BY id DESC LIMIT 1').first();
    expect(removed).not.toBeNull();
    await SHARDS[1].prepare('DELETE FROM d1_migrations WHERE id = ?1').bind(removed!.id).run();
    const h = await health();
    // The primary alone is current: before, health read only the primary and said the server was fine.
    expect(h.applied_migrations).toBe(SCHEMA_VERSION);
    expect(h.shards.find((s) => s.shard === 1)).toEqual({ shard: 1, applied_migrations: SCHEMA_VERSION - 1, migrations_current: false });
    expect(h.shards.find((s) => s.shard === 0)?.migrations_current).toBe(true);
    expect(h).toMatchObject({ ok: false, migrations_current: false, binary_drift: false });
  });

  it('reports binary drift when one shard holds a migration this Worker does not know', async () => {
    await SHARDS[1].prepare("INSERT INTO d1_migrations (name, applied_at) VALUES ('9999_from_a_newer_worker.sql', datetime('now'))").run();
    try {
      const h = await health();
      expect(h.shards.find((s) => s.shard === 1)?.applied_migrations).toBe(SCHEMA_VERSION + 1);
      expect(h).toMatchObject({ ok: false, migrations_current: false, binary_drift: true });
    } finally {
      await SHARDS[1].prepare("DELETE FROM d1_migrations WHERE name = '9999_from_a_newer_worker.sql'").run();
    }
  });
});
