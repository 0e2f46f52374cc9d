import { describe, expect, it } from 'vitest';
import { env, send } from '../contract/support';

const TOOL = 'activity_probe';
const HOUR = 3_600_000;

/** Rows of a tool nobody else calls, so other files' calls in the shared database do not count. */
async function seed(rows: { ts: number; status: string; latency: number; saved?: number; reason?: string }[]): Promise<void> {
  const stmt = env.DB.prepare(
    "INSERT INTO call_log (ts, request_id, tool, surface, status, latency_ms, tokens_used, tokens_saved, empty_reason) VALUES (?1, 'r', ?2, 'rest', ?3, ?4, 10, ?5, ?6)",
  );
  await env.DB.batch(rows.map((r) => stmt.bind(r.ts, TOOL, r.status, r.latency, r.saved ?? null, r.reason ?? null)));
}

describe('GET /v1/activity', () => {
  it('gives per tool calls, empty rate by reason, errors, nearest-rank p50/p99 and tokens saved, and a series per bucket', async () => {
    const now = Date.now();
    // 100 calls with latencies 1..100 ms: 10 empty (7 no_match, 3 query_too_narrow), 5 errors.
    const rows = Array.from({ length: 100 }, (_, i) => ({
      ts: now - (i < 50 ? 0 : 5 * HOUR) - 1000,
      status: i < 7 ? 'empty' : i < 10 ? 'empty' : i < 15 ? 'invalid_params' : 'ok',
      latency: i + 1,
      saved: i < 15 ? undefined : 100,
      reason: i < 7 ? 'no_match' : i < 10 ? 'query_too_narrow' : undefined,
    }));
    // Outside the window: not counted.
    rows.push({ ts: now - 30 * HOUR, status: 'ok', latency: 5000, saved: 1, reason: undefined });
    await seed(rows);
    const reply = await send('/v1/activity?hours=24');
    expect(reply.status).toBe(200);
    expect(reply.body.window).toMatchObject({ hours: 24, bucket_ms: HOUR });
    const probe = reply.body.tools.find((t: { tool: string }) => t.tool === TOOL);
    expect(probe).toMatchObject({ calls: 100, empty: 10, errors: 5, p50_ms: 50, p99_ms: 99, tokens_used: 1000, tokens_saved: 8500, empty_rate: 0.1 });
    expect(probe.empty_by_reason).toEqual({ no_match: 7, query_too_narrow: 3 });
    const series = reply.body.series.filter((s: { tool: string }) => s.tool === TOOL);
    expect(series.map((s: { calls: number }) => s.calls).sort()).toEqual([50, 50]);
    // The older bucket holds latencies 51..100: nearest-rank median 75.
    const older = series.reduce((a: { bucket: string }, b: { bucket: string }) => (a.bucket < b.bucket ? a : b));
    expect(older).toMatchObject({ p50_ms: 75, p99_ms: 100 });
    expect(Date.parse(reply.body.window.to) - Date.parse(reply.body.window.from)).toBe(24 * HOUR);
  });

  it('refuses a window outside 1–720 hours with invalid_params', async () => {
    for (const hours of ['0', '721', 'x']) {
      const reply = await send(`/v1/activity?hours=${hours}`);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('invalid_params');
    }
  });

  it('needs a key when keys are configured, and a read key is enough', async () => {
    const keys = { PINCHER_HTTP_KEY: 'activity-full', PINCHER_READ_KEY: 'activity-read', PINCHER_ALLOW_OPEN: undefined };
    expect((await send('/v1/activity', {}, keys)).status).toBe(401);
    expect((await send('/v1/activity', { headers: { authorization: 'Bearer activity-read' } }, keys)).status).toBe(200);
  });
});
