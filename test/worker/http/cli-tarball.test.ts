import { describe, expect, it } from 'vitest';
import { send } from '../contract/support';
import { VERSION } from '../../../src/version';

const KEYED = { PINCHER_HTTP_KEY: 'cli-full-key', PINCHER_ALLOW_OPEN: undefined };

async function bytes(path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: Uint8Array }> {
  const { SELF } = await import('cloudflare:test');
  const res = await SELF.fetch(`http://127.0.0.1${path}`, init);
  return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
}

describe('the served CLI tarball', () => {
  it('GET /v1/cli.tgz is public even on a keyed server, and is a gzip npm tarball', async () => {
    const keyed = await send('/v1/cli.tgz', {}, KEYED);
    expect(keyed.status).toBe(200);
    const r = await bytes('/v1/cli.tgz');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/gzip');
    expect([r.body[0], r.body[1]]).toEqual([0x1f, 0x8b]);
    expect(Number(r.headers.get('content-length'))).toBe(r.body.length);
    expect(r.headers.get('content-disposition')).toContain(`pincher-edge-${VERSION}.tgz`);
    const unpacked = new Uint8Array(await new Response(new Blob([r.body]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());
    const text = new TextDecoder().decode(unpacked);
    expect(text).toContain('package/package.json');
    expect(text).toContain('package/bin/pincher-edge.mjs');
    expect(text).toContain(`"version": "${VERSION}"`);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await bytes('/v1/cli.tgz');
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await bytes('/v1/cli.tgz', { headers: { 'if-none-match': tag as string } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it("serves the versioned name of this server's version, cached for good", async () => {
    const r = await bytes(`/v1/cli/pincher-edge-${VERSION}.tgz`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toContain('immutable');
    expect(r.body.length).toBe((await bytes('/v1/cli.tgz')).body.length);
  });

  it('refuses another version with a typed not_found that names the one served', async () => {
    const r = await send('/v1/cli/pincher-edge-0.0.1.tgz', {}, KEYED);
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
    expect(r.body.error.suggestion).toContain(`pincher-edge-${VERSION}.tgz`);
  });

  it('keeps other routes keyed: a key is still required next to the tarball', async () => {
    expect((await send('/v1/cli', {}, KEYED)).status).toBe(401);
    expect((await send('/v1/cli/../tools', {}, KEYED)).status).toBe(401);
  });
});
