import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

/** One request log line, as `wrangler tail` and Workers Logs show it. */
export interface RequestLogLine {
  event: 'request';
  request_id: string;
  method: string;
  /** The path only: never the query string (it can hold a project name or other caller input). */
  route: string;
  status: number;
  latency_ms: number;
  /** `error.code` of an error response. */
  error?: string;
}

/** The logged path: at most 200 characters, no query string, no control characters. */
function routeOf(c: Context<AppEnv>): string {
  return c.req.path.slice(0, 200).replace(/[\x00-\x1f\x7f]/g, '?');
}

/**
 * Writes one JSON line per request after the response is settled (errors
 * included): request id, method, path, status, latency and the error code.
 * Never a header, a key, a body or a query string. `PINCHER_ACCESS_LOG=off` turns it off.
 */
export function accessLog(write: (line: string) => void = (l) => console.log(l)): MiddlewareHandler<AppEnv> {
  return async function accessLogMiddleware(c, next) {
    await next();
    if (c.env?.PINCHER_ACCESS_LOG === 'off') return;
    const line: RequestLogLine = {
      event: 'request',
      request_id: c.get('requestId'),
      method: c.req.method,
      route: routeOf(c),
      status: c.res.status,
      latency_ms: Math.max(0, Date.now() - (c.get('startedAt') ?? Date.now())),
    };
    const code = c.get('errorCode');
    if (code) line.error = code;
    write(JSON.stringify(line));
  };
}

/** An unexpected failure as one JSON line: its code, class and first 200 characters, tagged with the request id. */
export function logUnhandled(requestId: string | undefined, code: string, err: Error): void {
  console.error(JSON.stringify({ event: 'error', request_id: requestId, code, name: err.name, message: err.message.slice(0, 200) }));
}
