import type { MiddlewareHandler } from 'hono';
import { ulid } from 'ulid';
import type { AppEnv } from '../env';

/**
 * Random bytes for ULIDs, drawn from crypto.getRandomValues 256 at a time:
 * `ulid()` alone looks its generator up and asks for one byte at a time,
 * sixteen calls into the runtime per request id. Each byte is used once.
 */
const pool = new Uint8Array(256);
let drawn = pool.length;
function pooledRandom(): number {
  if (drawn >= pool.length) {
    crypto.getRandomValues(pool);
    drawn = 0;
  }
  return pool[drawn++] / 256;
}

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
    const id = ulid(undefined, pooledRandom);
    c.set('requestId', id);
    if (supplied && PRINTABLE.test(supplied)) c.set('clientRequestId', supplied);
    c.set('startedAt', Date.now());
    await next();
    c.res.headers.set('X-Request-ID', id);
    const client = c.get('clientRequestId');
    if (client) c.res.headers.set('X-Client-Request-ID', client);
  };
}
