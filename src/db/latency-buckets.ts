/** Upper bounds (milliseconds) of the latency histogram `call_totals` keeps per tool and status (one `le_<n>` column each). */
export const LATENCY_BOUNDS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10000] as const;
