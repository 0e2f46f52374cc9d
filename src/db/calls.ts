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
 * How long a call's row waits for others before the write: calls answered in that window share
 * one write. 0: the write starts in the next task, so only calls answered together (concurrent
 * calls in one isolate) share it. A 50 ms window was measured and dropped: its writes landed on
 * later calls' reads and made the one-round-trip floor (`/v1/ready`) 1 ms slower at p50, with no
 * tool faster (docs/consistency.md).
 */
export const CALL_LOG_DELAY_MS = 0;
/** Rows one write takes at most: a fuller window starts another write. */
const CALL_LOG_MAX_ROWS = 50;

/** The window of calls waiting for one write, per database: their rows in call order and the write's promise. */
const waiting = new Map<D1Database, { rows: CallRecord[]; written: Promise<void> }>();

/**
 * Records one tool call after the answer, sharing the write with the calls of
 * the same CALL_LOG_DELAY_MS window: one round trip and one transaction for all of
 * them. Every call keeps its Worker alive until its row is
 * written (`waitUntil` on the window's write; workerd resumes each waiter in
 * its own request, and the window's first request keeps the write running).
 * Never throws: telemetry must not fail a call.
 */
export function queueCall(d1: D1Database, row: CallRecord, waitUntil: (promise: Promise<unknown>) => void): void {
  let window = waiting.get(d1);
  if (window) window.rows.push(row);
  else {
    const rows = [row];
    const written = new Promise((resolve) => setTimeout(resolve, CALL_LOG_DELAY_MS)).then(() => {
      if (waiting.get(d1)?.rows === rows) waiting.delete(d1);
      return recordCalls(d1, rows);
    });
    waiting.set(d1, (window = { rows, written }));
  }
  if (window.rows.length >= CALL_LOG_MAX_ROWS) waiting.delete(d1);
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
