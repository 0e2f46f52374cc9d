import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { callActivity, type ActivityRow } from '../db/call-activity';
import { jsonWithMeta } from '../http/respond';
import { queryInt } from '../http/query-int';

/**
 * `GET /v1/activity`: tool-call activity from the call log over the last `hours`
 * (1–720, default 24), per tool over the window and in 24 equal buckets: calls,
 * empty results (by reason), errors, p50/p99 latency and tokens saved.
 * Read key enough; the window is bounded because the log is scanned for it.
 */
export const activityRoutes = new Hono<AppEnv>();

const DEFAULT_HOURS = 24;
const MAX_HOURS = 720;
export const ACTIVITY_BUCKETS = 24;
const HOUR_MS = 3_600_000;

function hoursOf(raw: string | undefined): number {
  return queryInt(raw, 'hours', MAX_HOURS, DEFAULT_HOURS, `the last ${DEFAULT_HOURS} hours`);
}

const figures = (r: ActivityRow) => ({
  calls: r.calls,
  empty: r.empty,
  errors: r.errors,
  p50_ms: r.p50_ms,
  p99_ms: r.p99_ms,
  tokens_used: r.tokens_used,
  tokens_saved: r.tokens_saved,
});

activityRoutes.get('/activity', async (c) => {
  const hours = hoursOf(c.req.query('hours'));
  const bucketMs = (hours * HOUR_MS) / ACTIVITY_BUCKETS;
  // The window ends at the next bucket edge, so repeated reads agree on bucket starts.
  const to = Math.ceil((Date.now() + 1) / bucketMs) * bucketMs;
  const from = to - hours * HOUR_MS;
  const { series, totals, empties } = await callActivity(c.env.DB, from, to, bucketMs);
  const reasons = new Map<string, Record<string, number>>();
  for (const e of empties) {
    const byReason = reasons.get(e.tool) ?? {};
    byReason[e.empty_reason ?? 'unspecified'] = e.calls;
    reasons.set(e.tool, byReason);
  }
  return jsonWithMeta(c, {
    window: { from: new Date(from).toISOString(), to: new Date(to).toISOString(), hours, bucket_ms: bucketMs },
    tools: totals
      .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool))
      .map((r) => ({ tool: r.tool, ...figures(r), empty_rate: Math.round((1000 * r.empty) / r.calls) / 1000, empty_by_reason: reasons.get(r.tool) ?? {} })),
    series: series.map((r) => ({ tool: r.tool, bucket: new Date(r.bucket).toISOString(), ...figures(r) })),
  });
});
