#!/usr/bin/env node
// The long-running local server: a small front proxy on the public port and a
// supervisor that keeps `wrangler dev` alive behind it on a private port.
//
// Why: wrangler dev's own front proxy grows its heap with every request served on a
// kept-alive connection (≈ 60 → 600 MB per 4,000 requests) until it aborts after
// ~18k requests, and it closes idle keep-alive connections after ~5 s without a
// `Keep-Alive` header, so pooled clients hit broken pipes. Here:
// - wrangler dev runs without an inspector (scripts/wrangler-dev.mjs): its inspector proxy
//   kept every message of the Worker's runtime until a DevTools client read it;
// - every request reaches the Worker's runtime directly (one hop less than through
//   wrangler's proxy worker) on a fresh connection (`Connection: close`); wrangler's port
//   stays the fallback;
// - clients get bounded keep-alive (KEEP_ALIVE_MS, announced as `Keep-Alive: timeout=`,
//   at most MAX_REQUESTS_PER_SOCKET requests, then `Connection: close`);
// - if wrangler exits or stops answering /v1/health, it is restarted (backoff), and
//   requests meanwhile get 503 `not_ready` with `Retry-After`;
// - the Worker's Cron Trigger (garbage collection of unreferenced content, closed uploads,
//   old call_log and events rows) runs as it would when deployed: once a minute after start,
//   then every `gcEveryMinutes` (default 30, as wrangler.toml's cron; 0 turns it off).
//   wrangler dev fires no crons itself.
// The Host header is forwarded unchanged, so the Worker's own host checks still apply.
//
// Usage (normally through startDevServer in dev-server.mjs):
//   node scripts/local-server.mjs '{"port":8787,"root":"…","persistTo":"…","vars":{…}}'
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { freePort } from './dev-server.mjs';

const config = JSON.parse(process.argv[2] ?? '{}');
const ROOT = config.root;
const PUBLIC_PORT = Number(config.port);

const KEEP_ALIVE_MS = 4_000;
const MAX_REQUESTS_PER_SOCKET = 1_000;
const HEALTH_EVERY_MS = 10_000;
const HEALTH_TIMEOUT_MS = 20_000;
// A rebuild after a source edit holds requests for a while: only a long silence counts.
const HEALTH_FAILURES_BEFORE_RESTART = 6;
const GC_EVERY_MS = (config.gcEveryMinutes ?? 30) * 60_000;
const GC_FIRST_AFTER_MS = config.gcFirstAfterMs ?? 60_000;
/** Paths wrangler dev's test middleware answers; only the supervisor calls them. */
const INTERNAL_PATHS = /^\/(?:__scheduled|cdn-cgi\/)/;

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

/**
 * The Worker runtime's own HTTP socket. wrangler dev runs two workerd processes: its proxy
 * worker on the port it is given, and the Worker's runtime on a port of its own. Requests go
 * to the runtime's socket directly once it is found (the ports, from /proc, of the workerd
 * that does not hold wrangler's port, that answer /v1/health as this Worker): one hop less,
 * and no spurious "restarted mid-request" 503 from the proxy worker. Linux only; elsewhere,
 * or when nothing answers, requests keep going through wrangler's port.
 */
function listeningPorts(pid) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      /* closed while we looked */
    }
  }
  const ports = [];
  for (const table of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // f[1] local address:port (hex), f[3] state (0A = LISTEN), f[9] inode
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9])) ports.push(parseInt(f[1].split(':')[1], 16));
    }
  }
  return ports;
}

function runtimeListeningPorts(wranglerPort) {
  const ports = [];
  for (const pid of strayGroupMembers()) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!cmd.some((c) => c.includes('workerd'))) continue;
      const own = listeningPorts(pid);
      if (!own.includes(wranglerPort)) ports.push(...own);
    } catch {
      /* exited while we looked */
    }
  }
  return [...new Set(ports)];
}

async function findRuntimePort(wranglerPort) {
  for (const port of runtimeListeningPorts(wranglerPort)) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/health`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(5_000) });
      const body = await res.json().catch(() => null);
      if (res.ok && body && typeof body === 'object' && 'schema_version' in body) return port;
    } catch {
      /* not this one */
    }
  }
  return undefined;
}

/** (Re)finds the runtime's socket for `current`; one search at a time. */
function refreshDirect(current) {
  if (config.direct === false || current.finding) return;
  current.direct = undefined;
  current.finding = findRuntimePort(current.port)
    .then((port) => {
      if (upstream === current) current.direct = port;
    })
    .catch(() => {})
    .finally(() => {
      current.finding = undefined;
    });
}

async function startWrangler() {
  const port = await freePort();
  // `wrangler dev` through its programmatic API, without an inspector (see wrangler-dev.mjs).
  const args = [path.join(ROOT, 'scripts', 'wrangler-dev.mjs'), JSON.stringify({ root: ROOT, port, persistTo: config.persistTo, vars: config.vars ?? {} })];
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
  refreshDirect(upstream);
  await upstream.finding;
  log(upstream.direct ? `requests go to the Worker runtime on 127.0.0.1:${upstream.direct} directly` : 'requests go through wrangler\'s proxy');
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

/** Runs the Worker's scheduled handler (garbage collection) the way a Cron Trigger would. */
async function runScheduled() {
  const current = upstream;
  if (!current || stopping) return;
  const started = Date.now();
  try {
    const res = await fetch(`http://127.0.0.1:${current.port}/__scheduled?cron=${encodeURIComponent('*/30 * * * *')}`, {
      headers: { connection: 'close' },
      signal: AbortSignal.timeout(10 * 60_000),
    });
    await res.arrayBuffer();
    log(res.ok ? `scheduled garbage collection ran (${Date.now() - started} ms)` : `scheduled garbage collection answered ${res.status}`);
  } catch (err) {
    log(`scheduled garbage collection failed: ${err?.cause?.code ?? err?.name ?? err}`);
  }
}

async function gcLoop() {
  if (!(GC_EVERY_MS > 0)) return;
  await new Promise((r) => setTimeout(r, GC_FIRST_AFTER_MS).unref());
  for (;;) {
    await runScheduled();
    await new Promise((r) => setTimeout(r, GC_EVERY_MS).unref());
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

function notFound(req, res) {
  const body = JSON.stringify({
    error: {
      code: 'not_found',
      message: `no route ${req.method} ${(req.url ?? '').split('?')[0].slice(0, 200)}`,
      suggestion: 'GET /v1/openapi.json describes every route; MCP clients use POST /mcp',
    },
    _meta: {},
  });
  res.writeHead(404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function forward(req, res, body, attempt) {
  if (INTERNAL_PATHS.test(req.url ?? '')) return notFound(req, res);
  const current = upstream;
  if (!current) return notReady(res);
  const headers = forwardHeaders(req.headers);
  headers['content-length'] = String(body.length);
  const direct = current.direct;
  // What wrangler's proxy worker sends the runtime too: errors as the Worker answers them.
  if (direct) headers['mf-disable-pretty-error'] = 'true';
  const up = http.request({ host: '127.0.0.1', port: direct ?? current.port, method: req.method, path: req.url, headers, agent }, (upRes) => {
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
  up.on('error', (err) => {
    // The runtime restarted (a reload after a source edit) on a new port: nothing ran, so
    // the request goes through wrangler while the new socket is found.
    if (direct && err.code === 'ECONNREFUSED' && !res.headersSent) {
      if (current.direct === direct) refreshDirect(current);
      current.direct = undefined;
      return forward(req, res, body, attempt);
    }
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
void gcLoop();
front.listen(PUBLIC_PORT, '127.0.0.1', () => log(`front proxy on 127.0.0.1:${PUBLIC_PORT} → wrangler dev on 127.0.0.1:${upstream?.port}`));
