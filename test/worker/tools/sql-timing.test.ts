import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { timedDatabase } from '../../../src/db/timed';

const DB = (env as unknown as { DB: D1Database }).DB;

describe('timedDatabase (PINCHER_SQL_TIMING=1)', () => {
  it('answers exactly as the binding does and logs one line per statement, without bound values', async () => {
    const lines: string[] = [];
    const db = timedDatabase(DB, 'probe', (l) => lines.push(l));
    const secret = 'sk-value-that-must-not-be-logged';
    const first = await db.prepare('SELECT ?1 AS v, 2 AS n').bind(secret).first<{ v: string; n: number }>();
    expect(first).toEqual({ v: secret, n: 2 });
    expect(await db.prepare('SELECT ?1 AS v').bind('x').first('v')).toBe('x');
    const all = await db.prepare('SELECT value FROM json_each(?1)').bind('[1,2,3]').all<{ value: number }>();
    expect(all.results.map((r) => r.value)).toEqual([1, 2, 3]);
    expect(await db.prepare('SELECT 1 AS a, 2 AS b').raw()).toEqual([[1, 2]]);
    const batch = await db.batch<{ n: number }>([db.prepare('SELECT ?1 AS n').bind(7), db.prepare('SELECT 8 AS n')]);
    expect(batch.map((r) => r.results[0].n)).toEqual([7, 8]);

    expect(lines).toHaveLength(5);
    for (const l of lines) expect(l).toMatch(/^sql-timing tool=probe ms=\d+\.\d /);
    expect(lines[0]).toContain('rows=1 SELECT ?1 AS v, 2 AS n');
    expect(lines[2]).toContain('rows=3 SELECT value FROM json_each(?1)');
    expect(lines[4]).toContain('batch of 2: [SELECT ?1 AS n] [SELECT 8 AS n]');
    expect(lines.join('\n')).not.toContain(secret);
  });

  it('logs a failed statement as failed and rethrows its error', async () => {
    const lines: string[] = [];
    const db = timedDatabase(DB, 'probe', (l) => lines.push(l));
    await expect(db.prepare('SELECT * FROM no_such_table').all()).rejects.toThrow(/no such table/);
    expect(lines).toEqual([expect.stringMatching(/^sql-timing tool=probe ms=[\d.]+ failed SELECT \* FROM no_such_table$/)]);
  });
});
