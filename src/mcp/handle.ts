import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { schemaState } from '../db/migrations';
import { SCHEMA_VERSION } from '../version';
import { buildMcpServer, type McpRequestScope } from './server';

/**
 * Answers one MCP POST (its body already read under the cap): 2025-era clients through a
 * per-request streamable HTTP transport, 2026-07-28 clients through the stateless handler.
 * Loaded by `route.ts` on the first MCP request.
 *
 * Responses are JSON unless the request has notifications to carry (src/mcp/logging.ts)
 * and its client accepts `text/event-stream`: then the answer is an SSE stream of the
 * notifications followed by the result.
 */
export async function handleMcp(request: Request, scope: McpRequestScope, waitUntil: (p: Promise<unknown>) => void): Promise<Response> {
  const streams = acceptsEventStream(request);
  if (await isLegacyRequest(request.clone())) {
    const json = !(streams && (await mayNotify(request.clone(), scope)));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
    const server = buildMcpServer(scope);
    server.onerror = (err) => console.error(`mcp: ${err.name}: ${err.message.slice(0, 200)}`);
    await server.connect(transport);
    let response: Response;
    try {
      response = await transport.handleRequest(request);
    } catch (err) {
      waitUntil(server.close());
      throw err;
    }
    if (json || !response.body) {
      waitUntil(server.close());
      return response;
    }
    // An SSE answer is still being written: the server closes once its stream has ended
    // (or the client went away).
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    waitUntil(
      response.body
        .pipeTo(writable)
        .catch(() => {})
        .finally(() => server.close()),
    );
    return new Response(readable, response);
  }
  scopes.set(request, scope);
  // 'auto' answers JSON and switches to SSE only when a notification is sent before the result.
  return modernHandler(streams ? 'auto' : 'json').fetch(request);
}

function acceptsEventStream(request: Request): boolean {
  return /\btext\/event-stream\b/i.test(request.headers.get('accept') ?? '');
}

/**
 * Whether a 2025-era request may send notifications before its result: a
 * tools/call with a progress token, a re-extraction (`index` with `force`),
 * or any tools/call while the schema has drifted (its warning is logged).
 */
async function mayNotify(request: Request, scope: McpRequestScope): Promise<boolean> {
  let message: { method?: unknown; params?: { name?: unknown; arguments?: { force?: unknown }; _meta?: { progressToken?: unknown } } };
  try {
    message = (await request.json()) as typeof message;
  } catch {
    return false;
  }
  if (!message || typeof message !== 'object' || message.method !== 'tools/call') return false;
  const params = message.params ?? {};
  if (params._meta?.progressToken !== undefined) return true;
  if (params.name === 'index' && params.arguments?.force === true) return true;
  // The state kept, however old: deciding how to answer waits for no D1 read (the tool call confirms the ledger in its own round trip).
  const state = await schemaState(scope.env.DB, { anyAge: true });
  return state.applied !== null && state.applied > SCHEMA_VERSION;
}

// The 2026-07-28 handlers are built once per isolate; each request's scope is
// looked up by the Request object the handler passes back to the factory.
const scopes = new WeakMap<Request, McpRequestScope>();
const modern = new Map<'auto' | 'json', ReturnType<typeof createMcpHandler>>();

function modernHandler(responseMode: 'auto' | 'json'): ReturnType<typeof createMcpHandler> {
  let handler = modern.get(responseMode);
  if (!handler) {
    handler = createMcpHandler(
      (ctx) => {
        const scope = ctx.requestInfo ? scopes.get(ctx.requestInfo) : undefined;
        if (!scope) throw new Error('mcp request scope missing');
        return buildMcpServer(scope, true);
      },
      { legacy: 'reject', responseMode, onerror: (err) => console.error(`mcp: ${err.name}: ${err.message.slice(0, 200)}`) },
    );
    modern.set(responseMode, handler);
  }
  return handler;
}
