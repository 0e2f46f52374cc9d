import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { buildMcpServer, type McpRequestScope } from './server';

/**
 * Answers one MCP POST (its body already read under the cap): 2025-era clients through a
 * per-request streamable HTTP transport, 2026-07-28 clients through the stateless handler.
 * Loaded by `route.ts` on the first MCP request.
 */
export async function handleMcp(request: Request, scope: McpRequestScope, waitUntil: (p: Promise<unknown>) => void): Promise<Response> {
  if (await isLegacyRequest(request.clone())) {
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = buildMcpServer(scope);
    server.onerror = (err) => console.error(`mcp: ${err.name}: ${err.message.slice(0, 200)}`);
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      waitUntil(server.close());
    }
  }
  scopes.set(request, scope);
  return modernHandler().fetch(request);
}

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
