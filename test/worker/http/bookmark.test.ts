import { bookmarkArg, withReadHeaders } from '../../../src/http/bookmark';
import { decodeBookmarks, encodeBookmarks } from '../../../src/db/project-shard';
import { describe, expect, it } from 'vitest';
import { BASE, SELF, rpcBody, type Json } from '../helpers';
import { open, sendFiles } from '../upload/support';

const PROJECT = 'bookmarks';
const V1 = { 'src/a.ts': 'export function alpha(): number {\n  return 1;\n}\n' };
const V2 = { ...V1, 'src/b.ts': 'export function gamma(): number {\n  return 3;\n}\n' };

/** Open, send, commit; the commit's raw response (its headers carry the bookmark). */
async function pushRaw(files: Record<string, string>): Promise<Response> {
  const opened = await open(PROJECT, files);
  expect(opened.status).toBe(201);
  await sendFiles(PROJECT, opened.body.upload_id, files);
  return SELF.fetch(`${BASE}/v1/projects/${PROJECT}/uploads/${opened.body.upload_id}/commit`, { method: 'POST' });
}

async function tool(name: string, args: Json, headers: Record<string, string> = {}): Promise<{ status: number; body: Json; bookmark: string | null }> {
  const res = await SELF.fetch(`${BASE}/v1/tools/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(args) });
  return { status: res.status, body: (await res.json()) as Json, bookmark: res.headers.get('x-pincher-bookmark') };
}

describe('D1 bookmarks (read-your-writes)', () => {
  it('returns a bookmark from a commit, and a call sending it back reads the index that commit made', async () => {
    expect((await pushRaw(V1)).status).toBe(200);
    const committed = await pushRaw(V2);
    expect(committed.status).toBe(200);
    const bookmark = committed.headers.get('x-pincher-bookmark');
    expect(bookmark).toMatch(/^[\x21-\x7e]+$/);

    const read = await tool('symbol', { project: PROJECT, id: 'src/b.ts::gamma#Function' }, { 'x-pincher-bookmark': bookmark! });
    expect(read.status).toBe(200);
    expect(read.body.result.symbol.name).toBe('gamma');
    // The answer's bookmark is at least as recent as the one sent (bookmarks sort oldest first).
    expect(read.bookmark).not.toBeNull();
    expect(read.bookmark! >= bookmark!).toBe(true);
  });

  it('answers every tool call with the bookmark its reads reached, with or without one sent', async () => {
    expect((await pushRaw(V1)).status).toBe(200);
    const plain = await tool('search', { project: PROJECT, query: 'alpha' });
    expect(plain.status).toBe(200);
    expect(plain.bookmark).toMatch(/^[\x21-\x7e]+$/);
    const again = await tool('search', { project: PROJECT, query: 'alpha' }, { 'x-pincher-bookmark': plain.bookmark! });
    expect(again.body.result).toEqual(plain.body.result);
    expect(again.bookmark! >= plain.bookmark!).toBe(true);
  });

  it('ignores a bookmark that cannot be one (too long), reading as if none were sent', async () => {
    const r = await tool('symbol', { project: PROJECT, id: 'src/a.ts::alpha#Function' }, { 'x-pincher-bookmark': 'x'.repeat(300) });
    expect(r.status).toBe(200);
    expect(r.body.result.symbol.name).toBe('alpha');
  });

  it('takes the bookmark on MCP too and returns the latest one', async () => {
    const committed = await pushRaw(V2);
    const bookmark = committed.headers.get('x-pincher-bookmark')!;
    const res = await SELF.fetch(`${BASE}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        'x-pincher-bookmark': bookmark,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'symbol', arguments: { project: PROJECT, id: 'src/b.ts::gamma#Function' } } }),
    });
    expect(res.status).toBe(200);
    const body = rpcBody(res, await res.text());
    expect(body.result.structuredContent.symbol.name).toBe('gamma');
    expect(res.headers.get('x-pincher-bookmark')! >= bookmark).toBe(true);
    expect(Number(res.headers.get('x-pincher-d1-round-trips'))).toBeGreaterThan(0);
  });
});

describe('bookmarks of several shards in one value', () => {
  const reads = (...bookmarks: (string | null)[]) => bookmarks.map((bookmark) => ({ bookmark, roundTrips: 1, statements: 1 }));
  const stamped = (...bookmarks: (string | null)[]) => withReadHeaders(new Response('{}'), reads(...bookmarks)).headers.get('x-pincher-bookmark');

  it('keeps the latest bookmark of each shard, never one shard\'s for another\'s', () => {
    // Before, the greatest string won: "1~…" sorts after any primary bookmark, and the primary's was lost.
    expect(stamped('00000002-a', '1~00000001-b')).toBe('00000002-a,1~00000001-b');
    expect(stamped('00000001-a', '00000003-a', '1~00000002-b', '1~00000001-c')).toBe('00000003-a,1~00000002-b');
    expect(stamped(null, '2~00000005-x', null)).toBe('2~00000005-x');
    expect(stamped(null, null)).toBeNull();
    // A value that already holds several shards merges entry by entry.
    expect(stamped('00000001-a,1~00000009-b', '00000004-a,2~00000001-c')).toBe('00000004-a,1~00000009-b,2~00000001-c');
  });

  it('decodes and encodes a value by shard, dropping entries that are not bookmarks', () => {
    expect([...decodeBookmarks('00000001-a,1~00000002-b,12~00000003-c')]).toEqual([[0, '00000001-a'], [1, '00000002-b'], [12, '00000003-c']]);
    expect([...decodeBookmarks('0~x,~y,1~,a~b,00000001-a')]).toEqual([[0, '00000001-a']]);
    expect(encodeBookmarks(new Map([[3, 'c'], [0, 'a']]))).toBe('a,3~c');
    expect(decodeBookmarks(undefined).size).toBe(0);
  });

  it('accepts up to 32 entries of at most 200 characters each, and refuses the rest whole', () => {
    const entry = (i: number) => (i === 0 ? 'b'.repeat(200) : `${i}~${'b'.repeat(150)}`);
    const full = Array.from({ length: 32 }, (_, i) => entry(i)).join(',');
    expect(bookmarkArg(full)).toBe(full);
    expect(bookmarkArg(`${full},33~b`)).toBeUndefined();
    expect(bookmarkArg(`${'b'.repeat(201)},1~b`)).toBeUndefined();
    expect(bookmarkArg('a,,1~b')).toBeUndefined();
  });
});
