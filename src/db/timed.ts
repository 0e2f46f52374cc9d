/**
 * A D1 binding that reports each statement's wall time, for finding where a
 * tool call spends its time (`PINCHER_SQL_TIMING=1`; off by default). Each
 * statement logs one line: the tool, milliseconds, rows returned and the
 * first 160 characters of the SQL text (a batch: the first 80 of each of
 * its statements). SQL here is the server's own text:
 * bound values (names, paths, queries, source) are never logged.
 */

import type { D1Reader } from './request-database';

interface Timing {
  tool: string;
  log: (line: string) => void;
}

const unwrap = new WeakMap<object, D1PreparedStatement>();
/** The SQL head of each wrapped statement, for the line of a batch that holds it. */
const heads = new WeakMap<object, string>();

function sqlHead(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim().slice(0, 160);
}

/** Rows an answer holds: a raw() array, an all()/run() result, or first()'s row (null: none). */
function rowsOf(r: unknown): number {
  if (Array.isArray(r)) return r.length;
  if (r && typeof r === 'object' && 'results' in r && Array.isArray((r as { results: unknown[] }).results)) return (r as { results: unknown[] }).results.length;
  return r === null || r === undefined ? 0 : 1;
}

async function timed<T>(t: Timing, label: string, run: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    const out = await run();
    t.log(`sql-timing tool=${t.tool} ms=${(performance.now() - t0).toFixed(1)} rows=${rowsOf(out)} ${label}`);
    return out;
  } catch (err) {
    t.log(`sql-timing tool=${t.tool} ms=${(performance.now() - t0).toFixed(1)} failed ${label}`);
    throw err;
  }
}

function wrapStatement(real: D1PreparedStatement, sql: string, t: Timing): D1PreparedStatement {
  const head = sqlHead(sql);
  const wrapped = {
    bind: (...values: unknown[]) => wrapStatement(real.bind(...values), sql, t),
    first: (column?: string) => timed(t, head, () => (column === undefined ? real.first() : real.first(column))),
    all: () => timed(t, head, () => real.all()),
    run: () => timed(t, head, () => real.run()),
    raw: (options?: { columnNames?: boolean }) => timed(t, head, () => real.raw(options as { columnNames: true })),
  } as unknown as D1PreparedStatement;
  unwrap.set(wrapped, real);
  heads.set(wrapped, head);
  return wrapped;
}

/** `db` (a binding or a session) with every statement timed and logged under `tool`. */
export function timedDatabase(db: D1Reader, tool: string, log: (line: string) => void = (l) => console.log(l)): D1Reader {
  const t: Timing = { tool, log };
  return {
    prepare: (sql: string) => wrapStatement(db.prepare(sql), sql, t),
    batch: <T>(statements: D1PreparedStatement[]) =>
      timed(t, `batch of ${statements.length}: ${statements.map((s) => `[${(heads.get(s) ?? '?').slice(0, 80)}]`).join(' ')}`, () =>
        db.batch<T>(statements.map((s) => unwrap.get(s) ?? s)),
      ),
  };
}
