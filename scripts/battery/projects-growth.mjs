#!/usr/bin/env node
// Whether a Worker's calls get slower as projects pile up in one server: pushes N small projects
// (two files each, through the `index` tool) with a few calls on each, and every `--every` projects
// times the same calls on the first project (median client ms / median `_meta.latency_ms`).
//
//   node scripts/battery/projects-growth.mjs [--projects 200] [--every 25] [--calls 15] [--url URL --key KEY]
//
// Without --url it starts a keyed local server on a fresh temporary D1 (`battery/server.mjs`'s
// useServer) and stops it at the end. Prints one line per probe; a Worker whose per-call cost grew with the
// projects (or the calls) it has served shows it as a rising column.
import { parseArgs } from 'node:util';
import { exchange } from './http.mjs';
import { useServer } from './server.mjs';

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

const server = await useServer({ url: values.url, key: values.key });
const headers = { 'content-type': 'application/json', ...(server.key ? { authorization: `Bearer ${server.key}` } : {}) };

/** @param {string} tool @param {Record<string, unknown>} args */
async function call(tool, args) {
  const r = await exchange(server.url, { method: 'POST', path: `/v1/tools/${tool}`, headers, body: JSON.stringify(args) });
  return { ms: r.ms, server: r.json?._meta?.latency_ms ?? null, status: r.status, error: r.error };
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
      const expected = label.endsWith('(refused)') ? 400 : 200;
      if (r.status !== expected) throw new Error(`projects-growth: ${label} answered ${r.status}, not ${expected}`);
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
    if (r.status !== 200) throw new Error(`projects-growth: pushing growth-${i} answered ${r.status}${r.error ? ` (${r.error})` : ''}`);
    await call('search', { project: `growth-${i}`, query: `alpha${i}` });
    await call('grep', { project: `growth-${i}`, pattern: `beta${i}`, literal: true });
    await call('find', { project: `growth-${i}`, pattern: '**/*.py' });
    if (i === 0 || (i + 1) % EVERY === 0) await probe(i + 1);
  }
} finally {
  await server.stop();
}
