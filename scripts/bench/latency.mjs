// Query latency of the tools on a pushed project (DESIGN §8: per-tool server latency p50/p99
// on a project of ≥ 50k symbols). Everything goes over REST (`POST /v1/tools/{tool}` with the
// bench key), one call at a time, so the figures are latencies, not throughput.
//
//   0. Wait until the server's process group is idle (a push may leave work running).
//   1. GET /v1/tools: which tools exist and their input schemas.
//   2. A fixed query mix derived from the pushed corpus: files picked by a seeded PRNG from the
//      sorted corpus list, their symbols read through `read` (map), ids checked with `symbols`,
//      names, prefixes, phrases and grep patterns taken from those symbols; the entries named hits
//      (grep's, find's) asked once and kept only when they find something, trace's seeds named
//      by the query tool as callers. Same corpus + same seed = same mix; the mix is written to
//      the JSON.
//   3. Warm-up calls per tool, then N measured calls per tool, interleaved round-robin across
//      the tools so that a load spike on the shared machine hits them all alike; a tool whose
//      calls have taken 90 s stops early (its n says so). Reference calls (/v1/health,
//      why_empty, /v1/ready?shard=0) run alongside to show what any request costs in this setup.
//   4. Tools written by other families (trace, query, architecture, the composites) are called
//      when GET /v1/tools lists them, with arguments built from their input schemas; errors
//      are recorded, never thrown.
//
// `server` is `_meta.latency_ms` (measured inside the Worker, whole milliseconds); `client` is
// the wall time seen here, request sent → whole body received, over loopback.
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count } from './corpus.mjs';
import { groupCpuSeconds } from './proc.mjs';

/**
 * The query mix a latency run wrote to its results JSON (`latency.mix`; `mix` at the top level also read), by tool:
 * what the scripts that replay it (profile-calls, ab-calls, ab-latency, same-answers) call.
 * @param {string} file
 * @returns {Promise<Record<string, { variant: string, args: Record<string, unknown> }[]>>}
 */
export async function readLatencyMix(file) {
  const results = JSON.parse(await readFile(file, 'utf8'));
  const mix = results.latency?.mix ?? results.mix;
  if (!mix) throw new Error(`${file} holds no latency.mix`);
  return mix;
}

/** p50 / p99 targets in ms per tool (server latency). */
export const LATENCY_TARGETS = {
  search: [5, 25],
  symbol: [5, 25],
  symbols: [5, 25],
  read: [5, 25],
  grep: [5, 25],
  find: [5, 25],
  trace: [10, 50],
  query: [8, 40],
  architecture: [20, 100],
  context_for_task: [20, 100],
  investigate_failure: [20, 100],
  plan_change: [20, 100],
  changes: [15, 75],
};

/** Retrieval tools every server has: a failure to derive their mix is fatal. */
const CORE = ['search', 'symbol', 'symbols', 'read', 'grep', 'find'];
/** Called N times when registered: every other read tool but the ADR records (a pushed corpus holds none). */
const REPEATED_EXTRA = ['trace', 'query', 'architecture', 'context', 'neighborhood', 'ls', 'schema', 'guide', 'batch', 'list', 'health'];
/** Called once each (after one warm-up call) when registered. */
const ONE_SHOT = ['context_for_task', 'investigate_failure', 'plan_change', 'changes', 'dead_code'];

/**
 * Reference calls measured alongside, without targets: what any request costs in this setup.
 * /v1/health is a plain route (no tool seam, no D1); why_empty goes through the tool seam but
 * reads no table (its call-log row is written after the answer); /v1/ready?shard=0 makes exactly
 * one D1 round trip (the primary's migration ledger; without `shard` it asks every shard).
 * ready − health is the cost of one D1 round trip on the plain route, and a tool call less
 * why_empty what the tool costs over the seam: `netRatio` divides the second by the first.
 */
const READY = 'GET /v1/ready?shard=0 (one D1 round trip)';
const HEALTH = 'GET /v1/health (no D1)';
const SEAM = 'why_empty (tool seam, no D1 read)';
const FLOOR = [
  { label: HEALTH, call: (/** @type {ReturnType<typeof client>} */ c) => c.ping('/v1/health') },
  { label: SEAM, call: (/** @type {ReturnType<typeof client>} */ c) => c.call('why_empty', { code: 'no_results_in_corpus' }) },
  { label: READY, call: (/** @type {ReturnType<typeof client>} */ c) => c.ping('/v1/ready?shard=0') },
];

/** Callers (the graph seeds) and callees (the change to plan) the query tool lists for the mix to sample from (its max_rows allows 10,000). */
const PROBE_ROWS = 5000;

/**
 * Targets for a tool's p50 as a multiple of the one-round-trip floor (/v1/ready's p50 in the
 * same run), per tool or per tier: a lite tool answers in one D1 round trip, trace
 * (standard) in at most two.
 * @type {Record<string, number>}
 */
const RATIO_TARGETS = { 'tier:lite': 1.3, trace: 2 };

/**
 * D1 round trips a call may make at p50, per tier: a lite tool one, a standard tool two. `list` and `health`
 * read every shard (one round trip each, in parallel), so they are judged per shard.
 * @type {Record<string, number>}
 */
export const TRIP_TARGETS = { 'tier:lite': 1, 'tier:standard': 2 };
const PER_SHARD = new Set(['list', 'health']);

/**
 * Whether a tool's round trips at p50 meet its tier's target (TRIP_TARGETS; `shards` for the tools that read
 * every shard); null when its tier has none or nothing was measured.
 * @param {string} tool @param {string | null} tier @param {{ p50?: number } | null | undefined} trips @param {number} shards
 * @returns {{ target: number, verdict: 'met' | 'missed' } | null}
 */
export function tripVerdict(tool, tier, trips, shards) {
  const base = tier ? TRIP_TARGETS[`tier:${tier}`] : undefined;
  if (base === undefined || trips?.p50 == null) return null;
  const target = PER_SHARD.has(tool) ? base * Math.max(1, shards) : base;
  return { target, verdict: trips.p50 <= target ? 'met' : 'missed' };
}

/**
 * The floor's server p50 (ms) from which the server ratio judges a target. `_meta.latency_ms` counts whole
 * milliseconds (a Worker's clock), so against a 1–2 ms floor a 2 ms tool reads 1× or 2× whatever it costs;
 * under this the verdict is on the client figures net of the request path (`net_p50`).
 */
export const SERVER_RESOLVES_MS = 5;

/**
 * A tool's p50 as a multiple of one D1 round trip, both net of the request path, from client wall times
 * (sub-millisecond): (tool − the tool seam without D1, why_empty) ÷ (/v1/ready − /v1/health). So the HTTP,
 * routing, auth and envelope a call pays whatever it asks count in neither part: a tool whose only cost over
 * the seam is one round trip reads 1×. Null without the three floors or when /v1/ready is no slower than
 * /v1/health (no round trip to measure).
 * @param {{ client_ms?: { p50?: number } }} x
 * @param {Record<string, { client_ms?: { p50?: number } }> | undefined} floor
 * @returns {number | null}
 */
export function netRatio(x, floor) {
  const tool = x.client_ms?.p50;
  const seam = floor?.[SEAM]?.client_ms?.p50;
  const ready = floor?.[READY]?.client_ms?.p50;
  const health = floor?.[HEALTH]?.client_ms?.p50;
  if (tool == null || seam == null || ready == null || health == null) return null;
  const ratio = overSeam(tool, seam, ready, health);
  return ratio === null ? null : Math.round(ratio * 100) / 100;
}

/** netRatio's quotient of four p50s (ms): the tool over the seam in round trips; null when ready is no slower than health. @param {number} tool @param {number} seam @param {number} ready @param {number} health */
function overSeam(tool, seam, ready, health) {
  return ready > health ? Math.max(0, tool - seam) / (ready - health) : null;
}

/** Nearest-rank p50 of unsorted times. @param {number[]} xs */
const median = (xs) => /** @type {number} */ (percentile(xs.slice().sort((a, b) => a - b), 50));

/**
 * netRatio from the calls themselves, their p50s unrounded (the summaries' p50s are rounded to 0.1 ms, which moves
 * a ratio over a 0.6 ms floor by up to a sixth), and a 95 % interval for it: each of the four p50s (the tool, the
 * seam, `/v1/ready`, `/v1/health`) recomputed over a resample of its calls drawn with replacement, `rounds` times (a
 * seeded PRNG, so a run's interval is the same on every machine), and the 2.5th and 97.5th percentiles of the
 * ratios those give. The point figure rests on p50s a few tenths of a millisecond apart; the interval says how far
 * the same calls let it move. Null when a series is empty or the floor is not positive, and the interval null when
 * the resampled floor is not positive in most rounds.
 * @param {number[]} tool @param {{ seam: number[], ready: number[], health: number[] }} floor @param {number} [rounds] @param {number} [seed]
 * @returns {{ ratio: number, interval: [number, number] | null } | null}
 */
export function netRatioSpread(tool, floor, rounds = 1000, seed = 7) {
  const series = [tool, floor.seam, floor.ready, floor.health];
  if (series.some((xs) => xs.length === 0)) return null;
  const quotient = (/** @type {number[]} */ [t, seam, ready, health]) => overSeam(t, seam, ready, health);
  const point = quotient(series.map(median));
  if (point === null) return null;
  const rand = prng(seed);
  const resample = (/** @type {number[]} */ xs) => median(Array.from({ length: xs.length }, () => xs[Math.floor(rand() * xs.length)]));
  const ratios = [];
  for (let i = 0; i < rounds; i++) {
    const ratio = quotient(series.map(resample));
    if (ratio !== null) ratios.push(ratio);
  }
  const r2 = (/** @type {number} */ x) => Math.round(x * 100) / 100;
  ratios.sort((a, b) => a - b);
  const bound = (/** @type {number} */ p) => r2(/** @type {number} */ (percentile(ratios, p)));
  return { ratio: r2(point), interval: ratios.length < rounds / 2 ? null : [bound(2.5), bound(97.5)] };
}

/**
 * The verdict on a p50 ratio target: on the server ratio when the floor's server p50 is at least
 * SERVER_RESOLVES_MS, else on the net client ratio (netRatio); null without a target or the ratio it needs.
 * @param {{ server_p50?: number | null, net_p50?: number | null } | null} ratio
 * @param {number | null} target
 * @param {number | null | undefined} floorServerP50
 * @returns {{ basis: 'server' | 'client_net' | null, verdict: 'met' | 'missed' | null }}
 */
export function ratioVerdict(ratio, target, floorServerP50) {
  if (target == null || !ratio) return { basis: null, verdict: null };
  const basis = floorServerP50 != null && floorServerP50 >= SERVER_RESOLVES_MS ? 'server' : 'client_net';
  const value = basis === 'server' ? ratio.server_p50 : ratio.net_p50;
  if (value == null) return { basis: null, verdict: null };
  return { basis, verdict: value <= target ? 'met' : 'missed' };
}

/**
 * A tool's p50 and p99 over the floor's (server and client figures), two decimals.
 * @param {{ server_ms: any, client_ms: any }} x @param {{ server_ms: any, client_ms: any } | undefined} ready
 */
function ratios(x, ready) {
  if (!ready) return null;
  const r = (/** @type {number | undefined} */ a, /** @type {number | undefined} */ b) => (a == null || !b ? null : Math.round((a / b) * 100) / 100);
  return {
    server_p50: r(x.server_ms?.p50, ready.server_ms?.p50),
    server_p99: r(x.server_ms?.p99, ready.server_ms?.p99),
    client_p50: r(x.client_ms?.p50, ready.client_ms?.p50),
    client_p99: r(x.client_ms?.p99, ready.client_ms?.p99),
  };
}

/**
 * Waits until the server's process group is idle (under 10 % of a CPU over two consecutive
 * seconds), so that work a push left running does not land in the measurements.
 * @param {number | null} pgid @param {number} maxMs
 * @returns {Promise<{ waited_ms: number, quiet: boolean | null }>}
 */
async function settle(pgid, maxMs) {
  const t0 = performance.now();
  if (!pgid || !groupCpuSeconds(pgid)) return { waited_ms: 0, quiet: null };
  let quietFor = 0;
  let last = groupCpuSeconds(pgid)?.total ?? 0;
  while (performance.now() - t0 < maxMs) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = groupCpuSeconds(pgid)?.total ?? last;
    quietFor = now - last < 0.1 ? quietFor + 1 : 0;
    last = now;
    if (quietFor >= 2) return { waited_ms: Math.round(performance.now() - t0), quiet: true };
  }
  return { waited_ms: Math.round(performance.now() - t0), quiet: false };
}

/** Most time the measured calls of one tool may take; past it the tool stops early (n says how many ran). */
const TOOL_BUDGET_MS = 90_000;

/** Longest one call may take; past it the call is recorded as `timeout` (the server may still be busy with it). */
const CALL_TIMEOUT_MS = 60_000;

/* ------------------------------------------------------------------ helpers */

/** mulberry32: a small seeded PRNG, identical on every machine. @param {number} seed */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `k` distinct items of `items` picked by `rand`, in pick order. @template T @param {T[]} items @param {number} k @param {() => number} rand @returns {T[]} */
function sample(items, k, rand) {
  const pool = items.slice();
  const out = [];
  while (out.length < k && pool.length) out.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]);
  return out;
}

/** Nearest-rank percentile of an ascending array. @param {number[]} sorted @param {number} p */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

/** @param {number[]} xs */
export function stats(xs) {
  if (xs.length === 0) return null;
  const s = xs.slice().sort((a, b) => a - b);
  const r1 = (/** @type {number} */ x) => Math.round(x * 10) / 10;
  return { n: s.length, p50: r1(percentile(s, 50)), p90: r1(percentile(s, 90)), p99: r1(percentile(s, 99)), max: r1(s[s.length - 1]), mean: r1(s.reduce((a, b) => a + b, 0) / s.length) };
}

const load = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

/** Leaf of a qualified name (Class.method → method). @param {string} q */
const leaf = (q) => q.split(/[.:#]/).filter(Boolean).pop() ?? q;

/** Identifier words of a name (getValue, get_value → [get, value]). @param {string} name */
function words(name) {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** Escapes a string for a JavaScript regex. @param {string} s */
const reEscape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/* ------------------------------------------------------------------- client */

/**
 * @typedef {object} Call
 * @property {boolean} ok
 * @property {number} status HTTP status (0: no answer)
 * @property {number | null} serverMs `_meta.latency_ms`
 * @property {number} clientMs
 * @property {number} bytes body bytes as received (after decompression)
 * @property {any} result
 * @property {string | null} errorCode
 * @property {string | null} errorMessage
 * @property {string | null} emptyReason
 * @property {number | null} roundTrips D1 round trips the call made (`X-Pincher-D1-Round-Trips`)
 */

/** @param {string} url @param {string} key */
export function client(url, key) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return {
    /** @param {string} tool @param {Record<string, unknown>} args @returns {Promise<Call>} */
    async call(tool, args) {
      const t0 = performance.now();
      let status = 0;
      let text = '';
      /** @type {number | null} */
      let roundTrips = null;
      try {
        const res = await fetch(`${url}/v1/tools/${tool}`, { method: 'POST', headers, body: JSON.stringify(args), signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
        status = res.status;
        text = await res.text();
        const trips = res.headers.get('x-pincher-d1-round-trips');
        roundTrips = trips === null ? null : Number(trips);
      } catch (err) {
        const timedOut = /** @type {Error} */ (err)?.name === 'TimeoutError';
        const errorCode = timedOut ? 'timeout' : 'fetch_failed';
        const errorMessage = timedOut ? `no answer within ${CALL_TIMEOUT_MS / 1000} s` : String(/** @type {Error} */ (err)?.message ?? err);
        return { ok: false, status, serverMs: null, clientMs: performance.now() - t0, bytes: 0, result: null, errorCode, errorMessage, emptyReason: null, roundTrips: null };
      }
      const clientMs = performance.now() - t0;
      /** @type {any} */
      let body = null;
      try {
        body = JSON.parse(text);
      } catch {
        /* reported below */
      }
      const serverMs = typeof body?._meta?.latency_ms === 'number' ? body._meta.latency_ms : null;
      if (status >= 400 || body?.error || !body) {
        return { ok: false, status, serverMs, clientMs, bytes: text.length, result: null, errorCode: body?.error?.code ?? `http_${status}`, errorMessage: body?.error?.message ?? text.slice(0, 200), emptyReason: null, roundTrips };
      }
      return { ok: true, status, serverMs, clientMs, bytes: text.length, result: body.result, errorCode: null, errorMessage: null, emptyReason: body._meta?.empty_reason ?? null, roundTrips };
    },
    /** GET a route and time it like a tool call (/v1/health has no `_meta`). @param {string} p @returns {Promise<Call>} */
    async ping(p) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${url}${p}`, { headers });
        const text = await res.text();
        const clientMs = performance.now() - t0;
        let serverMs = null;
        try {
          const ms = JSON.parse(text)?._meta?.latency_ms;
          if (typeof ms === 'number') serverMs = ms;
        } catch {
          /* not JSON */
        }
        return { ok: res.ok, status: res.status, serverMs, clientMs, bytes: text.length, result: null, errorCode: res.ok ? null : `http_${res.status}`, errorMessage: null, emptyReason: null, roundTrips: null };
      } catch (err) {
        return { ok: false, status: 0, serverMs: null, clientMs: performance.now() - t0, bytes: 0, result: null, errorCode: 'fetch_failed', errorMessage: String(/** @type {Error} */ (err)?.message ?? err), emptyReason: null, roundTrips: null };
      }
    },
    /** @param {string} p */
    async get(p) {
      const res = await fetch(`${url}${p}`, { headers });
      if (!res.ok) throw new Error(`GET ${p} answered HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
      return res.json();
    },
  };
}

/** A call that must succeed while deriving the mix. @param {ReturnType<typeof client>} c @param {string} tool @param {Record<string, unknown>} args */
async function must(c, tool, args) {
  const r = await c.call(tool, args);
  if (!r.ok) throw new Error(`latency: deriving the query mix: ${tool} ${JSON.stringify(args).slice(0, 200)} failed: ${r.errorCode}: ${r.errorMessage}`);
  return r.result;
}

/* ---------------------------------------------------------------------- mix */

/**
 * @typedef {{ variant: string, args: Record<string, unknown> }} MixEntry
 * @typedef {{ path: string, qname: string, kind: string, start: number, end: number, language: string, id: string }} Sym
 */

/**
 * Symbols of `files` as the server stores them: read's map per file, ids checked with `symbols`.
 * @param {ReturnType<typeof client>} c @param {string} project @param {{ path: string, language: string }[]} files
 * @returns {Promise<Sym[]>}
 */
async function symbolsOf(c, project, files) {
  /** @type {Sym[]} */
  const candidates = [];
  for (const f of files) {
    const r = await must(c, 'read', { project, path: f.path, map: true });
    const seen = new Set();
    for (const e of r.map ?? []) {
      const id = `${f.path}::${e.name}#${e.kind}`;
      if (seen.has(id)) continue; // a repeat carries ~N: keep the first of each name
      seen.add(id);
      candidates.push({ path: f.path, qname: e.name, kind: e.kind, start: e.start_line, end: e.end_line, language: f.language, id });
    }
  }
  const found = new Set();
  for (let i = 0; i < candidates.length; i += 100) {
    const r = await must(c, 'symbols', { project, ids: candidates.slice(i, i + 100).map((s) => s.id), fields: ['name'] });
    for (const s of r.symbols ?? []) found.add(s.id);
  }
  return candidates.filter((s) => found.has(s.id));
}

/**
 * The fixed query mix. Deterministic for a given corpus and seed.
 * @param {object} o
 * @param {ReturnType<typeof client>} o.c
 * @param {string} o.project
 * @param {{ path: string, language: string, bytes: number }[]} o.files the pushed corpus
 * @param {string} o.dir where the corpus lies (to quote real source lines)
 * @param {number} o.seed
 * @param {Map<string, any>} o.registered tool name → GET /v1/tools entry
 */
async function deriveMix({ c, project, files, dir, seed, registered }) {
  const rand = prng(seed);
  const sorted = files.slice().sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const langs = [...new Set(sorted.map((f) => f.language))].sort();
  // Files with a body worth reading: 2–100 KB.
  const picked = langs.flatMap((l) => sample(sorted.filter((f) => f.language === l && f.bytes >= 2_000 && f.bytes <= 100_000), 8, rand));
  const syms = await symbolsOf(c, project, picked);
  if (syms.length < 20) throw new Error(`latency: only ${syms.length} symbols found in ${picked.length} sampled files; is the project indexed?`);
  const named = syms.filter((s) => /^[A-Za-z_][A-Za-z0-9_]{3,}$/.test(leaf(s.qname)));
  const fns = syms.filter((s) => (s.kind === 'Function' || s.kind === 'Method') && s.end - s.start >= 3);
  const byLang = (/** @type {string} */ l) => fns.filter((s) => s.language === l);
  const rs = (/** @type {Sym[]} */ xs, /** @type {number} */ k) => sample(xs, k, rand);

  /** @type {Record<string, MixEntry[]>} */
  const mix = {};

  // search: single word, prefix, two-word AND, phrase; with and without filters.
  const single = rs(named, 6).map((s) => leaf(s.qname));
  const prefixes = ['auth*', ...rs(named, 3).map((s) => `${leaf(s.qname).slice(0, 4).toLowerCase()}*`)];
  const methods = syms.filter((s) => s.qname.includes('.') && /^[A-Za-z_]\w+$/.test(s.qname.split('.')[0]) && leaf(s.qname).length >= 3);
  const pairs = rs(methods, 4).map((s) => `${s.qname.split('.')[0]} ${leaf(s.qname)}`);
  const phrases = rs(named.filter((s) => words(leaf(s.qname)).length >= 2), 4).map((s) => `"${words(leaf(s.qname)).slice(0, 2).join(' ')}"`);
  const filtered = rs(named, 6).map((s, i) => {
    const name = leaf(s.qname);
    return [
      { query: name, kind: s.kind },
      { query: name, language: s.language },
      { query: name, file_pattern: `${s.path.split('/').slice(0, 2).join('/')}/` },
      { query: `${name.slice(0, 4).toLowerCase()}*`, kind: 'Function' },
      { query: name, language: s.language, kind: s.kind },
      { query: `${name.slice(0, 4).toLowerCase()}*`, file_pattern: `*${path.extname(s.path)}` },
    ][i % 6];
  });
  mix.search = [
    ...single.map((q) => ({ variant: 'single word', args: { project, query: q } })),
    ...prefixes.map((q) => ({ variant: 'prefix', args: { project, query: q } })),
    ...pairs.map((q) => ({ variant: 'two-word AND', args: { project, query: q } })),
    ...phrases.map((q) => ({ variant: 'phrase', args: { project, query: q } })),
    ...filtered.map((f) => ({ variant: 'with filters', args: { project, ...f } })),
  ];

  // symbol, symbols: ids checked to exist.
  const ids = rs(syms, Math.min(60, syms.length)).map((s) => s.id);
  mix.symbol = ids.slice(0, 30).map((id) => ({ variant: 'by id', args: { project, id } }));
  mix.symbols = Array.from({ length: 6 }, (_, i) => ({ variant: '10 ids', args: { project, ids: Array.from({ length: 10 }, (_, k) => ids[(i * 10 + k) % ids.length]) } }));

  // read: a path window, one symbol, the map.
  const readSyms = rs(syms.filter((s) => s.end - s.start >= 2), 8);
  mix.read = [
    ...readSyms.map((s) => ({ variant: 'path window', args: { project, path: s.path, offset: s.start, limit: 100 } })),
    ...readSyms.map((s) => ({ variant: 'symbol', args: { project, path: s.path, symbol: s.qname } })),
    ...readSyms.map((s) => ({ variant: 'map', args: { project, path: s.path, map: true } })),
  ];

  // grep: literals and regexes that hit and miss. A "hit" variant is asked once here and kept only if it
  // finds something, so a checkout in other languages than the fixed patterns' does not measure misses
  // under a hit's name; names from the corpus fill the places of the patterns that found nothing.
  const grepNames = sample([...new Set(named.map((s) => leaf(s.qname)).filter((n) => n.length >= 6))].sort(), 12, rand);
  const py = langs.includes('python');
  const literalHits = await hitting(c, 'grep', [
    ...grepNames.slice(0, 4).map((n) => ({ variant: 'literal hit', args: { project, pattern: n, literal: true } })),
    { variant: 'literal hit', args: { project, pattern: py ? 'raise ValueError(' : 'throw new Error(', literal: true } },
    { variant: 'literal hit', args: { project, pattern: 'return None', literal: true, path: '*.py' } },
    ...grepNames.slice(6).map((n) => ({ variant: 'literal hit', args: { project, pattern: n, literal: true } })),
  ], 6);
  const regexHits = await hitting(c, 'grep', [
    { variant: 'regex hit', args: { project, pattern: 'def [a-z]+_[a-z]+\\(self' } },
    { variant: 'regex hit', args: { project, pattern: 'export (async )?function \\w+' } },
    { variant: 'regex hit', args: { project, pattern: 'class \\w+Error\\b' } },
    ...[...grepNames.slice(4, 6), ...grepNames.slice(6).reverse()].map((n) => ({ variant: 'regex hit', args: { project, pattern: `\\b${reEscape(n)}\\s*\\(` } })),
  ], 5);
  mix.grep = [
    ...literalHits,
    ...['pincherBenchAbsentToken', 'zz_qx_not_in_corpus', 'no such literal 9Qz'].map((p) => ({ variant: 'literal miss', args: { project, pattern: p, literal: true } })),
    ...regexHits,
    { variant: 'regex miss', args: { project, pattern: 'zq[0-9]{3}_absent_\\w+' } },
    { variant: 'regex miss', args: { project, pattern: 'pincherBench(Missing|Absent)Symbol' } },
    { variant: 'regex miss', args: { project, pattern: '^\\s*def xq_[a-z]+_never\\(' } },
  ];

  // find: globs and folder globs, each kept only if it lists a file (as grep's hits above); the corpus's
  // own name endings, file names and folders fill the places of the fixed globs that list nothing.
  const folders = [...new Set(picked.map((f) => f.path.split('/').slice(0, -1).slice(0, 2).join('/')).filter(Boolean))].sort();
  const endings = [...count(sorted.map((f) => path.posix.extname(f.path)).filter(Boolean))].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([e]) => e);
  const stems = [...count(sorted.map((f) => path.posix.basename(f.path, path.posix.extname(f.path))))].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([n]) => n);
  const globs = await hitting(c, 'find', [
    ...['**/*.py', '**/*.d.ts', '*.mjs', '**/test_*.py', 'python/*/__init__.py', 'npm/**/index.*'],
    ...endings.slice(0, 3).map((e) => `**/*${e}`),
    ...stems.slice(0, 3).map((n) => `**/${n}.*`),
  ].map((p) => ({ variant: 'glob', args: { project, pattern: p } })), 6);
  const folderGlobs = await hitting(c, 'find', folders.map((d) => ({ variant: 'folder glob', args: { project, pattern: `${d}/**` } })), 4);
  mix.find = [...globs, ...folderGlobs];

  // The other families, when registered: arguments from their input schemas.
  /** @type {Record<string, string>} */
  const skipped = {};
  /** @type {Record<string, string[]>} */
  const unfilled = {};
  const seeds = {};
  const build = (/** @type {string} */ tool, /** @type {Record<string, unknown>} */ roles, /** @type {string} */ variant) => {
    const { args, missing } = argsFromSchema(registered.get(tool)?.input_schema, { project, ...roles });
    if (missing.length) unfilled[tool] = missing;
    return { variant, args };
  };

  // Seeds for the graph: functions and methods outside tests that call something outside tests through
  // an edge trace follows by default (confidence ≥ 0.8; tests left out), by id from the query tool when
  // it answers (a trace from a leaf, from a declaration that shares a caller's name, or over name-guess
  // edges only, walks nothing); random functions fill up to five. Ordered, so the seeds depend on the tier's content and the seed,
  // not on the order edges are stored in.
  /**
   * Ids of the functions and methods at one end (`a` callers, `b` callees) of the CALLS edges trace
   * follows by default, tests left out; null when the query tool is not registered.
   * @param {'a' | 'b'} end
   */
  const probeIds = async (end) => {
    if (!registered.has('query')) return null;
    const query = `MATCH (a)-[r:CALLS]->(b) WHERE (${end}:Function OR ${end}:Method) AND r.confidence >= 0.8 AND NOT a.is_test AND NOT b.is_test RETURN DISTINCT ${end}.id, ${end}.name ORDER BY ${end}.id LIMIT ${PROBE_ROWS}`;
    const r = await c.call('query', { ...build('query', { query }, `${end === 'a' ? 'callers' : 'callees'} probe`).args, max_rows: PROBE_ROWS });
    // Each id with the symbol's name as stored (a name may hold a `#` or a `.`, as `#private` members do: not read out of the id).
    const names = new Map(r.ok ? rowsOf(r.result).filter(([id, name]) => typeof id === 'string' && id.includes('::') && typeof name === 'string').map(([id, name]) => [String(id), String(name)]) : []);
    return { ids: [...names.keys()].sort(), names, error: r.ok ? null : `${r.errorCode}: ${r.errorMessage}` };
  };
  /** Qualified name of a symbol id (`path::Class.method#Kind~2` → `Class.method`; the kind follows the last `#`, as parseSymbolId reads it). @param {string} id */
  const qnameOf = (id) => id.slice(id.indexOf('::') + 2, id.lastIndexOf('#'));
  /** @type {{ name: string, id: string }[]} */
  let callerIds = [];
  const callers = await probeIds('a');
  if (callers) {
    callerIds = sample(callers.ids, 5, rand).map((id) => ({ name: callers.names.get(id) ?? leaf(qnameOf(id)), id }));
    seeds.query_probe = callers.error ? { error: callers.error } : { ids: callers.ids.length };
  }
  const traceSeeds = [...callerIds.map((x) => x.id), ...rs(fns, 5 - callerIds.length).map((s) => s.id)];
  const varName = callerIds[0]?.name ?? (fns[0] ? leaf(fns[0].qname) : 'main');
  Object.assign(seeds, { callers: callerIds, trace_ids: traceSeeds, var_length_name: varName });

  if (registered.has('trace')) mix.trace = traceSeeds.map((id) => build('trace', { symbol: id, depth: 3, direction: 'both' }, 'depth 3, both'));
  else skipped.trace = 'not registered';
  if (registered.has('query')) {
    mix.query = [
      build('query', { query: 'MATCH (a:Function)-[:CALLS]->(b) RETURN a.name, b.name LIMIT 50' }, 'single hop'),
      build('query', { query: `MATCH (a)-[:CALLS*1..3]->(b) WHERE a.name = '${varName.replace(/'/g, "\\'")}' RETURN DISTINCT b.name LIMIT 100` }, 'variable length 1..3'),
    ];
  } else skipped.query = 'not registered';
  if (registered.has('architecture')) mix.architecture = [build('architecture', {}, 'project')];
  else skipped.architecture = 'not registered';

  // The other read tools, so that the per-tool table leaves none out: a symbol's context by id and by name, the
  // neighbourhood of the graph seeds, folder listings, the schema, a routed task, a batch of three lite calls, and
  // the project listings. Every argument comes from the pushed checkout (ids and names checked above).
  // Drawn with a generator of their own, so the rest of the mix stays as it was.
  const orand = prng(seed + 2);
  const ors = (/** @type {Sym[]} */ xs, /** @type {number} */ k) => sample(xs, k, orand);
  // The task of guide and context_for_task.
  const taskSym = fns.find((s) => s.qname.includes('.')) ?? fns[0] ?? syms[0];
  const task = `Fix ${taskSym.qname} in ${taskSym.path}: it returns a stale value when its input is empty, and add a test for that case`;
  const batchSym = ors(syms, 1)[0];
  /** @type {Record<string, MixEntry[]>} */
  const others = {
    context: [
      ...ors(fns, 3).map((s) => ({ variant: 'by id', args: { project, id: s.id } })),
      ...ors(fns, 3).map((s) => ({ variant: 'by name', args: { project, name: s.qname } })),
    ],
    neighborhood: traceSeeds.slice(0, 4).map((id) => ({ variant: 'by id', args: { project, id } })),
    ls: [
      { variant: 'root', args: { project } },
      ...folders.slice(0, 3).map((d) => ({ variant: 'folder', args: { project, path: d } })),
      { variant: 'root, depth 3', args: { project, max_depth: 3 } },
    ],
    schema: [{ variant: 'project', args: { project } }],
    guide: [{ variant: 'task', args: { project, task } }],
    batch: [
      {
        variant: 'three lite calls',
        args: {
          project,
          calls: [
            { tool: 'symbol', args: { id: batchSym.id } },
            { tool: 'search', args: { query: leaf(batchSym.qname) } },
            { tool: 'find', args: { pattern: `**/*${path.extname(batchSym.path)}` } },
          ],
        },
      },
    ],
    list: [{ variant: 'every project', args: {} }],
    health: [{ variant: 'project', args: { project } }],
  };
  for (const [tool, entries] of Object.entries(others)) {
    if (registered.has(tool)) mix[tool] = entries;
    else skipped[tool] = 'not registered';
  }

  // One-shot composites: a task, a stack trace through real functions, a change, a diff, the dead code.
  const failure = await stackTrace(dir, py ? byLang('python') : fns, rand);
  const diffSyms = pickTwoFiles(fns, rand);
  const diff = await unifiedDiff(dir, diffSyms);
  // A change plans best on a function something calls: a callee named by the query tool, else the task's symbol.
  let planSym = { id: taskSym.id, qname: taskSym.qname };
  const callees = await probeIds('b');
  const [calleeId] = callees ? sample(callees.ids, 1, rand) : [];
  if (calleeId) planSym = { id: calleeId, qname: qnameOf(calleeId) };
  const change = `Rename ${leaf(planSym.qname)} to ${leaf(planSym.qname)}V2 and update every caller`;
  Object.assign(seeds, { task, failure, diff_symbols: diffSyms.map((s) => s.id), plan_symbol: planSym.id });
  const oneShot = {
    context_for_task: { task },
    investigate_failure: { failure },
    plan_change: { symbol: planSym.id, change, task: change },
    changes: { diff },
    dead_code: {},
  };
  for (const [tool, roles] of Object.entries(oneShot)) {
    if (registered.has(tool)) mix[tool] = [build(tool, roles, 'one run')];
    else skipped[tool] = 'not registered';
  }
  return { mix, misses: deriveMisses({ project, syms: named, seed, build, registered }), skipped, unfilled, seeds, sampled_files: picked.map((f) => f.path), symbols_seen: syms.length };
}

/**
 * Misses an agent meets, per tool: a mistyped or stale id, a name the project lacks, a filter that excludes every
 * match, a glob that matches nothing. Their answers take the recovery paths (did-you-mean, extraction gaps, the
 * filters' counts), measured apart from the mix. Drawn with a generator of their own, so the mix stays as it was.
 * @param {{ project: string, syms: Sym[], seed: number, build: (tool: string, roles: Record<string, unknown>, variant: string) => MixEntry, registered: Map<string, any> }} o
 */
function deriveMisses({ project, syms, seed, build, registered }) {
  const rand = prng(seed + 1);
  const [a, b, c, d] = sample(syms, 4, rand);
  // The leaf name with its second-to-last character dropped: a typo.
  const typo = (/** @type {Sym} */ s) => {
    const name = leaf(s.qname);
    return `${s.qname.slice(0, s.qname.length - name.length)}${name.slice(0, -2)}${name.slice(-1)}`;
  };
  const typoId = (/** @type {Sym} */ s) => `${s.path}::${typo(s)}#${s.kind}`;
  const otherKind = (/** @type {Sym} */ s) => (s.kind === 'Class' ? 'Function' : 'Class');
  /** @type {Record<string, MixEntry[]>} */
  const misses = {
    symbol: [
      { variant: 'mistyped id', args: { project, id: typoId(a) } },
      { variant: 'mistyped id', args: { project, id: typoId(b) } },
      { variant: 'wrong kind', args: { project, id: `${c.path}::${c.qname}#${otherKind(c)}` } },
    ],
    search: [
      { variant: 'absent word', args: { project, query: leaf(typo(a)) } },
      { variant: 'absent word', args: { project, query: 'zzqNoSuchWordAnywhere' } },
      { variant: 'filter excludes', args: { project, query: leaf(d.qname), file_pattern: 'zzq_missing/' } },
    ],
    read: [{ variant: 'absent symbol', args: { project, path: b.path, symbol: typo(b) } }],
    find: [
      { variant: 'no such ending', args: { project, pattern: '**/*.zzqnosuch' } },
      { variant: 'no such folder', args: { project, pattern: 'zzq_missing/**' } },
      { variant: 'filters exclude', args: { project, pattern: `**/*${path.extname(c.path)}`, language: 'zzq' } },
    ],
  };
  if (registered.has('trace')) misses.trace = [build('trace', { symbol: typoId(d), depth: 3, direction: 'both' }, 'mistyped id')];
  return misses;
}

/** Two functions in two different files. @param {Sym[]} fns @param {() => number} rand */
function pickTwoFiles(fns, rand) {
  const first = sample(fns, 1, rand)[0];
  const second = sample(fns.filter((s) => s.path !== first?.path), 1, rand)[0];
  return [first, second].filter(Boolean);
}

/** Lines of a corpus file. @param {string} dir @param {string} p */
async function linesOf(dir, p) {
  return (await readFile(path.join(dir, p), 'utf8')).split(/\r?\n/);
}

/**
 * A stack trace through three real functions (a Python traceback when Python is indexed, else
 * a Node one), innermost last, quoting the indexed path and the real first body line.
 * @param {string} dir @param {Sym[]} fns @param {() => number} rand
 */
async function stackTrace(dir, fns, rand) {
  const frames = sample(fns, 3, rand);
  const python = frames[0]?.language === 'python';
  const out = [];
  if (python) {
    out.push('Traceback (most recent call last):');
    for (const f of frames) {
      const line = f.start + 1;
      const text = ((await linesOf(dir, f.path))[line - 1] ?? '').trim();
      out.push(`  File "/home/runner/work/app/app/${f.path}", line ${line}, in ${leaf(f.qname)}`, `    ${text}`);
    }
    out.push(`ValueError: invalid value passed to ${leaf(frames[frames.length - 1]?.qname ?? 'main')}()`);
  } else {
    out.push(`TypeError: Cannot read properties of undefined (reading 'length')`);
    for (const f of frames.slice().reverse()) out.push(`    at ${f.qname} (/home/runner/work/app/app/${f.path}:${f.start + 1}:12)`);
  }
  return out.join('\n');
}

/**
 * A unified diff that changes the first body line of each function (a trailing comment).
 * @param {string} dir @param {Sym[]} syms
 */
async function unifiedDiff(dir, syms) {
  const out = [];
  for (const s of syms) {
    const lines = await linesOf(dir, s.path);
    const k = Math.min(s.start + 1, lines.length); // 1-based line changed
    const from = Math.max(1, k - 3);
    const to = Math.min(lines.length, k + 3);
    const comment = s.language === 'python' ? '  # bench: changed' : ' // bench: changed';
    out.push(`diff --git a/${s.path} b/${s.path}`, `--- a/${s.path}`, `+++ b/${s.path}`, `@@ -${from},${to - from + 1} +${from},${to - from + 1} @@ ${leaf(s.qname)}`);
    for (let i = from; i <= to; i++) {
      if (i === k) out.push(`-${lines[i - 1]}`, `+${lines[i - 1]}${comment}`);
      else out.push(` ${lines[i - 1]}`);
    }
  }
  return `${out.join('\n')}\n`;
}

/**
 * The indexed files of `project` in the languages the server reads with a tags extractor (health's
 * tier `ast`), with the server's own language ids: what a checkout's query mix samples
 * (`--latency-dir`), whatever its languages. find returns at most 1,000 files per language, enough
 * for the mix's eight per language.
 * @param {string} url @param {string} key @param {string} project
 * @returns {Promise<{ path: string, language: string, bytes: number }[]>}
 */
export async function codeFilesOf(url, key, project) {
  const c = client(url, key);
  const health = await c.call('health', { project });
  if (!health.ok) throw new Error(`latency: health of ${project} failed (${health.errorCode}: ${health.errorMessage})`);
  const languages = (health.result?.projects?.[0]?.languages ?? []).filter((/** @type {any} */ l) => l.tier === 'ast').map((/** @type {any} */ l) => l.language);
  const files = [];
  for (const language of languages) {
    const found = await c.call('find', { project, language, limit: 1000 });
    if (!found.ok) throw new Error(`latency: find ${language} in ${project} failed (${found.errorCode}: ${found.errorMessage})`);
    for (const f of found.result?.files ?? []) files.push({ path: f.path, language: f.language, bytes: f.size });
  }
  if (files.length === 0) throw new Error(`latency: ${project} holds no file in a language with a tags extractor (health: ${languages.length ? languages.join(', ') : 'none'})`);
  return files;
}

/**
 * The rows of a query answer as arrays of their values, whatever its row shape.
 * @param {any} result @returns {unknown[][]}
 */
function rowsOf(result) {
  /** @type {any[] | null} */
  let rows = null;
  const visit = (/** @type {any} */ v, depth = 0) => {
    if (rows || depth > 3 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      if (v.length && typeof v[0] === 'object' && v[0] !== null) rows = v;
      return;
    }
    for (const x of Object.values(v)) visit(x, depth + 1);
  };
  visit(result);
  return (rows ?? []).map((r) => (Array.isArray(r) ? r : Object.values(r)));
}

/** Property name → role for schema-driven arguments (first matching rule wins). */
const ROLE_RULES = [
  [/^project$/, 'project'],
  [/^(id|symbol|symbol_id|target|target_id|from|start|root|node|seed|entry)$/, 'symbol'],
  [/^(depth|max_depth|hops|max_hops)$/, 'depth'],
  [/^direction$/, 'direction'],
  [/^(query|q|cypher|pinchql|statement)$/, 'query'],
  [/^(task|goal|description|intent|question|prompt)$/, 'task'],
  [/^(failure|error|stack|stack_trace|stacktrace|traceback|trace|log|output|error_text|message)$/, 'failure'],
  [/^(diff|patch|unified_diff)$/, 'diff'],
  [/^(change|changes|plan|proposal|summary)$/, 'change'],
];

/**
 * Arguments for a tool from its advertised input schema and the values at hand, by role.
 * @param {any} schema JSON schema of the input
 * @param {Record<string, unknown>} roles
 * @returns {{ args: Record<string, unknown>, missing: string[] }}
 */
export function argsFromSchema(schema, roles) {
  const props = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  /** @type {Record<string, unknown>} */
  const args = {};
  const missing = [];
  const used = new Set();
  for (const [name, prop] of Object.entries(props)) {
    const role = ROLE_RULES.find(([re]) => /** @type {RegExp} */ (re).test(name))?.[1];
    let value = role !== undefined && !used.has(role) ? roles[/** @type {string} */ (role)] : undefined;
    if (value !== undefined) {
      const p = /** @type {any} */ (prop);
      if (Array.isArray(p.enum) && !p.enum.includes(value)) value = required.has(name) ? p.enum[0] : undefined;
      if (p.type === 'array' && !Array.isArray(value)) value = [value];
      if ((p.type === 'integer' || p.type === 'number') && typeof value === 'number' && typeof p.maximum === 'number') value = Math.min(value, p.maximum);
    }
    if (value !== undefined) {
      args[name] = value;
      used.add(role);
    } else if (required.has(name)) {
      const p = /** @type {any} */ (prop);
      if (Array.isArray(p.enum) && p.enum.length) args[name] = p.enum[0];
      else missing.push(name);
    }
  }
  return { args, missing };
}

/* --------------------------------------------------------------------- runs */

/** What an answer held, for the JSON (sizes, not contents). @param {Call} r */
function shape(r) {
  if (!r.ok) return { error: r.errorCode, message: r.errorMessage?.slice(0, 300) ?? null };
  /** @type {Record<string, unknown>} */
  const out = { bytes: r.bytes };
  for (const [k, v] of Object.entries(r.result ?? {})) out[k] = Array.isArray(v) ? `[${v.length}]` : v !== null && typeof v === 'object' ? '{…}' : typeof v === 'string' && v.length > 80 ? `${v.slice(0, 77)}…` : v;
  if (r.emptyReason) out.empty_reason = r.emptyReason;
  return out;
}

/** Whether a successful answer found something. @param {string} tool @param {any} result */
function hit(tool, result) {
  if (!result) return false;
  if (tool === 'search' || tool === 'find') return (result.total ?? 0) > 0;
  if (tool === 'grep') return (result.total_matches ?? 0) > 0;
  if (tool === 'symbol') return result.symbol != null;
  if (tool === 'symbols') return (result.symbols?.length ?? 0) > 0;
  return true;
}


/**
 * The first `k` of `candidates` whose call finds something (asked once each, in order): a mix entry
 * named a hit is one.
 * @param {{ call: (tool: string, args: Record<string, unknown>) => Promise<Call> }} c @param {string} tool @param {MixEntry[]} candidates @param {number} k
 * @returns {Promise<MixEntry[]>}
 */
export async function hitting(c, tool, candidates, k) {
  /** @type {MixEntry[]} */
  const out = [];
  for (const e of candidates) {
    if (out.length >= k) break;
    if (found(tool, await c.call(tool, e.args))) out.push(e);
  }
  return out;
}

/** Whether a call found something: a successful answer without an empty_reason that holds a hit. @param {string} tool @param {Call} call */
const found = (tool, call) => call.ok && !call.emptyReason && hit(tool, call.result);

/**
 * Runs the latency stage against a server that already holds `project`.
 * @param {object} o
 * @param {string} o.url server URL (direct, no proxy)
 * @param {string} o.key bench key
 * @param {string} o.project
 * @param {{ path: string, language: string, bytes: number }[]} o.files the pushed corpus
 * @param {string} o.dir the corpus folder
 * @param {number} o.calls measured calls per repeated tool
 * @param {number} o.warmup warm-up calls per repeated tool
 * @param {number} o.seed
 * @param {number | null} [o.serverPgid] for the server's CPU time
 * @param {(line: string) => void} [o.log]
 */
export async function runLatency({ url, key, project, files, dir, calls, warmup, seed, serverPgid = null, log = () => {} }) {
  const started = performance.now();
  const c = client(url, key);
  log('  waiting for the server to go idle…');
  const settled = await settle(serverPgid, 15 * 60_000);
  log(`  ${settled.quiet === false ? 'still busy' : 'idle'} after ${(settled.waited_ms / 1000).toFixed(1)} s`);
  const loadavgStart = load();
  const listed = await c.get('/v1/tools');
  /** @type {Map<string, any>} */
  const registered = new Map((listed.tools ?? []).map((/** @type {any} */ t) => [t.name, t]));
  for (const t of CORE) if (!registered.has(t)) throw new Error(`latency: the server does not list the core tool '${t}'`);

  // The shards the server reads (`/v1/ready?shard=N` answers 404 past the last): list and health read each.
  let shards = 1;
  while (shards < 64 && (await c.ping(`/v1/ready?shard=${shards}`)).ok) shards++;
  log(`  deriving the query mix (seed ${seed})…`);
  const derived = await deriveMix({ c, project, files, dir, seed, registered });
  const repeated = [...CORE, ...REPEATED_EXTRA].filter((t) => derived.mix[t]);
  const oneShot = ONE_SHOT.filter((t) => derived.mix[t]);

  /**
   * Argument sets already sent in this run (warm-up included), by tool: a call whose set is new meets the
   * isolate's per-question memos (savings baselines, kept per project generation) cold, as an agent's first
   * question does; a repeat finds them warm. The two are reported apart (`first_seen`, `repeats`).
   */
  const seen = new Set();
  const seenKey = (/** @type {string} */ t, /** @type {Record<string, unknown>} */ args) => `${t}\u0000${JSON.stringify(args)}`;
  /** @type {Record<string, { variant: string, call: Call, first?: boolean }[]>} */
  const samples = Object.fromEntries([...repeated, ...oneShot].map((t) => [t, []]));
  /** @type {Record<string, number>} */
  const spent = Object.fromEntries(repeated.map((t) => [t, 0]));
  /** @type {Record<string, Call[]>} */
  const floor = Object.fromEntries(FLOOR.map((f) => [f.label, []]));

  /** Tools whose warm-up call timed out: not measured (a timed-out call may keep the server busy). */
  /** @type {Record<string, string>} */
  const timedOut = {};
  const warm = async (/** @type {string} */ t, /** @type {{ variant: string, args: Record<string, unknown> }} */ m) => {
    if (timedOut[t]) return;
    seen.add(seenKey(t, m.args));
    const r = await c.call(t, m.args);
    if (r.errorCode === 'timeout') {
      timedOut[t] = `warm-up call (${m.variant}) gave no answer within ${CALL_TIMEOUT_MS / 1000} s`;
      log(`    ${t}: ${timedOut[t]}; not measured`);
      await settle(serverPgid, 15 * 60_000);
    }
  };
  log(`  warm-up: ${warmup} call(s) per tool (${repeated.length} tools), one per one-shot tool (${oneShot.length})…`);
  for (let i = 0; i < warmup; i++) {
    for (const t of repeated) await warm(t, derived.mix[t][i % derived.mix[t].length]);
  }
  for (const t of oneShot) await warm(t, derived.mix[t][0]);
  for (const t of Object.keys(timedOut)) {
    repeated.splice(repeated.indexOf(t), 1);
    if (oneShot.includes(t)) oneShot.splice(oneShot.indexOf(t), 1);
    delete samples[t];
  }
  for (const f of FLOOR) for (let i = 0; i < Math.min(warmup, 5); i++) await f.call(c);

  log(`  measuring: ${calls} call(s) per tool, interleaved (load ${load().join(' ')})…`);
  const cpuBefore = serverPgid ? groupCpuSeconds(serverPgid) : null;
  const loadSamples = [load()];
  const measureStarted = performance.now();
  let totalCalls = 0;
  for (let i = 0; i < calls; i++) {
    for (const t of repeated) {
      if (spent[t] > TOOL_BUDGET_MS) continue;
      const m = derived.mix[t][i % derived.mix[t].length];
      const first = !seen.has(seenKey(t, m.args));
      seen.add(seenKey(t, m.args));
      const call = await c.call(t, m.args);
      spent[t] += call.clientMs;
      samples[t].push({ variant: m.variant, call, first });
      totalCalls++;
    }
    for (const f of FLOOR) {
      floor[f.label].push(await f.call(c));
      totalCalls++;
    }
    if ((i + 1) % 50 === 0) {
      loadSamples.push(load());
      log(`    ${i + 1}/${calls} (load ${load().join(' ')})`);
    }
  }
  const measureMs = performance.now() - measureStarted;
  const cpuAfter = serverPgid ? groupCpuSeconds(serverPgid) : null;
  for (const t of oneShot) {
    const call = await c.call(t, derived.mix[t][0].args);
    samples[t].push({ variant: 'one run', call });
  }
  // Misses, apart from the mix: each case warmed once, then called in turn.
  const missCalls = Math.max(5, Math.round(calls / 4));
  /** @type {Record<string, { variant: string, call: Call }[]>} */
  const missSamples = {};
  for (const [t, cases] of Object.entries(derived.misses)) {
    if (timedOut[t] || !registered.has(t)) continue;
    for (const m of cases) await c.call(t, m.args);
    missSamples[t] = [];
    for (let i = 0; i < missCalls; i++) {
      const m = cases[i % cases.length];
      missSamples[t].push({ variant: m.variant, call: await c.call(t, m.args) });
    }
  }

  /** @type {Record<string, any>} */
  const tools = {};
  for (const [t, s] of Object.entries(samples)) {
    const [t50, t99] = LATENCY_TARGETS[/** @type {keyof typeof LATENCY_TARGETS} */ (t)] ?? [null, null];
    const all = summarise(t, s);
    const variants = {};
    for (const v of [...new Set(s.map((x) => x.variant))]) variants[v] = summarise(t, s.filter((x) => x.variant === v));
    const verdict = t50 === null || !all.server_ms || all.errors === all.n ? null : verdictOf(all.server_ms, t50, t99);
    tools[t] = {
      ...all,
      ...(repeated.includes(t) ? { first_seen: summarise(t, s.filter((x) => x.first === true)), repeats: summarise(t, s.filter((x) => x.first === false)) } : {}),
      target_ms: t50 === null ? null : { p50: t50, p99: t99 },
      verdict,
      variants,
      ...(spent[t] > TOOL_BUDGET_MS ? { stopped_early: `stopped after ${all.n} calls: the ${TOOL_BUDGET_MS / 1000} s budget per tool was spent` } : {}),
      ...(oneShot.includes(t) ? { answer: shape(s[0].call) } : {}),
      ...(derived.unfilled[t] ? { unfilled_required: derived.unfilled[t] } : {}),
      args_example: derived.mix[t][0].args,
    };
  }
  /** @type {Record<string, any>} */
  const misses = {};
  for (const [t, xs] of Object.entries(missSamples)) {
    misses[t] = {
      ...summarise(t, xs),
      cases: derived.misses[t].map((m) => ({ variant: m.variant, args: m.args })),
    };
  }
  const floorSummary = Object.fromEntries(Object.entries(floor).map(([label, xs]) => [label, { n: xs.length, server_ms: stats(xs.flatMap((x) => (x.serverMs === null ? [] : [x.serverMs]))), client_ms: stats(xs.map((x) => x.clientMs)), errors: xs.filter((x) => !x.ok).length }]));
  const ready = floorSummary[READY];
  const floorClients = Object.fromEntries(/** @type {const} */ ([['seam', SEAM], ['ready', READY], ['health', HEALTH]]).map(([k, label]) => [k, (floor[label] ?? []).map((c) => c.clientMs)]));
  for (const [t, x] of Object.entries(tools)) {
    const tier = registered.get(t)?.tier ?? null;
    x.tier = tier;
    // The net ratio from the calls' own client times (netRatioSpread): unrounded p50s, with a 95 % interval.
    const withNet = (/** @type {any} */ s, /** @type {{ call: Call }[]} */ calls) => {
      const r = ratios(s, ready);
      if (!r) return r;
      const spread = netRatioSpread(calls.map((c) => c.call.clientMs), floorClients);
      return { ...r, net_p50: spread?.ratio ?? netRatio(s, floorSummary), net_p50_ci95: spread?.interval ?? null };
    };
    const own = samples[t] ?? [];
    x.ratio_to_floor = withNet(x, own);
    if (x.first_seen?.n) x.first_seen.ratio_to_floor = withNet(x.first_seen, own.filter((c) => c.first === true));
    if (x.repeats?.n) x.repeats.ratio_to_floor = withNet(x.repeats, own.filter((c) => c.first === false));
    if (misses[t]) misses[t].ratio_to_floor = withNet(misses[t], missSamples[t]);
    const target = RATIO_TARGETS[t] ?? (tier ? RATIO_TARGETS[`tier:${tier}`] : undefined) ?? null;
    x.ratio_target_p50 = target;
    const judged = ratioVerdict(x.ratio_to_floor, target, ready?.server_ms?.p50);
    x.ratio_basis = judged.basis;
    x.ratio_verdict = judged.verdict;
    const trips = tripVerdict(t, tier, x.d1_round_trips, shards);
    x.trips_target_p50 = trips?.target ?? null;
    x.trips_verdict = trips?.verdict ?? null;
  }
  const cpuS = cpuBefore && cpuAfter ? Math.round((cpuAfter.total - cpuBefore.total) * 100) / 100 : null;
  const cpuByCommand = cpuBefore && cpuAfter
    ? Object.fromEntries(Object.entries(cpuAfter.byCommand).map(([k, v]) => [k, Math.round((v - (cpuBefore.byCommand[k] ?? 0)) * 100) / 100]))
    : null;
  return {
    project,
    seed,
    settle: settled,
    shards,
    calls_per_tool: calls,
    warmup_per_tool: warmup,
    tool_budget_ms: TOOL_BUDGET_MS,
    registered: [...registered.keys()],
    skipped: derived.skipped,
    timed_out: timedOut,
    tools,
    misses,
    floor: floorSummary,
    mix: Object.fromEntries(Object.entries(derived.mix).map(([t, m]) => [t, m])),
    seeds: derived.seeds,
    sampled_files: derived.sampled_files,
    symbols_seen_in_sample: derived.symbols_seen,
    measured_calls: totalCalls,
    measure_ms: Math.round(measureMs),
    server_cpu_s: cpuS,
    server_cpu_by_command: cpuByCommand,
    server_cpu_ms_per_call: cpuS !== null && totalCalls ? Math.round((cpuS * 1000 * 10) / totalCalls) / 10 : null,
    loadavg_start: loadavgStart,
    loadavg_samples: loadSamples,
    loadavg_end: load(),
    run_ms: Math.round(performance.now() - started),
  };
}

/**
 * Counts and percentiles of a tool's calls: latency, sizes, round trips, hits, empty reasons and errors.
 * @param {string} t the tool @param {{ call: Call }[]} xs
 */
function summarise(t, xs) {
  const errors = xs.filter((x) => !x.call.ok);
  /** @type {Record<string, number>} */
  const errorCodes = {};
  for (const e of errors) errorCodes[e.call.errorCode ?? '?'] = (errorCodes[e.call.errorCode ?? '?'] ?? 0) + 1;
  return {
    n: xs.length,
    server_ms: stats(xs.flatMap((x) => (x.call.serverMs === null ? [] : [x.call.serverMs]))),
    client_ms: stats(xs.map((x) => x.call.clientMs)),
    response_bytes: stats(xs.map((x) => x.call.bytes)),
    d1_round_trips: stats(xs.flatMap((x) => (x.call.roundTrips === null ? [] : [x.call.roundTrips]))),
    hits: xs.filter((x) => found(t, x.call)).length,
    empty_reasons: Object.fromEntries([...new Set(xs.flatMap((x) => (x.call.emptyReason ? [x.call.emptyReason] : [])))].map((e) => [e, xs.filter((x) => x.call.emptyReason === e).length])),
    errors: errors.length,
    error_codes: errorCodes,
    first_error: errors[0] ? `${errors[0].call.errorCode}: ${errors[0].call.errorMessage?.slice(0, 300)}` : null,
  };
}

/** @param {{ p50: number, p99: number }} s @param {number} t50 @param {number} t99 */
function verdictOf(s, t50, t99) {
  const miss50 = s.p50 > t50;
  const miss99 = s.p99 > t99;
  if (!miss50 && !miss99) return 'met';
  return `missed (${[miss50 && 'p50', miss99 && 'p99'].filter(Boolean).join(', ')})`;
}

/* ------------------------------------------------------------------- report */

/**
 * The latency tables for the report.
 * @param {Record<string, any>} lat the `latency` section of the results
 * @param {(rows: (string | number | null | undefined)[][], o?: { title?: string }) => string} renderTable
 */
export function formatLatency(lat, renderTable) {
  const out = [];
  const cp = lat.corpus;
  if (cp) {
    const langs = Object.entries(cp.by_language).map(([l, v]) => `${l} ${/** @type {any} */ (v).files} files ${(/** @type {any} */ (v).bytes / 1e6).toFixed(1)} MB`).join(', ');
    out.push('', `Latency corpus (${cp.reused ? 'the push stage\'s project, reused' : cp.folder ? `the checkout ${cp.folder}, pushed for this stage` : `a ${cp.requested}-file tier pushed for this stage`}): ${cp.files} files, ${(cp.bytes / 1e6).toFixed(2)} MB, ${cp.symbols} symbols${cp.symbols < cp.min_symbols ? ` — BELOW the ${cp.min_symbols}-symbol target` : ''}; ${langs}${cp.push_ms ? `; pushed in ${(cp.push_ms / 1000).toFixed(1)} s` : ''}`);
  }
  if (lat.error) {
    out.push(`latency stage failed: ${lat.error}`);
    return out.join('\n');
  }
  const f = (/** @type {number | null | undefined} */ x) => (x === null || x === undefined ? '—' : x < 10 ? x.toFixed(1) : String(Math.round(x)));
  const rows = [['tool', 'variant', 'n', 'server p50', 'server p99', 'client p50', 'client p99', 'target p50/p99', 'verdict', 'hits', 'errors']];
  const order = [...Object.keys(LATENCY_TARGETS), ...Object.keys(lat.tools).filter((t) => !(t in LATENCY_TARGETS))];
  for (const t of order) {
    const x = lat.tools[t];
    if (!x) {
      if (lat.skipped?.[t]) rows.push([t, null, 0, null, null, null, null, targetText(t), lat.skipped[t], null, null]);
      continue;
    }
    const verdict = x.verdict ?? (x.errors === x.n ? 'error' : null);
    rows.push([t, '(all)', x.n, f(x.server_ms?.p50), f(x.server_ms?.p99), f(x.client_ms?.p50), f(x.client_ms?.p99), targetText(t), `${verdict ?? '—'}${x.n === 1 ? ' (n=1)' : ''}`, `${x.hits}/${x.n}`, x.errors ? `${x.errors} ${Object.keys(x.error_codes).join(',')}` : '0']);
    const variants = Object.entries(x.variants);
    if (variants.length > 1) {
      for (const [v, s] of variants) rows.push(['', `· ${v}`, s.n, f(s.server_ms?.p50), f(s.server_ms?.p99), f(s.client_ms?.p50), f(s.client_ms?.p99), null, null, `${s.hits}/${s.n}`, s.errors || '0']);
    }
  }
  for (const [label, x] of Object.entries(lat.floor ?? {})) {
    rows.push(['(reference)', label, x.n, f(x.server_ms?.p50), f(x.server_ms?.p99), f(x.client_ms?.p50), f(x.client_ms?.p99), null, null, null, x.errors || '0']);
  }
  out.push('', renderTable(rows, { title: `Query latency, ms (REST, one call at a time; server = _meta.latency_ms, client = wall over loopback; nearest-rank percentiles; ${lat.calls_per_tool} calls per tool after ${lat.warmup_per_tool} warm-up, seed ${lat.seed}; verdict on server figures)` }));
  const ready = lat.floor?.[READY];
  const x2 = (/** @type {number | null | undefined} */ v) => (v == null ? '—' : `${v.toFixed(2)}×`);
  const trips = [['tool', 'tier', 'D1 round trips p50', 'max', 'target', 'trips', 'server p50', 'server p99', 'client p50', 'client p99', 'net p50', 'net p50 95% interval', 'target p50', 'verdict']];
  const ci = (/** @type {[number, number] | null | undefined} */ v) => (v ? `${v[0].toFixed(2)}–${v[1].toFixed(2)}×` : '—');
  const basis = { server: 'on server p50', client_net: 'on net p50' };
  for (const t of order) {
    const x = lat.tools[t];
    if (!x) continue;
    const r = x.ratio_to_floor ?? {};
    const verdict = x.ratio_verdict ? `${x.ratio_verdict}${x.ratio_basis ? ` (${basis[/** @type {keyof typeof basis} */ (x.ratio_basis)]})` : ''}` : '—';
    trips.push([t, x.tier ?? '—', x.d1_round_trips?.p50 ?? '—', x.d1_round_trips?.max ?? '—', x.trips_target_p50 == null ? null : `≤ ${x.trips_target_p50}`, x.trips_verdict ?? '—', x2(r.server_p50), x2(r.server_p99), x2(r.client_p50), x2(r.client_p99), x2(r.net_p50), ci(r.net_p50_ci95), x.ratio_target_p50 == null ? null : `≤ ${x.ratio_target_p50}×`, verdict]);
  }
  out.push('', renderTable(trips, { title: `D1 round trips per call (X-Pincher-D1-Round-Trips) and latency as a multiple of the one-round-trip floor, /v1/ready?shard=0 in the same run (server p50/p99 ${f(ready?.server_ms?.p50)}/${f(ready?.server_ms?.p99)} ms, client ${f(ready?.client_ms?.p50)}/${f(ready?.client_ms?.p99)} ms)` }));
  out.push(`  net p50: (client p50 − the tool seam's, why_empty) ÷ (/v1/ready's − /v1/health's), both net of the request path; the verdict is on it while the floor's server p50 is under ${SERVER_RESOLVES_MS} ms (the Worker's clock counts whole milliseconds), else on server p50`);
  out.push('  net p50 from the calls\' unrounded client times; its 95% interval: the same ratio over 1,000 resamples of each of its four series of calls (bootstrap), how far the same calls let the figure move');
  const cold = [['tool', 'first-seen n', 'server p50', 'server p99', 'client p50 ÷ floor', 'repeats n', 'server p50', 'server p99', 'client p50 ÷ floor']];
  for (const t of order) {
    const x = lat.tools[t];
    if (!x?.first_seen) continue;
    const a = x.first_seen;
    const b = x.repeats ?? { n: 0 };
    cold.push([t, a.n, f(a.server_ms?.p50), f(a.server_ms?.p99), x2(a.ratio_to_floor?.client_p50), b.n, f(b.server_ms?.p50), f(b.server_ms?.p99), x2(b.ratio_to_floor?.client_p50)]);
  }
  if (cold.length > 1) out.push('', renderTable(cold, { title: 'First call of an argument set in this run (per-question memos such as the savings baselines cold, as for an agent\'s new question) against repeats of one; the warm-up counts as seen' }));
  const empty = [['tool', 'n', 'cases', 'D1 round trips max', 'server p50', 'server p99', 'client p50 ÷ floor', 'empty reasons', 'hits', 'errors']];
  for (const [t, x] of Object.entries(lat.misses ?? {})) {
    empty.push([t, x.n, x.cases.map((/** @type {any} */ m) => m.variant).join(', '), x.d1_round_trips?.max ?? '—', f(x.server_ms?.p50), f(x.server_ms?.p99), x2(x.ratio_to_floor?.client_p50), Object.entries(x.empty_reasons).map(([e, n]) => `${e} ×${n}`).join(', ') || '—', `${x.hits}/${x.n}`, x.errors || '0']);
  }
  if (empty.length > 1) out.push('', renderTable(empty, { title: 'Misses, measured apart from the mix (a mistyped id, an absent name, filters or a glob that match nothing): the answer with its recovery steps' }));
  for (const [t, x] of Object.entries(lat.tools)) {
    if (x.first_error) out.push(`${t}: ${x.errors} error(s), first: ${x.first_error}${x.unfilled_required ? ` (required arguments not derivable: ${x.unfilled_required.join(', ')})` : ''}`);
    if (x.stopped_early) out.push(`${t}: ${x.stopped_early}`);
    const empties = Object.entries(x.empty_reasons ?? {});
    if (empties.length && !CORE.includes(t)) out.push(`${t}: empty answers ${empties.map(([e, n]) => `${e} ×${n}`).join(', ')}`);
  }
  for (const [t, why] of Object.entries(lat.timed_out ?? {})) out.push(`${t}: NOT MEASURED — ${why}`);
  out.push(`latency stage: ${lat.measured_calls} measured calls in ${(lat.measure_ms / 1000).toFixed(1)} s; server CPU ${lat.server_cpu_s ?? '—'} s (${lat.server_cpu_ms_per_call ?? '—'} ms per call; ${Object.entries(lat.server_cpu_by_command ?? {}).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v} s`).join(', ') || '—'}); load average start ${lat.loadavg_start.join(' ')}, during ${lat.loadavg_samples.map((/** @type {number[]} */ l) => l[0]).join(' → ')}, end ${lat.loadavg_end.join(' ')}`);
  return out.join('\n');
}

/** @param {string} t */
function targetText(t) {
  const x = LATENCY_TARGETS[/** @type {keyof typeof LATENCY_TARGETS} */ (t)];
  return x ? `≤ ${x[0]} / ≤ ${x[1]}` : null;
}
