import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { authorize, sameSecret } from '../../../src/http/auth';
import { defineTool, type ToolDef } from '../../../src/tools/define';
import { REGISTRY, TOOLS } from '../../../src/tools/registry';
import { runTool, type CallContext } from '../../../src/tools/run';
import { env, rpc, send, restCall, mcpTool, mcpPayload, type EnvOverrides, type Json, type Reply } from './support';

const FULL_KEY = 'auth-full-3f9c1b7e0d';
const READ_KEY = 'auth-read-8a2e6c4f1b';

/** A write tool that exists only in this file: it records that it ran and answers {wrote: true}. */
let writes = 0;
const testWriteTool = defineTool({
  name: 'test_write',
  title: 'Test-only write tool',
  description: 'Writes nothing; counts calls. Registered only by auth.test.ts.',
  tier: 'lite',
  toolset: 'full',
  writes: { idempotent: false },
  baseline: 'none',
  input: z.object({}),
  output: z.object({ wrote: z.boolean() }),
  handler: async () => {
    writes++;
    return { wrote: true };
  },
}) as unknown as ToolDef;

beforeAll(() => {
  (TOOLS as ToolDef[]).push(testWriteTool);
});
afterAll(() => {
  const list = TOOLS as ToolDef[];
  list.splice(list.indexOf(testWriteTool), 1);
});

type Deployment = { label: string; env: EnvOverrides };
const DEPLOYMENTS: Record<'closed' | 'open' | 'keyed', Deployment> = {
  closed: { label: 'no key configured, PINCHER_ALLOW_OPEN unset', env: { PINCHER_ALLOW_OPEN: undefined, PINCHER_HTTP_KEY: undefined, PINCHER_READ_KEY: undefined } },
  open: { label: 'no key configured, PINCHER_ALLOW_OPEN=1', env: { PINCHER_ALLOW_OPEN: '1', PINCHER_HTTP_KEY: undefined, PINCHER_READ_KEY: undefined } },
  // ALLOW_OPEN stays on here: configured keys must win over it.
  keyed: { label: 'both keys configured (and PINCHER_ALLOW_OPEN=1)', env: { PINCHER_ALLOW_OPEN: '1', PINCHER_HTTP_KEY: FULL_KEY, PINCHER_READ_KEY: READ_KEY } },
};

const CALLERS: Record<string, Record<string, string>> = {
  'no Authorization': {},
  'a wrong key': { authorization: 'Bearer not-the-key' },
  'the read key': { authorization: `Bearer ${READ_KEY}` },
  'the full key': { authorization: `Bearer ${FULL_KEY}` },
};

type RouteKind = 'public' | 'read' | 'write';
const ROUTES: { label: string; kind: RouteKind; call: (headers: Record<string, string>, e: EnvOverrides) => Promise<Reply> }[] = [
  { label: 'GET /v1/health', kind: 'public', call: (h, e) => send('/v1/health', { headers: h }, e) },
  { label: 'GET /v1/ready', kind: 'public', call: (h, e) => send('/v1/ready', { headers: h }, e) },
  { label: 'POST /v1/tools/list', kind: 'read', call: (h, e) => restCall('list', {}, { headers: h, env: e }) },
  { label: 'GET /v1/capabilities', kind: 'read', call: (h, e) => send('/v1/capabilities', { headers: h }, e) },
  { label: 'POST /mcp tools/list', kind: 'read', call: (h, e) => rpc('2025', 'tools/list', {}, { headers: h, env: e }) },
  { label: 'POST /mcp tools/list (2026)', kind: 'read', call: (h, e) => rpc('2026', 'tools/list', {}, { headers: h, env: e }) },
  { label: 'POST /v1/tools/test_write', kind: 'write', call: (h, e) => restCall('test_write', {}, { headers: h, env: e }) },
  { label: 'POST /mcp tools/call test_write', kind: 'write', call: (h, e) => rpc('2025', 'tools/call', { name: 'test_write', arguments: {} }, { headers: h, env: e }) },
];

type Outcome = 'ok' | 'unauthorized' | 'auth_not_configured' | 'insufficient_scope';

function expected(deployment: keyof typeof DEPLOYMENTS, caller: string, kind: RouteKind): Outcome {
  if (kind === 'public') return 'ok';
  if (deployment === 'closed') return 'auth_not_configured';
  if (deployment === 'open') return 'ok';
  if (caller === 'no Authorization' || caller === 'a wrong key') return 'unauthorized';
  if (caller === 'the read key' && kind === 'write') return 'insufficient_scope';
  return 'ok';
}

/** What the reply says happened, whatever the surface (HTTP error, or an isError tool result over MCP). */
function outcomeOf(reply: Reply): Outcome | string {
  if (reply.status === 200 && reply.body.jsonrpc) {
    const result = reply.body.result as Json | undefined;
    if (!result) return `jsonrpc_error:${reply.body.error?.code}`;
    return result.isError ? mcpPayload(result).error.code : 'ok';
  }
  if (reply.status === 200) return 'ok';
  return reply.body.error?.code ?? `http_${reply.status}`;
}

describe('the access matrix', () => {
  const seen: Reply[] = [];

  for (const [dep, deployment] of Object.entries(DEPLOYMENTS) as [keyof typeof DEPLOYMENTS, Deployment][]) {
    const callers = dep === 'keyed' ? Object.keys(CALLERS) : ['no Authorization', 'the full key'];
    for (const caller of callers) {
      for (const route of ROUTES) {
        const want = expected(dep, caller, route.kind);
        it(`${deployment.label} × ${caller} × ${route.label} → ${want}`, async () => {
          const before = writes;
          const reply = await route.call(CALLERS[caller], deployment.env);
          seen.push(reply);
          expect(outcomeOf(reply)).toBe(want);
          if (route.kind === 'write') expect(writes - before).toBe(want === 'ok' ? 1 : 0);
          if (want === 'unauthorized') {
            expect(reply.status).toBe(401);
            expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer /);
          }
          if (want === 'auth_not_configured') {
            expect(reply.status).toBe(403);
            expect(`${reply.body.error.message} ${reply.body.error.suggestion}`).toMatch(/PINCHER_HTTP_KEY/);
            expect(reply.body.error.suggestion).toMatch(/wrangler secret put PINCHER_HTTP_KEY/);
          }
          if (want === 'insufficient_scope' && !reply.body.jsonrpc) expect(reply.status).toBe(403);
          if (reply.status >= 400) expect(reply.body._meta.request_id).toBe(reply.headers.get('x-request-id'));
        });
      }
    }
  }

  it('never puts either key in any response body or header', () => {
    expect(seen.length).toBeGreaterThan(40);
    for (const reply of seen) {
      const headers = JSON.stringify([...reply.headers.entries()]);
      for (const key of [FULL_KEY, READ_KEY]) {
        expect(reply.text).not.toContain(key);
        expect(headers).not.toContain(key);
      }
    }
  });
});

describe('bearer parsing and scopes', () => {
  const keyed = { ...env, PINCHER_HTTP_KEY: FULL_KEY, PINCHER_READ_KEY: READ_KEY } as never;

  it('maps the full key to write and the read key to read', async () => {
    expect(await authorize(keyed, `Bearer ${FULL_KEY}`)).toBe('write');
    expect(await authorize(keyed, `Bearer ${READ_KEY}`)).toBe('read');
  });

  it('accepts the scheme in any case and surrounding spaces', async () => {
    expect(await authorize(keyed, `bearer ${FULL_KEY}`)).toBe('write');
    expect(await authorize(keyed, `BEARER   ${READ_KEY}  `)).toBe('read');
  });

  it('refuses a key that is a prefix or extension of a real key, and other schemes', async () => {
    for (const header of [`Bearer ${FULL_KEY.slice(0, -1)}`, `Bearer ${FULL_KEY}x`, `Basic ${FULL_KEY}`, FULL_KEY, `Bearer ${FULL_KEY} extra`]) {
      await expect(authorize(keyed, header)).rejects.toMatchObject({ code: 'unauthorized' });
    }
  });

  it('compares the token with each key without hashing either (no digest per call)', async () => {
    const digest = vi.spyOn(crypto.subtle, 'digest');
    try {
      expect(await authorize(keyed, `Bearer ${READ_KEY}`)).toBe('read');
      await expect(authorize(keyed, `Bearer ${READ_KEY}x`)).rejects.toMatchObject({ code: 'unauthorized' });
      expect(digest).not.toHaveBeenCalled();
    } finally {
      digest.mockRestore();
    }
  });

  it('sameSecret: equal only for the same text, whatever the lengths', () => {
    const key = 'k3y-0123456789abcdef';
    expect(sameSecret(key, key)).toBe(true);
    // A token that repeats the key (read cyclically) or is the key's prefix, suffix or one unit apart is not it.
    for (const token of [key + key, key.slice(0, -1), key.slice(1), `${key.slice(0, -1)}g`, 'k', key.toUpperCase(), `${key}\u0000`]) {
      expect(sameSecret(token, key)).toBe(false);
    }
    expect(sameSecret('é', 'é')).toBe(true);
    expect(sameSecret('', '')).toBe(false);
  });

  it('with only a read key configured, that key reads and nothing writes', async () => {
    const readOnly = { PINCHER_HTTP_KEY: undefined, PINCHER_READ_KEY: READ_KEY };
    expect((await restCall('list', {}, { env: readOnly, headers: { authorization: `Bearer ${READ_KEY}` } })).status).toBe(200);
    const write = await restCall('test_write', {}, { env: readOnly, headers: { authorization: `Bearer ${READ_KEY}` } });
    expect(write.body.error.code).toBe('insufficient_scope');
  });

  it('the seam refuses a write tool for a read-scoped caller before running it', async () => {
    const before = writes;
    const call: CallContext = {
      env: env as never,
      requestId: 'auth-seam',
      startedAt: Date.now(),
      scope: 'read',
      surface: 'rest',
      waitUntil: () => {},
      registry: REGISTRY,
    };
    const refused = await runTool(testWriteTool, {}, call);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('insufficient_scope');
      expect(refused.error.status).toBe(403);
    }
    const allowed = await runTool(testWriteTool, {}, { ...call, scope: 'write' });
    expect(allowed.ok).toBe(true);
    expect(writes - before).toBe(1);
  });

  it('every registered write tool refuses the read key over REST and MCP', async () => {
    const keyedEnv = DEPLOYMENTS.keyed.env;
    const read = { authorization: `Bearer ${READ_KEY}` };
    for (const tool of TOOLS.filter((t) => !t.annotations.readOnlyHint)) {
      const rest = await restCall(tool.name, {}, { env: keyedEnv, headers: read });
      expect({ tool: tool.name, status: rest.status, code: rest.body.error?.code }).toEqual({ tool: tool.name, status: 403, code: 'insufficient_scope' });
      const { result } = await mcpTool('2025', tool.name, {}, { env: keyedEnv, headers: read });
      expect(result?.isError).toBe(true);
      expect(mcpPayload(result as Json).error.code).toBe('insufficient_scope');
    }
  });
});

describe('browser Origin', () => {
  const origin = (o: string) => ({ origin: o });

  it('refuses a cross-origin browser request with 403 origin_not_allowed, even on public routes', async () => {
    for (const reply of [
      await restCall('list', {}, { headers: origin('https://evil.example') }),
      await send('/v1/health', { headers: origin('https://evil.example') }),
      await rpc('2025', 'tools/list', {}, { headers: origin('https://evil.example') }),
    ]) {
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('origin_not_allowed');
      expect(reply.body.error.suggestion).toMatch(/PINCHER_ALLOWED_ORIGINS/);
    }
  });

  it('allows an origin listed in PINCHER_ALLOWED_ORIGINS (comma-separated, spaces ignored)', async () => {
    const allowed = { PINCHER_ALLOWED_ORIGINS: 'https://a.example, https://ui.example' };
    expect((await restCall('list', {}, { env: allowed, headers: origin('https://ui.example') })).status).toBe(200);
    expect((await restCall('list', {}, { env: allowed, headers: origin('https://other.example') })).status).toBe(403);
  });

  it('allows any origin with *', async () => {
    expect((await restCall('list', {}, { env: { PINCHER_ALLOWED_ORIGINS: '*' }, headers: origin('https://any.example') })).status).toBe(200);
  });

  it('allows the Worker’s own origin without configuration when keys are configured', async () => {
    const keyed = { ...DEPLOYMENTS.keyed.env };
    const reply = await send('/v1/tools/list', { method: 'POST', headers: { ...origin('https://pincher.example'), host: 'pincher.example', authorization: `Bearer ${FULL_KEY}`, 'content-type': 'application/json' }, body: '{}' }, keyed, 'https://pincher.example');
    expect(reply.status).toBe(200);
  });

  it('allows loopback origins on any port in open mode', async () => {
    for (const o of ['http://localhost:5173', 'http://127.0.0.1:8787', 'http://[::1]:3000', 'https://localhost']) {
      expect((await restCall('list', {}, { headers: origin(o) })).status, o).toBe(200);
    }
  });

  it('still requires the key after the origin check passes', async () => {
    const reply = await restCall('list', {}, { env: { ...DEPLOYMENTS.keyed.env, PINCHER_ALLOWED_ORIGINS: 'https://ui.example' }, headers: origin('https://ui.example') });
    expect(reply.status).toBe(401);
  });

  it('lets requests without an Origin (CLI, MCP hosts) through', async () => {
    expect((await restCall('list', {})).status).toBe(200);
  });
});

describe('DNS rebinding in local open mode', () => {
  const open = DEPLOYMENTS.open.env;
  const INDEX_BODY = JSON.stringify({ project: 'rebind', files: [{ path: 'pwn.ts', content: 'export const pwned = 1;' }] });

  /** One request whose URL and Host header both name `host`, as a rebound browser page would send it. */
  function asHost(host: string, path: string, init: RequestInit = {}, env: EnvOverrides = open): Promise<Reply> {
    const headers = { 'content-type': 'application/json', ...(init.headers as Record<string, string>), host };
    return send(path, { ...init, headers }, env, `http://${host}`);
  }

  it('refuses a write addressed to a rebound name with 403 host_not_allowed and writes nothing', async () => {
    const reply = await asHost('evil.example.com:8787', '/v1/tools/index', { method: 'POST', body: INDEX_BODY, headers: { origin: 'http://evil.example.com:8787' } });
    expect(reply.status).toBe(403);
    expect(reply.body.error.code).toBe('host_not_allowed');
    expect(reply.body.error.suggestion).toMatch(/127\.0\.0\.1/);
    expect(reply.body._meta.request_id).toBe(reply.headers.get('x-request-id'));
    const row = await env.DB.prepare('SELECT count(*) AS n FROM projects WHERE name = ?').bind('rebind').first<{ n: number }>();
    expect(row?.n).toBe(0);
  });

  it('refuses a foreign Host with no Origin too (reads, MCP and public probes alike)', async () => {
    for (const path of ['/v1/tools/list', '/mcp', '/v1/health']) {
      const init: RequestInit = path === '/v1/health' ? {} : { method: 'POST', body: path === '/mcp' ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) : '{}', headers: { accept: 'application/json, text/event-stream' } };
      const reply = await asHost('rebind.attacker.test', path, init);
      expect({ path, status: reply.status, code: reply.body.error?.code }).toEqual({ path, status: 403, code: 'host_not_allowed' });
    }
  });

  it('refuses malformed or look-alike Host values', async () => {
    for (const host of ['127.0.0.1.evil.example', 'localhost.evil.example', 'evil.example#@127.0.0.1', '128.0.0.1:8787']) {
      expect((await asHost(host, '/v1/tools/list', { method: 'POST', body: '{}' })).status, host).toBe(403);
    }
  });

  it('serves loopback Host values with any port', async () => {
    for (const host of ['127.0.0.1:8787', 'localhost:8787', 'localhost', '[::1]:8787', '127.0.0.1', 'LOCALHOST:9000']) {
      expect((await asHost(host, '/v1/tools/list', { method: 'POST', body: '{}' })).status, host).toBe(200);
    }
  });

  it('refuses a foreign Origin on a loopback Host unless it is allow-listed', async () => {
    const headers = { origin: 'http://evil.example.com' };
    const refused = await asHost('127.0.0.1:8787', '/v1/tools/list', { method: 'POST', body: '{}', headers });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('origin_not_allowed');
    const listed = await asHost('127.0.0.1:8787', '/v1/tools/list', { method: 'POST', body: '{}', headers }, { ...open, PINCHER_ALLOWED_ORIGINS: 'http://evil.example.com' });
    expect(listed.status).toBe(200);
  });

  it('leaves keyed mode to its key checks: any Host is served with the key', async () => {
    const keyed = DEPLOYMENTS.keyed.env;
    const ok = await asHost('pincher.example.workers.dev', '/v1/tools/list', { method: 'POST', body: '{}', headers: { authorization: `Bearer ${FULL_KEY}` } }, keyed);
    expect(ok.status).toBe(200);
    const noKey = await asHost('pincher.example.workers.dev', '/v1/tools/list', { method: 'POST', body: '{}' }, keyed);
    expect(noKey.status).toBe(401);
  });
});
