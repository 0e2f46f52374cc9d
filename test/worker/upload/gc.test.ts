import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../../src/index';
import type { Env } from '../../../src/env';
import { collectGarbage, CONTENT_GRACE_MS, UPLOAD_RETENTION_MS, type GcOptions } from '../../../src/upload/gc';
import { checkInvariants } from '../invariants';
import { commit, env, open, push, pySource, request, rows, scalar, sendFiles, sha256, tool, uploadRow } from './support';

/** GC as it would run once every grace period is over (push history kept no longer than manifests unless told). */
function later(extra: Partial<GcOptions> = {}): GcOptions {
  return {
    now: Date.now() + Math.max(CONTENT_GRACE_MS, UPLOAD_RETENTION_MS) + 60_000,
    batchRows: 5_000,
    callLogRetentionMs: 30 * 86_400_000,
    callLogMaxRows: 1_000_000,
    eventsRetentionMs: 7 * 86_400_000,
    pushHistoryMs: 0,
    ...extra,
  };
}

async function held(text: string): Promise<{ blobs: number; extractions: number }> {
  const hash = await sha256(text);
  return {
    blobs: await scalar('SELECT count(*) AS n FROM blobs WHERE hash = ?1', hash),
    extractions: await scalar('SELECT count(*) AS n FROM extractions WHERE hash = ?1', hash),
  };
}

describe('garbage collection', { timeout: 60_000 }, () => {
  it('drops content and extractions no file uses any more, and closed uploads with their manifests; the index stays whole', async () => {
    const old = pySource('gc old', 'old_fn');
    const kept = pySource('gc kept', 'kept_fn');
    const first = await push('gc-basic', { 'a.py': old, 'b.py': kept });
    const second = await push('gc-basic', { 'a.py': pySource('gc new', 'new_fn'), 'b.py': kept });
    expect(second.commit?.status).toBe(200);
    expect(await held(old)).toEqual({ blobs: 1, extractions: 1 });

    const report = await collectGarbage(env.DB, later());
    expect(report.complete).toBe(true);
    expect(report.blobs).toBeGreaterThanOrEqual(1);
    expect(report.extractions).toBeGreaterThanOrEqual(1);
    expect(await held(old)).toEqual({ blobs: 0, extractions: 0 });
    expect(await held(kept)).toEqual({ blobs: 1, extractions: 1 });
    // Closed uploads and their manifests are gone.
    expect(await uploadRow(first.open.body.upload_id)).toBeNull();
    expect(await scalar('SELECT count(*) AS n FROM upload_files WHERE upload_id = ?1', second.open.body.upload_id)).toBe(0);
    expect(await checkInvariants()).toEqual([]);
    // The index still answers, content included.
    const r = await tool('read', { project: 'gc-basic', path: 'b.py' });
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.body.result)).toContain('kept_fn');
  });

  it('never deletes what an open upload sent or may still commit, even when nothing else uses it', async () => {
    await push('gc-flight', { 'a.py': pySource('gc flight base') });
    const sentText = pySource('gc flight sent', 'sent_fn');
    // Content held only by an aborted upload: unused, yet a new upload re-uses it without sending it.
    const orphanText = pySource('gc flight orphan', 'orphan_fn');
    const aborted = await open('gc-flight', { 'o.py': orphanText });
    await sendFiles('gc-flight', aborted.body.upload_id, { 'o.py': orphanText });
    await env.DB.prepare("UPDATE uploads SET status = 'aborted' WHERE id = ?1").bind(aborted.body.upload_id).run();

    const o = await open('gc-flight', { 'a.py': pySource('gc flight base'), 'n.py': sentText, 'o.py': orphanText });
    expect(o.body.missing).toEqual([await sha256(sentText)]);
    expect((await sendFiles('gc-flight', o.body.upload_id, { 'n.py': sentText })).status).toBe(200);

    // Both contents look old enough to collect; only the open upload's manifest protects them.
    for (const table of ['blobs', 'extractions']) {
      await env.DB.prepare(`UPDATE ${table} SET created_at = created_at - ?3 WHERE hash IN (?1, ?2)`)
        .bind(await sha256(sentText), await sha256(orphanText), 2 * CONTENT_GRACE_MS)
        .run();
    }
    const report = await collectGarbage(env.DB, { ...later(), now: Date.now() });
    expect(report.complete).toBe(true);
    expect((await uploadRow(o.body.upload_id))!.status).toBe('open');
    expect(await held(sentText)).toEqual({ blobs: 1, extractions: 1 });
    expect(await held(orphanText)).toEqual({ blobs: 1, extractions: 1 });

    const c = await commit('gc-flight', o.body.upload_id);
    expect(c.status).toBe(200);
    expect(c.body.files).toMatchObject({ new: 2 });
    expect(await checkInvariants()).toEqual([]);
  });

  it('expires idle open uploads, then collects what only they used', async () => {
    const text = pySource('gc idle', 'idle_fn');
    const o = await open('gc-idle', { 'a.py': text });
    await sendFiles('gc-idle', o.body.upload_id, { 'a.py': text });
    await env.DB.prepare('UPDATE uploads SET expires_at = ?2 WHERE id = ?1').bind(o.body.upload_id, Date.now() - 1).run();
    const first = await collectGarbage(env.DB, { ...later(), now: Date.now() });
    expect(first.expired_uploads).toBeGreaterThanOrEqual(1);
    expect((await uploadRow(o.body.upload_id))!.status).toBe('expired');
    expect(await held(text)).toEqual({ blobs: 1, extractions: 1 });
    await collectGarbage(env.DB, later());
    expect(await uploadRow(o.body.upload_id)).toBeNull();
    expect(await held(text)).toEqual({ blobs: 0, extractions: 0 });
    expect(await checkInvariants()).toEqual([]);
  });

  it('work per run is bounded: a small batch leaves the rest for the next run', async () => {
    for (let i = 0; i < 6; i++) {
      const text = pySource(`gc bound ${i}`);
      const o = await open('gc-bound', { 'a.py': text });
      await sendFiles('gc-bound', o.body.upload_id, { 'a.py': text });
      await env.DB.prepare("UPDATE uploads SET status = 'aborted' WHERE id = ?1").bind(o.body.upload_id).run();
    }
    const run = await collectGarbage(env.DB, later({ batchRows: 1 }));
    expect(run.complete).toBe(false);
    expect(run.extractions).toBeLessThanOrEqual(4);
    let runs = 1;
    while (!(await collectGarbage(env.DB, later({ batchRows: 1 }))).complete) runs++;
    expect(runs).toBeLessThan(50);
    for (let i = 0; i < 6; i++) expect(await held(pySource(`gc bound ${i}`))).toEqual({ blobs: 0, extractions: 0 });
    expect(await checkInvariants()).toEqual([]);
  });

  it('keeps call_log within its age and row cap', async () => {
    await env.DB.prepare('DELETE FROM call_log').run();
    const now = Date.now();
    const insert = env.DB.prepare(
      "INSERT INTO call_log (ts, request_id, tool, surface, status, latency_ms, tokens_used) VALUES (?1, ?2, 'search', 'rest', 'ok', 1, 1)",
    );
    await env.DB.batch([
      ...Array.from({ length: 3 }, (_, i) => insert.bind(now - 40 * 86_400_000 + i, `old-${i}`)),
      ...Array.from({ length: 6 }, (_, i) => insert.bind(now - 1000 + i, `new-${i}`)),
    ]);
    const report = await collectGarbage(env.DB, { ...later(), now, callLogMaxRows: 4 });
    expect(report.call_log).toBe(5);
    expect((await rows<{ request_id: string }>('SELECT request_id FROM call_log ORDER BY id')).map((r) => r.request_id)).toEqual(['new-2', 'new-3', 'new-4', 'new-5']);
  });

  it('keeps events (GET /v1/events) within their retention', async () => {
    await env.DB.prepare("DELETE FROM events WHERE project_name = 'gc-events'").run();
    const now = Date.now();
    const insert = env.DB.prepare("INSERT INTO events (ts, type, project_id, project_name, data) VALUES (?1, 'committed', NULL, 'gc-events', ?2)");
    await env.DB.batch([insert.bind(now - 8 * 86_400_000, '{"age":"eight days"}'), insert.bind(now - 1000, '{"age":"now"}')]);
    const report = await collectGarbage(env.DB, { ...later(), now });
    expect(report.events).toBeGreaterThanOrEqual(1);
    expect((await rows<{ data: string }>("SELECT data FROM events WHERE project_name = 'gc-events'")).map((r) => r.data)).toEqual(['{"age":"now"}']);
  });

  it('keeps a closed push in history (who, what changed) for PINCHER_PUSH_HISTORY_DAYS after its manifest is collected', async () => {
    const o = await open('gc-history', { 'a.py': pySource('gc history a'), 'b.py': pySource('gc history b') }, { pushed_by: 'ci-bot' });
    expect(o.status).toBe(201);
    await sendFiles('gc-history', o.body.upload_id, { 'a.py': pySource('gc history a'), 'b.py': pySource('gc history b') });
    expect((await commit('gc-history', o.body.upload_id)).status).toBe(200);
    const month = 30 * 86_400_000;
    await collectGarbage(env.DB, later({ pushHistoryMs: month }));
    expect(await scalar('SELECT count(*) AS n FROM upload_files WHERE upload_id = ?1', o.body.upload_id)).toBe(0);
    const history = await request('GET', '/v1/projects/gc-history/uploads');
    expect(history.body.uploads).toEqual([expect.objectContaining({ upload_id: o.body.upload_id, status: 'committed', pushed_by: 'ci-bot', files: 2, changes: { new: 2, changed: 0, unchanged: 0, deleted: 0 } })]);
    await collectGarbage(env.DB, later({ now: Date.now() + month + 60_000, pushHistoryMs: month }));
    expect(await uploadRow(o.body.upload_id)).toBeNull();
    expect(await checkInvariants()).toEqual([]);
  });

  it('refuses a pushed_by that is not a short string with invalid_params, and opens nothing', async () => {
    for (const bad of [42, 'x'.repeat(101)]) {
      const r = await open('gc-history-bad', { 'a.py': pySource('gc history bad') }, { pushed_by: bad });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('pushed_by') });
      expect(r.body.error.suggestion).toBeTruthy();
    }
    expect(await scalar("SELECT count(*) AS n FROM uploads up JOIN projects p ON p.id = up.project_id WHERE p.name = 'gc-history-bad'")).toBe(0);
  });

  it('runs from the Cron Trigger through the Worker\'s scheduled handler, with limits from the variables', async () => {
    await env.DB.prepare('DELETE FROM call_log').run();
    const insert = env.DB.prepare("INSERT INTO call_log (ts, request_id, tool, surface, status, latency_ms, tokens_used) VALUES (?1, ?2, 'search', 'rest', 'ok', 1, 1)");
    const now = Date.now();
    await env.DB.batch([insert.bind(now - 3 * 86_400_000, 'three-days'), insert.bind(now, 'today')]);
    const ctx = createExecutionContext();
    const merged = { ...env, PINCHER_CALL_LOG_RETENTION_DAYS: '2' } as unknown as Env;
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: '*/30 * * * *' }), merged, ctx);
    await waitOnExecutionContext(ctx);
    expect((await rows<{ request_id: string }>('SELECT request_id FROM call_log')).map((r) => r.request_id)).toEqual(['today']);
  });
});
