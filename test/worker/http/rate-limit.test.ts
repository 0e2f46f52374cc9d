import { describe, expect, it, vi } from 'vitest';
import { env, restCall, rpc, send, type EnvOverrides } from '../contract/support';

const FULL_KEY = 'rl-full-5d1c9a';
const OTHER_KEY = 'rl-read-77b0e2';

/** Keyed deployment whose RATE_LIMITER is the pool's real test limiter (3 requests per 60 s per key). */
function limited(): EnvOverrides {
  return {
    PINCHER_HTTP_KEY: FULL_KEY,
    PINCHER_READ_KEY: OTHER_KEY,
    PINCHER_RATE_LIMIT: undefined,
    RATE_LIMITER: (env as unknown as { TEST_RATE_LIMITER: RateLimit }).TEST_RATE_LIMITER,
  };
}

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

describe('per-key rate limit (Workers Rate Limiting binding)', () => {
  it('answers 429 rate_limited with Retry-After and the envelope once a key exceeds its limit', async () => {
    const e = limited() as EnvOverrides;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await restCall('list', {}, { env: e, headers: auth(FULL_KEY) })).status);
    expect(statuses).toEqual([200, 200, 200]);
    const over = await restCall('list', {}, { env: e, headers: auth(FULL_KEY) });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect(over.body.error.suggestion).toMatch(/Retry-After/);
    expect(over.headers.get('retry-after')).toBe('60');
    expect(over.body._meta.request_id).toBe(over.headers.get('x-request-id'));
    // MCP is counted on the same key and refused the same way, before any JSON-RPC work.
    const mcp = await rpc('2025', 'tools/list', {}, { env: e, headers: auth(FULL_KEY) });
    expect(mcp.status).toBe(429);
    expect(mcp.body.error.code).toBe('rate_limited');
  });

  it('counts each key separately and never counts public probes', async () => {
    const e = limited() as EnvOverrides;
    for (let i = 0; i < 3; i++) expect((await restCall('list', {}, { env: e, headers: auth(OTHER_KEY) })).status).toBe(200);
    expect((await restCall('list', {}, { env: e, headers: auth(OTHER_KEY) })).status).toBe(429);
    // Probes stay open whatever the key's budget.
    for (let i = 0; i < 5; i++) expect((await send('/v1/health', { headers: auth(OTHER_KEY) }, e)).status).toBe(200);
  });

  it('does not count refused keys against anybody, nor keyless open mode', async () => {
    const e = limited() as EnvOverrides;
    for (let i = 0; i < 5; i++) expect((await restCall('list', {}, { env: e, headers: auth('wrong-key') })).status).toBe(401);
    const open = { PINCHER_ALLOW_OPEN: '1', PINCHER_RATE_LIMIT: undefined, RATE_LIMITER: limited().RATE_LIMITER } as EnvOverrides;
    for (let i = 0; i < 5; i++) expect((await restCall('list', {}, { env: open })).status).toBe(200);
  });

  it('works out a key’s id once per isolate, not per request', async () => {
    const key = 'rl-once-3f8a61';
    const e = { ...limited(), PINCHER_HTTP_KEY: key } as EnvOverrides;
    const digest = vi.spyOn(crypto.subtle, 'digest');
    try {
      for (let i = 0; i < 3; i++) expect((await restCall('list', {}, { env: e, headers: auth(key) })).status).toBe(200);
      expect((await restCall('list', {}, { env: e, headers: auth(key) })).status).toBe(429);
      expect(digest).toHaveBeenCalledTimes(1);
    } finally {
      digest.mockRestore();
    }
  });

  it('is off with PINCHER_RATE_LIMIT=off', async () => {
    const e = { ...limited(), PINCHER_RATE_LIMIT: 'off' } as EnvOverrides;
    for (let i = 0; i < 6; i++) expect((await restCall('list', {}, { env: e, headers: auth(FULL_KEY) })).status).toBe(200);
  });
});
