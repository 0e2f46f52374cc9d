#!/usr/bin/env node
// `npm run soak:heap -- [--requests 20000] [--sample-every 2000] [--concurrency 4] [--push-every 0] [--snapshots]`
//
// Is the Worker's memory growth a leak in our code? Runs the Worker under wrangler's
// programmatic dev API WITH an inspector (unlike the local server), pushes the soak corpus
// once, drives the soak's read mix (scripts/battery/mix.mjs) and, every `sample-every`
// requests, forces a full garbage collection through the Chrome DevTools Protocol (a heap
// snapshot: the runtime does not answer HeapProfiler.collectGarbage) and reads the Worker's
// JS heap (Runtime.getHeapUsage), next to
// the anonymous memory (RssAnon) of the Worker's runtime process (`workerd`). A heap that is
// flat after GC while RssAnon creeps is V8/allocator behaviour, not a leak in the Worker.
// `--snapshots` also takes a heap snapshot after the first and the last sample and prints the
// constructors whose live object counts grew the most. `--push-every R` pushes a one-file
// change every R requests (0: the read mix alone). Writes a JSON report under .tmp/soak/.
//
// Needs Node's WebSocket: run with `node --experimental-websocket` on Node 20 (npm run soak:heap does).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { childWorkerds, connectInspector, runtimeInspectorTargets, startInspectedWorker } from './battery/inspector.mjs';
import { ROOT } from './dev-server.mjs';
import { rssAnonMib } from './proc-tree.mjs';
import { pushCorpus, touchCorpus, writeCorpus } from './battery/corpus.mjs';
import { exchange, percentile } from './battery/http.mjs';
import { failed, mixCall } from './battery/mix.mjs';
import { createRng } from './battery/rng.mjs';
import { FULL_KEY } from './battery/server.mjs';
import { leastSquaresSlope } from './battery/slope.mjs';

const { values: opt } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    'sample-every': { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '4' },
    'push-every': { type: 'string', default: '0' },
    seed: { type: 'string', default: '7' },
    snapshots: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (opt.help) {
  console.log('npm run soak:heap -- [--requests N] [--sample-every R] [--concurrency C] [--push-every R] [--snapshots]');
  process.exit(0);
}
if (typeof WebSocket !== 'function') {
  console.error('soak-heap needs a global WebSocket: run it with `node --experimental-websocket` (npm run soak:heap)');
  process.exit(2);
}

const REQUESTS = Number(opt.requests);
const SAMPLE_EVERY = Number(opt['sample-every']);
const PUSH_EVERY = Number(opt['push-every']);
const PROJECT = 'soak';
const MODULES = 40;
const MIB = 1048576;
const mib = (bytes) => Math.round((bytes / MIB) * 10) / 10;

const { worker, persist: dir, base, inspectorPort } = await startInspectedWorker({ key: FULL_KEY, tempPrefix: 'pincher-heap-' });
let corpusDir;
async function cleanup() {
  await worker.dispose().catch(() => {});
  await rm(dir, { recursive: true, force: true });
  if (corpusDir) await rm(corpusDir, { recursive: true, force: true });
}
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, async (err) => {
    console.error(err);
    await cleanup();
    process.exit(2);
  });
}
await worker.ready;

/** The runtime's RssAnon in MiB to one decimal, null when unknown. */
function runtimeAnonMib(pid) {
  const m = rssAnonMib(pid);
  return m === undefined ? null : Math.round(m * 10) / 10;
}

let pid;
for (let tries = 0; !pid && tries < 50; tries++) {
  await fetch(`${base}/v1/health`).catch(() => {});
  pid = (await childWorkerds(process.pid, { inspector: true }))[0];
  if (!pid) await new Promise((r) => setTimeout(r, 200));
}
if (!pid) throw new Error('the runtime workerd was not found (Linux /proc only)');
const targets = await runtimeInspectorTargets([pid]);
if (!targets.length) throw new Error(`no inspector found on the runtime (pid ${pid})`);
const WORKER = 'core:user:pincher-edge';
/** A session per isolate that runs JavaScript of ours or of the local D1 (miniflare's). */
const sessions = new Map();
for (const t of targets) if (/^d1:/.test(t.id)) sessions.set(t.id, await connectInspector(t.url));
// The runtime takes one inspector session per isolate, and wrangler's proxy holds the
// Worker's: reach the Worker through it (it lets a local Origin in).
const proxied = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
sessions.set(WORKER, await connectInspector(proxied[0].webSocketDebuggerUrl, { origin: 'http://127.0.0.1' }));

/**
 * A full garbage collection, then the isolate's heap usage (bytes); and the heap snapshot's
 * text when `keep`. The runtime does not answer HeapProfiler.collectGarbage; a heap snapshot
 * collects all garbage before it walks the heap.
 */
async function collectedHeap(session, keep = false) {
  const chunks = [];
  session.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => keep && chunks.push(chunk));
  await session.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  // Answers come in order: every chunk has arrived once this one does.
  const usage = await session.send('Runtime.getHeapUsage');
  return { usage, snapshot: keep ? chunks.join('') : undefined };
}

/** Each isolate's JS heap after a full collection, in MiB (the Worker's as `worker`). */
async function heapAfterGc() {
  const out = {};
  for (const [id, session] of sessions) {
    const { usage } = await collectedHeap(session);
    out[id === WORKER ? 'worker' : id] = mib(usage.usedSize);
    if (id === WORKER) out.worker_array_buffers = mib(usage.backingStorageSize ?? 0);
  }
  return out;
}

/** Live objects by `type:constructor` in a heap snapshot: { count, bytes }. */
async function snapshotCounts() {
  const snap = JSON.parse((await collectedHeap(sessions.get(WORKER), true)).snapshot);
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const counts = new Map();
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt]];
    const name = type === 'object' || type === 'closure' || type === 'native' ? snap.strings[snap.nodes[i + nameAt]] : '';
    const key = `${type}:${name}`;
    const c = counts.get(key) ?? { count: 0, bytes: 0 };
    c.count++;
    c.bytes += snap.nodes[i + sizeAt];
    counts.set(key, c);
  }
  return counts;
}

function snapshotDiff(before, after, top = 15) {
  const rows = [];
  for (const [key, a] of after) {
    const b = before.get(key) ?? { count: 0, bytes: 0 };
    rows.push({ key, count: a.count, d_count: a.count - b.count, d_kib: Math.round((a.bytes - b.bytes) / 1024) });
  }
  return rows.sort((x, y) => y.d_count - x.d_count).slice(0, top);
}

corpusDir = await writeCorpus(MODULES);
await pushCorpus({ url: base, key: FULL_KEY, project: PROJECT, dir: corpusDir, commit: 'soak-0' });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${FULL_KEY}` };

const samples = [];
let sent = 0;
let done = 0;
let errors = 0;
let pushes = 0;
const errorSamples = [];
const latencies = [];
const started = Date.now();

async function sample() {
  const point = { requests: done, t_s: Math.round((Date.now() - started) / 1000), pushes, heap_after_gc_mib: await heapAfterGc(), rss_anon_mib: pid ? runtimeAnonMib(pid) : null };
  samples.push(point);
  console.log(`  requests ${point.requests} t=${point.t_s}s heap after GC (MiB) ${JSON.stringify(point.heap_after_gc_mib)} workerd RssAnon ${point.rss_anon_mib} MiB pushes ${pushes} errors ${errors}`);
}

// Clients pause at each sampling point, so that every sample sees the same request count.
let gate = Promise.resolve();
async function client(w) {
  const rng = createRng(Number(opt.seed) * 100 + w);
  for (;;) {
    await gate;
    if (sent >= REQUESTS) return;
    sent++;
    const { label, req } = mixCall(rng, { project: PROJECT, modules: MODULES, headers });
    const res = await exchange(base, req);
    latencies.push(res.ms);
    const why = failed(res);
    if (why) {
      errors++;
      if (errorSamples.length < 20) errorSamples.push({ call: label, why, body: res.text.slice(0, 300) });
    }
    done++;
    if (PUSH_EVERY && done % PUSH_EVERY === 0) {
      const round = done / PUSH_EVERY;
      gate = gate.then(async () => {
        await touchCorpus(corpusDir, round);
        await pushCorpus({ url: base, key: FULL_KEY, project: PROJECT, dir: corpusDir, commit: `soak-${round}` });
        pushes++;
      });
    }
    if (done % SAMPLE_EVERY === 0 || done === REQUESTS) {
      const at = done;
      // Let in-flight requests finish (they count past `at`), then sample.
      gate = gate.then(async () => {
        while (done < Math.min(sent, REQUESTS)) await new Promise((r) => setTimeout(r, 20));
        if (at === samples.at(-1)?.requests) return;
        await sample();
      });
    }
  }
}

console.log(`soak-heap: ${REQUESTS} requests, concurrency ${opt.concurrency}, sample every ${SAMPLE_EVERY}, push every ${PUSH_EVERY || 'never'}, runtime pid ${pid}`);
await sample();
const before = opt.snapshots ? await snapshotCounts() : null;
await Promise.all(Array.from({ length: Number(opt.concurrency) }, (_, w) => client(w)));
await gate;
if (samples.at(-1).requests !== done) await sample();
const diff = before ? snapshotDiff(before, await snapshotCounts()) : null;

/** Least-squares slope of `value` over the second half of the samples, per 10,000 requests. */
function slopePer10k(value) {
  const half = samples.slice(Math.floor(samples.length / 2)).filter((p) => typeof value(p) === 'number');
  if (half.length < 3) return null;
  const xs = half.map((p) => p.requests / 10_000);
  const ys = half.map(value);
  return Math.round(leastSquaresSlope(xs, ys) * 100) / 100;
}

const sorted = latencies.sort((a, b) => a - b);
const summary = {
  requests: done,
  concurrency: Number(opt.concurrency),
  req_per_s: Math.round((done / ((Date.now() - started) / 1000)) * 10) / 10,
  p50_ms: percentile(sorted, 50),
  p99_ms: percentile(sorted, 99),
  errors,
  pushes,
  heap_after_gc_mib: { first: samples[0].heap_after_gc_mib, last: samples.at(-1).heap_after_gc_mib },
  rss_anon_mib: { first: samples[0].rss_anon_mib, last: samples.at(-1).rss_anon_mib },
  second_half_mib_per_10k_requests: {
    worker_heap_after_gc: slopePer10k((p) => p.heap_after_gc_mib.worker),
    rss_anon: slopePer10k((p) => p.rss_anon_mib),
  },
};
const out = path.join(ROOT, '.tmp', 'soak', `heap-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, JSON.stringify({ summary, samples, snapshot_growth: diff, errors: errorSamples }, null, 2));
for (const session of sessions.values()) session.close();
await cleanup();
console.log(JSON.stringify(summary, null, 2));
if (diff) for (const r of diff) console.log(`  ${r.key}: ${r.count} live (+${r.d_count}, ${r.d_kib >= 0 ? '+' : ''}${r.d_kib} KiB)`);
for (const e of errorSamples.slice(0, 5)) console.log(`error: ${JSON.stringify(e)}`);
console.log(`report: ${path.relative(ROOT, out)}`);
process.exit(errors ? 1 : 0);
