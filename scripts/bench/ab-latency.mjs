// `node --experimental-websocket scripts/bench/ab-latency.mjs --a <checkout> --a-d1 <dir> --b <checkout> --b-d1 <dir>
//    --mix <bench results .json> [--tools symbol,read] [--rounds 40]`
//
// Two checkouts' latency, side by side, on two copies of the same local D1 (a latency bench's `--latency-d1` folder,
// copied). Both Workers run at once, each under wrangler's programmatic dev API without an inspector (as the bench runs
// it). Every call of the bench's mix (`latency.mix`) goes to A and to B back to back, the order alternating, and each is
// followed by the tool seam (`why_empty`) and the floor's two routes on the same Worker: a change of the machine's load
// then falls on both sides alike, which two bench runs one after the other cannot promise (their figures move by about
// ±0.2× with nothing changed). Prints per tool: each side's client p50, the seam's, the difference in ms and as a
// multiple of the floor (/v1/ready − /v1/health, the mean of both sides'), and B − A.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startInspectedWorker } from '../battery/inspector.mjs';
import { percentile, readLatencyMix } from './latency.mjs';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    'a-d1': { type: 'string' },
    b: { type: 'string' },
    'b-d1': { type: 'string' },
    mix: { type: 'string' },
    tools: { type: 'string', default: 'search,symbol,symbols,read,find,neighborhood,ls,schema,guide,list,health,grep,trace' },
    rounds: { type: 'string', default: '40' },
  },
});
if (!values.a || !values['a-d1'] || !values.b || !values['b-d1'] || !values.mix || typeof WebSocket !== 'function') {
  console.error('usage: node --experimental-websocket scripts/bench/ab-latency.mjs --a <checkout> --a-d1 <dir> --b <checkout> --b-d1 <dir> --mix <bench results .json> [--tools a,b] [--rounds 40]');
  process.exit(2);
}
if (path.resolve(values['a-d1']) === path.resolve(values['b-d1'])) {
  console.error('--a-d1 and --b-d1 must be two copies: both Workers write their call logs');
  process.exit(2);
}
const mix = await readLatencyMix(values.mix);
const rounds = Number(values.rounds);
const KEY = 'ab-latency-key-0123456789abcdef01234567';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const SEAM = { code: 'no_results_in_corpus' };

/** Wall ms of one request, its body read. */
async function timed(url, init) {
  const t0 = performance.now();
  const res = await fetch(url, init);
  await res.text();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return performance.now() - t0;
}

const start = (root, d1) => startInspectedWorker({ key: KEY, persistTo: path.resolve(d1), inspector: false, minify: true, root: path.resolve(root) });
const sides = { A: await start(values.a, values['a-d1']), B: await start(values.b, values['b-d1']) };
/** Nearest-rank p50, as the latency bench reports it. @param {number[]} xs */
const p50 = (xs) => /** @type {number} */ (percentile(xs.slice().sort((x, y) => x - y), 50));
try {
  await Promise.all(Object.values(sides).map((s) => s.worker.ready));
  for (const tool of values.tools.split(',')) {
    const entries = mix[tool];
    if (!entries?.length) {
      console.log(`${tool}: not in the mix`);
      continue;
    }
    const got = Object.fromEntries(Object.keys(sides).map((k) => [k, { tool: [], seam: [], ready: [], health: [] }]));
    // Two warm-up rounds: per-isolate memos (project rows, baselines) warm on both sides, as in the bench.
    for (let r = 0; r < rounds + 2; r++) {
      for (const [i, entry] of entries.entries()) {
        const order = (r + i) % 2 ? ['A', 'B'] : ['B', 'A'];
        for (const k of order) {
          const { base } = sides[k];
          const t = await timed(`${base}/v1/tools/${tool}`, { method: 'POST', headers, body: JSON.stringify(entry.args) });
          const s = await timed(`${base}/v1/tools/why_empty`, { method: 'POST', headers, body: JSON.stringify(SEAM) });
          const ready = await timed(`${base}/v1/ready?shard=0`, { headers });
          const health = await timed(`${base}/v1/health`, { headers });
          if (r < 2) continue;
          got[k].tool.push(t);
          got[k].seam.push(s);
          got[k].ready.push(ready);
          got[k].health.push(health);
        }
      }
    }
    const floor = (p50(got.A.ready) - p50(got.A.health) + (p50(got.B.ready) - p50(got.B.health))) / 2;
    const net = (k) => p50(got[k].tool) - p50(got[k].seam);
    const side = (k) => `${k} ${p50(got[k].tool).toFixed(2)} − seam ${p50(got[k].seam).toFixed(2)} = ${net(k).toFixed(2)} ms (${(net(k) / floor).toFixed(2)}×)`;
    console.log(`${tool.padEnd(13)} floor ${floor.toFixed(2)} ms · ${side('A')} · ${side('B')} · B − A ${(net('B') - net('A')).toFixed(2)} ms (${((net('B') - net('A')) / floor).toFixed(2)}×), ${got.A.tool.length} calls a side`);
  }
} finally {
  await Promise.all(Object.values(sides).map((s) => s.worker.dispose().catch(() => {})));
}
