#!/usr/bin/env node
// `npm run soak -- --minutes M [--concurrency 8] [--seed S] [--pushes off] [--url U --key K --pid PGID]`
//
// Sustained mixed load against a real local server (keyed; started here unless --url):
// `concurrency` clients loop over a seeded mix of read tools (REST twin and MCP, both
// revisions), while one more loop pushes a one-file change through the CLI client over and
// over. Every minute it prints throughput, p50/p99 latency, errors and the server's memory
// (RSS of the server's process group: supervisor, wrangler, workerd). Exit 1 on any error.
// Writes a JSON report under .tmp/soak/.
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './dev-server.mjs';
import { pushCorpus, touchCorpus, writeCorpus } from './battery/corpus.mjs';
import { exchange, percentile } from './battery/http.mjs';
import { failed, mixCall } from './battery/mix.mjs';
import { createRng } from './battery/rng.mjs';
import { groupMemory, useServer } from './battery/server.mjs';
import { leastSquaresSlope } from './battery/slope.mjs';

const { values: opt } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
    seed: { type: 'string', default: '7' },
    url: { type: 'string' },
    key: { type: 'string' },
    pid: { type: 'string' },
    'sample-seconds': { type: 'string', default: '30' },
    /** `off` runs the read mix alone (to tell push-driven memory from request-driven). */
    pushes: { type: 'string', default: 'on' },
    help: { type: 'boolean', default: false },
  },
});
if (opt.help) {
  console.log('npm run soak -- --minutes M [--concurrency 8] [--seed S] [--url U --key K --pid PGID]');
  process.exit(0);
}

const MINUTES = Number(opt.minutes);
const PROJECT = 'soak';
const server = await useServer({ url: opt.url, key: opt.key });
// Whatever fails below, the server started here must not outlive the run.
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, async (err) => {
    console.error(err);
    await server.stop();
    process.exit(2);
  });
}
const pgid = opt.pid ? Number(opt.pid) : server.pid;
const base = server.url;
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${server.key}` };

/** Bytes on disk of the local server's persisted state (D1's SQLite files), when it was started here. */
async function diskMib(dir) {
  if (!dir) return null;
  let bytes = 0;
  for (const e of await readdir(dir, { recursive: true }).catch(() => [])) {
    const st = await stat(path.join(dir, e)).catch(() => null);
    if (st?.isFile()) bytes += st.size;
  }
  return Math.round((bytes / 1048576) * 10) / 10;
}

const MODULES = 40;
const corpusDir = await writeCorpus(MODULES);
await pushCorpus({ url: base, key: server.key, project: PROJECT, dir: corpusDir, commit: 'soak-0' });

const started = Date.now();
const deadline = started + MINUTES * 60_000;
const window = { latencies: [], errors: 0, requests: 0 };
const total = { latencies: [], errors: 0, requests: 0, pushes: 0, push_errors: 0, push_ms: [] };
const errorSamples = [];
const timeline = [];

async function client(w) {
  const rng = createRng(Number(opt.seed) * 100 + w);
  while (Date.now() < deadline) {
    const { label, req } = mixCall(rng, { project: PROJECT, modules: MODULES, headers });
    const res = await exchange(base, req);
    const why = failed(res);
    window.requests++;
    total.requests++;
    window.latencies.push(res.ms);
    total.latencies.push(res.ms);
    if (why) {
      window.errors++;
      total.errors++;
      if (errorSamples.length < 20) errorSamples.push({ at_s: Math.round((Date.now() - started) / 1000), call: label, why, body: res.text.slice(0, 300) });
    }
  }
}

async function pushLoop() {
  let round = 0;
  while (Date.now() < deadline) {
    round++;
    await touchCorpus(corpusDir, round);
    const t0 = performance.now();
    try {
      await pushCorpus({ url: base, key: server.key, project: PROJECT, dir: corpusDir, commit: `soak-${round}` });
      total.pushes++;
      total.push_ms.push(performance.now() - t0);
    } catch (err) {
      total.push_errors++;
      if (errorSamples.length < 20) errorSamples.push({ at_s: Math.round((Date.now() - started) / 1000), call: 'push', why: `${err.code ?? ''} ${err.message}`.slice(0, 300) });
    }
  }
}

let recyclesPrinted = 0;
async function sampler() {
  const every = Number(opt['sample-seconds']) * 1000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, Math.min(every, Math.max(0, deadline - Date.now()))));
    // Take this window's figures before any await: the clients keep writing to `window`.
    const sorted = window.latencies.splice(0).sort((a, b) => a - b);
    const { requests, errors } = window;
    window.errors = 0;
    window.requests = 0;
    const mem = pgid ? await groupMemory(pgid) : null;
    const point = {
      t_s: Math.round((Date.now() - started) / 1000),
      requests,
      req_per_s: Math.round((requests / every) * 1000 * 10) / 10,
      p50_ms: percentile(sorted, 50),
      p99_ms: percentile(sorted, 99),
      errors,
      pushes: total.pushes,
      rss_mib: mem?.total_mib ?? null,
      rss_by_process: mem?.by_process ?? null,
      anon_by_process: mem?.anon_by_process ?? null,
      db_mib: await diskMib(server.dir),
      recycles: (server.logs ?? []).join('').split('recycled the Worker runtime').length - 1,
    };
    timeline.push(point);
    // The supervisor's recycle lines, as they happen.
    const said = (server.logs ?? []).join('').split('\n').filter((l) => l.includes('recycled the Worker runtime') || l.includes('recycle ('));
    for (const line of said.slice(recyclesPrinted)) console.log(`  ${line.trim()}`);
    recyclesPrinted = said.length;
    console.log(
      `  t=${point.t_s}s ${point.req_per_s} req/s p50 ${point.p50_ms} ms p99 ${point.p99_ms} ms errors ${point.errors} pushes ${point.pushes} rss ${point.rss_mib} MiB ${JSON.stringify(point.rss_by_process)} anon ${JSON.stringify(point.anon_by_process)} db ${point.db_mib} MiB recycles ${point.recycles}`,
    );
  }
}

console.log(`soak: ${MINUTES} min, concurrency ${opt.concurrency} + 1 push loop, server ${base}${pgid ? ` (process group ${pgid})` : ''}`);
await Promise.all([...Array.from({ length: Number(opt.concurrency) }, (_, w) => client(w)), opt.pushes === 'off' ? Promise.resolve() : pushLoop(), sampler()]);

/** Each process's resident memory (and `key`: anonymous only) at the first, middle and last sample. */
function byProcessOverTime(points, key = 'rss_by_process') {
  const withMem = points.filter((p) => p[key]);
  if (!withMem.length) return null;
  const at = (p) => ({ t_s: p.t_s, pushes: p.pushes, db_mib: p.db_mib, ...p[key] });
  return { first: at(withMem[0]), middle: at(withMem[Math.floor(withMem.length / 2)]), last: at(withMem[withMem.length - 1]) };
}

/**
 * Least-squares slope, in MiB per 10 minutes, of each process's memory over the second half
 * of the run (after warm-up): "flat" means these stay near zero while requests keep coming.
 */
function slopesPer10Min(points, key) {
  const half = points.filter((p) => p[key]).slice(Math.floor(points.length / 2));
  if (half.length < 3) return null;
  const names = new Set(half.flatMap((p) => Object.keys(p[key])));
  const out = {};
  for (const name of [...names, 'db_mib']) {
    const xs = [];
    const ys = [];
    for (const p of half) {
      const y = name === 'db_mib' ? p.db_mib : p[key][name];
      if (typeof y === 'number') {
        xs.push(p.t_s / 600);
        ys.push(y);
      }
    }
    if (xs.length < 3) continue;
    out[name] = Math.round(leastSquaresSlope(xs, ys) * 10) / 10;
  }
  return out;
}

/**
 * Growth per push of the Worker's runtime and of wrangler's proxy worker, in MiB, over the
 * second half of the run: the runtime warms up for several minutes (grammars, V8 heaps,
 * SQLite caches) before it levels off.
 */
function growthPerPush(points) {
  const withMem = points.filter((p) => typeof p.rss_by_process?.workerd === 'number');
  if (withMem.length < 3) return {};
  const a = withMem[Math.floor(withMem.length / 2)];
  const b = withMem[withMem.length - 1];
  const pushes = b.pushes - a.pushes;
  if (pushes <= 0) return {};
  const per = (name) => (typeof a.rss_by_process[name] === 'number' && typeof b.rss_by_process[name] === 'number' ? Math.round(((b.rss_by_process[name] - a.rss_by_process[name]) / pushes) * 1000) / 1000 : null);
  return { workerd_mib_per_push: per('workerd'), workerd_proxy_mib_per_push: per('workerd-proxy') };
}

/** Each process's highest memory over the second half: what "bounded" is measured by. */
function maxSecondHalf(points, key) {
  const half = points.filter((p) => p[key]).slice(Math.floor(points.length / 2));
  if (!half.length) return null;
  const out = {};
  for (const p of half) for (const [name, v] of Object.entries(p[key])) out[name] = Math.max(out[name] ?? 0, v);
  return out;
}

/** The supervisor's one line per replacement of the Worker's runtime (scripts/local-server.mjs). */
const recycleLines = (server.logs ?? []).join('').split('\n').filter((l) => l.includes('recycled the Worker runtime') || l.includes('recycle ('));

const sorted = total.latencies.sort((a, b) => a - b);
const pushSorted = total.push_ms.sort((a, b) => a - b);
const rss = timeline.map((p) => p.rss_mib).filter((v) => typeof v === 'number');
const summary = {
  minutes: MINUTES,
  concurrency: Number(opt.concurrency),
  requests: total.requests,
  req_per_s: Math.round((total.requests / ((Date.now() - started) / 1000)) * 10) / 10,
  p50_ms: percentile(sorted, 50),
  p99_ms: percentile(sorted, 99),
  errors: total.errors,
  pushes: total.pushes,
  push_errors: total.push_errors,
  push_p50_ms: percentile(pushSorted, 50),
  rss_mib: rss.length ? { first: rss[0], max: Math.max(...rss), last: rss[rss.length - 1] } : null,
  rss_by_process: byProcessOverTime(timeline),
  anon_by_process: byProcessOverTime(timeline, 'anon_by_process'),
  second_half_mib_per_10min: { rss: slopesPer10Min(timeline, 'rss_by_process'), anon: slopesPer10Min(timeline, 'anon_by_process') },
  second_half_total_rss_mib_per_10min: (() => {
    const half = timeline.filter((p) => typeof p.rss_mib === 'number').slice(Math.floor(timeline.length / 2));
    return half.length < 3 ? null : Math.round(leastSquaresSlope(half.map((p) => p.t_s / 600), half.map((p) => p.rss_mib)) * 10) / 10;
  })(),
  second_half_max_mib: { rss_total: Math.max(...timeline.slice(Math.floor(timeline.length / 2)).map((p) => p.rss_mib ?? 0)), rss: maxSecondHalf(timeline, 'rss_by_process'), anon: maxSecondHalf(timeline, 'anon_by_process') },
  runtime_recycles: recycleLines.filter((l) => l.includes('recycled the Worker runtime')).length,
  ...growthPerPush(timeline),
};
const out = path.join(ROOT, '.tmp', 'soak', `soak-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, JSON.stringify({ summary, timeline, errors: errorSamples }, null, 2));
await server.stop();
await rm(corpusDir, { recursive: true, force: true });
console.log(JSON.stringify(summary, null, 2));
for (const line of recycleLines) console.log(line.trim());
for (const e of errorSamples.slice(0, 5)) console.log(`error: ${JSON.stringify(e)}`);
console.log(`report: ${path.relative(ROOT, out)}`);
process.exit(total.errors || total.push_errors ? 1 : 0);
