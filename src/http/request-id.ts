import type { MiddlewareHandler } from 'hono';
import { ulid } from 'ulid';
import type { AppEnv } from '../env';

// Printable ASCII is 0x20–0x7e (space included); fetch trims leading/trailing spaces.
const PRINTABLE = /^[\x20-\x7e]{1,200}$/;

/**
 * Gives every request a fresh ULID, echoed as `X-Request-ID` on every
 * response, errors included. A client's own `X-Request-ID` (1–200 printable
 * ASCII characters) is kept beside it as `client_request_id` and echoed in
 * `X-Client-Request-ID`.
 */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async function requestIdMiddleware(c, next) {
    const supplied = c.req.header('x-request-id');
    const id = ulid();
    c.set('requestId', id);
    if (supplied && PRINTABLE.test(supplied)) c.set('clientRequestId', supplied);
    c.set('startedAt', Date.now());
    await next();
    c.res.headers.set('X-Request-ID', id);
    const client = c.get('clientRequestId');
    if (client) c.res.headers.set('X-Client-Request-ID', client);
  };
}
