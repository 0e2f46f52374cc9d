import { describe, expect, it } from 'vitest';
import { rpc, restCall, send, type EnvOverrides, type Reply } from '../contract/support';

const KEY = 'cors-full-6d1e9a2b7c';
const KEYED: EnvOverrides = { PINCHER_ALLOW_OPEN: undefined, PINCHER_HTTP_KEY: KEY, PINCHER_READ_KEY: undefined };
const LISTED: EnvOverrides = { ...KEYED, PINCHER_ALLOWED_ORIGINS: 'https://a.example, https://ui.example' };
const ANY: EnvOverrides = { ...KEYED, PINCHER_ALLOWED_ORIGINS: '*' };
const UI = 'https://ui.example';
const auth = { authorization: `Bearer ${KEY}` };

function preflight(path: string, origin: string, env: EnvOverrides, requestHeaders = 'authorization, content-type, mcp-session-id'): Promise<Reply> {
  return send(path, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': requestHeaders } }, env);
}

function expectCorsFor(reply: Reply, origin: string): void {
  expect(reply.headers.get('access-control-allow-origin')).toBe(origin);
  expect(reply.headers.get('vary') ?? '').toMatch(/origin/i);
  expect((reply.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('x-request-id');
}

function expectNoCors(reply: Reply): void {
  expect(reply.headers.get('access-control-allow-origin')).toBeNull();
  expect(reply.headers.get('access-control-allow-methods')).toBeNull();
}

describe('CORS preflight', () => {
  for (const path of ['/mcp', '/v1/tools/list', '/v1/projects/web/uploads']) {
    it(`answers OPTIONS ${path} from a listed origin with 204 and no key`, async () => {
      const reply = await preflight(path, UI, LISTED);
      expect(reply.status).toBe(204);
      expect(reply.headers.get('access-control-allow-origin')).toBe(UI);
      expect(reply.headers.get('vary') ?? '').toMatch(/origin/i);
      const methods = reply.headers.get('access-control-allow-methods') ?? '';
      for (const m of ['GET', 'POST', 'DELETE', 'OPTIONS']) expect(methods).toContain(m);
      const allowed = (reply.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const h of ['authorization', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'x-request-id', 'x-pincher-toolset', 'last-event-id']) expect(allowed).toContain(h);
      expect(Number(reply.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    });
  }

  it('answers a preflight from any origin with * by echoing that origin', async () => {
    const reply = await preflight('/mcp', 'https://any.example', ANY);
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBe('https://any.example');
  });

  it('refuses a preflight from an origin not listed with 403 and no CORS headers', async () => {
    const reply = await preflight('/mcp', 'https://evil.example', LISTED);
    expect(reply.status).toBe(403);
    expect(reply.body.error.code).toBe('origin_not_allowed');
    expectNoCors(reply);
  });
});

describe('CORS on actual requests', () => {
  it('REST call from a listed origin carries the CORS headers and X-Request-ID', async () => {
    const reply = await restCall('list', {}, { env: LISTED, headers: { origin: UI, ...auth } });
    expect(reply.status).toBe(200);
    expectCorsFor(reply, UI);
    expect(reply.headers.get('x-request-id')).toBeTruthy();
  });

  it('MCP call from a listed origin carries the CORS headers', async () => {
    const reply = await rpc('2025', 'tools/list', {}, { env: LISTED, headers: { origin: UI, ...auth } });
    expect(reply.status).toBe(200);
    expectCorsFor(reply, UI);
  });

  it('errors to a listed origin carry the CORS headers too (401 without a key, 404 unknown route)', async () => {
    const unauthorized = await rpc('2025', 'tools/list', {}, { env: LISTED, headers: { origin: UI } });
    expect(unauthorized.status).toBe(401);
    expectCorsFor(unauthorized, UI);
    expect((unauthorized.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('www-authenticate');
    const missing = await send('/v1/nowhere', { headers: { origin: UI, ...auth } }, LISTED);
    expect(missing.status).toBe(404);
    expectCorsFor(missing, UI);
  });

  it('with * any origin gets its own origin back on REST and MCP', async () => {
    const o = 'https://any.example';
    expectCorsFor(await restCall('list', {}, { env: ANY, headers: { origin: o, ...auth } }), o);
    expectCorsFor(await rpc('2025', 'tools/list', {}, { env: ANY, headers: { origin: o, ...auth } }), o);
  });

  it('keeps the 403 for an origin not listed, on REST and MCP, without CORS headers', async () => {
    for (const reply of [
      await restCall('list', {}, { env: LISTED, headers: { origin: 'https://evil.example', ...auth } }),
      await rpc('2025', 'tools/list', {}, { env: LISTED, headers: { origin: 'https://evil.example', ...auth } }),
    ]) {
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('origin_not_allowed');
      expectNoCors(reply);
    }
  });

  it('adds no CORS headers to requests without an Origin', async () => {
    const reply = await restCall('list', {}, { env: LISTED, headers: auth });
    expect(reply.status).toBe(200);
    expectNoCors(reply);
  });
});
