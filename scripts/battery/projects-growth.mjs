#!/usr/bin/env node
// Whether a Worker's calls get slower as projects pile up in one server: pushes N small projects
// (two files each, through the `index` tool) with a few calls on each, and every `--every` projects
// times the same calls on the first project (median client ms / median `_meta.latency_ms`).
//
//   node scripts/battery/projects-growth.mjs [--projects 200] [--every 25] [--calls 15] [--url URL --key KEY]
//
// Without --url it starts a local server (`scripts/dev-server.mjs`) on a fresh temporary D1 and
// stops it at the end. Prints one line per probe; a Worker whose per-call cost grew with the
// projects (or the calls) it has served shows it as a rising column.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { applyLocalMigrations, freePort, startDevServer } from '../dev-server.mjs';

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '200' },
    every: { type: 'string', default: '25' },
    calls: { type: 'string', default: '15' },
    url: { type: 'string' },
    key: { type: 'string' },
  },
});
const count = (/** @type {string} */ v, /** @type {string} */ name) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`projects-growth: --${name} must be a whole number ≥ 1, got '${v}'`);
    process.exit(2);
  }
  return n;
};
const N = count(values.projects, 'projects');
const EVERY = count(values.every, 'every');
const CALLS = count(values.calls, 'calls');

let server = null;
let persist = null;
let url = values.url;
if (!url) {
  persist = await mkdtemp(path.join(tmpdir(), 'pincher-growth-'));
  applyLocalMigrations(persist);
  server = await startDevServer({ port: await freePort(), persistTo: persist, vars: { PINCHER_ALLOW_OPEN: '1' } });
  url = server.url;
}
const headers = { 'content-type': 'application/json', ...(values.key ? { authorization: `Bearer ${values.key}` } : {}) };

/** @param {string} tool @param {Record<string, unknown>} args */
async function call(tool, args) {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/tools/${tool}`, { method: 'POST', headers, body: JSON.stringify(args) });
  const body = await res.json();
  return { ms: performance.now() - t0, server: body?._meta?.latency_ms ?? null, status: res.status };
}

/** @param {number} i */
const files = (i) => [
  { path: 'src/a.ts', content: `export function alpha${i}(x: number) { return beta${i}(x) + 1; }\nexport function beta${i}(y: number) { return y * 2; }\n` },
  { path: 'lib/b.py', content: `def gamma_${i}(v):\n    return v + 1\n` },
];
const median = (/** @type {number[]} */ xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const PROBES = [
  ['find', { project: 'growth-0', pattern: '*.ts' }],
  ['search', { project: 'growth-0', query: 'alpha0' }],
  ['grep', { project: 'growth-0', pattern: 'beta0', literal: true }],
  ['symbol', { project: 'growth-0', id: 'src/a.ts::alpha0#Function' }],
  ['find (refused)', { project: 'growth-0', pattern: 'src/{a' }],
];

/** @param {number} pushed */
async function probe(pushed) {
  const cells = [];
  for (const [label, args] of PROBES) {
    const ms = [];
    const server = [];
    for (let k = 0; k < CALLS; k++) {
      const r = await call(label.split(' ')[0], args);
      ms.push(r.ms);
      if (r.server !== null) server.push(r.server);
    }
    cells.push(`${label} ${median(ms).toFixed(1)}/${server.length ? median(server) : '—'}`);
  }
  console.log(`${String(pushed).padStart(5)} projects: ${cells.join('  ')}   (client ms / server ms, medians of ${CALLS})`);
}

try {
  for (let i = 0; i < N; i++) {
    const r = await call('index', { project: `growth-${i}`, files: files(i) });
    if (r.status !== 200) throw new Error(`projects-growth: pushing growth-${i} answered ${r.status}`);
    await call('search', { project: `growth-${i}`, query: `alpha${i}` });
    await call('grep', { project: `growth-${i}`, pattern: `beta${i}`, literal: true });
    await call('find', { project: `growth-${i}`, pattern: '**/*.py' });
    if (i === 0 || (i + 1) % EVERY === 0) await probe(i + 1);
  }
} finally {
  await server?.stop();
  if (persist) await rm(persist, { recursive: true, force: true });
}
