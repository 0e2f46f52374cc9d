// `node --experimental-websocket scripts/ab-calls.mjs <checkoutA> <d1A> <checkoutB> <d1B> <bench results .json> <tools> <calls> <rounds>`:
// before/after on a shared machine. Starts two Workers at once (each checkout's own code on its own copy of
// a latency tier's local D1, e.g. `cp -r` of a `--latency-d1` folder), replays the latency bench's query
// mix (`latency.mix` of its results JSON) in blocks of `calls` calls that alternate between A and B tool by
// tool (the order flips every round), so a load change hits both alike. Per tool and side it prints the
// runtime's CPU per call (utime + stime of that Worker's workerd processes, call-log write included), the
// median over the rounds and each round's figure, server and client p50, and the most D1 statements
// (X-Pincher-D1-Statements; NaN where the checkout does not send it) and round trips one call made.
// `ready` is GET /v1/ready?shard=0, the one-round-trip floor.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { childWorkerds, startInspectedWorker } from './battery/inspector.mjs';
import { readLatencyMix } from './bench/latency.mjs';
const [dirA, d1A, dirB, d1B, mixFile, toolsArg, callsArg, roundsArg] = process.argv.slice(2);
const mix = await readLatencyMix(mixFile);
const calls = Number(callsArg), rounds = Number(roundsArg);
const KEY = 'profile-key-0123456789abcdef0123456789';
/**
 * Each checkout's Worker (its sources and migrations) with no inspector, as the bench and the local server run it:
 * wrangler's inspector proxy would report every D1 query as a network request, adding work to each call.
 */
async function start(dir, d1) {
  const before = new Set(await childWorkerds());
  const { worker, base } = await startInspectedWorker({ key: KEY, minify: false, persistTo: d1, inspector: false, root: path.resolve(dir) });
  await worker.ready;
  await fetch(`${base}/v1/health`);
  const pids = (await childWorkerds()).filter((p) => !before.has(p));
  return { worker, base, pids };
}
const A = await start(dirA, d1A);
const B = await start(dirB, d1B);
console.log(`A pids ${A.pids} B pids ${B.pids}`);
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
async function cpu(pids) {
  let ms = 0;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // A helper process that has exited since start counts nothing (its line would read NaN).
    if (!stat) continue;
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ms += (Number(f[11]) + Number(f[12])) * 10;
  }
  return ms;
}
async function call(side, tool, args) {
  const t0 = performance.now();
  const res = tool === 'ready' ? await fetch(`${side.base}/v1/ready?shard=0`, { headers }) : await fetch(`${side.base}/v1/tools/${tool}`, { method: 'POST', headers, body: JSON.stringify(args) });
  const body = await res.json();
  return { client: performance.now() - t0, server: body?._meta?.latency_ms ?? null, statements: Number(res.headers.get('x-pincher-d1-statements') ?? NaN), trips: Number(res.headers.get('x-pincher-d1-round-trips') ?? NaN) };
}
const tools = toolsArg.split(',');
const refs = { ...mix, ready: [{ args: {} }], why_empty: [{ args: { code: 'no_results_in_corpus' } }] };
const out = { A: {}, B: {} };
for (const side of [A, B]) for (const t of tools) for (let i = 0; i < Math.max(10, refs[t].length); i++) await call(side, t, refs[t][i % refs[t].length].args);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
for (let r = 0; r < rounds; r++) {
  for (const t of tools) {
    for (const [name, side] of r % 2 ? [['B', B], ['A', A]] : [['A', A], ['B', B]]) {
      const entries = refs[t];
      await sleep(150);
      const c0 = await cpu(side.pids);
      const got = [];
      for (let i = 0; i < calls; i++) got.push(await call(side, t, entries[i % entries.length].args));
      await sleep(150);
      const c1 = await cpu(side.pids);
      (out[name][t] ??= []).push({ cpu: (c1 - c0) / calls, got });
    }
  }
  process.stderr.write(`round ${r + 1} done\n`);
}
const med = (xs) => { const s = xs.filter((x) => x != null && !Number.isNaN(x)).sort((a, b) => a - b); return s.length ? s[Math.ceil(s.length / 2) - 1] : null; };
for (const t of tools) {
  for (const name of ['A', 'B']) {
    const blocks = out[name][t];
    const all = blocks.flatMap((b) => b.got);
    console.log(`${t.padEnd(10)} ${name}: cpu/call median ${med(blocks.map((b) => b.cpu)).toFixed(2)} ms [${blocks.map((b) => b.cpu.toFixed(1)).join(' ')}]  server p50 ${med(all.map((g) => g.server))}  client p50 ${med(all.map((g) => g.client)).toFixed(2)}  statements max ${Math.max(...all.map((g) => g.statements))} trips max ${Math.max(...all.map((g) => g.trips))}`);
  }
}
await Promise.allSettled([A.worker.dispose(), B.worker.dispose()]);
process.exit(0);
