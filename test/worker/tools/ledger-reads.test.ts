import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ageSchemaState, resetSchemaStateCache, schemaState } from '../../../src/db/migrations';
import type { ToolOutcome } from '../../../src/tools/run';
import { runRead } from '../run-tool';
import type { Json } from '../helpers';
import { countingD1 } from '../upload/counting-d1';
import { push } from '../upload/support';

/**
 * The envelope's stamp reports the migration ledger's state (src/envelope/stamp.ts), kept per isolate and binding
 * for a few seconds (src/db/migrations.ts). It must cost no round trip of its own: health's own ledger reads are
 * kept for it, and a kept state older than those seconds is confirmed inside the call's first round trip.
 */
const PROJECT = 'ledger-reads';
/** The ledger read (another call's check may be folded into it as its LIMIT). */
const LEDGER = /^SELECT name FROM d1_migrations ORDER BY id\b/;

/**
 * Ledger statements the counted bindings (countingD1) executed since the last `reset`: `alone` the ledger read
 * itself, `single` those of them sent on their own (a trip of that one statement), `folded` other statements naming
 * the ledger (a check folded in).
 */
class LedgerTally {
  private base = { alone: 0, single: 0, folded: 0 };
  constructor(private readonly sources: readonly { trips: string[][] }[]) {}
  private totals() {
    const trips = this.sources.flatMap((s) => s.trips);
    const statements = trips.flat();
    return {
      alone: statements.filter((sql) => LEDGER.test(sql)).length,
      single: trips.filter((t) => t.length === 1 && LEDGER.test(t[0])).length,
      folded: statements.filter((sql) => !LEDGER.test(sql) && sql.includes('d1_migrations')).length,
    };
  }
  reset(): void {
    this.base = this.totals();
  }
  get alone(): number {
    return this.totals().alone - this.base.alone;
  }
  get single(): number {
    return this.totals().single - this.base.single;
  }
  get folded(): number {
    return this.totals().folded - this.base.folded;
  }
}

/** A binding counted on its own: the counted handle and its tally. */
function counting(real: D1Database): { d1: D1Database; tally: LedgerTally } {
  const counted = countingD1(real);
  return { d1: counted.d1, tally: new LedgerTally([counted]) };
}

/** The test env with every shard binding counted (one tally for all). */
function countedEnv(): { env: typeof env; counts: LedgerTally; shards: number } {
  const counted = Object.entries(env)
    .filter(([name]) => /^DB(?:_SHARD_\d+)?$/.test(name))
    .map(([name, db]) => [name, countingD1(db as D1Database)] as const);
  const bindings = Object.fromEntries(counted.map(([name, c]) => [name, c.d1]));
  return { env: { ...env, ...bindings } as typeof env, counts: new LedgerTally(counted.map(([, c]) => c)), shards: counted.length };
}

async function call(e: typeof env, name: string, args: Json): Promise<Extract<ToolOutcome, { ok: true }>> {
  const outcome = await runRead(e, name, args);
  if (!outcome.ok) throw new Error(outcome.payloadText.slice(0, 300));
  return outcome;
}

beforeAll(async () => {
  expect((await push(PROJECT, { 'src/a.ts': 'export function a(): number {\n  return 1;\n}\n' })).commit?.status).toBe(200);
});
afterEach(() => resetSchemaStateCache());

describe("health and the envelope's ledger", () => {
  it('a health call reads each shard ledger once: the stamp reuses the read', async () => {
    const counted = countedEnv();
    // The ledger kept (as after any call): health still reads every shard's fresh, and the stamp reads none.
    await call(counted.env, 'symbol', { project: PROJECT, id: 'src/a.ts::a#Function' });
    for (const args of [{ project: PROJECT }, {}]) {
      counted.counts.reset();
      const outcome = await call(counted.env, 'health', args);
      expect(outcome.result.shards).toHaveLength(counted.shards);
      expect(counted.counts.alone, JSON.stringify(args)).toBe(counted.shards);
    }
  });

  it('a read through another handle is kept under the binding it names, and each binding keeps its own', async () => {
    const handle = counting(env.DB);
    const { d1: binding, tally: viaBinding } = counting(env.DB);
    const viaHandle = handle.tally;
    const read = await schemaState(handle.d1, { fresh: true, cacheAs: binding });
    expect(viaHandle.alone).toBe(1);
    expect(read.applied).toBe(env.TEST_MIGRATIONS.length);
    expect(await schemaState(binding)).toEqual(read);
    expect(viaBinding.alone).toBe(0);
    // Another binding has read nothing yet: it reads its own ledger, and the first binding's stays kept.
    const other = counting(env.DB);
    await schemaState(other.d1);
    expect(other.tally.alone).toBe(1);
    await schemaState(binding);
    expect(viaBinding.alone).toBe(0);
    // fresh reads again, and keeps what it read.
    await schemaState(binding, { fresh: true });
    expect(viaBinding.alone).toBe(1);
    await schemaState(binding);
    expect(viaBinding.alone).toBe(1);
    // anyAge takes a state kept past the few seconds; without it, the state is read again.
    ageSchemaState(binding, 60_000);
    expect(await schemaState(binding, { anyAge: true })).toEqual(read);
    expect(viaBinding.alone).toBe(1);
    await schemaState(binding);
    expect(viaBinding.alone).toBe(2);
  });
});

describe('a ledger kept past its few seconds', () => {
  it('is confirmed inside the call’s own round trip: the stamp reads nothing, the call makes no trip more', async () => {
    const counted = countedEnv();
    await call(counted.env, 'symbol', { project: PROJECT, id: 'src/a.ts::a#Function' });
    // The project row is cached now, and the ledger kept.
    const warm = await call(counted.env, 'symbol', { project: PROJECT, id: 'src/a.ts::a#Function' });
    expect(warm.reads.roundTrips).toBe(1);
    ageSchemaState(counted.env.DB, 60_000);
    counted.counts.reset();
    const aged = await call(counted.env, 'symbol', { project: PROJECT, id: 'src/a.ts::a#Function' });
    expect(aged.result.symbol).toBeTruthy();
    expect(aged.reads.roundTrips).toBe(1);
    expect([counted.counts.alone, counted.counts.folded]).toEqual([0, 1]);
    // Confirmed: kept afresh, so the next call folds nothing in.
    counted.counts.reset();
    await call(counted.env, 'symbol', { project: PROJECT, id: 'src/a.ts::a#Function' });
    expect([counted.counts.alone, counted.counts.folded]).toEqual([0, 0]);
  });

  it('is replaced by the ledger read in the call when a migration was applied since', async () => {
    const counted = countedEnv();
    await call(counted.env, 'symbol', { project: PROJECT, id: 'src/a.ts::a#Function' });
    const before = (await schemaState(counted.env.DB)).applied!;
    await env.DB.prepare("INSERT INTO d1_migrations (name, applied_at) VALUES ('9999_ledger_reads.sql', '2030-01-01 00:00:00')").run();
    try {
      ageSchemaState(counted.env.DB, 60_000);
      counted.counts.reset();
      const aged = await call(counted.env, 'symbol', { project: PROJECT, id: 'src/a.ts::a#Function' });
      expect(aged.result.symbol).toBeTruthy();
      // The folded check failed, so the trip went again with the ledger beside it; the stamp read nothing itself.
      expect(counted.counts.alone).toBe(1);
      expect(aged.reads.roundTrips).toBe(2);
      const state = await schemaState(counted.env.DB);
      expect(state.applied).toBe(before + 1);
      expect(state.names.at(-1)).toBe('9999_ledger_reads.sql');
      expect(counted.counts.alone).toBe(1);
      // The stamp saw the newer ledger: the server's code is older than the database.
      expect(aged.meta.binary_drift_warning?.stored_version).toBe(before + 1);
    } finally {
      await env.DB.prepare("DELETE FROM d1_migrations WHERE name = '9999_ledger_reads.sql'").run();
    }
  });

  it("an isolate's first call (nothing kept) carries the ledger in its own round trip: the stamp reads none on its own", async () => {
    const counted = countedEnv();
    await call(counted.env, 'symbol', { project: PROJECT, id: 'src/a.ts::a#Function' });
    resetSchemaStateCache();
    counted.counts.reset();
    const first = await call(counted.env, 'symbol', { project: PROJECT, id: 'src/a.ts::a#Function' });
    expect(first.result.symbol).toBeTruthy();
    expect(first.reads.roundTrips).toBe(1);
    expect(counted.counts.alone).toBe(1);
    expect(counted.counts.single).toBe(0);
    // Kept now: the next call reads no ledger.
    counted.counts.reset();
    await call(counted.env, 'symbol', { project: PROJECT, id: 'src/a.ts::a#Function' });
    expect(counted.counts.alone).toBe(0);
  });

  it('a call with no round trip on the primary drops the check: the stamp reads the ledger itself', async () => {
    const counted = countedEnv();
    await call(counted.env, 'why_empty', { code: 'no_results_in_corpus' });
    ageSchemaState(counted.env.DB, 60_000);
    counted.counts.reset();
    const outcome = await call(counted.env, 'why_empty', { code: 'no_results_in_corpus' });
    expect(outcome.reads.roundTrips).toBe(0);
    expect([counted.counts.alone, counted.counts.folded]).toEqual([1, 0]);
  });
});
