import type { ToolCallTotals } from '../db/calls';
import { LATENCY_BOUNDS_MS } from '../db/latency-buckets';

/** Label values in the Prometheus text format: backslash, quote and newline escaped. */
function esc(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** A histogram bound in seconds, the base unit Prometheus names use (5 ms → "0.005"). */
function seconds(ms: number): string {
  return String(ms / 1000);
}

/**
 * The Prometheus text exposition (format 0.0.4) of the running call totals.
 * Names follow Prometheus' naming rules (what `promtool check metrics`
 * lints): counters end in `_total`, latency is in base-unit seconds, every
 * family has HELP and TYPE. See docs/operations.md for the list.
 */
export function prometheusText(totals: ToolCallTotals[], projects: number): string {
  const lines: string[] = [];
  const family = (name: string, type: 'counter' | 'gauge' | 'histogram', help: string) =>
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  const labels = (t: ToolCallTotals) => `tool="${esc(t.tool)}",status="${esc(t.status)}"`;

  family('pincher_tool_calls_total', 'counter', 'Tool calls, by tool and status (ok, empty, or the error code).');
  for (const t of totals) lines.push(`pincher_tool_calls_total{${labels(t)}} ${t.calls}`);
  family('pincher_tokens_used_total', 'counter', 'Tokens returned to callers, by tool and status.');
  for (const t of totals) lines.push(`pincher_tokens_used_total{${labels(t)}} ${t.tokensUsed}`);
  family('pincher_tokens_saved_total', 'counter', "Tokens saved against each tool's baseline, by tool and status.");
  for (const t of totals) lines.push(`pincher_tokens_saved_total{${labels(t)}} ${t.tokensSaved}`);

  family('pincher_tool_latency_seconds', 'histogram', 'Server latency of tool calls, by tool.');
  const perTool = new Map<string, { count: number; sumMs: number; buckets: number[] }>();
  for (const t of totals) {
    const acc = perTool.get(t.tool) ?? { count: 0, sumMs: 0, buckets: LATENCY_BOUNDS_MS.map(() => 0) };
    acc.count += t.calls;
    acc.sumMs += t.latencySumMs;
    t.buckets.forEach((n, i) => (acc.buckets[i] += n));
    perTool.set(t.tool, acc);
  }
  for (const [tool, acc] of perTool) {
    const tl = `tool="${esc(tool)}"`;
    LATENCY_BOUNDS_MS.forEach((b, i) => lines.push(`pincher_tool_latency_seconds_bucket{${tl},le="${seconds(b)}"} ${acc.buckets[i]}`));
    lines.push(`pincher_tool_latency_seconds_bucket{${tl},le="+Inf"} ${acc.count}`);
    lines.push(`pincher_tool_latency_seconds_sum{${tl}} ${seconds(acc.sumMs)}`);
    lines.push(`pincher_tool_latency_seconds_count{${tl}} ${acc.count}`);
  }

  family('pincher_projects', 'gauge', 'Indexed projects.');
  lines.push(`pincher_projects ${projects}`);
  return lines.join('\n') + '\n';
}
