import { Hono } from 'hono';
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { AppEnv } from '../env';
import { PincherError } from '../errors';
import { MAX_JSON_BODY, readBodyText } from '../http/body';
import { sessionHeader } from '../http/session';
import { errorWithMeta } from '../http/respond';
import type { Toolset } from '../tools/define';
import { buildMcpServer, type McpRequestScope } from './server';

/** `POST /mcp`: stateless streamable HTTP, JSON responses, 2025-era and 2026-07-28 clients. */
export const mcpRoutes = new Hono<AppEnv>();

function toolsetOf(query: string | undefined, header: string | undefined): Toolset {
  return (query ?? header ?? '').toLowerCase() === 'full' ? 'full' : 'core';
}

mcpRoutes.post('/', async (c) => {
  // Read under the cap first, then hand the SDK a fresh request with the same bytes.
  const text = await readBodyText(c, MAX_JSON_BODY);
  const request = new Request(c.req.url, { method: 'POST', headers: c.req.raw.headers, body: text });
  const scope: McpRequestScope = {
    env: c.env,
    requestId: c.get('requestId'),
    clientRequestId: c.get('clientRequestId'),
    startedAt: c.get('startedAt'),
    scope: c.get('scope'),
    defaultProject: c.req.query('project') || undefined,
    toolset: toolsetOf(c.req.query('toolset'), c.req.header('x-pincher-toolset')),
    // A session the transport offers (Mcp-Session-Id) scopes savings when the client names none of its own.
    sessionHeader: sessionHeader(c.req.header('x-pincher-session')) ?? sessionHeader(c.req.header('mcp-session-id')),
    waitUntil: (p) => c.executionCtx.waitUntil(p),
  };
  if (await isLegacyRequest(request.clone())) {
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = buildMcpServer(scope);
    server.onerror = (err) => console.error(`mcp: ${err.name}: ${err.message.slice(0, 200)}`);
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      c.executionCtx.waitUntil(server.close());
    }
  }
  scopes.set(request, scope);
  return modernHandler().fetch(request);
});

// The 2026-07-28 handler is built once per isolate; each request's scope is
// looked up by the Request object the handler passes back to the factory.
const scopes = new WeakMap<Request, McpRequestScope>();
let modern: ReturnType<typeof createMcpHandler> | undefined;

function modernHandler(): ReturnType<typeof createMcpHandler> {
  modern ??= createMcpHandler(
    (ctx) => {
      const scope = ctx.requestInfo ? scopes.get(ctx.requestInfo) : undefined;
      if (!scope) throw new Error('mcp request scope missing');
      return buildMcpServer(scope);
    },
    { legacy: 'reject', responseMode: 'json', onerror: (err) => console.error(`mcp: ${err.name}: ${err.message.slice(0, 200)}`) },
  );
  return modern;
}

mcpRoutes.on(['GET', 'DELETE', 'PUT', 'PATCH'], '/', (c) =>
  errorWithMeta(
    c,
    new PincherError('method_not_allowed', `${c.req.method} /mcp is not served: this MCP server is stateless`, {
      suggestion: 'send JSON-RPC messages with POST /mcp; there is no session stream to open or delete',
      headers: { Allow: 'POST' },
    }),
  ),
);
