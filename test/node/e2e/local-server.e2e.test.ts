// The local server as `npm start` runs it (scripts/local-server.mjs: front proxy and
// supervisor around `wrangler dev`, open mode, loopback only), driven over real sockets:
// DNS-rebinding refusal, scheduled garbage collection, bounded keep-alive, oversized chunked bodies, the official MCP
// conformance suite, and recovery after wrangler dies.
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../scripts/dev-server.mjs';
import { type E2EServer, groupMembers, startE2EServer } from './support';

let server: E2EServer;
let port: number;

// A loaded machine can take minutes to start wrangler; a free one takes seconds.
beforeAll(async () => {
  server = await startE2EServer({ PINCHER_ALLOW_OPEN: '1' }, 280_000, { firstAfterMs: 1_000 });
  port = Number(new URL(server.url).port);
}, 300_000);

afterAll(async () => {
  if (!server) return;
  await server.stop();
  await rm(server.dir, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One request on its own connection, with full control over Host and the body framing. */
function raw(opts: { method?: string; path: string; headers?: Record<string, string>; body?: string; chunked?: boolean }): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers = { ...(opts.headers ?? {}) };
    if (opts.body !== undefined && !opts.chunked) headers['content-length'] = String(Buffer.byteLength(opts.body));
    const req = http.request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json = {};
        try {
          json = text ? JSON.parse(text) : {};
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (opts.body !== undefined) {
      const buf = Buffer.from(opts.body);
      if (opts.chunked) for (let at = 0; at < buf.length; at += 128 * 1024) req.write(buf.subarray(at, at + 128 * 1024));
      else req.write(buf);
    }
    req.end();
  });
}

const listProjects = () => raw({ method: 'POST', path: '/v1/tools/list', headers: { 'content-type': 'application/json' }, body: '{}' });

describe('DNS rebinding in open mode', () => {
  it('refuses a DNS-rebinding request (a page on another host posting to the local server) with 403 host_not_allowed and indexes nothing', async () => {
    const reply = await raw({
      method: 'POST',
      path: '/v1/tools/index',
      headers: { host: `evil.example.com:${port}`, origin: `http://evil.example.com:${port}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project: 'rebind', files: [{ path: 'pwn.ts', content: 'export const pwned = 1;' }] }),
    });
    expect(reply.status).toBe(403);
    expect(reply.json.error.code).toBe('host_not_allowed');
    expect(reply.json.error.suggestion).toBeTruthy();
    const names = ((await listProjects()).json.result.projects as { name: string }[]).map((p) => p.name);
    expect(names).not.toContain('rebind');
  });

  it('serves the same request addressed to 127.0.0.1 and to localhost', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const reply = await raw({ method: 'POST', path: '/v1/tools/list', headers: { host, origin: `http://${host}`, 'content-type': 'application/json' }, body: '{}' });
      expect(reply.status, host).toBe(200);
    }
  });
});

describe('scheduled garbage collection', () => {
  it('runs the Worker\'s Cron Trigger soon after start, as a deployed Worker would', async () => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !server.logs.join('').includes('scheduled garbage collection ran')) await new Promise((r) => setTimeout(r, 250));
    const text = server.logs.join('');
    // "ran" is logged only when the scheduled handler settled without error (else "answered 500").
    expect(text).toContain('scheduled garbage collection ran');
    expect(text).not.toMatch(/scheduled garbage collection (answered|failed)/);
  }, 70_000);

  it('refuses the test route that triggers it when it comes from outside the supervisor', async () => {
    for (const p of ['/__scheduled', '/__scheduled?cron=*', '/cdn-cgi/mf/scheduled']) {
      const reply = await raw({ path: p });
      expect(reply.status, p).toBe(404);
      expect(reply.json.error.code).toBe('not_found');
      expect(reply.json.error.suggestion).toBeTruthy();
    }
  });
});

describe('keep-alive', () => {
  it('announces how long an idle connection stays open (Keep-Alive: timeout=)', async () => {
    const reply = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const agent = new http.Agent({ keepAlive: true });
      http.get({ host: '127.0.0.1', port, path: '/v1/health', agent }, (res) => {
        res.resume();
        res.on('end', () => {
          agent.destroy();
          resolve(res);
        });
      }).on('error', reject);
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['keep-alive']).toMatch(/timeout=\d+/);
  });
});

describe('oversized chunked bodies', () => {
  it('answers 413 body_too_large and leaves every later request unharmed', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024);
    const refused = await raw({ method: 'POST', path: '/v1/tools/list', headers: { 'content-type': 'application/json' }, body: big, chunked: true });
    expect(refused.status).toBe(413);
    expect(refused.json.error.code).toBe('body_too_large');
    const after: number[] = [];
    for (let i = 0; i < 10; i++) after.push((await listProjects()).status);
    expect(after).toEqual(Array(10).fill(200));
  });
});

describe('the official MCP conformance suite', () => {
  it('passes every scenario that applies (the others are listed and justified in test/node/conformance/expected-failures.yml)', async () => {
    const cli = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
    const shim = path.join(ROOT, 'scripts', 'conformance', 'node20.mjs');
    const baseline = path.join(ROOT, 'test', 'node', 'conformance', 'expected-failures.yml');
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', shim, cli, 'server', '--url', `http://localhost:${port}/mcp`, '--expected-failures', baseline], { cwd: tmpdir() });
      let output = '';
      child.stdout.on('data', (d) => (output += String(d)));
      child.stderr.on('data', (d) => (output += String(d)));
      child.on('exit', (c) => resolve({ code: c, output }));
    });
    expect(code, output.slice(-3000)).toBe(0);
    expect(output).toMatch(/✓ dns-rebinding-protection: \d+ passed, 0 failed/);
    expect(output).toMatch(/✓ server-initialize: 1 passed, 0 failed/);
    expect(output).toMatch(/✓ logging-set-level: 1 passed, 0 failed/);
    expect(output).toMatch(/✓ tools-list: 1 passed, 0 failed/);
  }, 120_000);
});

describe('supervision', () => {
  it('restarts wrangler dev after it dies and serves again on the same URL', async () => {
    const members = await groupMembers(server.pid);
    const wrangler: number[] = [];
    for (const m of members) {
      const cmd = await readFile(`/proc/${m.pid}/cmdline`, 'utf8').catch(() => '');
      if (cmd.includes('wrangler-dev.mjs') || (cmd.includes('wrangler') && cmd.includes('\0dev\0'))) wrangler.push(m.pid);
    }
    expect(wrangler.length).toBeGreaterThan(0);
    // The failure this guards against: wrangler's process aborted (out of heap) and never came back.
    for (const pid of wrangler) process.kill(pid, 'SIGKILL');
    const health = () => raw({ path: '/v1/health' }).catch(() => ({ status: 0, headers: {}, text: '', json: {} }) as Raw);
    // Until the supervisor notices, the front proxy answers 503 not_ready (Retry-After), never hangs.
    let down: Raw | undefined;
    for (let i = 0; i < 40 && !down; i++) {
      const reply = await health();
      if (reply.status !== 200) down = reply;
      else await new Promise((r) => setTimeout(r, 250));
    }
    expect(down?.status).toBe(503);
    expect(down?.json.error.code).toBe('not_ready');
    expect(down?.headers['retry-after']).toBeTruthy();
    const deadline = Date.now() + 170_000;
    let back = false;
    while (!back && Date.now() < deadline) {
      back = (await health()).status === 200;
      if (!back) await new Promise((r) => setTimeout(r, 500));
    }
    expect(back).toBe(true);
    expect(server.logs.join('')).toMatch(/wrangler dev exited .*restarting/);
    expect((await listProjects()).status).toBe(200);
  }, 180_000);
});
