import type { MiddlewareHandler } from 'hono';
import { ulid } from 'ulid';
import type { AppEnv } from '../env';

// Printable ASCII is 0x20–0x7e (space included); fetch trims leading/trailing spaces.
const PRINTABLE = /^[\x20-\x7e]{1,200}$/;

/**
 * Gives every request an id (the client's `X-Request-ID` when it is 1–200
 * printable ASCII characters, else a fresh ULID) and echoes it on every
 * response, errors included.
 */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async function requestIdMiddleware(c, next) {
    const supplied = c.req.header('x-request-id');
    const id = supplied && PRINTABLE.test(supplied) ? supplied : ulid();
    c.set('requestId', id);
    c.set('startedAt', Date.now());
    await next();
    c.res.headers.set('X-Request-ID', id);
  };
}
