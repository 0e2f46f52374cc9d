import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { PincherError } from '../errors';
import { VERSION } from '../version';
import tarball from '../../cli/dist/pincher-edge.tgz';

/**
 * The `pincher-edge` CLI as an npm tarball (one bundled file, no
 * dependencies; built by scripts/build-cli.mjs), served without a key so any
 * CI with Node ≥ 20 runs the client that matches this server:
 * `npx --yes <server>/v1/cli.tgz push`. `/v1/cli/pincher-edge-<version>.tgz`
 * names the version; only this server's own version is served.
 */
export const cliRoutes = new Hono<AppEnv>();

export const VERSIONED_CLI = `pincher-edge-${VERSION}.tgz`;

let etag: Promise<string> | undefined;
function tarballEtag(): Promise<string> {
  etag ??= crypto.subtle.digest('SHA-256', tarball).then((d) => `"${[...new Uint8Array(d).slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('')}"`);
  return etag;
}

async function serve(ifNoneMatch: string | undefined, file: string, cache: string): Promise<Response> {
  const tag = await tarballEtag();
  const headers = {
    'Content-Type': 'application/gzip',
    'Content-Disposition': `attachment; filename="${file}"`,
    'Cache-Control': cache,
    ETag: tag,
  };
  if (ifNoneMatch === tag) return new Response(null, { status: 304, headers });
  return new Response(tarball, { status: 200, headers: { ...headers, 'Content-Length': String(tarball.byteLength) } });
}

cliRoutes.get('/cli.tgz', (c) => serve(c.req.header('if-none-match'), VERSIONED_CLI, 'public, max-age=300'));

cliRoutes.get('/cli/:file', (c) => {
  const file = c.req.param('file');
  if (file !== VERSIONED_CLI) {
    throw new PincherError('not_found', `this server serves only ${VERSIONED_CLI}, not ${file.slice(0, 100)}`, {
      suggestion: `use /v1/cli.tgz (always this server's version) or /v1/cli/${VERSIONED_CLI}`,
    });
  }
  return serve(c.req.header('if-none-match'), file, 'public, max-age=31536000, immutable');
});
