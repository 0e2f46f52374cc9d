import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forgetShards } from '../../../src/db/project-shard';
import { forgetProjects } from '../../../src/tools/project-cache';
import type { ToolOutcome } from '../../../src/tools/run';
import { runRead } from '../run-tool';
import type { Json } from '../helpers';
import { push } from '../upload/support';

/**
 * A cold isolate's first call of a project on the primary reads the project's row in the catalog's round trip (the
 * catalog is on the primary): two round trips, not three. The catalog's answer stays the one that counts.
 */
const PROJECT = 'cold-call-trips';
const ID = 'src/a.ts::a#Function';

/** The test env with the primary alone bound (the other shard bindings left out). */
function oneShard(): typeof env {
  const out: Record<string, unknown> = { ...env };
  for (const name of Object.keys(out)) if (/^DB_SHARD_\d+$/.test(name)) delete out[name];
  return out as unknown as typeof env;
}

const call = (e: typeof env, name: string, args: Json): Promise<ToolOutcome> => runRead(e, name, args);

beforeAll(async () => {
  expect((await push(PROJECT, { 'src/a.ts': 'export function a(): number {\n  return 1;\n}\n' })).commit?.status).toBe(200);
  // Pushed while two shards are bound: make sure it sits on the primary, as it would with one.
  const placed = await env.DB.prepare('SELECT shard FROM project_shards WHERE name = ?1').bind(PROJECT).first<{ shard: number }>();
  expect(placed?.shard).toBe(0);
});
beforeEach(() => {
  forgetShards();
  forgetProjects();
});

describe('a cold first call of a project on the primary', () => {
  it('answers in two round trips (the catalog entry with the project row, then the tool), with one database bound or two', async () => {
    for (const e of [env, oneShard()]) {
      forgetShards();
      forgetProjects();
      const cold = await call(e, 'symbol', { project: PROJECT, id: ID });
      expect(cold.ok, cold.payloadText.slice(0, 300)).toBe(true);
      expect((cold as Extract<ToolOutcome, { ok: true }>).result.symbol).toBeTruthy();
      expect(cold.reads.roundTrips).toBe(2);
      const warm = await call(e, 'symbol', { project: PROJECT, id: ID });
      expect(warm.reads.roundTrips).toBe(1);
    }
  });

  it('says no_project_indexed for a project no database holds, in the one round trip', async () => {
    const outcome = await call(oneShard(), 'symbol', { project: 'cold-call-no-such', id: ID });
    expect(outcome.ok).toBe(true);
    expect(outcome.meta.empty_reason).toBe('no_project_indexed');
    expect(outcome.reads.roundTrips).toBe(1);
  });

  it('uses the row read with the catalog over an older cached one: a project pushed again answers from its new index', async () => {
    await call(env, 'symbol', { project: PROJECT, id: ID });
    expect((await push(PROJECT, { 'src/a.ts': 'export function a(): number {\n  return 2;\n}\n' })).commit?.status).toBe(200);
    // The old row is cached in the isolate, the shard is not remembered: the catalog's round trip brings the new row.
    forgetShards();
    const again = await call(env, 'symbol', { project: PROJECT, id: ID });
    expect(again.ok).toBe(true);
    expect(JSON.stringify((again as Extract<ToolOutcome, { ok: true }>).result)).toContain('return 2');
    expect(again.reads.roundTrips).toBe(2);
  });

  it('names the unbound shard a catalog places the project on (a binding removed)', async () => {
    await env.DB.prepare('INSERT INTO project_shards (name, shard, placed_at) VALUES (?1, 1, ?2)').bind('cold-call-elsewhere', Date.now()).run();
    try {
      const outcome = await call(oneShard(), 'symbol', { project: 'cold-call-elsewhere', id: ID });
      expect(outcome.ok).toBe(false);
      expect(outcome.ok ? null : outcome.error.code).toBe('shard_unavailable');
    } finally {
      await env.DB.prepare('DELETE FROM project_shards WHERE name = ?1').bind('cold-call-elsewhere').run();
    }
  });
});
