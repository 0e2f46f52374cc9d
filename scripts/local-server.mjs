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
// - the Worker's runtime is replaced before its native memory grows far (PINCHER_RECYCLE_RSS_MIB,
//   PINCHER_RECYCLE_REQUESTS; see "recycling" below): the next one starts beside it, requests are
//   held, never refused, while the current one finishes its requests and stops, then go to the
//   next one;
// - the Worker's Cron Trigger (garbage collection of unreferenced content, closed uploads,
//   old call_log and events rows) runs as it would when deployed: once a minute after start,
//   then every `gcEveryMinutes` (default 30, as wrangler.toml's cron; 0 turns it off).
//   wrangler dev fires no crons itself.
// The Host header is forwarded unchanged, so the Worker's own host checks still apply.
//
// Usage (normally through startDevServer in dev-server.mjs):
//   node scripts/local-server.mjs '{"port":8787,"root":"…","persistTo":"…","vars":{…}}'
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { freePort } from './dev-server.mjs';
import { alive, descendants, isWorkerd, listeningPorts, openFilesUnder, rssAnonMib } from './proc-tree.mjs';

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

/**
 * The wrangler serving requests: { child, port, direct, runtimePid, inflight, served, since };
 * undefined while (re)starting after a crash.
 */
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
 * started by this wrangler that does not hold wrangler's port, that answer /v1/health as this
 * Worker): one hop less, and no spurious "restarted mid-request" 503 from the proxy worker.
 * Linux only; elsewhere, or when nothing answers, requests keep going through wrangler's port.
 * /v1/health touches no D1, so probing a runtime never opens the database.
 */
function runtimeCandidates(entry) {
  const out = [];
  for (const pid of descendants(entry.child.pid)) {
    if (!isWorkerd(pid)) continue;
    const own = listeningPorts(pid);
    if (!own.includes(entry.port)) for (const port of own) out.push({ pid, port });
  }
  return out;
}

async function findRuntime(entry) {
  for (const { pid, port } of runtimeCandidates(entry)) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/health`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(5_000) });
      const body = await res.json().catch(() => null);
      if (res.ok && body && typeof body === 'object' && 'schema_version' in body) return { pid, port };
    } catch {
      /* not this one */
    }
  }
  return undefined;
}

/** (Re)finds the runtime's socket for `entry`; one search at a time. */
function refreshDirect(entry) {
  if (config.direct === false || entry.finding) return entry.finding;
  entry.direct = undefined;
  entry.finding = findRuntime(entry)
    .then((found) => {
      if (!found || entry.retired) return;
      entry.direct = found.port;
      entry.runtimePid = found.pid;
    })
    .catch(() => {})
    .finally(() => {
      entry.finding = undefined;
    });
  return entry.finding;
}

/**
 * Starts one wrangler dev (its proxy worker and the Worker's runtime) on a free port and
 * waits until it answers /v1/health. Returns its entry, or undefined if it never did.
 * `role` tells the exit handler what a death means: only the serving one is restarted.
 */
async function launchWrangler() {
  const port = await freePort();
  // `wrangler dev` through its programmatic API, without an inspector (see wrangler-dev.mjs).
  const args = [path.join(ROOT, 'scripts', 'wrangler-dev.mjs'), JSON.stringify({ root: ROOT, port, persistTo: config.persistTo, vars: { ...config.vars, PINCHER_CALL_LOG_WINDOW_MS: String(CALL_LOG_WINDOW_MS) } })];
  // Same process group as this supervisor: stopping the group stops everything.
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...QUIET_ENV }, stdio: ['ignore', 'inherit', 'inherit'] });
  const entry = { child, port, direct: undefined, runtimePid: undefined, inflight: 0, served: 0, since: Date.now(), retired: false, onIdle: undefined };
  child.on('exit', (code, signal) => {
    if (upstream !== entry || entry.retired) return; // one being replaced, or one that never took over
    upstream = undefined;
    if (stopping) return;
    log(`wrangler dev exited (${signal ?? `code ${code}`}); restarting`);
    scheduleRestart();
  });
  if (!(await waitHealthy(port, child))) {
    if (child.exitCode === null) child.kill('SIGKILL');
    return undefined;
  }
  await refreshDirect(entry);
  return entry;
}

async function startWrangler() {
  const entry = await launchWrangler();
  if (!entry) return false;
  upstream = entry;
  healthFailures = 0;
  await loadIdempotency(entry.port);
  log(entry.direct ? `requests go to the Worker runtime on 127.0.0.1:${entry.direct} directly` : 'requests go through wrangler\'s proxy');
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
    if (!current || stopping || recycling) continue;
    try {
      const res = await fetch(`http://127.0.0.1:${current.port}/v1/health`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
      await res.arrayBuffer();
      healthFailures = res.ok ? 0 : healthFailures + 1;
      if (!res.ok) log(`health check answered ${res.status}`);
    } catch (err) {
      if (current.retired) continue;
      healthFailures++;
      log(`health check failed: ${err?.cause?.code ?? err?.name ?? err}`);
    }
    if (current.retired || upstream !== current) continue;
    if (healthFailures >= HEALTH_FAILURES_BEFORE_RESTART) {
      log(`wrangler dev stopped answering /v1/health (${healthFailures} checks); restarting`);
      healthFailures = 0;
      current.child.kill('SIGKILL');
    }
  }
}

/** Runs the Worker's scheduled handler (garbage collection) the way a Cron Trigger would. */
async function runScheduled() {
  if (holding) await new Promise((r) => held.push(r));
  const current = upstream;
  if (!current || stopping) return;
  // It writes to D1: a handover waits for it like for any request.
  const done = begin(current);
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
  } finally {
    done();
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

/* ------------------------------------------------------------------ recycling */

/*
 * The Worker's runtime (workerd) grows its native memory under sustained load while the
 * Worker's own JavaScript heap stays flat (see `npm run soak:heap`), so the supervisor
 * replaces it before it grows far: when its anonymous resident memory passes
 * PINCHER_RECYCLE_RSS_MIB (default 384; 0 turns it off), or after PINCHER_RECYCLE_REQUESTS
 * requests (default 0, off). SIGUSR2 asks for one at once.
 *
 * Two runtimes never use the local D1 at the same time: its SQLite files belong to one
 * workerd's Durable Object, which assumes it is their only user. So the handover is:
 *   1. start the next wrangler on a free port and wait until it answers /v1/health (which
 *      reads no D1), while the current one keeps serving;
 *   2. hold new requests (queued here, never refused), let the requests in flight on the
 *      current runtime finish (drain);
 *   3. wait for the call-log rows of its last answers (CALL_LOG_SETTLE_MS), then stop the
 *      current wrangler and wait until its workerd has exited (SQLite closed);
 *   4. send the held requests and every later one to the next runtime.
 * The hold lasts as long as the longest request in flight, the call-log window of their answers
 * (CALL_LOG_SETTLE_MS) and the stop (typically about a second under the soak's load). If the requests in flight do not finish within
 * DRAIN_TIMEOUT_MS, the handover is called off: held requests go to the current runtime and
 * the next one is stopped, to be tried again later. Long-lived event streams (a GET answered
 * with text/event-stream) do not delay it: they end with the old runtime, and their clients
 * reconnect as event streams do.
 */
function setting(fromConfig, fromEnv, fallback) {
  if (typeof fromConfig === 'number') return fromConfig;
  if (fromEnv !== undefined && fromEnv !== '' && Number.isFinite(Number(fromEnv))) return Number(fromEnv);
  return fallback;
}
const RECYCLE_RSS_MIB = setting(config.recycle?.rssMib, process.env.PINCHER_RECYCLE_RSS_MIB, 384);
const RECYCLE_REQUESTS = setting(config.recycle?.requests, process.env.PINCHER_RECYCLE_REQUESTS, 0);
const RECYCLE_CHECK_MS = 5_000;
const RECYCLE_RETRY_MS = 60_000;
const DRAIN_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;
/**
 * The call-log window this server gives its Worker runtimes (PINCHER_CALL_LOG_WINDOW_MS; the `vars`' value, else
 * 500 ms, the Worker's own default): the Worker writes the calls it answered within one window together, that long
 * after the window's first answer. Given to the runtime, not guessed from its defaults, so a runtime is stopped only
 * after its last window and the write (CALL_LOG_SETTLE_MS), and a recycle or a shutdown loses no row.
 */
const CALL_LOG_WINDOW_MS = Math.min(5_000, Math.max(0, Math.trunc(setting(undefined, config.vars?.PINCHER_CALL_LOG_WINDOW_MS, 500))));
const CALL_LOG_SETTLE_MS = CALL_LOG_WINDOW_MS + 250;
/** Where wrangler keeps the local D1's SQLite files. */
const STATE_DIR = path.resolve(config.persistTo ?? path.join(ROOT, '.wrangler', 'state'));

/** While true, new requests wait in `held` for the runtime that takes over. */
let holding = false;
const held = [];
let recycling = false;
let recycles = 0;
let recycleNotBefore = 0;

function releaseHeld() {
  holding = false;
  for (const send of held.splice(0)) send();
}

/** One more request the runtime must finish before it may be stopped. */
function begin(entry) {
  entry.inflight++;
  entry.served++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    entry.inflight--;
    if (entry.inflight === 0) entry.onIdle?.();
  };
}

function waitIdle(entry, timeoutMs) {
  if (entry.inflight === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      entry.onIdle = undefined;
      resolve(false);
    }, timeoutMs);
    entry.onIdle = () => {
      clearTimeout(timer);
      entry.onIdle = undefined;
      resolve(true);
    };
  });
}

async function waitGone(pids, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return !pids.some(alive);
}

/** Stops one wrangler and every process it started; resolves once none is left. */
async function retire(entry) {
  entry.retired = true;
  const pids = [entry.child.pid, ...descendants(entry.child.pid)];
  if (entry.child.exitCode === null && entry.child.signalCode === null) entry.child.kill('SIGTERM');
  if (!(await waitGone(pids, STOP_TIMEOUT_MS))) {
    for (const pid of pids.filter(alive)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    await waitGone(pids, STOP_TIMEOUT_MS);
  }
}

async function recycle(reason) {
  const old = upstream;
  if (recycling || stopping || !old) return;
  recycling = true;
  const started = Date.now();
  try {
    const next = await launchWrangler();
    if (!next) {
      recycleNotBefore = Date.now() + RECYCLE_RETRY_MS;
      log(`recycle (${reason}) put off: the next Worker runtime did not start`);
      return;
    }
    if (stopping || upstream !== old) {
      await retire(next);
      return;
    }
    const ready = Date.now();
    // The next runtime must not have opened the database yet (nothing before the switch reads
    // it). workerd opens each Durable Object namespace's metadata.sqlite (its alarm index) at
    // start, in WAL mode with shared memory, which SQLite's own locks make safe to share.
    const early = next.runtimePid ? openFilesUnder(next.runtimePid, STATE_DIR).filter((f) => /\.sqlite/.test(f) && !/\/metadata\.sqlite/.test(f)) : [];
    if (early.length) log(`warning: the next Worker runtime opened the local D1 before the switch: ${early.join(', ')}`);
    holding = true;
    const inFlight = old.inflight;
    if (!(await waitIdle(old, DRAIN_TIMEOUT_MS))) {
      releaseHeld();
      await retire(next);
      recycleNotBefore = Date.now() + RECYCLE_RETRY_MS;
      log(`recycle (${reason}) put off: ${old.inflight} requests still in flight after ${DRAIN_TIMEOUT_MS / 1000} s`);
      return;
    }
    // Its last answers' call-log rows are written when their window closes.
    await new Promise((r) => setTimeout(r, CALL_LOG_SETTLE_MS));
    await retire(old);
    // A crash of the old one while it drained scheduled a restart that is no longer needed.
    if (restartTimer) {
      clearTimeout(restartTimer);
      restartTimer = undefined;
    }
    await loadIdempotency(next.port);
    next.since = Date.now();
    upstream = next;
    healthFailures = 0;
    const count = held.length;
    const heldMs = Date.now() - ready;
    releaseHeld();
    recycles++;
    log(
      `recycled the Worker runtime (#${recycles}, ${reason}): next one ready in ${((ready - started) / 1000).toFixed(1)} s, ` +
        `${count} requests held ${heldMs} ms while ${inFlight} in flight finished, old one stopped; ` +
        `requests go to 127.0.0.1:${next.direct ?? next.port}`,
    );
  } finally {
    recycling = false;
  }
}

/** Checks the serving runtime's memory and request count every RECYCLE_CHECK_MS. */
async function recycleLoop() {
  if (!(RECYCLE_RSS_MIB > 0) && !(RECYCLE_REQUESTS > 0)) return;
  for (;;) {
    await new Promise((r) => setTimeout(r, RECYCLE_CHECK_MS).unref());
    const current = upstream;
    if (!current || recycling || stopping || Date.now() < recycleNotBefore) continue;
    const rss = RECYCLE_RSS_MIB > 0 && current.runtimePid ? rssAnonMib(current.runtimePid) : undefined;
    if (rss !== undefined && rss > RECYCLE_RSS_MIB) await recycle(`RssAnon ${Math.round(rss)} MiB > ${RECYCLE_RSS_MIB} MiB after ${current.served} requests`);
    else if (RECYCLE_REQUESTS > 0 && current.served >= RECYCLE_REQUESTS) await recycle(`${current.served} requests ≥ ${RECYCLE_REQUESTS}`);
  }
}

process.on('SIGUSR2', () => void recycle('asked for by SIGUSR2'));

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
  // The runtime is changing hands: wait for the next one rather than refuse.
  if (holding) return void held.push(() => forward(req, res, body, attempt));
  const current = upstream;
  if (!current) return notReady(res);
  const done = begin(current);
  const headers = forwardHeaders(req.headers);
  headers['content-length'] = String(body.length);
  const direct = current.direct;
  // What wrangler's proxy worker sends the runtime too: errors as the Worker answers them.
  if (direct) headers['mf-disable-pretty-error'] = 'true';
  const up = http.request({ host: '127.0.0.1', port: direct ?? current.port, method: req.method, path: req.url, headers, agent }, (upRes) => {
    // A long-lived event stream does not hold up a handover; it ends with its runtime.
    if (req.method === 'GET' && String(upRes.headers['content-type'] ?? '').includes('text/event-stream')) done();
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
  up.on('close', done);
  up.on('error', (err) => {
    done();
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
    // The last answers' call-log rows are written when their window closes.
    if (code === 0) await new Promise((r) => setTimeout(r, CALL_LOG_SETTLE_MS));
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
void recycleLoop();
front.listen(PUBLIC_PORT, '127.0.0.1', () => log(`front proxy on 127.0.0.1:${PUBLIC_PORT} → wrangler dev on 127.0.0.1:${upstream?.port}`));
