// `node --experimental-websocket scripts/profile-calls.mjs --d1 <dir> --mix <bench.json> [--tools a,b] [--calls n] [--out dir] [--sql-timing]`:
// where the Worker's CPU goes per tool call. Starts the Worker (wrangler's programmatic dev API with
// an inspector) on the local D1 a latency bench kept (`--latency-d1 <dir>`), replays the query mix
// that bench wrote (`latency.mix` of its results JSON) tool by tool while the Worker's isolate runs
// the V8 CPU profiler, and prints per tool: the calls' server and client p50, then the isolate's
// busy CPU, self and inclusive time by function, in ms per call. Each tool's .cpuprofile is written
// to --out (default the temp folder) and opens in Chrome DevTools. Besides tools, `--tools` takes
// the bench's reference calls: ready (GET /v1/ready?shard=0), health_route (GET /v1/health; `health` is the tool), why_empty.
// `--sql-timing` turns on PINCHER_SQL_TIMING: the Worker logs each D1 round trip's statements and
// wall time. Profiling needs the inspector, and wrangler's inspector proxy reports every D1 query
// as a network request: under it a call's server time and each round trip's wall time run 2–3×
// what the bench (no inspector) measures; read them against each other, not against the bench.
// `--cpu` measures instead of profiling, with no inspector: the CPU time (/proc utime + stime) of the
// whole local runtime (the Worker, its D1 and the call-log write after each answer) per call,
// which a loaded machine distorts far less than wall times; `--rounds n` repeats each tool's
// block n times, tools interleaved, and prints every round and the median.
// PROFILE_INTERVAL_US sets the profiler's sampling interval (default 100 µs; 25 shows a lite call's smaller parts).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { childWorkerds, connectInspector, startInspectedWorker, summarizeProfile } from './battery/inspector.mjs';
import { percentile, readLatencyMix } from './bench/latency.mjs';

const { values } = parseArgs({
  options: {
    d1: { type: 'string' },
    mix: { type: 'string' },
    tools: { type: 'string', default: 'search,symbol,symbols,read,find' },
    calls: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
    out: { type: 'string', default: tmpdir() },
    'sql-timing': { type: 'boolean', default: false },
    cpu: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
  },
});
if (!values.d1 || !values.mix || typeof WebSocket !== 'function') {
  console.error('usage: node --experimental-websocket scripts/profile-calls.mjs --d1 <dir> --mix <bench results .json> [--tools search,read] [--calls 60] [--warmup 10] [--out dir] [--sql-timing]');
  process.exit(2);
}
const mix = await readLatencyMix(values.mix);
const calls = Number(values.calls);
const warmup = Number(values.warmup);

const KEY = 'profile-key-0123456789abcdef0123456789';
const vars = values['sql-timing'] ? { PINCHER_SQL_TIMING: '1' } : {};
// `--cpu` runs the Worker without an inspector: wrangler's inspector proxy would add its own work to every D1 query.
const { worker, base, inspectorPort } = await startInspectedWorker({ key: KEY, minify: false, persistTo: path.resolve(values.d1), vars, inspector: !values.cpu });
/** utime + stime of this process's workerd children, in ms. */
async function runtimeCpuMs() {
  const tick = 1000 / 100;
  let ms = 0;
  for (const pid of await childWorkerds()) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ms += (Number(f[11]) + Number(f[12])) * tick;
  }
  return ms;
}

/**
 * `--cpu`: per tool, `rounds` blocks of `calls` calls (tools interleaved block by block), each
 * block's runtime CPU per call; the last call's write after the answer is waited for (200 ms).
 */
async function cpuPerCall({ tools, refs, call }) {
  const rounds = Number(values.rounds);
  /** @type {Record<string, number[]>} */
  const per = Object.fromEntries(tools.map((t) => [t, []]));
  for (const tool of tools) for (let i = 0; i < Math.max(warmup, refs[tool]?.length ?? 0); i++) await call(tool, refs[tool][i % refs[tool].length].args);
  for (let r = 0; r < rounds; r++) {
    for (const tool of tools) {
      const entries = refs[tool];
      await new Promise((res) => setTimeout(res, 200));
      const before = await runtimeCpuMs();
      for (let i = 0; i < calls; i++) await call(tool, entries[i % entries.length].args);
      await new Promise((res) => setTimeout(res, 200));
      per[tool].push((await runtimeCpuMs() - before) / calls);
    }
  }
  const med = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const tool of tools) console.log(`cpu ${tool}: median ${med(per[tool]).toFixed(2)} ms per call (rounds ${per[tool].map((x) => x.toFixed(2)).join(' ')})`);
}

const p50 = (xs) => percentile(xs.slice().sort((a, b) => a - b), 50);
try {
  await worker.ready;
  await fetch(`${base}/v1/health`);
  const list = values.cpu ? null : await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const s = list ? await connectInspector(list[0].webSocketDebuggerUrl, { origin: 'http://127.0.0.1' }) : null;
  /** @type {string[]} */
  const sqlLines = [];
  if (values['sql-timing'] && s) {
    // The Worker's console reaches this process through the inspector only.
    s.on('Runtime.consoleAPICalled', (e) => {
      const text = e.args.map((a) => a.value ?? a.description ?? '').join(' ');
      if (text.startsWith('sql-timing ')) sqlLines.push(text);
    });
    await s.send('Runtime.enable');
  }
  await s?.send('Profiler.enable');
  await s?.send('Profiler.setSamplingInterval', { interval: Number(process.env.PROFILE_INTERVAL_US ?? 100) });
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const callTool = async (tool, args) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/tools/${tool}`, { method: 'POST', headers, body: JSON.stringify(args) });
    const body = await res.json();
    return { client: performance.now() - t0, server: body?._meta?.latency_ms ?? null, trips: Number(res.headers.get('x-pincher-d1-round-trips')), bytes: JSON.stringify(body).length };
  };
  // The reference calls of the latency bench, profiled like tools: `ready` and `health_route` are GET routes (`health`
  // is the tool of that name, which the mix calls).
  const routes = { ready: '/v1/ready?shard=0', health_route: '/v1/health' };
  const refs = { ...mix, ready: [{ args: {} }], health_route: [{ args: {} }], why_empty: [{ args: { code: 'no_results_in_corpus' } }] };
  const get = async (route) => {
    const t0 = performance.now();
    const res = await fetch(`${base}${route}`, { headers });
    const body = await res.json();
    return { client: performance.now() - t0, server: body?._meta?.latency_ms ?? null, trips: 0, bytes: JSON.stringify(body).length };
  };
  const floor = () => get(routes.ready);
  if (values.cpu) {
    await cpuPerCall({ tools: values.tools.split(','), refs, call: (t, args) => (routes[t] ? get(routes[t]) : callTool(t, args)) });
    process.exit(0);
  }
  for (let i = 0; i < warmup; i++) await floor();
  const ready = [];
  for (let i = 0; i < calls; i++) ready.push(await floor());
  console.log(`floor GET /v1/ready?shard=0: server p50 ${p50(ready.map((r) => r.server))} ms, client p50 ${p50(ready.map((r) => r.client)).toFixed(2)} ms`);
  for (const tool of values.tools.split(',')) {
    const entries = refs[tool];
    const call = (t, args) => (routes[t] ? get(routes[t]) : callTool(t, args));
    if (!entries?.length) {
      console.log(`== ${tool}: no mix`);
      continue;
    }
    // Every entry once before profiling: the per-isolate memos (project rows, baselines) are warm, as in a long run.
    for (let i = 0; i < Math.max(warmup, entries.length); i++) await call(tool, entries[i % entries.length].args);
    await s.send('Profiler.start');
    sqlLines.length = 0;
    const got = [];
    for (let i = 0; i < calls; i++) got.push(await call(tool, entries[i % entries.length].args));
    const { profile } = await s.send('Profiler.stop');
    await mkdir(values.out, { recursive: true });
    await writeFile(path.join(values.out, `calls-${tool}.cpuprofile`), JSON.stringify(profile));
    console.log(
      `\n#### ${tool}: server p50 ${p50(got.map((g) => g.server))} ms, client p50 ${p50(got.map((g) => g.client)).toFixed(2)} ms, trips max ${Math.max(...got.map((g) => g.trips))}, response p50 ${p50(got.map((g) => g.bytes))} bytes`,
    );
    summarizeProfile(tool, profile, { self: 25, inclusive: 40, per: calls });
    if (sqlLines.length) {
      await new Promise((r) => setTimeout(r, 200));
      console.log('-- D1 round trips (PINCHER_SQL_TIMING)');
      for (const l of sqlLines) console.log(l);
    }
  }
  s.close();
} finally {
  await worker.dispose().catch(() => {});
}
