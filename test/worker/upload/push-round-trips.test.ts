import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import app from '../../../src/index';
import type { Env } from '../../../src/env';
import { BASE } from '../helpers';
import { countingD1 } from './counting-d1';
import { env, manifestOf, post, pySource, tsSource } from './support';

const ENV = env as unknown as Env & { DB: D1Database; DB_SHARD_1: D1Database };

/** One push through the app with both databases counting their round trips, by request. */
async function countedPush(project: string, files: Record<string, string>) {
  const primary = countingD1(ENV.DB);
  const shard = countingD1(ENV.DB_SHARD_1);
  const merged = { ...ENV, DB: primary.d1, DB_SHARD_1: shard.d1 } as unknown as Env;
  const by: Record<string, string[][]> = {};
  const call = async (step: string, path: string, body: unknown) => {
    const before = primary.trips.length + shard.trips.length;
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), merged, ctx);
    await waitOnExecutionContext(ctx);
    const json = (await res.json()) as Record<string, unknown>;
    by[step] = [...primary.trips, ...shard.trips].slice(before);
    return { status: res.status, body: json };
  };
  const manifest = await manifestOf(files);
  const opened = await call('open', `/v1/projects/${project}/uploads`, { manifest });
  const id = opened.body.upload_id as string;
  const send = manifest.map((m) => ({ path: m.path, hash: m.hash, content: files[m.path] }));
  const sent = await call('files', `/v1/projects/${project}/uploads/${id}/files`, { files: send });
  const committed = await call('commit', `/v1/projects/${project}/uploads/${id}/commit`, {});
  return { opened, sent, committed, by };
}

/** The index of the round trip whose statements include one matching each of `patterns` (-1 when they are not all in one). */
function oneTrip(trips: string[][], ...patterns: RegExp[]): number {
  return trips.findIndex((trip) => patterns.every((re) => trip.some((sql) => re.test(sql))));
}

describe('a push of a new project', { timeout: 60_000 }, () => {
  it('opens, stores a batch and commits in 6, 4 and 11 D1 round trips, its reads folded into batches', async () => {
    const { opened, sent, committed, by } = await countedPush('push-trips-a', { 'a.py': pySource('trips-a'), 'b.ts': tsSource('trips-b') });
    expect([opened.status, sent.status, committed.status]).toEqual([201, 200, 200]);
    expect(committed.body.edges).toBe(1);
    // Opening: the project's insert and read, the release of an abandoned push lock and the upload's insert in one trip.
    expect(oneTrip(by.open, /^INSERT INTO projects/, /^SELECT id, name FROM projects/, /^UPDATE uploads SET status = CASE WHEN expires_at/, /^INSERT INTO uploads/)).toBeGreaterThanOrEqual(0);
    // The manifest classified, and the upload's state read after it (plan, missing contents, size conflicts), in one trip.
    expect(oneTrip(by.open, /^INSERT INTO upload_files/, /^SELECT change, count\(\*\) AS n FROM upload_files/, /^SELECT DISTINCT u\.hash FROM upload_files/)).toBeGreaterThanOrEqual(0);
    // A batch of files: the upload's claim and the batch's plan in one trip.
    expect(oneTrip(by.files, /^UPDATE uploads SET updated_at = \?3/, /^SELECT path, hash, language, change, size FROM upload_files/)).toBeGreaterThanOrEqual(0);
    // Committing: the upload's claim and every read the commit plans from in one trip, before the commit's batch.
    const reads = oneTrip(by.commit, /^UPDATE uploads SET updated_at = \?3, expires_at = \?4/, /^SELECT u\.path, u\.hash FROM upload_files/, /^SELECT change, count/, /^SELECT e\.status/, /^SELECT path, change FROM upload_files/, /^SELECT generation, graph_generation/);
    // The commit's batch reads the project's totals and paths after its writes.
    const write = oneTrip(by.commit, /^UPDATE uploads SET status = 'committed'/, /^SELECT symbol_count, schema_version_at_index, generation FROM projects/, /^SELECT path FROM files WHERE project_id/);
    // The edges' batch writes their ends and rows, removes the ends no edge uses, and counts the project's edges.
    const edges = oneTrip(by.commit, /^INSERT INTO edge_ends/, /^INSERT INTO edge_rows/, /^DELETE FROM edge_ends/, /^SELECT count\(\*\) AS n FROM edges/);
    // The full-text indexes' bounded merge: one trip of its own after the commit's batch, so its failure never fails the push.
    const merge = oneTrip(by.commit, /^INSERT INTO symbols_fts\(symbols_fts, rank\) VALUES\('merge'/, /^INSERT INTO blob_grams\(blob_grams, rank\) VALUES\('merge'/);
    expect(reads).toBeGreaterThanOrEqual(0);
    expect(write).toBeGreaterThan(reads);
    expect(merge).toBeGreaterThan(write);
    expect(edges).toBeGreaterThan(write);
    expect({ open: by.open.length, files: by.files.length, commit: by.commit.length }).toEqual({ open: 6, files: 4, commit: 11 });
  });

  it('answers a batch sent to a closed upload with the upload’s state, whatever the batch holds', async () => {
    const files = { 'a.py': pySource('trips-closed') };
    const { opened, committed } = await countedPush('push-trips-closed', files);
    expect(committed.status).toBe(200);
    const id = opened.body.upload_id as string;
    const url = `/v1/projects/push-trips-closed/uploads/${id}/files`;
    const [item] = await manifestOf(files);
    for (const body of [{ files: [{ path: 'a.py', hash: item.hash, content: files['a.py'] }] }, { files: [{ path: '../x', hash: 'no', content: 1 }] }, { files: 'none' }, []]) {
      const r = await post(url, body);
      expect([r.status, (r.body as { error: { code: string; details: unknown } }).error.code, (r.body as { error: { details: unknown } }).error.details]).toEqual([404, 'upload_not_found', { status: 'committed' }]);
    }
    const unknown = await post('/v1/projects/push-trips-closed/uploads/01ZZZZZZZZZZZZZZZZZZZZZZZZ/files', { files: [{ path: 'a.py', hash: item.hash, content: files['a.py'] }] });
    expect((unknown.body as { error: { code: string } }).error.code).toBe('upload_not_found');
  });
});
