import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import app from '../../../src/index';
import type { Env } from '../../../src/env';
import { BASE, env, restCall } from '../contract/support';
import { CALL_LOG_WINDOW_MAX_ROWS, DEFAULT_CALL_LOG_WINDOW_MS, MAX_CALL_LOG_WINDOW_MS, callLogWindowMs, queueCall, type CallRecord } from '../../../src/db/calls';

/** env.DB, counting the writes (batches and single statements) that reach it. */
function countingDb(): { d1: D1Database; writes: number[] } {
  const writes: number[] = [];
  const d1 = {
    prepare: (sql: string) => {
      const stmt = env.DB.prepare(sql);
      return new Proxy(stmt, {
        get(target, prop) {
          if (prop === 'bind') return (...binds: unknown[]) => countRun(target.bind(...binds));
          const v = Reflect.get(target, prop);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    },
    batch: (statements: D1PreparedStatement[]) => {
      writes.push(statements.length);
      return env.DB.batch(statements.map((s) => (s as unknown as { inner: D1PreparedStatement }).inner ?? s));
    },
  } as unknown as D1Database;
  // A bound statement run on its own is a write of one row; inside a batch it is handed back unwrapped.
  const countRun = (bound: D1PreparedStatement) =>
    new Proxy(bound, {
      get(target, prop) {
        if (prop === 'inner') return target;
        if (prop === 'run') return () => (writes.push(1), target.run());
        const v = Reflect.get(target, prop);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  return { d1, writes };
}

const row = (requestId: string): CallRecord => ({ ts: Date.now(), requestId, tool: 'call_log_probe', surface: 'rest', status: 'ok', latencyMs: 1, tokensUsed: 1, tokensSaved: 0, emptyReason: null, projectId: null });

async function logged(prefix: string): Promise<string[]> {
  const { results } = await env.DB.prepare('SELECT request_id FROM call_log WHERE request_id LIKE ?1 ORDER BY id').bind(`${prefix}%`).all<{ request_id: string }>();
  return results.map((r) => r.request_id);
}

describe('the call-log write', () => {
  it('writes the calls of one window in one batch, in call order, each call waiting for its own row', async () => {
    const { d1, writes } = countingDb();
    const waits: Promise<unknown>[] = [];
    for (const id of ['win-a-1', 'win-a-2', 'win-a-3']) queueCall(d1, row(id), (p) => waits.push(p));
    expect(writes).toEqual([]);
    expect(waits).toHaveLength(3);
    await Promise.all(waits);
    expect(writes).toEqual([3]);
    expect(await logged('win-a-')).toEqual(['win-a-1', 'win-a-2', 'win-a-3']);
  });

  it('starts a new window for a call after the last write began', async () => {
    const { d1, writes } = countingDb();
    const first: Promise<unknown>[] = [];
    queueCall(d1, row('win-b-1'), (p) => first.push(p));
    await Promise.all(first);
    const second: Promise<unknown>[] = [];
    queueCall(d1, row('win-b-2'), (p) => second.push(p));
    await Promise.all(second);
    expect(writes).toEqual([1, 1]);
    expect(await logged('win-b-')).toEqual(['win-b-1', 'win-b-2']);
  });

  it('a tool call has its row written when its waitUntil work is done', async () => {
    const before = (await env.DB.prepare("SELECT count(*) AS n FROM call_log WHERE tool = 'why_empty'").first<{ n: number }>())?.n ?? 0;
    expect((await restCall('why_empty', { code: 'cap_dropped_all' }, { env: {} })).status).toBe(200);
    const after = (await env.DB.prepare("SELECT count(*) AS n FROM call_log WHERE tool = 'why_empty'").first<{ n: number }>())?.n ?? 0;
    expect(after).toBeGreaterThan(before);
  });

  it('shares one write among calls answered one after another within a window', async () => {
    const { d1, writes } = countingDb();
    const waits: Promise<unknown>[] = [];
    queueCall(d1, row('win-c-1'), (p) => waits.push(p), 60);
    await new Promise((resolve) => setTimeout(resolve, 10));
    queueCall(d1, row('win-c-2'), (p) => waits.push(p), 60);
    await new Promise((resolve) => setTimeout(resolve, 10));
    queueCall(d1, row('win-c-3'), (p) => waits.push(p), 60);
    expect(writes).toEqual([]);
    await Promise.all(waits);
    expect(writes).toEqual([3]);
    expect(await logged('win-c-')).toEqual(['win-c-1', 'win-c-2', 'win-c-3']);
  });

  it('closes a window at its row limit: the next call opens another, and each writes in call order', async () => {
    const { d1, writes } = countingDb();
    const waits: Promise<unknown>[] = [];
    const ids = Array.from({ length: CALL_LOG_WINDOW_MAX_ROWS + 2 }, (_, i) => `win-d-${String(i).padStart(3, '0')}`);
    for (const id of ids) queueCall(d1, row(id), (p) => waits.push(p), 20);
    await Promise.all(waits);
    expect(writes).toEqual([CALL_LOG_WINDOW_MAX_ROWS, 2]);
    expect(await logged('win-d-')).toEqual(ids);
  });

  it('takes its window from PINCHER_CALL_LOG_WINDOW_MS: whole milliseconds up to the maximum, else the default', () => {
    expect(callLogWindowMs('0')).toBe(0);
    expect(callLogWindowMs('250')).toBe(250);
    expect(callLogWindowMs(String(MAX_CALL_LOG_WINDOW_MS))).toBe(MAX_CALL_LOG_WINDOW_MS);
    for (const bad of [undefined, '', ' ', '-1', '2.5', 'abc', '1e3x', String(MAX_CALL_LOG_WINDOW_MS + 1)]) expect(callLogWindowMs(bad)).toBe(DEFAULT_CALL_LOG_WINDOW_MS);
  });

  it('a tool call answers before its window closes, and its row lands when the window does', async () => {
    const ctx = createExecutionContext();
    const merged = { ...env, PINCHER_CALL_LOG_WINDOW_MS: '400' } as unknown as Env;
    const res = await app.fetch(
      new Request(`${BASE}/v1/tools/why_empty`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'cap_dropped_all' }) }),
      merged,
      ctx,
    );
    expect(res.status).toBe(200);
    await res.text();
    const before = await env.DB.prepare("SELECT count(*) AS n FROM call_log WHERE tool = 'why_empty'").first<{ n: number }>();
    // The window is 400 ms from the answer; a timer never fires early, so 50 ms on its row is not there yet.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const early = await env.DB.prepare("SELECT count(*) AS n FROM call_log WHERE tool = 'why_empty'").first<{ n: number }>();
    expect(early?.n).toBe(before?.n);
    await waitOnExecutionContext(ctx);
    const after = await env.DB.prepare("SELECT count(*) AS n FROM call_log WHERE tool = 'why_empty'").first<{ n: number }>();
    expect(after?.n).toBe((before?.n ?? 0) + 1);
  });
});
