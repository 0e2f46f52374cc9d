#!/usr/bin/env node
// The long-running local server: a small front proxy on the public port and a
// supervisor that keeps `wrangler dev` alive behind it on a private port.
//
// Why: wrangler dev's own front proxy grows its heap with every request served on a
// kept-alive connection (≈ 60 → 600 MB per 4,000 requests) until it aborts after
// ~18k requests, and it closes idle keep-alive connections after ~5 s without a
// `Keep-Alive` header, so pooled clients hit broken pipes. Here:
// - every request reaches wrangler on a fresh connection (`Connection: close`), which
//   keeps its memory flat;
// - clients get bounded keep-alive (KEEP_ALIVE_MS, announced as `Keep-Alive: timeout=`,
//   at most MAX_REQUESTS_PER_SOCKET requests, then `Connection: close`);
// - if wrangler exits or stops answering /v1/health, it is restarted (backoff), and
//   requests meanwhile get 503 `not_ready` with `Retry-After`.
// The Host header is forwarded unchanged, so the Worker's own host checks still apply.
//
// Usage (normally through startDevServer in dev-server.mjs):
//   node scripts/local-server.mjs '{"port":8787,"root":"…","persistTo":"…","vars":{…}}'
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { freePort } from './dev-server.mjs';

const config = JSON.parse(process.argv[2] ?? '{}');
const ROOT = config.root;
const PUBLIC_PORT = Number(config.port);
const WRANGLER = path.join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');

const KEEP_ALIVE_MS = 4_000;
const MAX_REQUESTS_PER_SOCKET = 1_000;
const HEALTH_EVERY_MS = 10_000;
const HEALTH_TIMEOUT_MS = 20_000;
// A rebuild after a source edit holds requests for a while: only a long silence counts.
const HEALTH_FAILURES_BEFORE_RESTART = 6;

const QUIET_ENV = {
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_LOG: 'warn',
  NO_UPDATE_NOTIFIER: '1',
};

function log(msg) {
  process.stderr.write(`[local-server] ${msg}\n`);
}

/* ---------------------------------------------------------------- supervisor */

/** The running wrangler: its child process and private port; undefined while (re)starting. */
let upstream;
let stopping = false;
let restarts = 0;
let healthFailures = 0;

/** Processes left in our own group other than us (orphaned workerd after wrangler died). */
function strayGroupMembers() {
  const own = process.pid;
  let pgid;
  let entries;
  try {
    pgid = Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[2]);
    entries = readdirSync('/proc');
  } catch {
    return []; // no /proc (macOS): wrangler stops its own workerd on SIGTERM
  }
  const out = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e) || Number(e) === own) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const [, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid) out.push(Number(e));
    } catch {
      /* exited while we looked */
    }
  }
  return out;
}

async function waitHealthy(port, child, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/health`, { headers: { connection: 'close' } });
      await res.arrayBuffer();
      if (res.ok) return true;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

async function startWrangler() {
  const port = await freePort();
  const args = [WRANGLER, 'dev', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(await freePort()), '--show-interactive-dev-session=false'];
  if (config.persistTo) args.push('--persist-to', config.persistTo);
  for (const [k, v] of Object.entries(config.vars ?? {})) args.push('--var', `${k}:${v}`);
  // Same process group as this supervisor: stopping the group stops everything.
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...QUIET_ENV }, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (upstream?.child === child) upstream = undefined;
    if (stopping) return;
    log(`wrangler dev exited (${signal ?? `code ${code}`}); restarting`);
    scheduleRestart();
  });
  if (!(await waitHealthy(port, child))) {
    if (child.exitCode === null) child.kill('SIGKILL');
    return false;
  }
  upstream = { child, port };
  healthFailures = 0;
  await loadIdempotency(port);
  return true;
}

let restartTimer;
function scheduleRestart() {
  if (stopping || restartTimer) return;
  const delay = Math.min(30_000, 1_000 * 2 ** Math.min(restarts, 5));
  restarts++;
  restartTimer = setTimeout(async () => {
    restartTimer = undefined;
    for (const pid of strayGroupMembers()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    if (await startWrangler()) {
      log(`wrangler dev is serving again (restart ${restarts})`);
      setTimeout(() => (restarts = 0), 60_000).unref();
    } else scheduleRestart();
  }, delay);
}

/** Watchdog: a wrangler that is alive but no longer answers is restarted too. One check at a time. */
async function watchdog() {
  for (;;) {
    await new Promise((r) => setTimeout(r, HEALTH_EVERY_MS).unref());
    const current = upstream;
    if (!current || stopping) continue;
    try {
      const res = await fetch(`http://127.0.0.1:${current.port}/v1/health`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
      await res.arrayBuffer();
      healthFailures = res.ok ? 0 : healthFailures + 1;
      if (!res.ok) log(`health check answered ${res.status}`);
    } catch (err) {
      healthFailures++;
      log(`health check failed: ${err?.cause?.code ?? err?.name ?? err}`);
    }
    if (healthFailures >= HEALTH_FAILURES_BEFORE_RESTART && upstream === current) {
      log(`wrangler dev stopped answering /v1/health (${healthFailures} checks); restarting`);
      healthFailures = 0;
      current.child.kill('SIGKILL');
    }
  }
}


/* --------------------------------------------------------------- front proxy */

function notReady(res) {
  const body = JSON.stringify({
    error: {
      code: 'not_ready',
      message: 'the local server is restarting its Worker runtime',
      suggestion: 'retry in a few seconds',
    },
    _meta: {},
  });
  res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

// Hop-by-hop headers are not forwarded (RFC 9110 §7.6.1).
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function forwardHeaders(raw) {
  const out = {};
  for (const [k, v] of Object.entries(raw)) if (!HOP.has(k)) out[k] = v;
  out.connection = 'close';
  return out;
}

const agent = new http.Agent({ keepAlive: false });

/*
 * Under concurrent load (pushes extracting while reads run), wrangler's proxy sometimes
 * answers 503 "Your worker restarted mid-request" although the Worker did not restart
 * (cloudflare/workers-sdk#14641); it replays only GET and HEAD itself. The front proxy
 * replays the requests that are safe to send twice: calls of tools the registry declares
 * idempotent (x-pincher-idempotent in /v1/openapi.json), MCP messages that call no
 * non-idempotent tool, and upload file batches (idempotent by protocol).
 */
const SPURIOUS_503 = 'restarted mid-request';
const MAX_REPLAYS = 3;
/** Tool name → idempotent, read from the running Worker's OpenAPI document. */
let idempotentTools = new Map();

async function loadIdempotency(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/v1/openapi.json`, { headers: { connection: 'close' } });
    const doc = await res.json();
    const map = new Map();
    for (const [p, item] of Object.entries(doc.paths ?? {})) {
      const m = /^\/v1\/tools\/([^/]+)$/.exec(p);
      if (m && item.post) map.set(m[1], item.post['x-pincher-idempotent'] === true);
    }
    idempotentTools = map;
  } catch {
    /* keep the previous table: replays are an optimisation */
  }
}

function replayable(method, url, body) {
  if (method === 'GET' || method === 'HEAD') return true;
  if (method !== 'POST') return false;
  const pathname = url.split('?')[0];
  const tool = /^\/v1\/tools\/([^/]+)$/.exec(pathname);
  if (tool) return idempotentTools.get(decodeURIComponent(tool[1])) === true;
  if (/^\/v1\/projects\/[^/]+\/uploads\/[^/]+\/files$/.test(pathname)) return true;
  if (pathname === '/mcp') {
    try {
      const msg = JSON.parse(body.toString('utf8'));
      return (Array.isArray(msg) ? msg : [msg]).every((m) => m?.method !== 'tools/call' || idempotentTools.get(m.params?.name) === true);
    } catch {
      return true; // not JSON: refused before anything runs
    }
  }
  return false;
}

function forward(req, res, body, attempt) {
  const current = upstream;
  if (!current) return notReady(res);
  const headers = forwardHeaders(req.headers);
  headers['content-length'] = String(body.length);
  const up = http.request({ host: '127.0.0.1', port: current.port, method: req.method, path: req.url, headers, agent }, (upRes) => {
    if (upRes.statusCode === 503 && attempt < MAX_REPLAYS && replayable(req.method, req.url, body)) {
      const chunks = [];
      upRes.on('data', (c) => chunks.push(c));
      upRes.on('end', () => {
        const text = Buffer.concat(chunks);
        if (text.toString('utf8').includes(SPURIOUS_503)) {
          setTimeout(() => forward(req, res, body, attempt + 1), 100 * (attempt + 1));
          return;
        }
        const h = {};
        for (const [k, v] of Object.entries(upRes.headers)) if (!HOP.has(k)) h[k] = v;
        h['content-length'] = String(text.length);
        res.writeHead(503, h);
        res.end(text);
      });
      return;
    }
    const h = {};
    for (const [k, v] of Object.entries(upRes.headers)) if (!HOP.has(k)) h[k] = v;
    res.writeHead(upRes.statusCode ?? 502, h);
    upRes.pipe(res);
    upRes.on('error', () => res.destroy());
  });
  up.on('error', () => {
    if (res.headersSent) return res.destroy();
    notReady(res);
  });
  res.on('close', () => {
    if (!res.writableFinished) up.destroy();
  });
  up.end(body);
}

// Request bodies are read whole first (the Worker refuses more than 4 MiB anyway) so
// that a spurious 503 can be replayed.
const front = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => forward(req, res, Buffer.concat(chunks), 0));
  req.on('error', () => res.destroy());
});
// Node announces these as `Keep-Alive: timeout=4` and closes the socket after the
// last allowed request with `Connection: close`.
front.keepAliveTimeout = KEEP_ALIVE_MS;
front.maxRequestsPerSocket = MAX_REQUESTS_PER_SOCKET;
front.headersTimeout = 60_000;
front.requestTimeout = 0;

async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  front.close();
  const child = upstream?.child;
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => {
      child.once('exit', r);
      setTimeout(r, 4_000).unref();
    });
  }
  for (const pid of strayGroupMembers()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  process.exit(code);
}
process.on('SIGTERM', () => shutdown());
process.on('SIGINT', () => shutdown());

if (!(await startWrangler())) {
  log('wrangler dev did not become healthy');
  await shutdown(1);
}
void watchdog();
front.listen(PUBLIC_PORT, '127.0.0.1', () => log(`front proxy on 127.0.0.1:${PUBLIC_PORT} → wrangler dev on 127.0.0.1:${upstream?.port}`));
