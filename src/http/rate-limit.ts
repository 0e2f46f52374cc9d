import type { MiddlewareHandler } from 'hono';
import type { AppEnv, Env } from '../env';
import { PincherError } from '../errors';
import { isPublicPath, sameSecret } from './auth';

const encoder = new TextEncoder();

/** A short, stable id for a bearer key: never the key itself, never reversible. */
async function keyId(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(token)));
  return [...digest.slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Ids of the configured keys, per isolate, by key (a key changes only with a deploy). */
const keyIds = new Map<string, Promise<string>>();

/**
 * The id of an accepted bearer token: it passed auth, so it is one of the
 * configured keys, found with auth's constant-time comparison; that key's id
 * is worked out once per isolate instead of a digest per request.
 */
function tokenId(env: Env, token: string): Promise<string> {
  const key = [env.PINCHER_HTTP_KEY, env.PINCHER_READ_KEY, env.PINCHER_ADMIN_KEY].find((k) => k && sameSecret(token, k));
  if (!key) return keyId(token);
  let id = keyIds.get(key);
  if (!id) {
    if (keyIds.size >= 4) keyIds.clear();
    keyIds.set(key, (id = keyId(key)));
  }
  return id;
}

/** The window the binding counts in (wrangler.toml `simple.period`, 10 or 60 s), for Retry-After. */
function periodSeconds(env: Env): number {
  return env.PINCHER_RATE_LIMIT_PERIOD === '10' ? 10 : 60;
}

/**
 * Per-key rate limit through the Workers Rate Limiting binding `RATE_LIMITER`
 * (limit and period in wrangler.toml `[[ratelimits]]`). Counts every
 * authenticated request per bearer key; public probes and keyless local open
 * mode are not counted. No binding, or PINCHER_RATE_LIMIT=off: no limit.
 * Over the limit: 429 `rate_limited` with `Retry-After`.
 */
export function rateLimit(): MiddlewareHandler<AppEnv> {
  return async function rateLimitMiddleware(c, next) {
    const limiter = c.env.RATE_LIMITER;
    if (!limiter || c.env.PINCHER_RATE_LIMIT === 'off' || isPublicPath(c.req.path)) return next();
    const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!token) return next();
    const { success } = await limiter.limit({ key: `key:${await tokenId(c.env, token)}` });
    if (!success) {
      const period = periodSeconds(c.env);
      throw new PincherError('rate_limited', `too many requests with this key: the limit per ${period} s is reached`, {
        suggestion: `wait ${period} s (Retry-After) and retry; spread calls out, or use batch to combine several reads into one request`,
        details: { period_s: period },
        headers: { 'Retry-After': String(period) },
      });
    }
    return next();
  };
}
