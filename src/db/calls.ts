import { sql } from 'drizzle-orm';
import { db } from './client';
import { callLog } from './schema';

export type CallRecord = typeof callLog.$inferInsert;

/** Records one tool call. Never throws: telemetry must not fail a call. */
export async function recordCall(d1: D1Database, row: CallRecord): Promise<void> {
  try {
    await db(d1).insert(callLog).values(row);
  } catch (err) {
    console.error(`call_log insert failed: ${err instanceof Error ? err.name : 'error'}`);
  }
}

export interface ToolCallStats {
  tool: string;
  status: string;
  calls: number;
  latencySum: number;
  tokensUsed: number;
  tokensSaved: number;
}

/** Totals per tool and status since `sinceMs` (for the Prometheus scrape). */
export async function callStats(d1: D1Database, sinceMs = 0): Promise<ToolCallStats[]> {
  return db(d1)
    .select({
      tool: callLog.tool,
      status: callLog.status,
      calls: sql<number>`count(*)`,
      latencySum: sql<number>`coalesce(sum(${callLog.latencyMs}), 0)`,
      tokensUsed: sql<number>`coalesce(sum(${callLog.tokensUsed}), 0)`,
      tokensSaved: sql<number>`coalesce(sum(${callLog.tokensSaved}), 0)`,
    })
    .from(callLog)
    .where(sql`${callLog.ts} >= ${sinceMs}`)
    .groupBy(callLog.tool, callLog.status);
}

/** Cumulative latency histogram per tool: counts[i] = calls with latency ≤ bounds[i]. */
export async function latencyBuckets(d1: D1Database, bounds: number[]): Promise<Map<string, number[]>> {
  const cols = bounds.map((b, i) => `sum(CASE WHEN latency_ms <= ?${i + 1} THEN 1 ELSE 0 END) AS b${i}`).join(', ');
  const rows = await d1
    .prepare(`SELECT tool, ${cols} FROM call_log GROUP BY tool`)
    .bind(...bounds)
    .all<Record<string, number | string>>();
  const out = new Map<string, number[]>();
  for (const r of rows.results) out.set(String(r.tool), bounds.map((_, i) => Number(r[`b${i}`] ?? 0)));
  return out;
}
