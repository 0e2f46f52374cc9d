import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { resetSchemaStateCache, schemaState } from '../../../src/db/migrations';
import { REGISTRY } from '../../../src/tools/registry';
import { runTool } from '../../../src/tools/run';
import { push } from '../upload/support';

/**
 * health reads every shard's migration ledger in its own round trip; the envelope's stamp, which asks for shard 0's
 * ledger by binding, then finds that read kept and sends no second one.
 */
const PROJECT = 'health-ledger';

/** A D1 binding (or session) that counts the ledger reads it executes and runs every statement on `real`. */
function counting(real: D1Database | D1DatabaseSession, reads: { n: number }): D1Database {
  const unwrap = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement, ledger: boolean): D1PreparedStatement => {
    const run = <T>(go: () => Promise<T>) => {
      if (ledger) reads.n++;
      return go();
    };
    const w = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), ledger),
      first: (column?: string) => run(() => (column === undefined ? statement.first() : statement.first(column))),
      all: () => run(() => statement.all()),
      run: () => run(() => statement.run()),
      raw: (options?: { columnNames?: boolean }) => run(() => statement.raw(options as { columnNames: true })),
    } as unknown as D1PreparedStatement;
    unwrap.set(w, statement);
    ledgers.set(w, ledger);
    return w;
  };
  const ledgers = new WeakMap<object, boolean>();
  return {
    prepare: (sql: string) => wrap(real.prepare(sql), /\bd1_migrations\b/.test(sql)),
    batch: (statements: D1PreparedStatement[]) => {
      reads.n += statements.filter((s) => ledgers.get(s)).length;
      return real.batch(statements.map((s) => unwrap.get(s) ?? s));
    },
    withSession: (bookmark?: string) => counting((real as D1Database).withSession(bookmark), reads),
    getBookmark: () => (real as D1DatabaseSession).getBookmark(),
  } as unknown as D1Database;
}

beforeAll(async () => {
  expect((await push(PROJECT, { 'src/a.ts': 'export function a(): number {\n  return 1;\n}\n' })).commit?.status).toBe(200);
});

describe("health and the envelope's ledger read", () => {
  it('a health call reads each shard ledger once: the stamp reuses the read', async () => {
    const reads = { n: 0 };
    const bindings = Object.fromEntries(Object.entries(env).filter(([name]) => /^DB(?:_SHARD_\d+)?$/.test(name)).map(([name, db]) => [name, counting(db as D1Database, reads)]));
    const shards = Object.keys(bindings).length;
    const counted = { ...env, ...bindings } as typeof env;
    const health = REGISTRY.find('health')!;
    for (const args of [{ project: PROJECT }, {}]) {
      resetSchemaStateCache();
      reads.n = 0;
      const outcome = await runTool(health, args, { env: counted, requestId: 'test', startedAt: Date.now(), scope: 'read', surface: 'rest', waitUntil: () => {}, registry: REGISTRY });
      if (!outcome.ok) throw new Error(outcome.payloadText.slice(0, 300));
      expect(outcome.result.shards).toHaveLength(shards);
      expect(reads.n, JSON.stringify(args)).toBe(shards);
    }
  });

  it('a read through another handle is kept under the binding it names, and each binding keeps its own', async () => {
    resetSchemaStateCache();
    const viaHandle = { n: 0 };
    const viaBinding = { n: 0 };
    const binding = counting(env.DB, viaBinding);
    const read = await schemaState(counting(env.DB, viaHandle), true, binding);
    expect(viaHandle.n).toBe(1);
    expect(read.applied).toBe(env.TEST_MIGRATIONS.length);
    expect(await schemaState(binding)).toEqual(read);
    expect(viaBinding.n).toBe(0);
    // Another binding has read nothing yet: it reads its own ledger, and the first binding's stays kept.
    const otherReads = { n: 0 };
    const another = counting(env.DB, otherReads);
    await schemaState(another);
    expect(otherReads.n).toBe(1);
    await schemaState(binding);
    expect(viaBinding.n).toBe(0);
    // fresh reads again, and keeps what it read.
    await schemaState(binding, true);
    expect(viaBinding.n).toBe(1);
    await schemaState(binding);
    expect(viaBinding.n).toBe(1);
  });
});
