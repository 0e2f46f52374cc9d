import { sql, type SQL } from 'drizzle-orm';
import { db } from './client';
import { callLog, callTotals, LATENCY_BOUNDS_MS } from './schema';

export type CallRecord = typeof callLog.$inferInsert;

type TotalsRow = typeof callTotals.$inferSelect;
type BucketKey = `le${(typeof LATENCY_BOUNDS_MS)[number]}`;
const BUCKET_KEYS = LATENCY_BOUNDS_MS.map((b) => `le${b}` as BucketKey);
/** The columns a call adds to (everything but the key). */
const SUMMED = ['calls', 'latencySumMs', 'tokensUsed', 'tokensSaved', ...BUCKET_KEYS] as const;

/**
 * Records one tool call: its `call_log` row and the running totals of its
 * tool and status, in one batch (one round trip; both or neither). Never
 * throws: telemetry must not fail a call.
 */
export async function recordCall(d1: D1Database, row: CallRecord): Promise<void> {
  const latency = Math.max(0, Math.round(row.latencyMs));
  const totals: TotalsRow = {
    tool: row.tool,
    status: row.status,
    calls: 1,
    latencySumMs: latency,
    tokensUsed: row.tokensUsed,
    tokensSaved: row.tokensSaved ?? 0,
    ...(Object.fromEntries(LATENCY_BOUNDS_MS.map((b) => [`le${b}`, latency <= b ? 1 : 0])) as Record<BucketKey, number>),
  };
  const set = Object.fromEntries(
    SUMMED.map((k) => [k, sql`${callTotals[k]} + excluded.${sql.identifier(callTotals[k].name)}`]),
  ) as Record<(typeof SUMMED)[number], SQL>;
  try {
    const handle = db(d1);
    await handle.batch([
      handle.insert(callLog).values(row),
      handle.insert(callTotals).values(totals).onConflictDoUpdate({ target: [callTotals.tool, callTotals.status], set }),
    ]);
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
  const rows = await db(d1).select().from(callTotals).orderBy(callTotals.tool, callTotals.status);
  return rows.map((r) => ({
    tool: r.tool,
    status: r.status,
    calls: r.calls,
    latencySumMs: r.latencySumMs,
    tokensUsed: r.tokensUsed,
    tokensSaved: r.tokensSaved,
    buckets: BUCKET_KEYS.map((k) => r[k]),
  }));
}
