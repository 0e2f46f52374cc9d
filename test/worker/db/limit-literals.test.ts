import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { literalLimits } from '../../../src/db/limit-literals';
import { requestDatabase, type Fold } from '../../../src/db/request-database';
import { recording } from '../recording-d1';

const DB = (env as unknown as { DB: D1Database }).DB;

describe('literalLimits', () => {
  it('writes positional LIMIT and OFFSET values into the text and binds the rest in order', () => {
    expect(literalLimits('SELECT ? FROM t WHERE a = ? ORDER BY a LIMIT ? OFFSET ?', ['x', 3, 20, 40])).toEqual({
      sql: 'SELECT ? FROM t WHERE a = ? ORDER BY a LIMIT 20 OFFSET 40',
      values: ['x', 3],
    });
    expect(literalLimits('SELECT 1 FROM t limit\n  ?', [-1])).toEqual({ sql: 'SELECT 1 FROM t limit\n  -1', values: [] });
  });

  it('renumbers numbered parameters, keeping bound a value the LIMIT shares with another place', () => {
    expect(literalLimits('SELECT ?1 FROM t WHERE b = ?3 LIMIT ?2', ['a', 5, 'c'])).toEqual({ sql: 'SELECT ?1 FROM t WHERE b = ?2 LIMIT 5', values: ['a', 'c'] });
    expect(literalLimits('SELECT ?2 AS n FROM t WHERE a = ?1 LIMIT ?2', ['a', 5])).toEqual({ sql: 'SELECT ?2 AS n FROM t WHERE a = ?1 LIMIT 5', values: ['a', 5] });
    expect(literalLimits('SELECT * FROM (SELECT x FROM t LIMIT ?3) WHERE y = ?1 AND z = ?2 LIMIT ?3', ['y', 'z', 7])).toEqual({
      sql: 'SELECT * FROM (SELECT x FROM t LIMIT 7) WHERE y = ?1 AND z = ?2 LIMIT 7',
      values: ['y', 'z'],
    });
    // `?` after `?N` takes the next number, as SQLite numbers it.
    expect(literalLimits('SELECT ?2, ? FROM t LIMIT ?1', [4, 'b', 'c'])).toEqual({ sql: 'SELECT ?1, ?2 FROM t LIMIT 4', values: ['b', 'c'] });
  });

  it('leaves string literals, quoted names and comments alone', () => {
    expect(literalLimits("SELECT 'LIMIT ?' AS s, ? FROM t LIMIT ?", ['a', 2])).toEqual({ sql: "SELECT 'LIMIT ?' AS s, ? FROM t LIMIT 2", values: ['a'] });
    expect(literalLimits("SELECT 'it''s LIMIT ' || ? FROM t", [3])).toBeNull();
    expect(literalLimits('SELECT "LIMIT" ?1 FROM t LIMIT ?2', ['a', 2])).toEqual({ sql: 'SELECT "LIMIT" ?1 FROM t LIMIT 2', values: ['a'] });
    expect(literalLimits('SELECT x FROM t -- LIMIT\n WHERE a = ? LIMIT ?', [1, 2])).toEqual({ sql: 'SELECT x FROM t -- LIMIT\n WHERE a = ? LIMIT 2', values: [1] });
    expect(literalLimits('SELECT x FROM t /* LIMIT ? */ WHERE a = ? LIMIT /* n */ ?', [1, 2])).toEqual({
      sql: 'SELECT x FROM t /* LIMIT ? */ WHERE a = ? LIMIT /* n */ 2',
      values: [1],
    });
  });

  it('keeps bound what is not a safe integer, and anything it cannot number', () => {
    expect(literalLimits('SELECT x FROM t LIMIT ?', ['5'])).toBeNull();
    expect(literalLimits('SELECT x FROM t LIMIT ?', [2.5])).toBeNull();
    expect(literalLimits('SELECT x FROM t LIMIT ?', [2 ** 53])).toBeNull();
    expect(literalLimits('SELECT x FROM t LIMIT ?', [null])).toBeNull();
    expect(literalLimits('SELECT x FROM t LIMIT ? OFFSET ?', [2, 'a'])).toEqual({ sql: 'SELECT x FROM t LIMIT 2 OFFSET ?', values: ['a'] });
    expect(literalLimits('SELECT x FROM t WHERE a = :a LIMIT ?', ['a', 1])).toBeNull();
    // Values that do not match the placeholders: D1 reports it, as without the rewrite.
    expect(literalLimits('SELECT x FROM t LIMIT ?', [1, 2])).toBeNull();
    expect(literalLimits('SELECT x FROM t WHERE a = ?1', [1])).toBeNull();
    expect(literalLimits('SELECT ?1 AS my_limit, ?2 AS n', ['a', 1])).toBeNull();
  });

  it('decides each call by its own values when the text repeats (the text is read once and kept)', () => {
    const sql = 'SELECT x FROM t WHERE a = ?1 LIMIT ?2 OFFSET ?3';
    expect(literalLimits(sql, ['a', 5, 10])).toEqual({ sql: 'SELECT x FROM t WHERE a = ?1 LIMIT 5 OFFSET 10', values: ['a'] });
    expect(literalLimits(sql, ['b', '5', 10])).toEqual({ sql: 'SELECT x FROM t WHERE a = ?1 LIMIT ?2 OFFSET 10', values: ['b', '5'] });
    expect(literalLimits(sql, ['c', 2.5, null])).toBeNull();
    expect(literalLimits(sql, ['d', 1])).toBeNull();
    expect(literalLimits(sql, ['e', 7, 0])).toEqual({ sql: 'SELECT x FROM t WHERE a = ?1 LIMIT 7 OFFSET 0', values: ['e'] });
    // A text with no LIMIT value is kept as such too.
    const plain = 'SELECT x FROM t WHERE a = ?';
    expect(literalLimits(plain, [1])).toBeNull();
    expect(literalLimits(plain, [1])).toBeNull();
  });

  it('answers as the bound statement does', async () => {
    await DB.prepare('CREATE TABLE IF NOT EXISTS limit_literals (n INTEGER)').run();
    await DB.prepare('DELETE FROM limit_literals').run();
    await DB.batch([1, 2, 3, 4, 5, 6].map((n) => DB.prepare('INSERT INTO limit_literals (n) VALUES (?1)').bind(n)));
    const cases: [string, unknown[]][] = [
      ['SELECT n FROM limit_literals WHERE n > ?1 ORDER BY n LIMIT ?2 OFFSET ?3', [1, 2, 1]],
      ['SELECT n, ?2 AS k FROM limit_literals ORDER BY n DESC LIMIT ?2 OFFSET ?1', [0, 3]],
      ['SELECT n FROM limit_literals ORDER BY n LIMIT ? OFFSET ?', [-1, 4]],
      ['SELECT n FROM limit_literals ORDER BY n LIMIT ? OFFSET ?', [2, -3]],
    ];
    for (const [sql, values] of cases) {
      const rewritten = literalLimits(sql, values)!;
      expect(rewritten.sql).not.toMatch(/\b(?:LIMIT|OFFSET)\s+\?/i);
      const want = await DB.prepare(sql).bind(...values).all();
      expect((await DB.prepare(rewritten.sql).bind(...rewritten.values).all()).results, sql).toEqual(want.results);
    }
  });
});

describe('a request database', () => {
  const NO_PLACEHOLDER = /\b(?:LIMIT|OFFSET)\s+\?/i;

  it('sends LIMIT and OFFSET values as literals, binding the rest', async () => {
    const { d1, seen } = recording();
    const db = requestDatabase(d1);
    const statement = db.prepare('SELECT value FROM json_each(?1) ORDER BY value LIMIT ?2 OFFSET ?3');
    expect((await statement.bind('[5,3,1,4]', 2, 1).all<{ value: number }>()).results).toEqual([{ value: 3 }, { value: 4 }]);
    // Bound again, it starts from the statement as prepared.
    expect((await statement.bind('[9,8]', 1, 0).all<{ value: number }>()).results).toEqual([{ value: 8 }]);
    expect(seen).toEqual([
      { sql: 'SELECT value FROM json_each(?1) ORDER BY value LIMIT 2 OFFSET 1', args: ['[5,3,1,4]'] },
      { sql: 'SELECT value FROM json_each(?1) ORDER BY value LIMIT 1 OFFSET 0', args: ['[9,8]'] },
    ]);
  });

  it('folds a check into a statement whose LIMIT was bound without binding it', async () => {
    const { d1, seen } = recording();
    const db = requestDatabase(d1);
    let held = false;
    const fold: Fold = { condition: (from) => ({ sql: `?${from} = 'ok'`, values: ['ok'] }), held: () => (held = true) };
    db.rideAlong(db.prepare("SELECT 'ok' AS v"), () => {}, fold);
    const rows = await db.prepare('SELECT value FROM json_each(?1) ORDER BY value LIMIT ?2').bind('[3,1,2]', 2).all<{ value: number }>();
    expect(rows.results).toEqual([{ value: 1 }, { value: 2 }]);
    expect(held).toBe(true);
    expect(db.roundTrips).toBe(1);
    const sent = seen.at(-1)!;
    expect(sent.sql).toContain('LIMIT 2');
    expect(sent.sql).not.toMatch(NO_PLACEHOLDER);
    expect(sent.args).toEqual(['[3,1,2]', 'ok']);
  });
});
