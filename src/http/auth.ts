import type { MiddlewareHandler } from 'hono';
import type { AccessScope, AppEnv, Env } from '../env';
import { PincherError } from '../errors';

/** Routes anyone may call: liveness, readiness, the API description and the dashboard page (it holds no data). */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(['/', '/v1/health', '/v1/ready', '/v1/openapi.json', '/v1/cli.tgz']);

/** Served without a key: the probes, the OpenAPI document and the CLI tarballs (they hold no secret). */
export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.has(path) || /^\/v1\/cli\/[^/]+\.tgz$/.test(path);
}

/**
 * Constant-time equality of a bearer token and a configured key: the loop
 * always walks the whole key, reading the token cyclically, and folds every
 * difference (the lengths' too) into one value, so its time depends on the
 * key's length only — never on how much of the token matches, nor on the
 * token's length. Nothing is hashed or kept: hashing both sides with SHA-256
 * cost each call 0.07–0.15 ms before its first D1 trip.
 */
export function sameSecret(token: string, key: string): boolean {
  const n = token.length;
  let diff = n ^ key.length;
  for (let i = 0; i < key.length; i++) diff |= key.charCodeAt(i) ^ token.charCodeAt(i % n);
  return diff === 0 && n > 0;
}

/** Local open mode: no key configured and PINCHER_ALLOW_OPEN=1. */
export function isOpenMode(env: Env): boolean {
  return !env.PINCHER_HTTP_KEY && !env.PINCHER_READ_KEY && env.PINCHER_ALLOW_OPEN === '1';
}

/** `localhost`, `127.x.x.x` or `[::1]`: names a browser cannot be made to resolve elsewhere by DNS. */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(h);
}

/** The hostname of a `Host` value (`name[:port]`), or undefined when it is not one. */
function hostnameOf(host: string): string | undefined {
  if (/[\s/\\@?#]/.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/** Whether a browser `Origin` may call: listed (or `*`), loopback in open mode, else the Worker's own origin. */
export function originAllowed(env: Env, origin: string, requestUrl: string): boolean {
  const list = (env.PINCHER_ALLOWED_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (list.includes('*') || list.includes(origin)) return true;
  if (isOpenMode(env)) {
    // Open mode trusts only this machine: an origin equal to the request's own
    // host proves nothing when that host name can be rebound to 127.0.0.1.
    try {
      const url = new URL(origin);
      return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHostname(url.hostname);
    } catch {
      return false;
    }
  }
  return origin === new URL(requestUrl).origin;
}

/**
 * Open mode serves this machine only: a `Host` other than a loopback name means
 * the request was addressed to another name (DNS rebinding) and is refused.
 */
function assertLoopbackHost(host: string): void {
  const hostname = hostnameOf(host);
  if (hostname && isLoopbackHostname(hostname)) return;
  throw new PincherError('host_not_allowed', `host ${host.slice(0, 100)} is not served in local open mode`, {
    suggestion:
      'call this server as http://127.0.0.1:<port> or http://localhost:<port>; to serve other host names, configure PINCHER_HTTP_KEY instead of PINCHER_ALLOW_OPEN',
  });
}

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="pincher-edge"' };

/** Resolves the caller's scope, or throws the matching 401/403. Keys never appear in messages. */
export async function authorize(env: Env, authorization: string | undefined): Promise<AccessScope> {
  const fullKey = env.PINCHER_HTTP_KEY;
  const readKey = env.PINCHER_READ_KEY;
  if (!fullKey && !readKey) {
    if (env.PINCHER_ALLOW_OPEN === '1') return 'write';
    throw new PincherError('auth_not_configured', 'this server has no access key configured, so it refuses every non-public route', {
      suggestion:
        'set a key with `wrangler secret put PINCHER_HTTP_KEY` (or PINCHER_HTTP_KEY in .dev.vars); for local development only, PINCHER_ALLOW_OPEN=1 opens the server',
    });
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) {
    throw new PincherError('unauthorized', 'missing bearer token', {
      suggestion: 'send Authorization: Bearer <key> (PINCHER_HTTP_KEY, or PINCHER_READ_KEY for read-only use)',
      headers: CHALLENGE,
    });
  }
  const token = match[1];
  if (fullKey && sameSecret(token, fullKey)) return 'write';
  if (readKey && sameSecret(token, readKey)) return 'read';
  if (env.PINCHER_ADMIN_KEY && sameSecret(token, env.PINCHER_ADMIN_KEY)) return 'write';
  throw new PincherError('unauthorized', 'the bearer token was not accepted', {
    suggestion: 'check the key configured in your MCP host or CI secret',
    headers: { 'WWW-Authenticate': 'Bearer realm="pincher-edge", error="invalid_token"' },
  });
}

/**
 * In open mode a loopback `Host` first; then the Origin allow-list for browsers
 * (in open mode loopback origins, elsewhere the Worker's own origin, are allowed
 * without listing); then bearer auth on every non-public route.
 * Sets `scope`; write routes check it with `requireWrite`.
 */
export function auth(): MiddlewareHandler<AppEnv> {
  return async function authMiddleware(c, next) {
    if (isOpenMode(c.env)) assertLoopbackHost(c.req.header('host') ?? new URL(c.req.url).host);
    const origin = c.req.header('origin');
    if (origin && !originAllowed(c.env, origin, c.req.url)) {
      throw new PincherError('origin_not_allowed', `browser origin ${origin.slice(0, 100)} is not allowed`, {
        suggestion: 'add the origin to PINCHER_ALLOWED_ORIGINS (comma-separated) on the Worker',
      });
    }
    if (isPublicPath(c.req.path)) {
      c.set('scope', 'read');
      return next();
    }
    c.set('scope', await authorize(c.env, c.req.header('authorization')));
    return next();
  };
}

/** Throws 403 insufficient_scope unless the caller holds the full-access key. */
export function requireWrite(scope: AccessScope, what: string): void {
  if (scope !== 'write') {
    throw new PincherError('insufficient_scope', `${what} needs the full-access key`, {
      suggestion: 'use PINCHER_HTTP_KEY; PINCHER_READ_KEY can only read',
    });
  }
}

/**
 * Admin routes (`/v1/admin/…`: shards and moves) take the admin key
 * (PINCHER_ADMIN_KEY) as the bearer token, even in local open mode; without
 * one configured they are refused.
 */
export async function requireAdmin(env: Env, authorization: string | undefined): Promise<void> {
  if (!env.PINCHER_ADMIN_KEY) {
    throw new PincherError('auth_not_configured', 'this server has no admin key configured, so it refuses admin routes', {
      suggestion: 'set one with `wrangler secret put PINCHER_ADMIN_KEY` (or PINCHER_ADMIN_KEY in .dev.vars) and send it as Authorization: Bearer <key>',
    });
  }
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!token || !sameSecret(token, env.PINCHER_ADMIN_KEY)) {
    throw new PincherError('insufficient_scope', 'admin routes need the admin key', {
      suggestion: 'send Authorization: Bearer <PINCHER_ADMIN_KEY>; the access keys cannot move projects',
    });
  }
}
