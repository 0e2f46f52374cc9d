import { describe, expect, it } from 'vitest';
import { env, restCall, send } from '../contract/support';
import { callTotalsByTool, recordCall } from '../../../src/db/calls';
import { LATENCY_BOUNDS_MS } from '../../../src/db/latency-buckets';
import { prometheusText } from '../../../src/rest/metrics';
import { promlint } from './promlint';

const TOOL = 'metrics_probe_tool';

async function scrape(): Promise<string> {
  const reply = await send('/v1/metrics');
  expect(reply.status).toBe(200);
  return reply.text;
}

function sample(text: string, prefix: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(prefix + ' '));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('GET /v1/metrics', () => {
  it('passes the promtool lint rules: HELP and TYPE for every family, _total counters, latency in seconds', async () => {
    await restCall('why_empty', { code: 'cap_dropped_all' }, { env: {} });
    const text = await scrape();
    expect(promlint(text)).toEqual([]);
    expect(text).toMatch(/^# TYPE pincher_tool_latency_seconds histogram$/m);
    expect(text).toMatch(/^pincher_tool_latency_seconds_bucket\{tool="why_empty",le="0\.005"\} \d+$/m);
    expect(text).toMatch(/^pincher_tool_latency_seconds_bucket\{tool="why_empty",le="\+Inf"\} [1-9]\d*$/m);
    expect(text).not.toMatch(/_ms\b/);
  });

  it('reads running totals: each recorded call adds to its tool, status, tokens and latency buckets', async () => {
    const before = await scrape();
    const calls = (t: string) => sample(t, `pincher_tool_calls_total{tool="${TOOL}",status="ok"}`) ?? 0;
    const base = calls(before);
    const row = { requestId: 'r', surface: 'rest', status: 'ok', tokensUsed: 10, tokensSaved: 90, emptyReason: null, projectId: null };
    await recordCall(env.DB, { ...row, ts: Date.now(), tool: TOOL, latencyMs: 3 });
    await recordCall(env.DB, { ...row, ts: Date.now(), tool: TOOL, latencyMs: 700 });
    const after = await scrape();
    expect(calls(after)).toBe(base + 2);
    expect(sample(after, `pincher_tokens_used_total{tool="${TOOL}",status="ok"}`)).toBe(20 + (sample(before, `pincher_tokens_used_total{tool="${TOOL}",status="ok"}`) ?? 0));
    expect(sample(after, `pincher_tokens_saved_total{tool="${TOOL}",status="ok"}`)).toBe(180 + (sample(before, `pincher_tokens_saved_total{tool="${TOOL}",status="ok"}`) ?? 0));
    const bucket = (t: string, le: string) => sample(t, `pincher_tool_latency_seconds_bucket{tool="${TOOL}",le="${le}"}`) ?? 0;
    expect(bucket(after, '0.005') - bucket(before, '0.005')).toBe(1);
    expect(bucket(after, '0.5') - bucket(before, '0.5')).toBe(1);
    expect(bucket(after, '1') - bucket(before, '1')).toBe(2);
    expect(sample(after, `pincher_tool_latency_seconds_count{tool="${TOOL}"}`)).toBe(bucket(after, '+Inf'));
  });

  it('counts each call in the buckets LATENCY_BOUNDS_MS names, in one statement: a bound, one past it, a fraction, a negative', async () => {
    const tool = 'metrics_bucket_probe';
    const latencies = [...LATENCY_BOUNDS_MS.flatMap((b) => [b, b + 1]), 4.4, 4.6, -3, 20_000];
    const row = { requestId: 'r', surface: 'rest', status: 'ok', tokensUsed: 2, tokensSaved: null, emptyReason: null, projectId: null, tool };
    for (const latencyMs of latencies) await recordCall(env.DB, { ...row, ts: Date.now(), latencyMs });
    const whole = latencies.map((l) => Math.max(0, Math.round(l)));
    const totals = (await callTotalsByTool(env.DB)).find((t) => t.tool === tool);
    expect(totals).toEqual({
      tool,
      status: 'ok',
      calls: latencies.length,
      latencySumMs: whole.reduce((a, b) => a + b, 0),
      tokensUsed: 2 * latencies.length,
      tokensSaved: 0,
      buckets: LATENCY_BOUNDS_MS.map((b) => whole.filter((l) => l <= b).length),
    });
  });

  it('never goes down when the call log is pruned: a scrape does not read call_log', async () => {
    await recordCall(env.DB, { requestId: 'r', surface: 'mcp', status: 'empty', tokensUsed: 1, tokensSaved: 0, emptyReason: 'x', projectId: null, ts: 1, tool: TOOL, latencyMs: 1 });
    const before = sample(await scrape(), `pincher_tool_calls_total{tool="${TOOL}",status="empty"}`);
    expect(before).toBeGreaterThanOrEqual(1);
    await env.DB.prepare('DELETE FROM call_log WHERE tool = ?1').bind(TOOL).run();
    expect(sample(await scrape(), `pincher_tool_calls_total{tool="${TOOL}",status="empty"}`)).toBe(before);
  });

  it('escapes label values and keeps tools with several statuses in one histogram', () => {
    const text = prometheusText(
      [
        { tool: 'a"b\\c', status: 'ok', calls: 2, latencySumMs: 30, tokensUsed: 5, tokensSaved: 1, buckets: [0, 1, 2, 2, 2, 2, 2, 2, 2, 2] },
        { tool: 'a"b\\c', status: 'empty', calls: 1, latencySumMs: 2000, tokensUsed: 1, tokensSaved: 0, buckets: [0, 0, 0, 0, 0, 0, 0, 0, 1, 1] },
      ],
      3,
    );
    expect(promlint(text)).toEqual([]);
    expect(text).toContain('pincher_tool_calls_total{tool="a\\"b\\\\c",status="ok"} 2');
    expect(text).toContain('pincher_tool_latency_seconds_count{tool="a\\"b\\\\c"} 3');
    expect(text).toContain('pincher_tool_latency_seconds_sum{tool="a\\"b\\\\c"} 2.03');
    expect(text).toContain('pincher_tool_latency_seconds_bucket{tool="a\\"b\\\\c",le="2.5"} 3');
    expect(text).toContain('pincher_projects 3');
  });

  it('the lint catches what promtool would: a counter without _total, units in ms, a family without HELP', () => {
    const bad = ['# TYPE x_latency_ms histogram', 'x_latency_ms_count 1', '# HELP y_calls c', '# TYPE y_calls counter', 'y_calls 1'].join('\n');
    const problems = promlint(bad);
    expect(problems.some((p) => p.includes('x_latency_ms: no help text'))).toBe(true);
    expect(problems.some((p) => p.includes('abbreviated units (ms)'))).toBe(true);
    expect(problems.some((p) => p.includes('y_calls: counter metrics should have "_total" suffix'))).toBe(true);
  });
});
