import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { requestDatabase, type Fold } from '../../../src/db/request-database';
import { recording } from '../recording-d1';

const DB = (env as unknown as { DB: D1Database }).DB;

describe('requestDatabase', () => {
  it('answers as the binding does and counts one round trip per statement or batch', async () => {
    const db = requestDatabase(DB);
    expect(await db.prepare('SELECT ?1 AS v, 2 AS n').bind('x').first()).toEqual({ v: 'x', n: 2 });
    expect(await db.prepare('SELECT ?1 AS v').bind('y').first('v')).toBe('y');
    expect(await db.prepare('SELECT 1 AS v WHERE 0').first()).toBeNull();
    const all = await db.prepare('SELECT value FROM json_each(?1)').bind('[1,2,3]').all<{ value: number }>();
    expect(all.results.map((r) => r.value)).toEqual([1, 2, 3]);
    const batch = await db.batch<{ n: number }>([db.prepare('SELECT 7 AS n'), db.prepare('SELECT 8 AS n')]);
    expect(batch.map((r) => r.results[0].n)).toEqual([7, 8]);
    expect(db.roundTrips).toBe(5);
  });

  it('sends statements issued together as one batch, each caller getting its own answer', async () => {
    const db = requestDatabase(DB);
    const [a, b, c, d] = await Promise.all([
      db.prepare('SELECT ?1 AS v').bind('a').first('v'),
      db.prepare('SELECT 1 AS n UNION ALL SELECT 2').all<{ n: number }>(),
      (async () => {
        await Promise.resolve();
        return db.prepare('SELECT 3 AS n').first<{ n: number }>();
      })(),
      db.batch<{ n: number }>([db.prepare('SELECT 4 AS n'), db.prepare('SELECT 5 AS n')]),
    ]);
    expect(a).toBe('a');
    expect(b.results).toEqual([{ n: 1 }, { n: 2 }]);
    expect(c).toEqual({ n: 3 });
    expect(d.map((r) => r.results[0].n)).toEqual([4, 5]);
    expect(db.roundTrips).toBe(1);
  });

  it('gives each statement its own answer or error when one of a combined batch fails', async () => {
    const db = requestDatabase(DB);
    const [ok, bad] = await Promise.allSettled([db.prepare('SELECT 1 AS n').first('n'), db.prepare('SELECT * FROM no_such_table').all()]);
    expect(ok).toEqual({ status: 'fulfilled', value: 1 });
    expect(bad.status).toBe('rejected');
    expect(String((bad as PromiseRejectedResult).reason)).toMatch(/no such table/);
  });

  it('runs a ride-along check inside the next round trip, and on its own at flush', async () => {
    const db = requestDatabase(DB);
    const seen: unknown[][] = [];
    db.rideAlong(db.prepare("SELECT 'check' AS c"), (rows) => seen.push(rows));
    expect(await db.prepare('SELECT 2 AS n').first('n')).toBe(2);
    expect(seen).toEqual([[{ c: 'check' }]]);
    expect(db.roundTrips).toBe(1);

    db.rideAlong(db.prepare("SELECT 'late' AS c"), (rows) => seen.push(rows));
    await db.flush();
    expect(seen[1]).toEqual([{ c: 'late' }]);
    expect(db.roundTrips).toBe(2);
    await db.flush();
    expect(db.roundTrips).toBe(2);
  });

  it('sends an optional check only with a trip the call makes: flush drops it', async () => {
    const db = requestDatabase(DB);
    const seen: unknown[][] = [];
    db.rideAlong(db.prepare("SELECT 'optional' AS c"), (rows) => seen.push(rows), undefined, { optional: true });
    expect(await db.prepare('SELECT 2 AS n').first('n')).toBe(2);
    expect(seen).toEqual([[{ c: 'optional' }]]);
    expect(db.roundTrips).toBe(1);

    db.rideAlong(db.prepare("SELECT 'dropped' AS c"), (rows) => seen.push(rows), undefined, { optional: true });
    await db.flush();
    expect(db.roundTrips).toBe(1);
    // A required check waiting beside it still goes at flush; the optional one is gone for good.
    db.rideAlong(db.prepare("SELECT 'required' AS c"), (rows) => seen.push(rows));
    await db.flush();
    expect(seen.slice(1)).toEqual([[{ c: 'required' }]]);
    expect(db.roundTrips).toBe(2);
    await db.prepare('SELECT 3 AS n').first('n');
    expect(seen).toHaveLength(2);
  });

  it('keeps a check for a later trip when the statement it rode with fails', async () => {
    const db = requestDatabase(DB);
    const seen: unknown[][] = [];
    db.rideAlong(db.prepare("SELECT 'check' AS c"), (rows) => seen.push(rows));
    await expect(db.prepare('SELECT * FROM no_such_table').all()).rejects.toThrow(/no such table/);
    expect(seen).toEqual([]);
    await db.flush();
    expect(seen).toEqual([[{ c: 'check' }]]);
  });

  describe('a check folded into the first statement', () => {
    /** A check that `SELECT ?from = ?from+1` holds: holds when `a` equals `b`. */
    const fold = (a: unknown, b: unknown, held: string[]): Fold => ({
      condition: (from) => ({ sql: `?${from} = ?${from + 1}`, values: [a, b] }),
      held: () => held.push('held'),
    });

    it('sends one statement, its rows and order unchanged, when the check holds', async () => {
      const db = requestDatabase(DB);
      const held: string[] = [];
      const settled: unknown[][] = [];
      db.rideAlong(db.prepare("SELECT 'check' AS c"), (rows) => settled.push(rows), fold(1, 1, held));
      const rows = await db.prepare('SELECT value AS v FROM json_each(?1) ORDER BY value DESC').bind('[2,3,1]').all<{ v: number }>();
      expect(rows.results).toEqual([{ v: 3 }, { v: 2 }, { v: 1 }]);
      expect(held).toEqual(['held']);
      expect(settled).toEqual([]);
      expect([db.roundTrips, db.statements]).toEqual([1, 1]);
    });

    it('keeps the answer of first(), a recursive WITH and a statement ending in a comment', async () => {
      const db = requestDatabase(DB);
      const held: string[] = [];
      db.rideAlong(db.prepare("SELECT 'check' AS c"), () => {}, fold('x', 'x', held));
      expect(await db.prepare('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1) SELECT sum(i) AS s FROM n; ').bind(4).first('s')).toBe(10);
      db.rideAlong(db.prepare("SELECT 'check' AS c"), () => {}, fold('x', 'x', held));
      expect(await db.prepare('SELECT ?1 AS v -- the value').bind('y').first()).toEqual({ v: 'y' });
      expect(held).toEqual(['held', 'held']);
      expect([db.roundTrips, db.statements]).toEqual([2, 2]);
    });

    it('folds into a statement whose string literals hold a semicolon', async () => {
      const db = requestDatabase(DB);
      const held: string[] = [];
      db.rideAlong(db.prepare("SELECT 'check' AS c"), () => {}, fold(1, 1, held));
      expect(await db.prepare("SELECT ?1 || ':;' AS v, 'it''s; fine' AS w").bind('a').first()).toEqual({ v: 'a:;', w: "it's; fine" });
      expect([held.length, db.roundTrips, db.statements]).toEqual([1, 1, 1]);
    });

    it('appends the check as a LIMIT to a SELECT without one, and wraps one that has its own', async () => {
      const { d1, seen } = recording();
      const db = requestDatabase(d1);
      const held: string[] = [];
      const plain = "SELECT value AS v, (SELECT count(*) FROM json_each(?1) LIMIT 1) AS n, 'LIMIT (' AS w FROM json_each(?1) ORDER BY value DESC";
      db.rideAlong(db.prepare("SELECT 'check' AS c"), () => {}, fold(1, 1, held));
      expect((await db.prepare(plain).bind('[2,3,1]').all()).results).toEqual([3, 2, 1].map((v) => ({ v, n: 3, w: 'LIMIT (' })));
      const limited = 'SELECT value AS v FROM json_each(?1) ORDER BY value LIMIT 2';
      db.rideAlong(db.prepare("SELECT 'check' AS c"), () => {}, fold(1, 1, held));
      expect((await db.prepare(limited).bind('[2,3,1]').all()).results).toEqual([{ v: 1 }, { v: 2 }]);
      const sent = seen.map((s) => s.sql).filter((sql) => sql.includes('ride-along check'));
      expect(sent).toHaveLength(2);
      expect(sent[0].startsWith(`${plain}\nLIMIT CASE WHEN `)).toBe(true);
      expect(sent[1].startsWith(`SELECT * FROM (\n${limited}\n) LIMIT CASE WHEN `)).toBe(true);
      expect([held.length, db.roundTrips, db.statements]).toEqual([2, 2, 2]);
    });

    it('folds into a statement it can append to before a shorter one it would wrap, else into the shortest', async () => {
      const { d1, seen } = recording();
      const db = requestDatabase(d1);
      const held: string[] = [];
      const short = 'SELECT value AS v FROM json_each(?1) LIMIT 1';
      const long = "SELECT value AS v, 'a longer statement than the other, with no LIMIT of its own' AS w FROM json_each(?1) ORDER BY value";
      db.rideAlong(db.prepare("SELECT 'check' AS c"), () => {}, fold(1, 1, held));
      const [a, b] = await Promise.all([db.prepare(short).bind('[7]').all(), db.prepare(long).bind('[8,9]').all()]);
      expect([a.results, b.results.length]).toEqual([[{ v: 7 }], 2]);
      // Both take a wrap: the shorter one is wrapped.
      const wrapped = "SELECT value AS v, 'a longer statement than the other' AS w FROM json_each(?1) ORDER BY value LIMIT 5";
      db.rideAlong(db.prepare("SELECT 'check' AS c"), () => {}, fold(1, 1, held));
      await Promise.all([db.prepare(short).bind('[7]').all(), db.prepare(wrapped).bind('[8,9]').all()]);
      const sent = seen.map((x) => x.sql).filter((sql) => sql.includes('ride-along check'));
      expect(sent).toHaveLength(2);
      expect(sent[0].startsWith(`${long}\nLIMIT CASE WHEN `)).toBe(true);
      expect(sent[1].startsWith(`SELECT * FROM (\n${short}\n) LIMIT CASE WHEN `)).toBe(true);
      expect([held.length, db.roundTrips, db.statements]).toEqual([2, 2, 4]);
    });

    it('keeps the column names of a statement that repeats one', async () => {
      const sql = 'SELECT 1 AS a, 2 AS a, 3 AS b';
      const alone = await DB.prepare(sql).all();
      const db = requestDatabase(DB);
      const held: string[] = [];
      db.rideAlong(db.prepare("SELECT 'check' AS c"), () => {}, fold(1, 1, held));
      expect((await db.prepare(sql).all()).results).toEqual(alone.results);
      expect([held.length, db.roundTrips, db.statements]).toEqual([1, 1, 1]);
    });

    it('settles from the check statement when the check does not hold, even where the statement has no row', async () => {
      for (const sql of ['SELECT 1 AS n WHERE 0', 'SELECT count(*) AS n FROM json_each(?1) GROUP BY value', 'SELECT 5 AS n']) {
        const db = requestDatabase(DB);
        const held: string[] = [];
        const settled: unknown[][] = [];
        db.rideAlong(db.prepare("SELECT 'changed' AS c"), (rows) => settled.push(rows), fold(1, 2, held));
        const stmt = db.prepare(sql);
        const got = await (sql.includes('?1') ? stmt.bind('[]') : stmt).all();
        expect(got.results, sql).toEqual(sql === 'SELECT 5 AS n' ? [{ n: 5 }] : []);
        expect(held, sql).toEqual([]);
        expect(settled, sql).toEqual([[{ c: 'changed' }]]);
        // The folded statement failed, then the trip went again with the check beside it.
        expect([db.roundTrips, db.statements], sql).toEqual([2, 3]);
      }
    });

    it('folds into a batch of several statements, and rides as a statement of its own beside a write', async () => {
      const db = requestDatabase(DB);
      const held: string[] = [];
      db.rideAlong(db.prepare("SELECT 'check' AS c"), () => {}, fold(1, 1, held));
      const [a, b] = await Promise.all([db.prepare('SELECT 1 AS n').first('n'), db.prepare('SELECT 2 AS n').first('n')]);
      expect([a, b, held.length, db.roundTrips, db.statements]).toEqual([1, 2, 1, 1, 2]);
      const settled: unknown[][] = [];
      db.rideAlong(db.prepare("SELECT 'check' AS c"), (rows) => settled.push(rows), fold(1, 1, held));
      await db.prepare('CREATE TABLE IF NOT EXISTS fold_probe (x)').run();
      expect(settled).toEqual([[{ c: 'check' }]]);
      expect([db.roundTrips, db.statements]).toEqual([2, 4]);
    });
  });

  it('reads through a D1 session and reports its bookmark', async () => {
    const session = DB.withSession('first-unconstrained');
    const db = requestDatabase(session);
    expect(await db.prepare('SELECT 1 AS n').first('n')).toBe(1);
    expect(typeof session.getBookmark()).toBe('string');
  });
});
