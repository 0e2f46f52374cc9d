import { afterEach, describe, expect, it, vi } from 'vitest';
import { PincherError } from '../../../src/errors';
import { analyze } from '../../../src/query/analyze';
import { QueryError } from '../../../src/query/errors';
import { evaluateRegexes, runMain } from '../../../src/query/execute';
import { REGEX_BUDGET_MS, REGEX_CANDIDATES, WALK_CAP } from '../../../src/query/limits';
import { parseQuery } from '../../../src/query/parser';

/** A D1 stand-in: batch() answers candidate values, all() answers rows (as D1 does, objects by column name); every prepared SQL is recorded. */
function fakeDb(opts: { values?: unknown[]; rows?: Record<string, unknown>[]; fail?: Error }) {
  const sql: string[] = [];
  const stmt = (text: string) => {
    sql.push(text);
    const s = {
      bind: () => s,
      all: async () => {
        if (opts.fail) throw opts.fail;
        return { results: opts.rows ?? [] };
      },
    };
    return s;
  };
  const db = {
    prepare: stmt,
    batch: async (stmts: unknown[]) => {
      if (opts.fail) throw opts.fail;
      return stmts.map(() => ({ results: (opts.values ?? []).map((v) => ({ v })) }));
    },
  };
  return { db: db as unknown as D1Database, sql };
}

const a = (text: string) => analyze(text, parseQuery(text));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('regex evaluation', () => {
  it('keeps the candidate values the regex matches in full', async () => {
    const q = a("MATCH (f) WHERE f.name =~ 'get.*' RETURN f");
    const { db } = fakeDb({ values: ['getA', 'forget', 'get', null, 'getB'] });
    const values = await evaluateRegexes(db, q, 'p');
    expect([...values.values()]).toEqual([['getA', 'get', 'getB']]);
  });

  it(`refuses a regex with more than ${REGEX_CANDIDATES} candidate values, pointing at the regex`, async () => {
    const text = "MATCH (f) WHERE f.signature =~ '.*x.*' RETURN f";
    const { db } = fakeDb({ values: Array.from({ length: REGEX_CANDIDATES + 1 }, (_, k) => `v${k}`) });
    const err = await evaluateRegexes(db, a(text), 'p').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryError);
    expect((err as QueryError).message).toContain(`more than ${REGEX_CANDIDATES} distinct values`);
    expect(text.slice((err as QueryError).span[0])).toMatch(/^'\.\*x\.\*'/);
  });

  it(`stops testing after ${REGEX_BUDGET_MS} ms over all candidates`, async () => {
    let t = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => (t += 1000));
    const { db } = fakeDb({ values: Array.from({ length: 300 }, (_, k) => `v${k}`) });
    const err = await evaluateRegexes(db, a("MATCH (f) WHERE f.name =~ 'v.*' RETURN f"), 'p').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryError);
    expect((err as QueryError).message).toContain(`longer than ${REGEX_BUDGET_MS} ms`);
  });
});

describe('the main statement', () => {
  it('fetches one row past max_rows to tell truncation, and converts values by column type', async () => {
    const q = a('MATCH (f)-[r*1..2]->(g) RETURN f, f.is_test, collect(f.is_exported), r');
    const node = JSON.stringify({ id: 'a.ts::f#Function' });
    // The walk's steps come last, as the statement names it; the order of an object's keys does not decide the columns'.
    const row = { cwalk: 7, c3: '{"depth":1}', c0: node, c1: 1, c2: '[1,0]' };
    const { db, sql } = fakeDb({ rows: [row, row, row] });
    const out = await runMain(db, q, 'p', new Map(), 2);
    expect(sql[0]).toMatch(/LIMIT 3 OFFSET 0$/);
    expect(out.truncated).toBe(true);
    expect(out.walkCapped).toBe(false);
    expect(out.rows).toEqual([
      [{ id: 'a.ts::f#Function' }, true, [true, false], { depth: 1 }],
      [{ id: 'a.ts::f#Function' }, true, [true, false], { depth: 1 }],
    ]);
  });

  it('reports a walk that hit its cap', async () => {
    const { db } = fakeDb({ rows: [{ c0: 1, cwalk: WALK_CAP }] });
    const out = await runMain(db, a('MATCH (f)-[*]->(g) RETURN count(*)'), 'p', new Map(), 10);
    expect(out).toEqual({ rows: [[1]], truncated: false, walkCapped: true });
  });

  it('respects a LIMIT under max_rows and SKIP as the offset', async () => {
    const { db, sql } = fakeDb({ rows: [] });
    await runMain(db, a('MATCH (f) RETURN f SKIP 4 LIMIT 2'), 'p', new Map(), 100);
    expect(sql[0]).toMatch(/LIMIT 2 OFFSET 4$/);
  });

  it('turns a database limit into invalid_params with a suggestion, and passes other failures through', async () => {
    const limit = await runMain(fakeDb({ fail: new Error('D1_ERROR: string or blob too big: SQLITE_TOOBIG') }).db, a('MATCH (f) RETURN f'), 'p', new Map(), 10).catch((e: unknown) => e);
    expect(limit).toBeInstanceOf(PincherError);
    expect((limit as PincherError).code).toBe('invalid_params');
    expect((limit as PincherError).suggestion).toContain('narrow');
    const other = await runMain(fakeDb({ fail: new Error('D1_ERROR: no such table: symbols') }).db, a('MATCH (f) RETURN f'), 'p', new Map(), 10).catch((e: unknown) => e);
    expect(other).not.toBeInstanceOf(PincherError);
  });
});
