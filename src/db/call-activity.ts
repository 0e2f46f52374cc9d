/** Calls of one tool in one time bucket (or the whole window), from `call_log`. */
export interface ActivityRow {
  tool: string;
  /** Start of the bucket, epoch ms; the window's start for whole-window rows. */
  bucket: number;
  calls: number;
  empty: number;
  /** Calls answered with an error code (neither 'ok' nor 'empty'). */
  errors: number;
  /** Nearest-rank percentiles of `latency_ms`. */
  p50_ms: number;
  p99_ms: number;
  tokens_used: number;
  tokens_saved: number;
}

export interface EmptyReasonRow {
  tool: string;
  empty_reason: string | null;
  calls: number;
}

/**
 * Per tool and bucket: counts, nearest-rank p50/p99 latency (window functions:
 * rank within the bucket, then pick rank ceil(n·p)), tokens. `bucketMs` equal to
 * the window's length gives one row per tool for the whole window. D1 binds JS
 * numbers as REAL, so the window start and bucket width are cast for an integer division.
 */
const ACTIVITY = `WITH w AS (
    SELECT tool, (ts - CAST(?1 AS INTEGER)) / CAST(?3 AS INTEGER) AS b, status, latency_ms, tokens_used, tokens_saved,
      row_number() OVER (PARTITION BY tool, (ts - CAST(?1 AS INTEGER)) / CAST(?3 AS INTEGER) ORDER BY latency_ms) AS rn,
      count(*) OVER (PARTITION BY tool, (ts - CAST(?1 AS INTEGER)) / CAST(?3 AS INTEGER)) AS n
    FROM call_log WHERE ts >= ?1 AND ts < ?2
  )
  SELECT tool, ?1 + b * CAST(?3 AS INTEGER) AS bucket, count(*) AS calls,
    sum(status = 'empty') AS empty,
    sum(status NOT IN ('ok', 'empty')) AS errors,
    max(CASE WHEN rn = (n * 50 + 99) / 100 THEN latency_ms END) AS p50_ms,
    max(CASE WHEN rn = (n * 99 + 99) / 100 THEN latency_ms END) AS p99_ms,
    sum(tokens_used) AS tokens_used,
    coalesce(sum(tokens_saved), 0) AS tokens_saved
  FROM w GROUP BY tool, b ORDER BY b, tool`;

/**
 * Tool-call activity in [from, to): per tool and bucket, per tool over the
 * window, and empty results per tool and reason. One round trip (a batch).
 */
export async function callActivity(
  d1: D1Database,
  from: number,
  to: number,
  bucketMs: number,
): Promise<{ series: ActivityRow[]; totals: ActivityRow[]; empties: EmptyReasonRow[] }> {
  const [series, totals, empties] = await d1.batch([
    d1.prepare(ACTIVITY).bind(from, to, bucketMs),
    d1.prepare(ACTIVITY).bind(from, to, to - from),
    d1
      .prepare(
        `SELECT tool, empty_reason, count(*) AS calls FROM call_log
         WHERE ts >= ?1 AND ts < ?2 AND status = 'empty'
         GROUP BY tool, empty_reason ORDER BY calls DESC`,
      )
      .bind(from, to),
  ]);
  return {
    series: series.results as unknown as ActivityRow[],
    totals: totals.results as unknown as ActivityRow[],
    empties: empties.results as unknown as EmptyReasonRow[],
  };
}
