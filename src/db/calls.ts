import { LATENCY_BOUNDS_MS } from './latency-buckets';
import type { callLog } from './schema';

export type CallRecord = typeof callLog.$inferInsert;

/** The `le_<n>` histogram columns of `call_totals`, in LATENCY_BOUNDS_MS order. */
const BUCKET_COLUMNS = LATENCY_BOUNDS_MS.map((b) => `le_${b}`);

const INSERT_CALL = `INSERT INTO call_log (ts, request_id, tool, surface, status, latency_ms, tokens_used, tokens_saved, empty_reason, project_id)
  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`;

/**
 * Records one tool call: its `call_log` row, which a trigger adds to the
 * running totals of its tool and status (migration 0017), in one statement
 * (both or neither). Never throws: telemetry must not fail a call.
 */
export async function recordCall(d1: D1Database, row: CallRecord): Promise<void> {
  try {
    await d1
      .prepare(INSERT_CALL)
      .bind(...callBinds(row))
      .run();
  } catch (err) {
    console.error(`call_log insert failed: ${err instanceof Error ? err.name : 'error'}`);
  }
}

/**
 * How long a call's row waits for others before the write, by default: the calls answered in that
 * window (in one isolate) share one write, one round trip and one transaction. Calls one at a time
 * used to write a row each, in the next task; each write then sat on the D1 database's queue in
 * front of the next call's read. Measured on the latency tier (`npm run bench -- --only latency`,
 * 200 calls per tool): 0 ms, symbol 1.57–1.64× and trace 2.47–2.75× the one-round-trip floor at
 * net p50; a 500 ms window, 1.27× and 2.04×; no call-log write at all, 1.31× and 2.12×
 * (docs/consistency.md). The row reaches `call_log`, `/v1/metrics` and the dashboard that much later.
 */
export const DEFAULT_CALL_LOG_WINDOW_MS = 500;
/** The longest window a deployment may set (`PINCHER_CALL_LOG_WINDOW_MS`). */
export const MAX_CALL_LOG_WINDOW_MS = 5_000;
/** Rows one write takes at most: a fuller window is closed and the next call opens another. */
export const CALL_LOG_WINDOW_MAX_ROWS = 50;

/** The window from `PINCHER_CALL_LOG_WINDOW_MS`: whole milliseconds 0–5,000; anything else is the default. */
export function callLogWindowMs(value: string | undefined): number {
  const n = value === undefined || value.trim() === '' ? NaN : Number(value);
  return Number.isInteger(n) && n >= 0 && n <= MAX_CALL_LOG_WINDOW_MS ? n : DEFAULT_CALL_LOG_WINDOW_MS;
}

/** The window of calls waiting for one write, per database: their rows in call order and the write's promise. */
const waiting = new Map<D1Database, { rows: CallRecord[]; written: Promise<void> }>();

/**
 * Records one tool call after the answer, sharing the write with the calls of
 * the same window (`windowMs` from the first call's answer; 0: the next task, so only calls
 * answered together share it): one round trip and one transaction for all of
 * them. The write runs in the window's first request, whose own timer starts it; every call keeps its
 * Worker alive until its row is written (`waitUntil` on the window's write; workerd resumes each waiter in
 * its own request). A window of CALL_LOG_WINDOW_MAX_ROWS rows takes no more, and waits for its timer.
 * Never throws: telemetry must not fail a call.
 */
export function queueCall(d1: D1Database, row: CallRecord, waitUntil: (promise: Promise<unknown>) => void, windowMs = 0): void {
  let window = waiting.get(d1);
  if (window) window.rows.push(row);
  else {
    const rows = [row];
    const written = new Promise((resolve) => setTimeout(resolve, windowMs)).then(() => {
      if (waiting.get(d1)?.rows === rows) waiting.delete(d1);
      return recordCalls(d1, rows);
    });
    waiting.set(d1, (window = { rows, written }));
  }
  if (window.rows.length >= CALL_LOG_WINDOW_MAX_ROWS) waiting.delete(d1);
  waitUntil(window.written);
}

/** Writes call rows in one batch (one transaction); never throws. */
async function recordCalls(d1: D1Database, rows: CallRecord[]): Promise<void> {
  if (rows.length === 1) return recordCall(d1, rows[0]);
  try {
    const insert = d1.prepare(INSERT_CALL);
    await d1.batch(rows.map((row) => insert.bind(...callBinds(row))));
  } catch (err) {
    console.error(`call_log insert failed: ${err instanceof Error ? err.name : 'error'}`);
  }
}

/** INSERT_CALL's binds for one row. */
function callBinds(row: CallRecord): unknown[] {
  return [row.ts, row.requestId, row.tool, row.surface, row.status, row.latencyMs, row.tokensUsed, row.tokensSaved ?? null, row.emptyReason ?? null, row.projectId ?? null];
}

export interface ToolCallTotals {
  tool: string;
  status: string;
  calls: number;
  latencySumMs: number;
  tokensUsed: number;
  tokensSaved: number;
  /** Calls with latency ≤ LATENCY_BOUNDS_MS[i], cumulative as Prometheus wants. */
  buckets: number[];
}

/** Running totals per tool and status (for the Prometheus scrape): one row per pair, never a scan of the call log. */
export async function callTotalsByTool(d1: D1Database): Promise<ToolCallTotals[]> {
  const { results } = await d1.prepare('SELECT * FROM call_totals ORDER BY tool, status').all<Record<string, number> & { tool: string; status: string }>();
  return results.map((r) => ({
    tool: r.tool,
    status: r.status,
    calls: r.calls,
    latencySumMs: r.latency_sum_ms,
    tokensUsed: r.tokens_used,
    tokensSaved: r.tokens_saved,
    buckets: BUCKET_COLUMNS.map((c) => r[c]),
  }));
}
