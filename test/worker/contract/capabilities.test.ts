import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSchemaStateCache } from '../../../src/db/migrations';
import { computeCapabilities } from '../../../src/envelope/capabilities';
import { ERROR_CODES } from '../../../src/errors';
import { TOOLS } from '../../../src/tools/registry';
import { SCHEMA_VERSION } from '../../../src/version';
import {
  TRANSPORTS,
  callOn,
  env,
  insertProjects,
  deleteProjects,
  mcpTool,
  restCall,
  rpc,
  send,
  charTokens,
  ULID,
  type EnvOverrides,
  type Json,
  type Reply,
} from './support';

/** Every option that can add a tag, switched on. */
const ALL_ON: EnvOverrides = {
  PINCHER_HTTP_KEY: 'caps-full-key',
  PINCHER_READ_KEY: 'caps-read-key',
  PINCHER_TOKEN_ACCOUNTING: 'exact',
  // The discard port: the export is refused at once, and the call must not care.
  PINCHER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
};
const FULL = { authorization: 'Bearer caps-full-key' };
const READ = { authorization: 'Bearer caps-read-key' };

const allTags = (): string[] => computeCapabilities({ ...env, ...ALL_ON } as never);

/**
 * tag → a runtime probe that exercises what the tag promises. A tag that
 * computeCapabilities can emit without an entry here fails the suite.
 */
const PROBES: Record<string, () => Promise<void>> = {
  [`schema_v${SCHEMA_VERSION}`]: async () => {
    const row = await env.DB.prepare('SELECT count(*) AS n FROM d1_migrations').first<{ n: number }>();
    expect(row?.n).toBe(SCHEMA_VERSION);
    expect(env.TEST_MIGRATIONS.length).toBe(SCHEMA_VERSION);
    const { body } = await restCall('list', {});
    expect(body._meta.schema_version).toBe(SCHEMA_VERSION);
    expect(body._meta.capabilities).toContain(`schema_v${SCHEMA_VERSION}`);
  },

  binary_drift_warning: async () => {
    // A migration this Worker does not know, as a newer release (or a rollback) would leave it.
    await env.DB.prepare("INSERT INTO d1_migrations (name, applied_at) VALUES ('9999_from_the_future.sql', '2030-01-01 00:00:00')").run();
    resetSchemaStateCache();
    try {
      const { status, body } = await restCall('list', {});
      expect(status).toBe(200);
      expect(body._meta.binary_drift_warning).toEqual({
        stored_version: SCHEMA_VERSION + 1,
        running_version: SCHEMA_VERSION,
        remediation: expect.stringMatching(/deploy/),
      });
      const ready = await send('/v1/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.ready).toBe(false);
      expect(ready.body.reasons.join(' ')).toMatch(/schema_ahead/);
      expect((await restCall('health', {})).body.result.binary_drift).toBe(true);
    } finally {
      await env.DB.prepare("DELETE FROM d1_migrations WHERE name = '9999_from_the_future.sql'").run();
      resetSchemaStateCache();
    }
    const after = await restCall('list', {});
    expect(after.body._meta).not.toHaveProperty('binary_drift_warning');
    expect((await send('/v1/ready')).status).toBe(200);
  },

  tokens_used_envelope: async () => {
    const replies: [Reply, unknown][] = [];
    const ok = await restCall('list', {});
    replies.push([ok, ok.body.result]);
    const err = await restCall('why_empty', { code: 'nope' });
    replies.push([err, { error: err.body.error }]);
    const notFound = await send('/v1/nowhere');
    replies.push([notFound, { error: notFound.body.error }]);
    const ready = await send('/v1/ready');
    const { _meta: _m, ...readyBody } = ready.body;
    replies.push([ready, readyBody]);
    for (const [reply, payload] of replies) {
      expect(Number.isInteger(reply.body._meta.tokens_used)).toBe(true);
      expect(reply.body._meta.tokens_used).toBe(charTokens(payload));
    }
  },

  tokens_saved_pct: async () => {
    const names = ['caps-pct-a', 'caps-pct-b', 'caps-pct-c', 'caps-pct-d'];
    await insertProjects(names.map((name) => ({ name })));
    try {
      const { body } = await restCall('list', { name_contains: 'caps-pct-', limit: 1 });
      const { tokens_used: used, tokens_saved: saved, tokens_saved_pct: pct } = body._meta;
      expect(saved).toBeGreaterThan(0);
      expect(pct).toBe(Math.round((1000 * saved) / (saved + used)) / 10);
      // No baseline, no claim: numbers, never null.
      const none = (await restCall('why_empty', {})).body._meta;
      expect([none.baseline_method, none.tokens_saved, none.tokens_saved_pct]).toEqual(['none', 0, 0]);
    } finally {
      await deleteProjects(names);
    }
  },

  complexity_tier: async () => {
    for (const tool of TOOLS) {
      const { meta } = await callOn('rest', tool.name, {});
      expect({ tool: tool.name, tier: meta.complexity_tier }).toEqual({ tool: tool.name, tier: tool.tier });
    }
  },

  standardized_error_envelope: async () => {
    const errors: Reply[] = [
      await send('/v1/tools/list', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' }),
      await restCall('list', { limit: 0 }),
      await restCall('no_such_tool', {}),
      await send('/v1/nowhere'),
      await send('/mcp', { method: 'DELETE' }),
      await send('/v1/tools/list', { method: 'POST', body: ' '.repeat(1024 * 1024 + 1) }),
      await restCall('list', {}, { env: { PINCHER_HTTP_KEY: 'k' } }),
      await restCall('list', {}, { env: { PINCHER_ALLOW_OPEN: undefined } }),
      await send('/v1/tools/list', { method: 'POST', headers: { origin: 'https://evil.example' } }),
    ];
    for (const reply of errors) {
      expect(Object.keys(reply.body).sort()).toEqual(['_meta', 'error']);
      const { code, message, suggestion } = reply.body.error;
      expect(Object.keys(ERROR_CODES)).toContain(code);
      expect(reply.status).toBe(ERROR_CODES[code as keyof typeof ERROR_CODES]);
      expect(typeof message).toBe('string');
      expect(typeof suggestion).toBe('string');
      expect(reply.body._meta.request_id).toBe(reply.headers.get('x-request-id'));
    }
    expect(new Set(errors.map((r) => r.status)).size).toBeGreaterThanOrEqual(6);
  },

  idempotency_declared: async () => {
    const doc = (await send('/v1/openapi.json')).body;
    for (const tool of TOOLS) {
      const op = doc.paths[`/v1/tools/${tool.name}`]?.post;
      expect(op, tool.name).toBeDefined();
      expect(op['x-pincher-idempotent']).toBe(tool.idempotent);
      expect(tool.annotations.idempotentHint).toBe(tool.idempotent);
    }
  },

  streamable_http: async () => {
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
      const init = await rpc('2025', 'initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'probe', version: '1' } }, { headers: { 'mcp-protocol-version': version } });
      expect(init.status).toBe(200);
      expect(init.body.result.protocolVersion).toBe(version);
      expect(init.body.result.serverInfo.name).toBe('pincher-edge');
      expect(init.headers.get('mcp-session-id')).toBeNull();
    }
    const list = await rpc('2025', 'tools/list', {});
    expect(list.body.result.tools.length).toBeGreaterThan(0);
  },

  mcp_stateless_2026: async () => {
    const discover = await rpc('2026', 'server/discover', {});
    expect(discover.status).toBe(200);
    expect(discover.body.result.supportedVersions).toContain('2026-07-28');
    expect(discover.body.result.capabilities.tools).toBeDefined();
    const { result } = await mcpTool('2026', 'list', {});
    expect(result?._meta.request_id).toBeTruthy();
  },

  rest_twin: async () => {
    for (const tool of TOOLS.filter((t) => t.annotations.readOnlyHint)) {
      const reply = await restCall(tool.name, {});
      expect(reply.status, `${tool.name}: ${reply.text.slice(0, 200)}`).toBeLessThan(500);
      expect(reply.body._meta.complexity_tier).toBe(tool.tier);
    }
    const list = await restCall('list', {});
    expect(list.status).toBe(200);
    expect(list.body.result.projects).toBeDefined();
  },

  openapi: async () => {
    const { status, body } = await send('/v1/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    for (const tool of TOOLS) expect(body.paths).toHaveProperty(`/v1/tools/${tool.name}`);
  },

  mcp_prompts: async () => {
    const list = await rpc('2025', 'prompts/list');
    expect((list.body.result.prompts as Json[]).map((p) => p.name)).toContain('guide');
    const got = await rpc('2025', 'prompts/get', { name: 'guide', arguments: { task: 'who calls listen' } });
    expect(got.body.result.messages.length).toBeGreaterThan(0);
    const unknown = await rpc('2025', 'prompts/get', { name: 'no_such_prompt' });
    expect(unknown.body.error.data._meta.request_id).toMatch(ULID);
  },

  sse: async () => {
    const indexed = await restCall('index', { project: 'caps-sse', files: [{ path: 'a.ts', content: 'export function a() { return 1; }\n' }] });
    expect(indexed.status).toBe(200);
    // A one-second stream replaying everything kept for the project, then closing.
    const { status, headers, text } = await send('/v1/events?project=caps-sse&last_event_id=0', {}, { PINCHER_EVENTS_STREAM_SECONDS: '1' });
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/event-stream/);
    const types = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(types).toEqual(['upload_opened', 'files_received', 'committed', 'resolution_finished']);
    expect(text).toMatch(/^id: \d+$/m);
  },

  mcp_logging: async () => {
    const init = await rpc('2025', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } });
    expect(init.body.result.capabilities.logging).toBeDefined();
    expect((await rpc('2025', 'logging/setLevel', { level: 'warning' })).body.result).toEqual({});
    expect((await rpc('2025', 'logging/setLevel', { level: 'loud' })).body.error.code).toBe(-32602);
    await env.DB.prepare("INSERT INTO d1_migrations (name, applied_at) VALUES ('9999_probe_mcp_logging.sql', '2030-01-01 00:00:00')").run();
    resetSchemaStateCache();
    try {
      for (const transport of TRANSPORTS) {
        const reply = await rpc(transport, 'tools/call', { name: 'list', arguments: {}, _meta: { 'io.modelcontextprotocol/logLevel': 'warning' } });
        const log = reply.messages?.find((m) => m.method === 'notifications/message');
        expect(log?.params.level, transport).toBe('warning');
        expect(log?.params.data.binary_drift_warning.running_version).toBe(SCHEMA_VERSION);
      }
    } finally {
      await env.DB.prepare("DELETE FROM d1_migrations WHERE name = '9999_probe_mcp_logging.sql'").run();
      resetSchemaStateCache();
    }
  },

  metrics_prometheus: async () => {
    // Through app.fetch so the call log write (waitUntil) has landed before the scrape.
    await restCall('why_empty', { code: 'cap_dropped_all' }, { env: {} });
    const { status, headers, text } = await send('/v1/metrics');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toMatch(/^# TYPE pincher_tool_calls_total counter$/m);
    const line = text.split('\n').find((l) => l.startsWith('pincher_tool_calls_total{tool="why_empty",status="ok"}'));
    expect(line).toMatch(/ \d+$/);
    expect(Number(line?.split(' ').pop())).toBeGreaterThanOrEqual(1);
    for (const l of text.trim().split('\n')) expect(l).toMatch(/^(# (HELP|TYPE) \w+ .+|[a-z_]+(\{[^}]*\})? -?\d+(\.\d+)?)$/);
  },

  http_auth: async () => {
    expect(computeCapabilities(env)).not.toContain('http_auth');
    const keyed = { PINCHER_HTTP_KEY: 'caps-full-key' };
    expect((await restCall('list', {}, { env: keyed })).status).toBe(401);
    const ok = await restCall('list', {}, { env: keyed, headers: FULL });
    expect(ok.status).toBe(200);
    expect(ok.body._meta.capabilities).toContain('http_auth');
  },

  read_only_key: async () => {
    const both = { PINCHER_HTTP_KEY: 'caps-full-key', PINCHER_READ_KEY: 'caps-read-key' };
    expect(computeCapabilities({ ...env, PINCHER_HTTP_KEY: 'x' } as never)).not.toContain('read_only_key');
    const read = await restCall('list', {}, { env: both, headers: READ });
    expect(read.status).toBe(200);
    expect(read.body._meta.capabilities).toContain('read_only_key');
    const writeTools = TOOLS.filter((t) => !t.annotations.readOnlyHint);
    expect(writeTools.length).toBeGreaterThan(0);
    for (const tool of writeTools) {
      const refused = await restCall(tool.name, {}, { env: both, headers: READ });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('insufficient_scope');
    }
  },

  token_accounting_exact: async () => {
    const exact = { PINCHER_TOKEN_ACCOUNTING: 'exact' };
    const enc = new Tiktoken(cl100k);
    const { body } = await restCall('why_empty', {}, { env: exact });
    const bpe = enc.encode(JSON.stringify(body.result)).length;
    expect(body._meta.tokens_used).toBe(bpe);
    expect(bpe).not.toBe(charTokens(body.result));
    expect(body._meta.capabilities).toContain('token_accounting_exact');
    for (const transport of TRANSPORTS) {
      const { result } = await mcpTool(transport, 'why_empty', {}, { env: exact });
      // MCP counts every block the model receives, each encoded exactly.
      const text = (result?.content as { text: string }[]).map((b) => b.text).join('\n');
      expect(result?._meta.tokens_used).toBe(enc.encode(text).length);
    }
    expect((await restCall('why_empty', {})).body._meta.tokens_used).toBe(charTokens(body.result));
  },

  traces_otlp: async () => {
    expect(computeCapabilities(env)).not.toContain('traces_otlp');
    const otlp = { PINCHER_OTLP_ENDPOINT: 'https://collector.example:4318', PINCHER_OTLP_HEADERS: 'x-api-key=s%3Dcret' };
    // The collector: every POST the Worker makes is received here.
    const received: { url: string; headers: Headers; body: Json }[] = [];
    const collector = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      received.push({ url: request.url, headers: request.headers, body: await request.json() });
      return new Response('{}', { status: 200 });
    });
    try {
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const rest = await restCall('why_empty', { code: 'no_results_in_corpus' }, { env: otlp, headers: { traceparent } });
      expect(rest.body._meta.capabilities).toContain('traces_otlp');
      const mcp = await mcpTool('2026', 'list', {}, { env: otlp });
      const failed = await restCall('list', { limit: 0 }, { env: otlp });
      expect(failed.status).toBe(400);
      expect(received.map((r) => r.url)).toEqual(Array(3).fill('https://collector.example:4318/v1/traces'));
      const spans = received.map((r) => {
        expect(r.headers.get('content-type')).toBe('application/json');
        expect(r.headers.get('x-api-key')).toBe('s=cret');
        const [resourceSpans] = r.body.resourceSpans;
        expect(resourceSpans.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'pincher-edge' } });
        const [span] = resourceSpans.scopeSpans[0].spans;
        return { span, attrs: Object.fromEntries((span.attributes as Json[]).map((a) => [a.key, Object.values(a.value)[0]])) };
      });
      const [fromRest, fromMcp, fromError] = spans;
      // A child of the caller's span, attributes mirroring the envelope.
      expect(fromRest.span).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentSpanId: '00f067aa0ba902b7', name: 'tools/call why_empty', kind: 2, status: { code: 1 } });
      expect(fromRest.span.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(BigInt(fromRest.span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(fromRest.span.startTimeUnixNano));
      const meta = rest.body._meta;
      expect(fromRest.attrs).toMatchObject({
        request_id: meta.request_id,
        tokens_used: String(meta.tokens_used),
        tokens_saved_pct: meta.tokens_saved_pct,
        complexity_tier: meta.complexity_tier,
        'gen_ai.tool.name': 'why_empty',
        'pincher.surface': 'rest',
      });
      // A new trace without traceparent; the MCP call's span carries its own request id.
      expect(fromMcp.span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(fromMcp.span.traceId).not.toBe('4bf92f3577b34da6a3ce929d0e0e4736');
      expect(fromMcp.span).not.toHaveProperty('parentSpanId');
      expect(fromMcp.attrs).toMatchObject({ request_id: mcp.result?._meta.request_id, 'pincher.surface': 'mcp', 'gen_ai.tool.name': 'list' });
      expect(fromError.span.status).toEqual({ code: 2, message: 'invalid_params' });
      expect(fromError.attrs['error.type']).toBe('invalid_params');
      // A collector that fails or hangs up never fails the call.
      collector.mockImplementation(async () => {
        throw new TypeError('connection refused');
      });
      const still = await restCall('list', {}, { env: otlp });
      expect(still.status).toBe(200);
      collector.mockImplementation(async () => new Response('down', { status: 503 }));
      expect((await restCall('list', {}, { env: otlp })).status).toBe(200);
    } finally {
      collector.mockRestore();
    }
    // Not a URL: nothing exported, not advertised, and readiness says why.
    const bad = { PINCHER_OTLP_ENDPOINT: 'collector:4318/traces' };
    expect((await restCall('list', {}, { env: bad })).body._meta.capabilities).not.toContain('traces_otlp');
    const ready = await send('/v1/ready', {}, bad);
    expect(ready.status).toBe(200);
    expect(ready.body.warnings.join(' ')).toMatch(/PINCHER_OTLP_ENDPOINT/);
  },
};

describe('capability tags', () => {
  it('has a runtime probe for every tag computeCapabilities can emit, and no probe for a tag it never emits', () => {
    expect(Object.keys(PROBES).sort()).toEqual([...allTags()].sort());
  });

  it('stamps exactly the deployment tags on every call', async () => {
    for (const surface of ['rest', 'mcp-2025', 'mcp-2026'] as const) {
      const { meta } = await callOn(surface, 'list', {});
      expect(meta.capabilities).toEqual(computeCapabilities(env));
    }
    const keyed = await restCall('list', {}, { env: ALL_ON, headers: FULL });
    expect([...keyed.body._meta.capabilities].sort()).toEqual([...allTags()].sort());
  });

  it('lists the same tags on GET /v1/capabilities', async () => {
    const { status, body } = await send('/v1/capabilities');
    expect(status).toBe(200);
    expect(body.capabilities).toEqual(computeCapabilities(env));
  });

  afterEach(() => resetSchemaStateCache());

  for (const tag of allTags()) {
    it(`proves ${tag} at runtime`, async () => {
      const probe = PROBES[tag];
      expect(probe, `no runtime probe for capability tag ${tag}`).toBeDefined();
      await probe();
    }, 30_000);
  }
});

describe('PINCHER_META_CAPABILITIES=off', () => {
  const OFF = { PINCHER_META_CAPABILITIES: 'off' };

  it('drops the per-call capabilities stamp on REST and MCP', async () => {
    const rest = await restCall('list', {}, { env: OFF });
    expect(rest.status).toBe(200);
    expect(rest.body._meta).not.toHaveProperty('capabilities');
    expect(rest.body._meta).toHaveProperty('request_id');
    for (const transport of TRANSPORTS) {
      const { result } = await mcpTool(transport, 'list', {}, { env: OFF });
      expect(result?._meta).not.toHaveProperty('capabilities');
    }
  });

  it('drops it on errors too', async () => {
    const err = await restCall('why_empty', { code: 'nope' }, { env: OFF });
    expect(err.body._meta).not.toHaveProperty('capabilities');
  });

  it('still lists every tag on GET /v1/capabilities', async () => {
    const { body } = await send('/v1/capabilities', {}, OFF);
    expect(body.capabilities).toEqual(computeCapabilities({ ...env, ...OFF } as never));
    expect(body.capabilities).toContain(`schema_v${SCHEMA_VERSION}`);
    expect(body._meta).not.toHaveProperty('capabilities');
  });

  it('is case-insensitive (OFF) and leaves the stamp on for any other value', async () => {
    expect((await restCall('list', {}, { env: { PINCHER_META_CAPABILITIES: 'OFF' } })).body._meta).not.toHaveProperty('capabilities');
    expect((await restCall('list', {}, { env: { PINCHER_META_CAPABILITIES: 'on' } })).body._meta).toHaveProperty('capabilities');
  });
});

