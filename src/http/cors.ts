import type { MiddlewareHandler } from 'hono';
import { cors as honoCors } from 'hono/cors';
import type { AppEnv } from '../env';
import { originAllowed } from './auth';

/** Request headers a browser client may send: auth, MCP session, protocol and routing, tracing, toolset selection, SSE resume. */
export const CORS_ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
  'X-Request-ID',
  'X-Pincher-Toolset',
  'X-Pincher-Bookmark',
  'Last-Event-ID',
] as const;

/** Response headers a browser client may read. */
export const CORS_EXPOSE_HEADERS = [
  'X-Request-ID',
  'X-Client-Request-ID',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'WWW-Authenticate',
  'Retry-After',
  'X-Pincher-Bookmark',
  'X-Pincher-D1-Round-Trips',
  'X-Pincher-D1-Statements',
] as const;

export const CORS_ALLOW_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'] as const;

/**
 * CORS for the origins `auth` accepts (PINCHER_ALLOWED_ORIGINS, `*`, the
 * Worker's own origin, loopback origins in open mode). Placed before `auth`:
 * a preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed
 * origin is answered 204 without a key; every other response to an allowed
 * origin, errors included, carries `Access-Control-Allow-Origin` set to that
 * origin (never a literal `*`, so `Vary: Origin` keeps caches apart).
 * A disallowed origin gets no CORS headers and `auth` answers it 403.
 */
export function cors(): MiddlewareHandler<AppEnv> {
  const middleware = honoCors({
    // Reached only for allowed origins: echo the origin itself, `*` included.
    origin: (origin) => origin,
    allowMethods: [...CORS_ALLOW_METHODS],
    allowHeaders: [...CORS_ALLOW_HEADERS],
    exposeHeaders: [...CORS_EXPOSE_HEADERS],
    maxAge: 600,
  });
  return async function corsMiddleware(c, next) {
    const origin = c.req.header('origin');
    // No Origin: not a browser. A disallowed origin (preflight included) goes on to `auth`, which answers 403.
    if (!origin || !originAllowed(c.env, origin, c.req.url)) return next();
    return middleware(c as never, next);
  };
}
