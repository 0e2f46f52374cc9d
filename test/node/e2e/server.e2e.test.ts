// End to end: one real `wrangler dev` (workerd + local D1, migrations applied) per file,
// driven over loopback by the official MCP SDK client, by plain fetch in the 2026-07-28
// stateless revision, and by plain fetch on the REST twin. Nothing here needs the internet.
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type E2EServer,
  FULL_KEY,
  type Json,
  MODERN_VERSION,
  READ_KEY,
  type SdkConnection,
  connectSdk,
  groupExists,
  http,
  modernRpc,
  rest,
  seen,
  stableMeta,
  startE2EServer,
  waitForGroupGone,
  withoutNotice,
} from './support';

let server: E2EServer;
let base: string;
/** Core toolset, full key. */
let core: SdkConnection;
/** `?toolset=full`, full key. */
let full: SdkConnection;
const connections: SdkConnection[] = [];
/** A local OTLP/HTTP collector: every body POSTed to /v1/traces, with its headers. */
let collector: Server;
const exported: { path: string; headers: Record<string, unknown>; body: Json }[] = [];
const OTLP_SECRET = 'otlp-collector-secret';

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      exported.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const otlpPort = (collector.address() as AddressInfo).port;
  server = await startE2EServer({
    PINCHER_HTTP_KEY: FULL_KEY,
    PINCHER_READ_KEY: READ_KEY,
    PINCHER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
    PINCHER_OTLP_HEADERS: `authorization=Bearer%20${OTLP_SECRET}`,
  });
  base = server.url;
  expect(groupExists(server.pid)).toBe(true);
  core = await connectSdk(base, FULL_KEY);
  full = await connectSdk(base, FULL_KEY, { query: '?toolset=full' });
  connections.push(core, full);
});

afterAll(async () => {
  for (const c of connections) await c.client.close().catch(() => undefined);
  collector?.close();
  if (!server) return;
  const { pid, dir } = server;
  try {
    await server.stop();
    const survivors = await waitForGroupGone(pid);
    // Orphans not yet reaped by PID 1 are zombies (already dead); anything else survived.
    const alive = survivors.filter((m) => m.state !== 'Z');
    expect(alive, `processes of wrangler's group ${pid} survived stop(): ${JSON.stringify(alive)}`).toEqual([]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

const META_KEYS = ['request_id', 'tokens_used', 'complexity_tier', 'latency_ms', 'schema_version'] as const;

/** The envelope every tool result carries, whatever the surface. */
function expectEnvelope(meta: Json | undefined, tier = 'lite'): void {
  expect(meta, '_meta missing').toBeTruthy();
  for (const k of META_KEYS) expect(meta, `_meta.${k}`).toHaveProperty(k);
  expect(meta!.request_id).toMatch(/^[\x21-\x7e]{1,200}$/);
  expect(Number.isInteger(meta!.tokens_used) && meta!.tokens_used > 0).toBe(true);
  expect(meta!.complexity_tier).toBe(tier);
  expect(typeof meta!.latency_ms).toBe('number');
  expect(meta!.latency_ms).toBeGreaterThanOrEqual(0);
  expect(Number.isInteger(meta!.schema_version) && meta!.schema_version >= 1).toBe(true);
}

/** The HTTP response that carried this request id was on /mcp and echoed it in X-Request-ID. */
function expectEchoedOnMcp(requestId: string): void {
  const hit = seen.find((s) => s.requestId === requestId);
  expect(hit, `no response carried X-Request-ID ${requestId}`).toBeTruthy();
  expect(new URL(hit!.url).pathname).toBe('/mcp');
}

/** Validates like the SDK client does, independently of its cache of output schemas. */
function expectMatchesOutputSchema(outputSchema: Json | undefined, structured: unknown): void {
  expect(outputSchema, 'tool advertises no outputSchema').toBeTruthy();
  const check = new AjvJsonSchemaValidator().getValidator(outputSchema as never)(structured);
  expect(check.valid, check.errorMessage).toBe(true);
}

async function toolsOf(conn: SdkConnection) {
  return (await conn.client.listTools()).tools;
}

describe('MCP over streamable HTTP with the official SDK client (@modelcontextprotocol/sdk 1.32.2)', () => {
  it('initializes a stateless session and reports the server', () => {
    expect(core.client.getServerVersion()).toMatchObject({ name: 'pincher-edge' });
    expect(core.client.getServerVersion()?.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(core.client.getServerCapabilities()?.tools).toBeTruthy();
    expect(core.client.getInstructions()).toMatch(/_meta/);
    // Stateless: no Mcp-Session-Id is handed out.
    expect(core.transport.sessionId).toBeUndefined();
    expect(core.transport.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('lists the core toolset by default: why_empty and list, not health', async () => {
    const tools = await toolsOf(core);
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['why_empty', 'list']));
    expect(names).not.toContain('health');
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(typeof t.annotations?.readOnlyHint).toBe('boolean');
      expect(t.description?.length).toBeGreaterThan(10);
    }
  });

  it('advertises health too with ?toolset=full', async () => {
    const names = (await toolsOf(full)).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['why_empty', 'list', 'health']));
  });

  it('advertises health too with the X-Pincher-Toolset: full header', async () => {
    const conn = await connectSdk(base, FULL_KEY, { headers: { 'X-Pincher-Toolset': 'full' } });
    connections.push(conn);
    const names = (await toolsOf(conn)).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['why_empty', 'list', 'health']));
  });

  it('calls why_empty: structuredContent, text mirror and _meta, validated against outputSchema', async () => {
    const tools = await toolsOf(core); // primes the SDK's output-schema validators
    const res = await core.client.callTool({ name: 'why_empty', arguments: { code: 'stale_index' } });
    expect(res.isError).toBeFalsy();
    const sc = res.structuredContent as Json;
    expect(sc.total).toBe(1);
    expect(sc.entries[0].code).toBe('stale_index');
    expect(sc.entries[0].recovery_steps.length).toBeGreaterThan(0);
    // The recovery steps surface as next_steps, in _meta and in the model-visible notice.
    expect(sc.notice.next_steps).toEqual(sc.entries[0].recovery_steps);
    const content = res.content as { type: string; text: string }[];
    expect(content[0].type).toBe('text');
    expect(JSON.parse(content[0].text)).toEqual(sc);
    expectEnvelope(res._meta as Json);
    expect((res._meta as Json).next_steps).toEqual(sc.entries[0].recovery_steps);
    expectEchoedOnMcp((res._meta as Json).request_id);
    expectMatchesOutputSchema(tools.find((t) => t.name === 'why_empty')?.outputSchema, sc);
  });

  it('calls health: structuredContent and _meta, validated against outputSchema', async () => {
    const tools = await toolsOf(full);
    const res = await full.client.callTool({ name: 'health', arguments: {} });
    expect(res.isError).toBeFalsy();
    const sc = res.structuredContent as Json;
    expect(sc).toMatchObject({ ok: true, migrations_current: true, binary_drift: false, projects: [] });
    expect(sc.applied_migrations).toBe(sc.schema_version);
    expect(sc.capabilities).toEqual(expect.arrayContaining(['streamable_http', 'mcp_stateless_2026', 'http_auth', 'read_only_key']));
    expectEnvelope(res._meta as Json);
    expect((res._meta as Json).schema_version).toBe(sc.schema_version);
    expectEchoedOnMcp((res._meta as Json).request_id);
    expectMatchesOutputSchema(tools.find((t) => t.name === 'health')?.outputSchema, sc);
  });

  it('still calls health on the core toolset, where it is not advertised', async () => {
    const res = await core.client.callTool({ name: 'health', arguments: {} });
    expect(res.isError).toBeFalsy();
    expect((res.structuredContent as Json).ok).toBe(true);
  });

  it('calls list on an empty server: notice.empty_reason no_project_indexed and a plain-words block', async () => {
    const tools = await toolsOf(core);
    const res = await core.client.callTool({ name: 'list', arguments: {} });
    expect(res.isError).toBeFalsy();
    const sc = res.structuredContent as Json;
    expect(sc).toMatchObject({ projects: [], total: 0, has_more: false });
    expect(sc.notice.empty_reason).toBe('no_project_indexed');
    expect(sc.notice.diagnosis).toMatch(/push/);
    const content = res.content as { type: string; text: string }[];
    expect(content).toHaveLength(2);
    expect(JSON.parse(content[0].text)).toEqual(sc);
    expect(content[1].type).toBe('text');
    expect(content[1].text).toMatch(/^Empty result \(no_project_indexed\): /);
    const meta = res._meta as Json;
    expectEnvelope(meta);
    expect(meta.empty_reason).toBe('no_project_indexed');
    expect(meta.baseline_method).toBe('walk_directory');
    expectMatchesOutputSchema(tools.find((t) => t.name === 'list')?.outputSchema, sc);
  });

  it('answers an unknown tool with a JSON-RPC error naming the available tools', async () => {
    const err = await core.client.callTool({ name: 'why_emty', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32602);
    expect((err as McpError).message).toMatch(/no tool named 'why_emty'; available: /);
    for (const name of ['why_empty', 'list', 'health']) expect((err as McpError).message).toContain(name);
  });

  // Tool errors carry no structuredContent (clients validate it against the result schema):
  // the typed error travels as JSON in content[0].text, and the envelope in _meta.
  it('returns a tool error (unknown empty_reason) as an isError result through the SDK client', async () => {
    await toolsOf(core);
    const res = await core.client.callTool({ name: 'why_empty', arguments: { code: 'stale_indx' } });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toBeUndefined();
    const text = (res.content as { type: string; text: string }[])[0].text;
    expect(JSON.parse(text).error.code).toBe('unknown_empty_reason');
    expectEnvelope(res._meta as Json);
  });

  it('connects with the read-only key and calls read tools', async () => {
    const conn = await connectSdk(base, READ_KEY, { query: '?toolset=full' });
    connections.push(conn);
    expect((await toolsOf(conn)).map((t) => t.name)).toEqual(expect.arrayContaining(['why_empty', 'list', 'health']));
    for (const [name, args] of [['why_empty', { code: 'stale_index' }], ['list', {}], ['health', {}]] as const) {
      const res = await conn.client.callTool({ name, arguments: args });
      expect(res.isError, name).toBeFalsy();
      expectEnvelope(res._meta as Json);
    }
  });

  it('fails to connect with a wrong key (401 surfaced as an error)', async () => {
    const err = await connectSdk(base, 'not-the-key').then(
      (c) => {
        connections.push(c);
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StreamableHTTPError);
    expect((err as StreamableHTTPError).code).toBe(401);
    expect((err as Error).message).toMatch(/unauthorized/);
    expect((err as Error).message).not.toContain(FULL_KEY);
    expect((err as Error).message).not.toContain(READ_KEY);
  });
});

describe('MCP 2026-07-28 stateless revision (plain fetch)', () => {
  it('answers server/discover with per-request _meta', async () => {
    const r = await modernRpc(base, 'server/discover');
    expect(r.status).toBe(200);
    expect(r.body.error).toBeUndefined();
    const result = r.body.result;
    expect(result.supportedVersions).toContain(MODERN_VERSION);
    expect(result.capabilities.tools).toBeTruthy();
    expect(result.instructions).toMatch(/_meta/);
    expect(result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'pincher-edge' });
    expect(r.headers.get('x-request-id')).toBeTruthy();
  });

  it('calls why_empty with Mcp-Method/Mcp-Name: the same structuredContent as the 2025 transport', async () => {
    const r = await modernRpc(base, 'tools/call', { name: 'why_empty', arguments: { code: 'stale_index' } });
    expect(r.status).toBe(200);
    const result = r.body.result;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.entries[0].code).toBe('stale_index');
    expectEnvelope(result._meta);
    expect(result._meta.request_id).toBe(r.headers.get('x-request-id'));
    const legacy = await core.client.callTool({ name: 'why_empty', arguments: { code: 'stale_index' } });
    expect(result.structuredContent).toEqual(legacy.structuredContent);
    expect(result.content).toEqual(legacy.content);
    expect(stableMeta(result._meta)).toEqual(stableMeta(legacy._meta as Json));
  });

  it('lists tools per toolset in the 2026 revision too', async () => {
    const coreList = await modernRpc(base, 'tools/list');
    const fullList = await modernRpc(base, 'tools/list', {}, { query: '?toolset=full' });
    expect(coreList.status).toBe(200);
    expect(coreList.body.result.tools.map((t: Json) => t.name)).not.toContain('health');
    expect(fullList.body.result.tools.map((t: Json) => t.name)).toEqual(expect.arrayContaining(['why_empty', 'list', 'health']));
  });

  it('rejects a tools/call whose Mcp-Name disagrees with params.name', async () => {
    const r = await modernRpc(base, 'tools/call', { name: 'why_empty', arguments: { code: 'stale_index' } }, { headers: { 'mcp-name': 'list' } });
    expect(r.status).toBe(400);
    expect(r.body.result).toBeUndefined();
    expect(r.body.error.code).toBe(-32020);
    expect(r.body.error.message).toMatch(/Mcp-Name/);
  });

  it('rejects a 2026 request without a key before any MCP handling', async () => {
    const r = await modernRpc(base, 'server/discover', {}, { key: null });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });
});

describe('REST twin (plain fetch)', () => {
  const cases: [string, Json, SdkConnection | (() => SdkConnection)][] = [
    // The full toolset: on the core list, steps to unadvertised tools are routed through batch.
    ['why_empty', { code: 'stale_index' }, () => full],
    ['list', {}, () => full],
    ['health', {}, () => full],
  ];
  for (const [tool, args, conn] of cases) {
    it(`POST /v1/tools/${tool} gives the same result and envelope as MCP`, async () => {
      const r = await rest(base, tool, args);
      expect(r.status).toBe(200);
      expectEnvelope(r.body._meta);
      expect(r.body._meta.request_id).toBe(r.headers.get('x-request-id'));
      const c = typeof conn === 'function' ? conn() : conn;
      const m = await c.client.callTool({ name: tool, arguments: args });
      expect(r.body.result).toEqual(withoutNotice(m.structuredContent as Json));
      expect(stableMeta(r.body._meta)).toEqual(stableMeta(m._meta as Json));
    });
  }

  it('GET /v1/tools lists every tool with the schemas MCP advertises', async () => {
    const r = await http(base, '/v1/tools', { key: FULL_KEY });
    expect(r.status).toBe(200);
    expect(r.body._meta.request_id).toBe(r.headers.get('x-request-id'));
    expect(r.body._meta.schema_version).toBeGreaterThanOrEqual(1);
    const mcpTools = await toolsOf(full);
    expect(r.body.tools.map((t: Json) => t.name)).toEqual(mcpTools.map((t) => t.name));
    for (const t of r.body.tools) {
      const m = mcpTools.find((x) => x.name === t.name)!;
      expect(t.input_schema).toEqual(m.inputSchema);
      expect(t.description).toBe(m.description);
      expect(['core', 'full']).toContain(t.toolset);
      expect(m.annotations).toEqual({ title: t.title, ...t.annotations });
    }
  });

  it('GET /v1/openapi.json is public and describes the tool routes', async () => {
    const r = await http(base, '/v1/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toMatch(/^3\.1/);
    expect(r.body.servers[0].url).toBe(base);
    for (const tool of ['why_empty', 'list', 'health']) expect(r.body.paths[`/v1/tools/${tool}`]?.post).toBeTruthy();
  });

  it('GET /v1/openapi.json passes an independent OpenAPI 3.1 linter (Redocly, recommended rules) with no error or warning', async () => {
    const r = await http(base, '/v1/openapi.json');
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(r.body), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`)).toEqual([]);
    expect(Object.keys(r.body.paths)).toEqual(expect.arrayContaining(['/v1/projects/{project}/uploads', '/v1/projects/{project}/uploads/{id}/commit']));
  });

  it('GET /v1/health is public and says auth is required', async () => {
    const r = await http(base, '/v1/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, auth_required: true });
    expect(r.headers.get('x-request-id')).toBeTruthy();
  });

  it('GET /v1/ready is 200 with every migration applied', async () => {
    const r = await http(base, '/v1/ready');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ready: true, reasons: [] });
    expect(r.body.applied_migrations).toBe(r.body.schema_version);
  });

  it('GET /mcp is 405 with Allow: POST', async () => {
    const r = await http(base, '/mcp', { key: FULL_KEY, headers: { accept: 'text/event-stream' } });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.body.error.code).toBe('method_not_allowed');
    expect(r.body._meta.request_id).toBe(r.headers.get('x-request-id'));
  });

  it('GET /v1/tools/{tool} is 405 with Allow: POST', async () => {
    const r = await http(base, '/v1/tools/why_empty', { key: FULL_KEY });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
  });

  it('an unknown REST tool is 404 unknown_tool with a did-you-mean', async () => {
    const r = await rest(base, 'why_emty');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('unknown_tool');
    expect(r.body.error.details.did_you_mean).toBe('why_empty');
  });

  it('a REST tool error is {error, _meta} with the tool envelope', async () => {
    const r = await rest(base, 'why_empty', { code: 'stale_indx' });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.body.error.code).toBe('unknown_empty_reason');
    expect(r.body.error.details.did_you_mean).toBe('stale_index');
    expectEnvelope(r.body._meta);
  });
});

describe('auth over the wire', () => {
  const protectedRoutes: [string, string, unknown?][] = [
    ['GET', '/v1/tools'],
    ['POST', '/v1/tools/why_empty', { code: 'stale_index' }],
    ['POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }],
    ['GET', '/v1/metrics'],
  ];

  for (const [method, route, body] of protectedRoutes) {
    it(`${method} ${route} without a key is 401 with WWW-Authenticate and the echoed client X-Request-ID`, async () => {
      const id = `e2e-nokey-${route.replace(/\W+/g, '-')}`;
      const r = await http(base, route, { method, body, headers: { 'x-request-id': id, accept: 'application/json, text/event-stream' } });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer realm="pincher-edge"/);
      expect(r.headers.get('x-client-request-id')).toBe(id);
      expect(r.body.error.code).toBe('unauthorized');
      expect(r.body._meta.client_request_id).toBe(id);
      expect(r.body._meta.request_id).toBe(r.headers.get('x-request-id'));
    });

    it(`${method} ${route} with a wrong key is 401 invalid_token with the echoed client X-Request-ID`, async () => {
      const id = `e2e-badkey-${route.replace(/\W+/g, '-')}`;
      const r = await http(base, route, { method, body, key: `${FULL_KEY}x`, headers: { 'x-request-id': id, accept: 'application/json, text/event-stream' } });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      expect(r.headers.get('x-client-request-id')).toBe(id);
      expect(r.body.error.code).toBe('unauthorized');
    });
  }

  it('the read-only key calls read tools over REST', async () => {
    for (const [tool, args] of [['why_empty', { code: 'stale_index' }], ['list', {}], ['health', {}]] as const) {
      const r = await rest(base, tool, args, READ_KEY);
      expect(r.status, tool).toBe(200);
      expectEnvelope(r.body._meta);
    }
  });

  it('accepts the bearer scheme case-insensitively and refuses other schemes', async () => {
    const lower = await http(base, '/v1/tools', { headers: { authorization: `bearer ${READ_KEY}` } });
    expect(lower.status).toBe(200);
    const basic = await http(base, '/v1/tools', { headers: { authorization: `Basic ${Buffer.from(`x:${FULL_KEY}`).toString('base64')}` } });
    expect(basic.status).toBe(401);
  });
});

describe('OTLP spans to a local collector', () => {
  it('exports one span per tool call, child of the caller\'s traceparent, attributes mirroring _meta', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const r = await rest(base, 'why_empty', { code: 'no_results_in_corpus' }, READ_KEY, { traceparent });
    expect(r.status).toBe(200);
    expect(r.body._meta.capabilities).toContain('traces_otlp');
    const requestId = r.body._meta.request_id;
    type Span = { traceId: string; parentSpanId?: string; name: string; attributes: { key: string; value: Record<string, unknown> }[] };
    const spanOf = (e: (typeof exported)[number]): Span => e.body.resourceSpans[0].scopeSpans[0].spans[0];
    const attr = (s: Span, key: string) => Object.values(s.attributes.find((a) => a.key === key)?.value ?? {})[0];
    // Exported after the answer (waitUntil): poll briefly.
    let hit: (typeof exported)[number] | undefined;
    for (const deadline = Date.now() + 10_000; !hit && Date.now() < deadline; await new Promise((res) => setTimeout(res, 100))) {
      hit = exported.find((e) => attr(spanOf(e), 'request_id') === requestId);
    }
    expect(hit, 'no span with the call\'s request_id reached the collector').toBeDefined();
    expect(hit!.path).toBe('/v1/traces');
    expect(hit!.headers['content-type']).toBe('application/json');
    expect(hit!.headers.authorization).toBe(`Bearer ${OTLP_SECRET}`);
    const span = spanOf(hit!);
    expect(span).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c', parentSpanId: 'b7ad6b7169203331', name: 'tools/call why_empty' });
    expect(attr(span, 'tokens_used')).toBe(String(r.body._meta.tokens_used));
    expect(attr(span, 'complexity_tier')).toBe(r.body._meta.complexity_tier);
    expect(hit!.body.resourceSpans[0].resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'pincher-edge' } });
    // MCP calls (official SDK, earlier in this file) were exported too.
    expect(exported.some((e) => attr(spanOf(e), 'pincher.surface') === 'mcp')).toBe(true);
  });

  it('never wrote the collector\'s header value into a response or the server log', () => {
    for (const s of seen) expect(s.body.includes(OTLP_SECRET) || s.headers.includes(OTLP_SECRET)).toBe(false);
    expect(server.logs.join('').includes(OTLP_SECRET)).toBe(false);
  });
});

describe('after the calls', () => {
  it('GET /v1/metrics exposes the call log as Prometheus text', async () => {
    // The call log is written with waitUntil, after the response: poll briefly.
    let text = '';
    const deadline = Date.now() + 10_000;
    const want = [
      /^pincher_tool_calls_total\{tool="why_empty",status="ok"\} [1-9]\d*$/m,
      /^pincher_tool_calls_total\{tool="list",status="empty"\} [1-9]\d*$/m,
      /^pincher_tool_calls_total\{tool="health",status="ok"\} [1-9]\d*$/m,
      /^pincher_tool_calls_total\{tool="why_empty",status="unknown_empty_reason"\} [1-9]\d*$/m,
    ];
    while (Date.now() < deadline) {
      const r = await http(base, '/v1/metrics', { key: READ_KEY });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
      text = r.text;
      if (want.every((re) => re.test(text))) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    for (const re of want) expect(text).toMatch(re);
    expect(text).toMatch(/^# TYPE pincher_tool_latency_seconds histogram$/m);
    expect(text).toMatch(/^pincher_tool_latency_seconds_count\{tool="why_empty"\} [1-9]\d*$/m);
    expect(text).toMatch(/^pincher_projects 0$/m);
  });

  it('no response body or header ever contained either key', () => {
    // Every helper and every SDK transport request went through the recorder.
    expect(seen.length).toBeGreaterThan(40);
    expect(seen.some((s) => s.status === 401)).toBe(true);
    for (const s of seen) {
      for (const key of [FULL_KEY, READ_KEY]) {
        expect(s.body.includes(key), `${s.method} ${s.url} (${s.status}) body contains a key`).toBe(false);
        expect(s.headers.includes(key), `${s.method} ${s.url} (${s.status}) headers contain a key`).toBe(false);
      }
    }
  });
});
