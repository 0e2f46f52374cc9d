import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { PincherError } from '../errors';
import { MAX_JSON_BODY, readBodyText } from '../http/body';
import { sessionHeader } from '../http/session';
import { BOOKMARK_HEADER, bookmarkArg, withReadHeaders } from '../http/bookmark';
import type { ToolReads } from '../tools/run';
import { errorWithMeta } from '../http/respond';
import type { Toolset } from '../tools/define';
import type { McpRequestScope } from './server';

/** `POST /mcp`: stateless streamable HTTP, JSON responses (SSE when a call sends notifications), 2025-era and 2026-07-28 clients. */
export const mcpRoutes = new Hono<AppEnv>();

function toolsetOf(query: string | undefined, header: string | undefined): Toolset {
  return (query ?? header ?? '').toLowerCase() === 'full' ? 'full' : 'core';
}

mcpRoutes.post('/', async (c) => {
  // Read under the cap first, then hand the SDK a fresh request with the same bytes.
  const text = await readBodyText(c, MAX_JSON_BODY);
  const request = new Request(c.req.url, { method: 'POST', headers: c.req.raw.headers, body: text });
  const reads: ToolReads[] = [];
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
    traceparent: c.req.header('traceparent'),
    waitUntil: (p) => c.executionCtx.waitUntil(p),
    bookmark: bookmarkArg(c.req.header(BOOKMARK_HEADER)),
    onReads: (r) => reads.push(r),
  };
  // The SDK and the MCP server are loaded on the first MCP request, not at the Worker's
  // startup: REST, probes and pushes never evaluate them (the bench's bundle stage measures startup).
  const { handleMcp } = await import('./handle');
  return withReadHeaders(await handleMcp(request, scope, (p) => c.executionCtx.waitUntil(p)), reads);
});

mcpRoutes.on(['GET', 'DELETE', 'PUT', 'PATCH'], '/', (c) =>
  errorWithMeta(
    c,
    new PincherError('method_not_allowed', `${c.req.method} /mcp is not served: this MCP server is stateless`, {
      suggestion: 'send JSON-RPC messages with POST /mcp; there is no session stream to open or delete',
      headers: { Allow: 'POST' },
    }),
  ),
);
