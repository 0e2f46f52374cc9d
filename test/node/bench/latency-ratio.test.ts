// The latency stage judges "a lite tool answers in one D1 round trip" as a p50 ratio to the floor. The
// Worker's clock counts whole milliseconds, so against a 1–2 ms floor the server ratio cannot tell 1.2× from
// 2×: the verdict then uses client wall times net of the request path.
import { describe, expect, it } from 'vitest';
import { netRatio, netRatioSpread, ratioVerdict, SERVER_RESOLVES_MS, tripVerdict } from '../../../scripts/bench/latency.mjs';

const floor = (health: number, seam: number, ready: number) => ({
  'GET /v1/health (no D1)': { client_ms: { p50: health } },
  'why_empty (tool seam, no D1 read)': { client_ms: { p50: seam } },
  'GET /v1/ready?shard=0 (one D1 round trip)': { client_ms: { p50: ready } },
});

describe('net ratio to one D1 round trip', () => {
  it('counts the tool over the seam against /v1/ready over /v1/health', () => {
    // A drizzle-orm run: health 2.2, seam 2.7, ready 3.5 ms.
    const f = floor(2.2, 2.7, 3.5);
    expect(netRatio({ client_ms: { p50: 4.2 } }, f)).toBe(1.15);
    expect(netRatio({ client_ms: { p50: 6.1 } }, f)).toBe(2.62);
    // A tool no slower than the seam spends no round trip's worth.
    expect(netRatio({ client_ms: { p50: 2.5 } }, f)).toBe(0);
  });

  it('is null without a round trip to measure or without a floor', () => {
    expect(netRatio({ client_ms: { p50: 4 } }, floor(3, 3, 3))).toBeNull();
    expect(netRatio({ client_ms: { p50: 4 } }, floor(3.2, 3, 3))).toBeNull();
    expect(netRatio({ client_ms: { p50: 4 } }, undefined)).toBeNull();
    expect(netRatio({}, floor(2, 2.5, 3.5))).toBeNull();
    const { 'GET /v1/health (no D1)': _, ...noHealth } = floor(2, 2.5, 3.5);
    expect(netRatio({ client_ms: { p50: 4 } }, noHealth)).toBeNull();
  });
});

describe('ratio verdict', () => {
  it('judges on the net ratio while the floor is under the server clock resolution', () => {
    // Server 2 ms against a 1 ms floor reads 2×; net of the path the tool is 1.15 round trips.
    expect(ratioVerdict({ server_p50: 2, net_p50: 1.15 }, 1.3, 1)).toEqual({ basis: 'client_net', verdict: 'met' });
    expect(ratioVerdict({ server_p50: 1, net_p50: 1.46 }, 1.3, 1)).toEqual({ basis: 'client_net', verdict: 'missed' });
    expect(ratioVerdict({ server_p50: 1, net_p50: 1.3 }, 1.3, SERVER_RESOLVES_MS - 1)).toEqual({ basis: 'client_net', verdict: 'met' });
    // No server floor figure: the net ratio still judges.
    expect(ratioVerdict({ server_p50: null, net_p50: 1.2 }, 1.3, null)).toEqual({ basis: 'client_net', verdict: 'met' });
  });

  it('judges on the server ratio once the floor is long enough to resolve it', () => {
    expect(ratioVerdict({ server_p50: 1.4, net_p50: 1.1 }, 1.3, SERVER_RESOLVES_MS)).toEqual({ basis: 'server', verdict: 'missed' });
    expect(ratioVerdict({ server_p50: 1.2, net_p50: 2 }, 1.3, 12)).toEqual({ basis: 'server', verdict: 'met' });
  });

  it('gives no verdict without a target or the ratio it needs', () => {
    expect(ratioVerdict({ server_p50: 1, net_p50: 1 }, null, 1)).toEqual({ basis: null, verdict: null });
    expect(ratioVerdict(null, 1.3, 1)).toEqual({ basis: null, verdict: null });
    expect(ratioVerdict({ server_p50: 1, net_p50: null }, 1.3, 1)).toEqual({ basis: null, verdict: null });
    expect(ratioVerdict({ server_p50: null, net_p50: 1 }, 1.3, 9)).toEqual({ basis: null, verdict: null });
  });
});

describe('round trips per tier', () => {
  it('holds a lite tool to one at p50 and a standard tool to two; the listings of every shard to one per shard', () => {
    expect(tripVerdict('symbol', 'lite', { p50: 1 }, 1)).toEqual({ target: 1, verdict: 'met' });
    expect(tripVerdict('symbol', 'lite', { p50: 2 }, 1)).toEqual({ target: 1, verdict: 'missed' });
    expect(tripVerdict('context', 'standard', { p50: 2 }, 1)).toEqual({ target: 2, verdict: 'met' });
    expect(tripVerdict('query', 'standard', { p50: 3 }, 1)).toEqual({ target: 2, verdict: 'missed' });
    expect(tripVerdict('list', 'lite', { p50: 2 }, 2)).toEqual({ target: 2, verdict: 'met' });
    expect(tripVerdict('health', 'lite', { p50: 3 }, 2)).toEqual({ target: 2, verdict: 'missed' });
  });

  it('judges nothing for a heavy tool, an unknown tier or no measure', () => {
    expect(tripVerdict('changes', 'heavy', { p50: 3 }, 1)).toBeNull();
    expect(tripVerdict('x', null, { p50: 1 }, 1)).toBeNull();
    expect(tripVerdict('symbol', 'lite', null, 1)).toBeNull();
  });
});

describe('the net ratio\'s 95 % interval', () => {
  const netRatioInterval = (...args: Parameters<typeof netRatioSpread>) => netRatioSpread(...args)?.interval ?? null;
  /** `n` calls spread evenly over [lo, hi] ms. */
  const spread = (lo: number, hi: number, n = 101) => Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / (n - 1));
  const quiet = { health: spread(1.99, 2.01), seam: spread(2.49, 2.51), ready: spread(2.99, 3.01) };

  it('is narrow around the point figure when the calls barely vary, and the same on every run', () => {
    // (4 − 2.5) ÷ (3 − 2) = 1.5
    const ci = netRatioInterval(spread(3.99, 4.01), quiet)!;
    expect(ci[0]).toBeLessThanOrEqual(1.5);
    expect(ci[1]).toBeGreaterThanOrEqual(1.5);
    expect(ci[1] - ci[0]).toBeLessThan(0.1);
    expect(netRatioInterval(spread(3.99, 4.01), quiet)).toEqual(ci);
  });

  it('widens with the spread of the calls, the floor\'s included', () => {
    const noisy = { health: spread(1.5, 2.5, 21), seam: spread(2, 3, 21), ready: spread(2.5, 3.5, 21) };
    const ci = netRatioInterval(spread(3, 5, 21), noisy)!;
    const narrow = netRatioInterval(spread(3.99, 4.01), quiet)!;
    expect(ci[0]).toBeLessThan(1.5);
    expect(ci[1]).toBeGreaterThan(1.5);
    expect(ci[1] - ci[0]).toBeGreaterThan(10 * (narrow[1] - narrow[0]));
  });

  it('is null without calls in a series or without a positive floor', () => {
    expect(netRatioInterval([], quiet)).toBeNull();
    expect(netRatioInterval(spread(3, 4), { ...quiet, health: [] })).toBeNull();
    expect(netRatioInterval(spread(3, 4), { ...quiet, ready: spread(1.5, 1.6) })).toBeNull();
  });
});

describe('the net ratio from the calls themselves', () => {
  it('uses unrounded p50s: rounding each to 0.1 ms would move it by a sixth over a 0.6 ms floor', () => {
    const calls = (p50: number) => [p50 - 0.2, p50 - 0.1, p50, p50 + 0.1, p50 + 0.2];
    // health 1.76, seam 2.06, ready 2.44: the floor is 0.68 ms, rounded p50s would make it 2.4 − 1.8 = 0.6.
    const spread = netRatioSpread(calls(3.31), { health: calls(1.76), seam: calls(2.06), ready: calls(2.44) })!;
    expect(spread.ratio).toBe(1.84);
    expect(netRatio({ client_ms: { p50: 3.3 } }, floor(1.8, 2.1, 2.4))).toBe(2);
    expect(spread.interval![0]).toBeLessThanOrEqual(spread.ratio);
    expect(spread.interval![1]).toBeGreaterThanOrEqual(spread.ratio);
  });
});
