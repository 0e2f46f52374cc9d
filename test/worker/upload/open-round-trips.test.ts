import { describe, expect, it } from 'vitest';
import { openUpload } from '../../../src/upload/service';
import { env, manifestOf, pySource, push } from './support';

const DB = (env as unknown as { DB: D1Database }).DB;

/** The real binding, counting its round trips: each run of a statement and each batch (with its statements' SQL). */
function counting(): { d1: D1Database; trips: string[][] } {
  const trips: string[][] = [];
  const sqlOf = new WeakMap<object, string>();
  const wrap = (sql: string, real: D1PreparedStatement): D1PreparedStatement => {
    const statement = new Proxy(real, {
      get(target, key) {
        if (key === 'bind') return (...args: unknown[]) => wrap(sql, target.bind(...args));
        if (key === 'all' || key === 'run' || key === 'first' || key === 'raw') {
          return (...args: unknown[]) => {
            trips.push([sql]);
            return (target[key] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    sqlOf.set(statement, sql);
    return statement;
  };
  const d1 = {
    prepare: (sql: string) => wrap(sql, DB.prepare(sql)),
    batch: (statements: D1PreparedStatement[]) => {
      trips.push(statements.map((s) => sqlOf.get(s) ?? '?'));
      // The proxies stand for the real statements: unwrap them for the real batch.
      return DB.batch(statements.map((s) => (s as unknown as { valueOf(): D1PreparedStatement }).valueOf()));
    },
  } as unknown as D1Database;
  return { d1, trips };
}

describe('opening an upload', { timeout: 60_000 }, () => {
  it('reads the change counts, the missing contents and a size conflict in one round trip, with the same answer', async () => {
    const held = pySource('held');
    await push('open-trips-a', { 'held.py': held });
    const files = { 'held.py': held, 'new.py': pySource('new') };
    const { d1, trips } = counting();
    const opened = await openUpload({ project: 'open-trips-b', shard: 0, db: d1, primary: DB }, { project: 'open-trips-b', manifest: await manifestOf(files) });
    expect(opened.plan).toEqual({ new: 2, changed: 0, unchanged: 0, deleted: 0 });
    expect(opened.missing).toEqual([(await manifestOf({ 'new.py': files['new.py'] }))[0].hash]);
    const reads = [/SELECT change, count\(\*\) AS n FROM upload_files/, /SELECT DISTINCT u\.hash FROM upload_files/, /u\.size != b\.size LIMIT 1/];
    const holding = reads.map((re) => trips.findIndex((trip) => trip.some((sql) => re.test(sql))));
    expect(holding.every((at) => at >= 0)).toBe(true);
    expect(new Set(holding).size).toBe(1);
  });
});
