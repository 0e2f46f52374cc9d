import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetSchemaStateCache } from '../../../src/db/migrations';
import { SCHEMA_VERSION } from '../../../src/version';
import { BASE, SELF } from '../helpers';
import { env, rpc, TRANSPORTS, type Json, type Reply, type Transport } from '../contract/support';

const LEVEL = 'io.modelcontextprotocol/logLevel';
const PROJECT = 'mcp-logging-progress';
const FILES = 30;

function call(transport: Transport, name: string, args: Json, meta: Json = {}): Promise<Reply> {
  return rpc(transport, 'tools/call', { name, arguments: args, ...(Object.keys(meta).length ? { _meta: meta } : {}) });
}

const notifications = (reply: Reply, method: string): Json[] => (reply.messages ?? []).filter((m) => m.method === method).map((m) => m.params as Json);

async function withDrift<T>(fn: () => Promise<T>): Promise<T> {
  await env.DB.prepare("INSERT INTO d1_migrations (name, applied_at) VALUES ('9999_mcp_logging_drift.sql', '2030-01-01 00:00:00')").run();
  resetSchemaStateCache();
  try {
    return await fn();
  } finally {
    await env.DB.prepare("DELETE FROM d1_migrations WHERE name = '9999_mcp_logging_drift.sql'").run();
    resetSchemaStateCache();
  }
}

afterEach(() => resetSchemaStateCache());

/** Drops the project's extractions, as an extractor upgrade leaves them: index force has every file to redo. */
async function staleExtractions(): Promise<void> {
  await env.DB.prepare(
    'DELETE FROM extractions WHERE hash IN (SELECT f.hash FROM files f JOIN projects p ON p.id = f.project_id WHERE p.name = ?1)',
  )
    .bind(PROJECT)
    .run();
}

describe('MCP logging capability and logging/setLevel', () => {
  it('declares the logging capability on both revisions', async () => {
    const init = await rpc('2025', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    expect(init.body.result.capabilities.logging).toEqual({});
    const discover = await rpc('2026', 'server/discover', {});
    expect(discover.body.result.capabilities.logging).toEqual({});
  });

  it('accepts every RFC 5424 level a 2025-era client sets', async () => {
    for (const level of ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']) {
      const reply = await rpc('2025', 'logging/setLevel', { level });
      expect(reply.body, level).toEqual(expect.objectContaining({ result: {} }));
    }
  });

  it('answers an unknown or missing level with -32602 invalid params, never -32603', async () => {
    for (const params of [{ level: 'loud' }, { level: 3 }, {}]) {
      const reply = await rpc('2025', 'logging/setLevel', params);
      const error = reply.body.error as Json | undefined;
      expect(error, JSON.stringify(reply.body)).toBeTruthy();
      expect(error!.code).toBe(-32602);
      expect(error!.message).toMatch(/^invalid params for logging\/setLevel: .*level/);
    }
  });

  it('rejects an unknown per-request level in the 2026-07-28 _meta as invalid params', async () => {
    const reply = await call('2026', 'list', {}, { [LEVEL]: 'loud' });
    const error = reply.body.error as Json | undefined;
    expect(error, JSON.stringify(reply.body)).toBeTruthy();
    expect(error!.code).toBe(-32602);
  });
});

describe('schema drift warning on the request stream', () => {
  it('sends a warning notifications/message before the result on a 2025-era call', async () => {
    const reply = await withDrift(() => call('2025', 'list', {}));
    expect(reply.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const [log, ...rest] = notifications(reply, 'notifications/message');
    expect(rest).toEqual([]);
    expect(log.level).toBe('warning');
    expect(log.logger).toBe('pincher-edge');
    const data = log.data as Json;
    expect(data.message).toMatch(/schema drift/);
    expect(data.binary_drift_warning).toEqual({ stored_version: SCHEMA_VERSION + 1, running_version: SCHEMA_VERSION, remediation: expect.stringMatching(/deploy/) });
    // The notification precedes the response on the same stream, and the envelope still reports the drift.
    expect(reply.messages!.findIndex((m) => m.method === 'notifications/message')).toBeLessThan(reply.messages!.findIndex((m) => 'result' in m));
    expect(reply.body.result._meta.binary_drift_warning).toEqual(data.binary_drift_warning);
  });

  it('sends it on a 2026-07-28 call that asks for warning and above', async () => {
    const reply = await withDrift(() => call('2026', 'list', {}, { [LEVEL]: 'warning' }));
    expect(reply.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const logs = notifications(reply, 'notifications/message');
    expect(logs.map((l) => l.level)).toEqual(['warning']);
    expect((logs[0].data as Json).binary_drift_warning.stored_version).toBe(SCHEMA_VERSION + 1);
    expect(reply.body.result._meta.binary_drift_warning).toBeTruthy();
  });

  it('sends nothing below the level the request sets, nor to a 2026-07-28 call that sets none', async () => {
    for (const [transport, meta] of [
      ['2025', { [LEVEL]: 'error' }],
      ['2026', { [LEVEL]: 'error' }],
      ['2026', {}],
    ] as [Transport, Json][]) {
      const reply = await withDrift(() => call(transport, 'list', {}, meta));
      expect(notifications(reply, 'notifications/message'), `${transport} ${JSON.stringify(meta)}`).toEqual([]);
      expect(reply.body.result._meta.binary_drift_warning).toBeTruthy();
    }
  });

  it('keeps plain JSON answers when there is nothing to notify', async () => {
    for (const transport of TRANSPORTS) {
      const reply = await call(transport, 'list', {});
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.body.result._meta.request_id).toBeTruthy();
    }
  });

  it('answers JSON to a client that does not accept an event stream', async () => {
    const reply = await withDrift(() =>
      rpc('2025', 'tools/call', { name: 'list', arguments: {} }, { headers: { accept: 'application/json' } }),
    );
    // The 2025 transport requires both media types in Accept; either way no stream is opened.
    expect(reply.headers.get('content-type') ?? '').not.toMatch(/event-stream/);
  });
});

describe('progress of index force', () => {
  beforeEach(staleExtractions);

  beforeAll(async () => {
    const files = Array.from({ length: FILES }, (_, i) => ({ path: `src/m${i}.ts`, content: `export function f${i}(x: number) { return x + ${i}; }\n` }));
    const reply = await call('2025', 'index', { project: PROJECT, files });
    expect(reply.body.result?.structuredContent?.done, JSON.stringify(reply.body).slice(0, 300)).toBe(true);
  });

  for (const transport of TRANSPORTS) {
    it(`sends increasing progress on the request's token and info messages (${transport})`, async () => {
      const reply = await call(transport, 'index', { project: PROJECT, force: true }, { progressToken: `tok-${transport}`, [LEVEL]: 'info' });
      expect(reply.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const progress = notifications(reply, 'notifications/progress');
      expect(progress.map((p) => p.progress)).toEqual([0, 25, FILES]);
      expect(progress.every((p) => p.progressToken === `tok-${transport}` && p.total === FILES)).toBe(true);
      expect(progress.at(-1)!.message).toMatch(new RegExp(`re-extracted ${FILES} of ${FILES} file\\(s\\) of '${PROJECT}'`));
      const logs = notifications(reply, 'notifications/message');
      expect(logs.length).toBe(3);
      expect(logs.every((l) => l.level === 'info' && (l.data as Json).tool === 'index')).toBe(true);
      expect(reply.body.result.structuredContent.done).toBe(true);
      expect(reply.body.result.structuredContent.files.changed).toBe(FILES);
    });
  }

  it('sends progress but no info message when the request asks for warning and above', async () => {
    const reply = await call('2026', 'index', { project: PROJECT, force: true }, { progressToken: 7, [LEVEL]: 'warning' });
    expect(notifications(reply, 'notifications/progress').map((p) => p.progress)).toEqual([0, 25, FILES]);
    expect(notifications(reply, 'notifications/message')).toEqual([]);
  });

  it('logs info messages to a 2025-era call without a token, and sends no progress', async () => {
    const reply = await call('2025', 'index', { project: PROJECT, force: true });
    expect(notifications(reply, 'notifications/progress')).toEqual([]);
    expect(notifications(reply, 'notifications/message').map((l) => l.level)).toEqual(['info', 'info', 'info']);
    expect(reply.body.result.structuredContent.done).toBe(true);
  });

  it('sends no progress when nothing is left to re-extract', async () => {
    await call('2025', 'index', { project: PROJECT, force: true });
    const again = await call('2025', 'index', { project: PROJECT, force: true }, { progressToken: 'idle' });
    expect(notifications(again, 'notifications/progress')).toEqual([]);
    expect(again.body.result.structuredContent.done).toBe(true);
  });
});

describe('the official SDK client', () => {
  async function connect(): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
      fetch: (input, init) => SELF.fetch(input instanceof URL ? input.href : input, init),
    });
    const client = new Client({ name: 'logging-test', version: '1.0.0' });
    await client.connect(transport);
    return client;
  }

  it('sets a level, receives the drift warning and reports index force progress', async () => {
    const client = await connect();
    try {
      expect(client.getServerCapabilities()?.logging).toEqual({});
      await client.setLoggingLevel('warning');
      const logs: Json[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        logs.push(n.params as Json);
      });
      const listed = await withDrift(() => client.callTool({ name: 'list', arguments: {} }));
      expect((listed._meta as Json).binary_drift_warning).toBeTruthy();
      expect(logs.map((l) => l.level)).toEqual(['warning']);
      await staleExtractions();
      const progress: number[] = [];
      const forced = await client.callTool({ name: 'index', arguments: { project: PROJECT, force: true } }, undefined, {
        onprogress: (p) => {
          progress.push(p.progress);
        },
      });
      expect((forced.structuredContent as Json).done).toBe(true);
      expect(progress).toEqual([0, 25, FILES]);
    } finally {
      await client.close();
    }
  });
});
