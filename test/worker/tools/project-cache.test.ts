import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { rest, type Json } from '../helpers';
import { push } from '../upload/support';

const PROJECT = 'project-cache';

const V1 = { 'src/a.ts': 'export function alpha(): number {\n  return 1;\n}\n' };
const V2 = { ...V1, 'src/b.ts': 'export function beta(): number {\n  return 2;\n}\n' };

async function call(tool: string, args: Json): Promise<{ body: Json; trips: number }> {
  const r = await rest(tool, { project: PROJECT, ...args });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { body: r.body, trips: Number(r.res.headers.get('x-pincher-d1-round-trips')) };
}

describe('project row cache', () => {
  it('answers a lite call in one D1 round trip once the project row is cached', async () => {
    expect((await push(PROJECT, V1)).commit?.status).toBe(200);
    await call('symbol', { id: 'src/a.ts::alpha#Function' });
    const symbol = await call('symbol', { id: 'src/a.ts::alpha#Function' });
    expect(symbol.body.result.symbol.name).toBe('alpha');
    expect(symbol.trips).toBe(1);
    expect((await call('symbols', { ids: ['src/a.ts::alpha#Function'] })).trips).toBe(1);
    expect((await call('read', { path: 'src/a.ts', map: true })).trips).toBe(1);
    expect((await call('read', { path: 'src/a.ts', symbol: 'alpha' })).trips).toBe(1);
    expect((await call('read', { path: 'src/a.ts', offset: 1, limit: 2 })).trips).toBe(1);
    expect((await call('find', { pattern: '*.ts' })).trips).toBe(1);
  });

  it('never answers from an old generation: a push between two calls is seen by the second', async () => {
    expect((await push(PROJECT, V1)).commit?.status).toBe(200);
    const before = await call('symbol', { id: 'src/b.ts::beta#Function' });
    expect(before.body.result.symbol ?? null).toBeNull();
    const found = await call('find', { pattern: '*.ts' });
    expect(found.body.result.total).toBe(1);

    expect((await push(PROJECT, V2)).commit?.status).toBe(200);
    const after = await call('symbol', { id: 'src/b.ts::beta#Function' });
    expect(after.body.result.symbol?.name).toBe('beta');
    expect(after.body._meta.empty_reason).toBeUndefined();
    const refound = await call('find', { pattern: '*.ts' });
    expect(refound.body.result.total).toBe(2);
    const search = await call('search', { query: 'beta' });
    expect(search.body.result.results.map((r: Json) => r.name)).toEqual(['beta']);
  });

  it('sees any change to the project row made behind its back, in the same call', async () => {
    const other = `${PROJECT}-row`;
    expect((await push(other, V1)).commit?.status).toBe(200);
    expect((await rest('symbol', { project: other, id: 'src/a.ts::alpha#Function' })).body.result.symbol.name).toBe('alpha');
    const DB = (env as unknown as { DB: D1Database }).DB;
    const { indexed_at } = (await DB.prepare('SELECT indexed_at FROM projects WHERE name = ?1').bind(other).first<{ indexed_at: number }>())!;
    await DB.prepare('UPDATE projects SET indexed_at = NULL WHERE name = ?1').bind(other).run();
    try {
      const after = await rest('symbol', { project: other, id: 'src/a.ts::alpha#Function' });
      expect(after.body._meta.empty_reason).toBe('no_project_indexed');
    } finally {
      await DB.prepare('UPDATE projects SET indexed_at = ?2 WHERE name = ?1').bind(other, indexed_at).run();
    }
    expect((await rest('symbol', { project: other, id: 'src/a.ts::alpha#Function' })).body.result.symbol.name).toBe('alpha');
  });
  it('sees a project row dropped or recreated behind its back, in the same call and in one statement while nothing changed', async () => {
    const other = `${PROJECT}-drop`;
    expect((await push(other, V1)).commit?.status).toBe(200);
    const warm = async () => rest('find', { project: other, pattern: '*.ts' });
    await warm();
    const cached = await warm();
    expect(cached.body.result.total).toBe(1);
    expect(Number(cached.res.headers.get('x-pincher-d1-statements'))).toBe(1);
    const DB = (env as unknown as { DB: D1Database }).DB;
    const row = (await DB.prepare('SELECT * FROM projects WHERE name = ?1').bind(other).first<Record<string, unknown>>())!;
    const restore = () => DB.prepare(`INSERT INTO projects (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row).map((_, i) => `?${i + 1}`).join(', ')})`).bind(...Object.values(row)).run();
    await DB.prepare('DELETE FROM projects WHERE name = ?1').bind(other).run();
    try {
      const gone = await warm();
      expect(gone.body.result?.total ?? 0).toBe(0);
      expect(JSON.stringify(gone.body)).toContain(other);
    } finally {
      await restore();
    }
    // Recreated: the same name under another id (whose index rows do not exist) answers nothing from the old id.
    await DB.prepare('UPDATE projects SET id = ?2 WHERE name = ?1').bind(other, 'recreated0').run();
    try {
      expect((await warm()).body.result.total).toBe(0);
    } finally {
      await DB.prepare('UPDATE projects SET id = ?2 WHERE name = ?1').bind(other, row.id).run();
    }
    expect((await warm()).body.result.total).toBe(1);
  });
});
