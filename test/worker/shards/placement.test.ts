import { describe, expect, it } from 'vitest';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../../src/index';
import { decodeBookmarks, forgetShards } from '../../../src/db/project-shard';
import { forgetProjects } from '../../../src/tools/project-cache';
import { runRead } from '../run-tool';
import { rest, mcp } from '../helpers';
import { push, request } from '../upload/support';
import { bytesOf, env, placedOn, pushed, SHARDS, storedOn, type Json } from './support';

const SOURCE = {
  'src/server.ts': 'export class Server {\n  start(port: number) {\n    return listen(port);\n  }\n}\nexport function listen(port: number) {\n  return port;\n}\n',
  'src/main.ts': "import { Server } from './server';\nexport function main() {\n  return new Server().start(8080);\n}\n",
  'README.md': '# shard test\nlisten on a port\n',
};

/** Padding that makes a shard visibly bigger than the other. */
const BULK = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`bulk/f${i}.ts`, `export function bulk${i}() {\n  return '${'x'.repeat(2000)}${i}';\n}\n`]));

let onOne = '';
let onZero = '';

describe('placement across two local D1 databases', () => {
  it('places a new project on the shard storing the fewest bytes, as D1 measures them', async () => {
    const [b0, b1] = [await bytesOf(0), await bytesOf(1)];
    const expected = b1 < b0 ? 1 : 0;
    await pushed('first', { ...SOURCE, ...BULK });
    expect(await placedOn('first')).toBe(expected);
    expect(await storedOn(expected, 'first')).toBe(1);
    expect(await storedOn(1 - expected, 'first')).toBe(0);
    // The first push made its shard bigger: the next project goes to the other one.
    expect(await bytesOf(expected)).toBeGreaterThan(await bytesOf(1 - expected));
    await pushed('second', SOURCE);
    expect(await placedOn('second')).toBe(1 - expected);
    onOne = expected === 1 ? 'first' : 'second';
    onZero = expected === 1 ? 'second' : 'first';
  });

  it('keeps a project on its shard for later pushes, whatever the sizes', async () => {
    const shard = await placedOn(onZero);
    await pushed(onZero, { ...SOURCE, 'src/extra.ts': 'export const extra = 1;\n' });
    expect(await placedOn(onZero)).toBe(shard);
    expect(await storedOn(1 - (shard as number), onZero)).toBe(0);
  });

  it('agrees on one shard when two pushes create the same project at once', async () => {
    const [a, b] = await Promise.all([push('racing', SOURCE), push('racing', SOURCE)]);
    const statuses = [a.open.status, b.open.status].sort();
    expect(statuses[0]).toBe(201);
    const shard = await placedOn('racing');
    expect(shard === 0 || shard === 1).toBe(true);
    expect((await storedOn(0, 'racing')) + (await storedOn(1, 'racing'))).toBe(1);
  });

  it('answers every read surface for a project on shard 1 from shard 1', async () => {
    expect(await placedOn(onOne)).toBe(1);
    const search = await rest('search', { project: onOne, query: 'listen' });
    expect(search.status).toBe(200);
    expect(JSON.stringify(search.body)).toContain('listen');
    const read = await rest('read', { project: onOne, path: 'src/server.ts' });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toContain('class Server');
    const grep = await rest('grep', { project: onOne, pattern: 'listen' });
    expect(grep.status).toBe(200);
    expect(JSON.stringify(grep.body)).toContain('src/server.ts');
    const ls = await rest('ls', { project: onOne });
    expect(JSON.stringify(ls.body)).toContain('src');
    const find = await rest('find', { project: onOne, pattern: '**/*.ts' });
    expect(JSON.stringify(find.body)).toContain('src/main.ts');
    const symbol = await rest('symbol', { project: onOne, id: 'src/server.ts::Server#Class' });
    expect(symbol.status).toBe(200);
    expect(symbol.body._meta.empty_reason).toBeUndefined();
    const health = await rest('health', { project: onOne });
    expect(health.body.result.projects[0].name).toBe(onOne);
    const batch = await rest('batch', { calls: [{ tool: 'search', args: { project: onOne, query: 'Server' } }, { tool: 'search', args: { project: onZero, query: 'Server' } }] });
    expect(batch.status).toBe(200);
    expect(JSON.stringify(batch.body)).not.toContain('no_project_indexed');
    // MCP shares the seam.
    const viaMcp = await mcp('tools/call', { name: 'search', arguments: { project: onOne, query: 'listen' } });
    expect(viaMcp.body.result.isError ?? false).toBe(false);
    expect(JSON.stringify(viaMcp.body.result)).toContain('listen');
    // And the URL pin.
    const pinned = await mcp('tools/call', { name: 'ls', arguments: {} }, { query: `?project=${onOne}` });
    expect(JSON.stringify(pinned.body.result)).toContain('src');
  });

  it('answers a cold first call in two round trips on the primary and three on shard 1 (the catalog with the primary\'s row, then the row there)', async () => {
    for (const [name, trips] of [[onZero, 2], [onOne, 3]] as const) {
      forgetShards();
      forgetProjects();
      const out = await runRead(env, 'symbol', { project: name, id: 'src/server.ts::Server#Class' });
      expect(out.ok, out.payloadText.slice(0, 300)).toBe(true);
      expect(out.meta.empty_reason, name).toBeUndefined();
      expect(out.reads.roundTrips, name).toBe(trips);
    }
  });

  it('serves push history of a project on shard 1, and its events from the primary', async () => {
    const history = await request('GET', `/v1/projects/${onOne}/uploads`);
    expect(history.status).toBe(200);
    expect(history.body.uploads.length).toBeGreaterThan(0);
    const events = await SHARDS[0].prepare("SELECT count(*) AS n FROM events WHERE project_name = ?1 AND type = 'committed'").bind(onOne).first<{ n: number }>();
    expect(events?.n).toBeGreaterThan(0);
    const stray = await SHARDS[1].prepare('SELECT count(*) AS n FROM events').first<{ n: number }>();
    expect(stray?.n).toBe(0);
  });

  it('lists every shard\'s projects once, merged by name (list tool, GET /v1/projects, health)', async () => {
    const names = (await rest('list', {})).body.result.projects.map((p: Json) => p.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['first', 'second', 'racing']));
    expect(new Set(names).size).toBe(names.length);
    const paged = await rest('list', { limit: 1, offset: 1 });
    expect(paged.body.result.projects.map((p: Json) => p.name)).toEqual([names[1]]);
    expect(paged.body.result.total).toBe(names.length);
    const viaRest = await request('GET', '/v1/projects');
    expect(viaRest.body.projects.map((p: Json) => p.name)).toEqual(names);
    const health = await rest('health', {});
    expect(health.body.result.projects_total).toBe(names.length);
    expect(health.body.result.projects.every((p: Json) => p.languages.length > 0)).toBe(true);
  });

  it('hands out a bookmark naming the shard, which reads the commit on that shard', async () => {
    const files = { 'src/late.ts': 'export function lateArrival() {\n  return 1;\n}\n' };
    const manifest = await Promise.all(
      Object.entries(files).map(async ([path, content]) => ({ path, hash: [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(content)))].map((b) => b.toString(16).padStart(2, '0')).join(''), size: content.length })),
    );
    const opened = await request('POST', `/v1/projects/${onOne}/uploads`, { manifest, mode: 'merge' });
    await request('POST', `/v1/projects/${onOne}/uploads/${opened.body.upload_id}/files`, { files: [{ path: 'src/late.ts', hash: manifest[0].hash, content: files['src/late.ts'] }] });
    const res = await worker.fetch(new Request(`http://localhost/v1/projects/${onOne}/uploads/${opened.body.upload_id}/commit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), env as never, createExecutionContext());
    expect(res.status).toBe(200);
    const bookmark = res.headers.get('x-pincher-bookmark');
    expect(bookmark).toMatch(/^1~/);
    const read = await rest('search', { project: onOne, query: 'lateArrival' }, { 'x-pincher-bookmark': bookmark as string });
    expect(JSON.stringify(read.body)).toContain('lateArrival');
    const after = decodeBookmarks(read.res.headers.get('x-pincher-bookmark'));
    expect(after.get(1)! >= bookmark!.slice(2)).toBe(true);
    // A shard-1 bookmark on a shard-0 project applies to nothing it reads, is never an error, and comes back
    // with the primary's: the client keeps one value and never loses either shard's.
    const other = await rest('search', { project: onZero, query: 'Server' }, { 'x-pincher-bookmark': bookmark as string });
    expect(other.status).toBe(200);
    const both = decodeBookmarks(other.res.headers.get('x-pincher-bookmark'));
    expect(both.get(1)).toBe(bookmark!.slice(2));
    expect(both.has(0)).toBe(true);
    expect(other.res.headers.get('x-pincher-bookmark')).toMatch(/^[^,~]+,1~[^,~]+$/);

    // Sent back whole, each entry opens its own shard's session: both projects read at least what was seen.
    const vector = other.res.headers.get('x-pincher-bookmark') as string;
    for (const project of [onOne, onZero]) {
      const r = await rest('search', { project, query: project === onOne ? 'lateArrival' : 'Server' }, { 'x-pincher-bookmark': vector });
      expect(r.status).toBe(200);
      const got = decodeBookmarks(r.res.headers.get('x-pincher-bookmark'));
      for (const [shard, b] of decodeBookmarks(vector)) expect(got.get(shard)! >= b).toBe(true);
    }
  });

  it('runs the garbage collection on every shard from the Cron Trigger', async () => {
    // Unused content on each shard, old enough to collect.
    const old = Date.now() - 3 * 60 * 60 * 1000;
    for (const i of [0, 1]) {
      await SHARDS[i].prepare("INSERT INTO blobs (hash, size, content, created_at) VALUES (?1, 5, 'stale', ?2)").bind(`${'e'.repeat(63)}${i}`, old).run();
    }
    const ctx = createExecutionContext();
    await worker.scheduled({ scheduledTime: Date.now(), cron: '*/30 * * * *', noRetry() {} } as ScheduledController, env as never, ctx);
    await waitOnExecutionContext(ctx);
    for (const i of [0, 1]) {
      const left = await SHARDS[i].prepare('SELECT count(*) AS n FROM blobs WHERE hash = ?1').bind(`${'e'.repeat(63)}${i}`).first<{ n: number }>();
      expect(left?.n, `shard ${i}`).toBe(0);
    }
    // The projects' own content stays.
    expect((await rest('read', { project: onOne, path: 'src/server.ts' })).status).toBe(200);
  });
});
