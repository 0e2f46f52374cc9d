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
      .bind(row.ts, row.requestId, row.tool, row.surface, row.status, row.latencyMs, row.tokensUsed, row.tokensSaved ?? null, row.emptyReason ?? null, row.projectId ?? null)
      .run();
  } catch (err) {
    console.error(`call_log insert failed: ${err instanceof Error ? err.name : 'error'}`);
  }
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
