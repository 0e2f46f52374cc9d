import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_BATCH_BYTES, push } from '../../../cli/push.mjs';
import { walk } from '../../../cli/walk.mjs';
import { type FakeServer, startFakeServer } from './fake-server';
import { addToTree, makeTree, removeTrees } from './tree';

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer({ key: 'test-write-key-123456' });
});
afterEach(() => server.close());
afterAll(removeTrees);

const KEY = 'test-write-key-123456';

async function pushTree(root: string, extra: Partial<Parameters<typeof push>[0]> = {}, walkOptions = {}) {
  const { files } = await walk(root, walkOptions);
  return push({ url: server.url, key: KEY, project: 'web', ref: 'main', commit: 'abc1234', root, files, concurrency: 4, retryBaseMs: 1, ...extra });
}

const filesRequests = () => server.requests.filter((r) => r.route === 'files');
const sentPaths = () =>
  filesRequests()
    .flatMap((r) => (r.body as { files: { path: string }[] }).files.map((f) => f.path))
    .sort();
const routes = () => server.requests.map((r) => r.route);
/** `size` bytes of 80-byte lines of `unit` (short lines, so the walker does not call it minified). */
const lines = (size: number, unit = 'x', head = '') => {
  const line = `${unit.repeat(80).slice(0, 79)}\n`;
  return (head + line.repeat(Math.ceil(size / line.length) + 1)).slice(0, size);
};

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as Error & { step: string; status?: number; code: string; uploadId?: string; abandoned?: boolean; details?: Record<string, unknown> };
  }
  throw new Error('expected the push to fail');
}

describe('upload protocol', () => {
  it('opens, sends every file of a first push, and commits the new index', async () => {
    const root = await makeTree({ 'a.ts': 'export function a() {}\n', 'src/b.ts': 'function b() {}\n' });
    const result = await pushTree(root);
    expect(routes()).toEqual(['open', 'files', 'commit']);
    const open = server.requests[0];
    expect(open.authorization).toBe(`Bearer ${KEY}`);
    expect(open.body).toMatchObject({ ref: 'main', commit: 'abc1234', manifest: [{ path: 'a.ts', size: 23 }, { path: 'src/b.ts', size: 16 }] });
    expect(sentPaths()).toEqual(['a.ts', 'src/b.ts']);
    expect(result.committed).toMatchObject({ files: { new: 2, changed: 0, unchanged: 0, deleted: 0 }, symbols: 2 });
    expect(result.sent).toEqual({ files: 2, bytes: 39, batches: 1 });
    expect(result.symbolsExtracted).toBe(2);
    expect([...server.indexes.get('web')!.keys()]).toEqual(['a.ts', 'src/b.ts']);
  });

  it('sends only the content the server lacks on the next push', async () => {
    const root = await makeTree({ 'a.ts': 'const a = 1;\n', 'b.ts': 'const b = 1;\n', 'c.ts': 'const c = 1;\n' });
    await pushTree(root);
    server.requests.length = 0;
    await addToTree(root, { 'b.ts': 'const b = 2;\n', 'd.ts': 'const d = 1;\n', 'copy-of-a.ts': 'const a = 1;\n' });
    const result = await pushTree(root);
    expect(sentPaths()).toEqual(['b.ts', 'd.ts']);
    expect(result.committed).toMatchObject({ files: { new: 2, changed: 1, unchanged: 2, deleted: 0 } });
  });

  it('sends the content of identical files once', async () => {
    const same = 'export const same = true;\n';
    const root = await makeTree({ 'x/one.ts': same, 'y/two.ts': same, 'z.ts': 'other\n' });
    const result = await pushTree(root);
    expect(sentPaths()).toEqual(['x/one.ts', 'z.ts']);
    expect(result.committed).toMatchObject({ files: { new: 3 } });
  });

  it('sends nothing but open and commit when the server holds every content', async () => {
    const root = await makeTree({ 'a.ts': 'a\n' });
    await pushTree(root);
    server.requests.length = 0;
    const result = await pushTree(root);
    expect(routes()).toEqual(['open', 'commit']);
    expect(result.sent).toEqual({ files: 0, bytes: 0, batches: 0 });
  });

  it('reports what the server skipped and failed to extract', async () => {
    const root = await makeTree({ 'ok.ts': 'function f() {}\n', 'bad.broken': 'function (\n' });
    const result = await pushTree(root);
    expect(result.failures).toEqual([{ path: 'bad.broken', reason: 'parse_error' }]);
    expect(result.committed).toMatchObject({ files: { failed: 1 } });
  });
});

describe('batches', () => {
  it('packs batches up to 2 MiB of JSON body', async () => {
    const spec: Record<string, string> = {};
    // 300,000-byte files: six fit in 2 MiB with their JSON framing, a seventh does not.
    for (let i = 0; i < 20; i++) spec[`f${String(i).padStart(2, '0')}.txt`] = `${String(i).padStart(2, '0')}${'line of text\n'.repeat(23_077)}`.slice(0, 300_000);
    const root = await makeTree(spec);
    await pushTree(root, { concurrency: 1 });
    const batches = filesRequests();
    expect(batches.every((r) => r.bytes <= MAX_BATCH_BYTES)).toBe(true);
    expect(batches.map((r) => (r.body as { files: unknown[] }).files.length)).toEqual([6, 6, 6, 2]);
    expect(sentPaths()).toEqual(Object.keys(spec).sort());
  });

  it('counts JSON escaping against the bound', async () => {
    // Quotes and backslashes double on the wire: 400,000 bytes of them are 800,000+ of JSON.
    const spec: Record<string, string> = {};
    for (let i = 0; i < 6; i++) spec[`q${i}.txt`] = lines(400_000, '"\\', String(i));
    const root = await makeTree(spec);
    await pushTree(root, { concurrency: 1 });
    const batches = filesRequests();
    expect(batches.every((r) => r.bytes <= MAX_BATCH_BYTES)).toBe(true);
    expect(batches.map((r) => (r.body as { files: unknown[] }).files.length)).toEqual([2, 2, 2]);
  });

  it('sends a file larger than the bound alone', async () => {
    const root = await makeTree({ 'big.txt': lines(1_200_000, 'b'), 'huge.txt': 'h\n'.repeat(1_000_000), 'small.txt': 's' });
    await pushTree(root, { concurrency: 1 }, { maxFileSize: 2 * 1024 * 1024 });
    expect(filesRequests().map((r) => (r.body as { files: { path: string }[] }).files.map((f) => f.path))).toEqual([
      ['big.txt'],
      ['huge.txt'],
      ['small.txt'],
    ]);
    expect(filesRequests()[1].bytes).toBeGreaterThan(MAX_BATCH_BYTES);
  });

  it.each([1, 3])('keeps at most --concurrency %i batches in flight', async (concurrency) => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 16; i++) spec[`f${i}.txt`] = lines(700_000, 'x', String(i)); // two per batch
    const root = await makeTree(spec);
    server.filesGate = concurrency; // answered only once that many are out together
    server.filesDelayMs = 50; // and slow enough that a client exceeding its bound is seen
    const result = await pushTree(root, { concurrency });
    expect(result.sent.batches).toBe(8);
    expect(server.maxFilesInFlight).toBe(concurrency);
  });
});

describe('retries and failures', () => {
  it('retries a batch answered 503 and finishes the push', async () => {
    const root = await makeTree({ 'a.ts': 'a\n' });
    server.faults.push({ route: 'files', status: 503, times: 2 });
    const result = await pushTree(root);
    expect(routes()).toEqual(['open', 'files', 'files', 'files', 'commit']);
    expect(result.sent.files).toBe(1);
  });

  it('retries a batch after 429 and after a dropped connection', async () => {
    const root = await makeTree({ 'a.ts': 'a\n' });
    server.faults.push({ route: 'files', status: 429, times: 1, headers: { 'retry-after': '0' } });
    server.faults.push({ route: 'files', status: 'drop', times: 1 });
    await pushTree(root);
    expect(routes()).toEqual(['open', 'files', 'files', 'files', 'commit']);
  });

  it('retries opening and committing only when the server says it did not act (429, 503)', async () => {
    const root = await makeTree({ 'a.ts': 'a\n' });
    server.faults.push({ route: 'open', status: 503, times: 1 }, { route: 'commit', status: 429, times: 1 });
    await pushTree(root);
    expect(routes()).toEqual(['open', 'open', 'files', 'commit', 'commit']);
    server.requests.length = 0;
    server.faults.push({ route: 'open', status: 500, times: 1 });
    expect(await failure(pushTree(root))).toMatchObject({ step: 'open', status: 500 });
    expect(routes()).toEqual(['open']);
  });

  it('gives up after three tries and abandons the upload', async () => {
    const root = await makeTree({ 'a.ts': 'a\n' });
    server.faults.push({ route: 'files', status: 503, times: 3, error: { code: 'overloaded', message: 'try later' } });
    const error = await failure(pushTree(root));
    expect(error).toMatchObject({ step: 'upload', status: 503, code: 'overloaded', message: 'try later', uploadId: '01UPLOAD0001', abandoned: true });
    expect(routes()).toEqual(['open', 'files', 'files', 'files', 'delete']);
    expect(server.uploads.size).toBe(0);
    expect(server.indexes.has('web')).toBe(false);
  });

  it('does not retry a refused batch (422) and abandons the upload', async () => {
    const root = await makeTree({ 'a.ts': 'a\n' });
    server.faults.push({ route: 'files', status: 422, times: 1, error: { code: 'hash_mismatch', message: 'content of a.ts does not match its hash' } });
    const error = await failure(pushTree(root));
    expect(error).toMatchObject({ step: 'upload', status: 422, code: 'hash_mismatch', abandoned: true });
    expect(routes()).toEqual(['open', 'files', 'delete']);
  });

  it('stops the other batches after one fails', async () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 16; i++) spec[`f${i}.txt`] = lines(700_000, 'x', String(i));
    const root = await makeTree(spec);
    server.faults.push({ route: 'files', status: 400, times: 1, error: { code: 'invalid_body', message: 'no' } });
    const error = await failure(pushTree(root, { concurrency: 2 }));
    expect(error).toMatchObject({ code: 'invalid_body', abandoned: true });
    expect(filesRequests().length).toBeLessThan(8);
    expect(routes()).not.toContain('commit');
  });

  it('stops on a file changed since the walk, before the server refuses it', async () => {
    const root = await makeTree({ 'a.ts': 'a\n' });
    const { files } = await walk(root);
    await writeFile(join(root, 'a.ts'), 'changed\n');
    const error = await failure(push({ url: server.url, key: KEY, project: 'web', root, files, concurrency: 1, retryBaseMs: 1 }));
    expect(error).toMatchObject({ step: 'upload', code: 'file_changed', abandoned: true });
    expect(error.message).toContain('a.ts');
    expect(routes()).toEqual(['open', 'delete']);
  });

  it('reports push_in_progress with the other upload and leaves it alone', async () => {
    const root = await makeTree({ 'a.ts': 'a\n' });
    const other = await fetch(`${server.url}/v1/projects/web/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ manifest: [] }),
    }).then((r) => r.json() as Promise<{ upload_id: string }>);
    server.requests.length = 0;
    const error = await failure(pushTree(root));
    expect(error).toMatchObject({ step: 'open', status: 409, code: 'push_in_progress', details: { upload_id: other.upload_id } });
    expect(error.uploadId).toBeUndefined();
    expect(routes()).toEqual(['open']);
    expect(server.uploads.has(other.upload_id)).toBe(true);
  });

  it('passes on upload_incomplete from the commit and abandons', async () => {
    const root = await makeTree({ 'a.ts': 'a\n' });
    server.faults.push({ route: 'commit', status: 409, times: 1, error: { code: 'upload_incomplete', message: '1 contents still missing', details: { missing: ['x'] } } });
    const error = await failure(pushTree(root));
    expect(error).toMatchObject({ step: 'commit', status: 409, code: 'upload_incomplete', abandoned: true });
  });

  it('says which URL could not be reached', async () => {
    const root = await makeTree({ 'a.ts': 'a\n' });
    const url = server.url;
    await server.close();
    const error = await failure(pushTree(root, { url }));
    expect(error).toMatchObject({ step: 'open', code: 'unreachable' });
    expect(error.message).toContain(url);
    server = await startFakeServer();
  });

  it('refuses an unknown key with 401 and a read-only key with 403', async () => {
    const root = await makeTree({ 'a.ts': 'a\n' });
    expect(await failure(pushTree(root, { key: 'wrong-key-0000' }))).toMatchObject({ step: 'open', status: 401, code: 'unauthorized' });
    await server.close();
    server = await startFakeServer({ key: KEY, readKey: 'read-only-key-0000' });
    expect(await failure(pushTree(root, { key: 'read-only-key-0000' }))).toMatchObject({ status: 403, code: 'insufficient_scope' });
  });

  it('cancels on the abort signal and abandons the upload', async () => {
    const root = await makeTree({ 'a.ts': 'a\n' });
    server.filesDelayMs = 2000;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const error = await failure(pushTree(root, { signal: controller.signal }));
    expect(error).toMatchObject({ code: 'cancelled', abandoned: true });
    expect(server.uploads.size).toBe(0);
  });
});
