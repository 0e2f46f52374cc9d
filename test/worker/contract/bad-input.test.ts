import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callLogWindowMs } from '../../../src/db/calls';
import { MetaCollector } from '../../../src/envelope/collector';
import { PincherError } from '../../../src/errors';
import { normaliseArgs } from '../../../src/tools/params';
import { TOOLS } from '../../../src/tools/registry';
import { MODERN_META } from '../helpers';
import {
  TRANSPORTS,
  ULID,
  deleteProjects,
  env,
  insertProjects,
  mcpPayload,
  mcpTool,
  restCall,
  rpc,
  send,
  type Json,
  type Reply,
} from './support';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const PROJECTS = ['bad-input-a', 'bad-input-b', 'bad-input-c'];

beforeAll(async () => {
  await insertProjects(PROJECTS.map((name) => ({ name })));
});
afterAll(async () => {
  await deleteProjects(PROJECTS);
});

async function projectCount(): Promise<number> {
  return (await env.DB.prepare('SELECT count(*) AS n FROM projects').first<{ n: number }>())?.n ?? -1;
}

/** A typed REST error: status, code, a suggestion, and the envelope. */
function expectTypedError(reply: Reply, status: number, code: string): Json {
  expect(reply.status, reply.text.slice(0, 300)).toBe(status);
  expect(reply.body.error.code).toBe(code);
  expect(typeof reply.body.error.message).toBe('string');
  expect(typeof reply.body.error.suggestion).toBe('string');
  expect(reply.body._meta.request_id).toBe(reply.headers.get('x-request-id'));
  return reply.body.error;
}

describe('malformed bodies and arguments', () => {
  it('answers 400 invalid_json_body to a body that is not JSON', async () => {
    for (const body of ['{not json', '{"limit": 5', 'undefined']) {
      expectTypedError(await send('/v1/tools/list', { method: 'POST', headers: { 'content-type': 'application/json' }, body }), 400, 'invalid_json_body');
    }
  });

  it('treats an empty body as {}', async () => {
    const reply = await send('/v1/tools/list', { method: 'POST' });
    expect(reply.status).toBe(200);
    expect(reply.body.result.total).toBe(PROJECTS.length);
  });

  it('answers 400 invalid_params to JSON arguments that are not an object', async () => {
    for (const body of ['[1,2]', '"list"', '5', 'true']) {
      const err = expectTypedError(await restCall('list', body), 400, 'invalid_params');
      expect(err.message).toMatch(/must be a JSON object/);
    }
  });

  it('refuses non-object MCP arguments at the protocol level with a JSON-RPC invalid-params error', async () => {
    for (const transport of TRANSPORTS) {
      const reply = await rpc(transport, 'tools/call', { name: 'list', arguments: 'limit=5' });
      expect(reply.status).toBeLessThan(500);
      expect(reply.body.error.code).toBe(-32602);
    }
  });

  it('names the parameter on wrong types', async () => {
    const cases: [Json, string][] = [
      [{ limit: 'ten' }, 'limit'],
      [{ limit: 2.5 }, 'limit'],
      [{ name_contains: 42 }, 'name_contains'],
      [{ offset: [1] }, 'offset'],
      [{ limit: true }, 'limit'],
    ];
    for (const [args, param] of cases) {
      const err = expectTypedError(await restCall('list', args), 400, 'invalid_params');
      expect(err.details.issues.map((i: Json) => i.param)).toEqual([param]);
      expect(err.message).toContain(param);
      expect(err.suggestion).toContain(param);
    }
  });

  it('refuses out-of-range numbers: list limit 0 and 201, offset -1', async () => {
    for (const args of [{ limit: 0 }, { limit: 201 }, { offset: -1 }, { offset: 10_001 }]) {
      const err = expectTypedError(await restCall('list', args), 400, 'invalid_params');
      expect(err.details.issues[0].param).toBe(Object.keys(args)[0]);
    }
  });

  it('accepts the edges of the documented ranges', async () => {
    for (const args of [{ limit: 1 }, { limit: 200 }, { offset: 0 }, { offset: 10_000 }]) {
      expect((await restCall('list', args)).status).toBe(200);
    }
  });

  it('accepts obvious base-10 strings for numbers ("5", " 2 ", "1.0")', async () => {
    const five = await restCall('list', { limit: '5' });
    expect(five.status).toBe(200);
    expect(five.body.result.projects).toHaveLength(PROJECTS.length);
    const two = await restCall('list', { limit: ' 2 ', offset: '1' });
    expect(two.body.result.projects.map((p: Json) => p.name)).toEqual(PROJECTS.slice(1, 3));
    expect((await restCall('list', { limit: '1.0' })).body.result.projects).toHaveLength(1);
  });

  it('does not coerce strings that are not plain base-10 numbers', async () => {
    for (const limit of ['0x10', '1e1', '5 apples', '']) {
      const reply = await restCall('list', { limit });
      if (limit === '') expect(reply.status).toBe(200); // "" means absent
      else expectTypedError(reply, 400, 'invalid_params');
    }
  });

  it('treats null and "" on optional parameters as absent (defaults apply)', async () => {
    const reply = await restCall('list', { name_contains: null, limit: '', offset: null });
    expect(reply.status).toBe(200);
    expect(reply.body.result.total).toBe(PROJECTS.length);
    expect(reply.body._meta).not.toHaveProperty('warnings_v2');

    const { parsed } = normaliseArgs('list', TOOLS.find((t) => t.name === 'list')!.input, { name_contains: '', limit: null, offset: '' }, new MetaCollector());
    expect(parsed).toEqual({ limit: 50, offset: 0 });
  });

  it('does not treat null as absent on a required parameter', async () => {
    const schema = z.object({ q: z.string() });
    expect(() => normaliseArgs('t', schema, { q: null }, new MetaCollector())).toThrow(PincherError);
  });

  it('lists the allowed values on an enum violation over REST (search kind)', async () => {
    const err = expectTypedError(await restCall('search', { query: 'x', kind: 'Gadget' }), 400, 'invalid_params');
    const issue = err.details.issues.find((i: Json) => i.param === 'kind');
    expect(issue.allowed).toContain('Function');
    expect(issue.allowed).toContain('Class');
    expect(err.message).toContain(`kind: must be one of: ${issue.allowed.join(', ')}`);
  });

  it('lists the allowed values on an enum violation', () => {
    const schema = z.object({ direction: z.enum(['in', 'out', 'both']).default('both') });
    let caught: unknown;
    try {
      normaliseArgs('trace', schema, { direction: 'sideways' }, new MetaCollector());
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PincherError);
    const e = caught as PincherError;
    expect(e.code).toBe('invalid_params');
    expect(e.message).toContain('direction: must be one of: in, out, both');
    expect(e.details?.issues).toEqual([{ param: 'direction', message: 'must be one of: in, out, both', allowed: ['in', 'out', 'both'] }]);
  });
});

describe('unknown parameters', () => {
  it('ignores them with an unknown_arg warning listing the accepted keys and a did-you-mean', async () => {
    const reply = await restCall('list', { limt: 1 });
    expect(reply.status).toBe(200);
    // Ignored: the default limit applied, not 1.
    expect(reply.body.result.projects).toHaveLength(PROJECTS.length);
    const [w] = reply.body._meta.warnings_v2 as Json[];
    expect(w).toMatchObject({ code: 'unknown_arg', severity: 'warning', data: { param: 'limt', accepted: ['name_contains', 'limit', 'offset'], did_you_mean: 'limit' } });
    expect(w.message).toContain("did you mean 'limit'?");
    expect(reply.body._meta.warnings).toEqual([`unknown_arg: ${w.message}`]);
  });

  it('gives no did-you-mean when nothing is close, but still lists the accepted keys', async () => {
    const [w] = (await restCall('list', { zzzzzzzz: 1 })).body._meta.warnings_v2 as Json[];
    expect(w.data).not.toHaveProperty('did_you_mean');
    expect(w.data.accepted).toEqual(['name_contains', 'limit', 'offset']);
  });

  it('shows the warning to the model in structuredContent.notice.warnings over MCP', async () => {
    for (const transport of TRANSPORTS) {
      const { result } = await mcpTool(transport, 'list', { limt: 1 });
      const warnings = result?.structuredContent.notice.warnings as string[];
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^unknown_arg: .*'limt'.*did you mean 'limit'\?.*accepted: name_contains, limit, offset/);
      expect(JSON.parse(result?.content[0].text).notice.warnings).toEqual(warnings);
    }
  });

  it('does not count _meta in the arguments as an unknown parameter', async () => {
    const reply = await restCall('list', { _meta: { session_id: 's' } });
    expect(reply.body._meta).not.toHaveProperty('warnings_v2');
  });
});

describe('size limits', () => {
  const big = ' '.repeat(1024 * 1024 + 1);

  it('answers 413 body_too_large with _meta when Content-Length is over 1 MiB', async () => {
    const err = expectTypedError(await send('/v1/tools/list', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big }), 413, 'body_too_large');
    expect(err.details.max_bytes).toBe(1024 * 1024);
  });

  it('answers 413 when a streamed body without Content-Length grows past 1 MiB', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(32);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 1024 * 1024) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    expectTypedError(await send('/v1/tools/list', { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream }), 413, 'body_too_large');
  });

  it('answers 413 on /mcp too, before the MCP SDK sees the body', async () => {
    expectTypedError(await send('/mcp', { method: 'POST', headers: MCP_HEADERS, body: big }), 413, 'body_too_large');
  });

  it('accepts a body just under the cap', async () => {
    const padded = JSON.stringify({ name_contains: 'bad-input' }) + ' '.repeat(1024 * 1024 - 40);
    expect((await send('/v1/tools/list', { method: 'POST', headers: { 'content-type': 'application/json' }, body: padded })).status).toBe(200);
  });
});

describe('unknown tools, routes and methods', () => {
  it('answers an unknown REST tool with 404 unknown_tool, the available tools and a did-you-mean', async () => {
    const err = expectTypedError(await restCall('helth', {}), 404, 'unknown_tool');
    expect(err.details.available).toEqual(TOOLS.map((t) => t.name));
    expect(err.details.did_you_mean).toBe('health');
    expect(err.suggestion).toContain("did you mean 'health'?");
  });

  it('answers an unknown MCP tool with a JSON-RPC error carrying the same typed error', async () => {
    for (const transport of TRANSPORTS) {
      const reply = await rpc(transport, 'tools/call', { name: 'helth', arguments: {} });
      expect(reply.body.result).toBeUndefined();
      expect(reply.body.error.code).toBe(-32602);
      expect(reply.body.error.message).toContain('helth');
      expect(reply.body.error.data.error.code).toBe('unknown_tool');
      expect(reply.body.error.data.error.details.did_you_mean).toBe('health');
    }
  });

  it('answers GET and DELETE /mcp with 405 Allow: POST and the envelope', async () => {
    for (const method of ['GET', 'DELETE']) {
      const reply = await send('/mcp', { method });
      expectTypedError(reply, 405, 'method_not_allowed');
      expect(reply.headers.get('allow')).toBe('POST');
    }
  });

  it('answers GET /v1/tools/list with 405 Allow: POST', async () => {
    const reply = await send('/v1/tools/list');
    expectTypedError(reply, 405, 'method_not_allowed');
    expect(reply.headers.get('allow')).toBe('POST');
  });

  it('answers an unknown route with 404 not_found and the envelope', async () => {
    const reply = await send('/v2/anything?x=1');
    expectTypedError(reply, 404, 'not_found');
    expect(reply.body._meta.request_id).toMatch(ULID);
  });
});

describe('malformed JSON-RPC on /mcp', () => {
  const bodies: [string, string][] = [
    ['not JSON', '{"jsonrpc": "2.0", '],
    ['an empty body', ''],
    ['a message without jsonrpc', JSON.stringify({ id: 1, method: 'tools/list' })],
    ['jsonrpc 1.0', JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' })],
    ['a request without a method', JSON.stringify({ jsonrpc: '2.0', id: 1 })],
    ['params that are not an object', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' })],
    ['a batch of junk', '[1, "two", null]'],
    ['a bare number', '42'],
    ['an unknown method', JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/explode', params: {} })],
    ['tools/call without a name', JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { arguments: {} } })],
  ];
  for (const [what, body] of bodies) {
    it(`answers ${what} with a JSON-RPC error, never a 500`, async () => {
      const reply = await send('/mcp', { method: 'POST', headers: MCP_HEADERS, body });
      expect(reply.status).toBeLessThan(500);
      expect(reply.body.jsonrpc).toBe('2.0');
      expect(Number.isInteger(reply.body.error.code)).toBe(true);
      expect(reply.body.error.code).toBeLessThan(0);
      expect(typeof reply.body.error.message).toBe('string');
      expect(reply.headers.get('x-request-id')).toBeTruthy();
    });
  }

  it('refuses a non-JSON Content-Type with 415 and a JSON-RPC error', async () => {
    const reply = await send('/mcp', { method: 'POST', headers: { ...MCP_HEADERS, 'content-type': 'text/plain' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(reply.status).toBe(415);
    expect(reply.body.error.code).toBeLessThan(0);
  });
});

describe('2026-07-28 routing headers', () => {
  function modern(headers: Record<string, string>, message: Json): Promise<Reply> {
    return send('/mcp', {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2026-07-28', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
    });
  }

  it('rejects an Mcp-Method header that disagrees with the body', async () => {
    const reply = await modern({ 'mcp-method': 'tools/call' }, { method: 'tools/list', params: { _meta: MODERN_META } });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe(-32020);
    expect(reply.body.result).toBeUndefined();
  });

  it('rejects a missing Mcp-Method header', async () => {
    const reply = await modern({}, { method: 'tools/list', params: { _meta: MODERN_META } });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe(-32020);
  });

  it('rejects an Mcp-Name header that names a different tool, without running either tool', async () => {
    // The rows of earlier calls are written after their answers, once their window closes (callLogWindowMs): let them land first.
    await new Promise((resolve) => setTimeout(resolve, 50 + 4 * callLogWindowMs(env.PINCHER_CALL_LOG_WINDOW_MS)));
    const before = await env.DB.prepare('SELECT count(*) AS n FROM call_log').first<{ n: number }>();
    const reply = await modern(
      { 'mcp-method': 'tools/call', 'mcp-name': 'health' },
      { method: 'tools/call', params: { name: 'list', arguments: {}, _meta: MODERN_META } },
    );
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe(-32020);
    const after = await env.DB.prepare('SELECT count(*) AS n FROM call_log').first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it('rejects a 2026 protocol header without the per-request _meta envelope', async () => {
    const reply = await modern({ 'mcp-method': 'tools/list' }, { method: 'tools/list', params: {} });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe(-32602);
  });
});

describe('bad input changes nothing', () => {
  it('leaves the projects table as it was after every refused call above', async () => {
    expect(await projectCount()).toBe(PROJECTS.length);
  });

  it('does not create a project from a refused index call', async () => {
    for (const args of [{ project: '../etc', files: [{ path: 'a.py', content: 'x = 1' }] }, { project: 'bad-input-new', files: [{ path: '/abs/a.py', content: 'x' }] }]) {
      const reply = await restCall('index', args);
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
      expect(typeof reply.body.error.code).toBe('string');
    }
    expect(await projectCount()).toBe(PROJECTS.length);
  });

  it('keeps an MCP error result isError with the typed error for out-of-range arguments', async () => {
    const { result } = await mcpTool('2025', 'list', { limit: 201 });
    expect(result?.isError).toBe(true);
    expect(mcpPayload(result as Json).error.code).toBe('invalid_params');
  });
});
