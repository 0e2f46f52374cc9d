// `node scripts/bench/typo-ids.mjs <d1 dir> [--project bench-latency] [--cases 300] [--seed 11]`: whether the
// did-you-mean steps of a miss lead to the symbol meant (docs/envelope.md, "Did-you-mean steps"). On a local D1 a
// push filled (the latency bench keeps its tier's with `--latency-d1 <dir>`), it draws symbols whose name has 5+
// characters and no symbol of the name with its second-to-last character dropped, drops that character (a typo whose
// answer is known: the symbol drawn), and asks `symbol` for the mistyped id and `context` for the mistyped qualified
// name. Per question: how often a did-you-mean step names the name meant, carries the id meant, and does so first;
// and the server p50. The symbols are read with the `sqlite3` CLI from the D1's file.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startDevServer } from '../dev-server.mjs';
import { prng } from './latency.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { project: { type: 'string', default: 'bench-latency' }, cases: { type: 'string', default: '300' }, seed: { type: 'string', default: '11' } },
});
const dir = positionals[0];
if (!dir) {
  console.error('usage: node scripts/bench/typo-ids.mjs <d1 dir> [--project name] [--cases 300] [--seed 11]');
  process.exit(2);
}
const objects = path.join(path.resolve(dir), 'v3', 'd1', 'miniflare-D1DatabaseObject');
const file = readdirSync(objects)
  .filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
  .map((f) => path.join(objects, f))
  .sort((a, b) => statSync(b).size - statSync(a).size)[0];
const sql = (q) => JSON.parse(execFileSync('sqlite3', ['-json', file, q], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }) || '[]');
const quote = (s) => `'${s.replace(/'/g, "''")}'`;
const [proj] = sql(`SELECT id FROM projects WHERE name = ${quote(values.project)}`);
if (!proj) throw new Error(`no project ${values.project} in ${file}`);
const rows = sql(`SELECT id, name, qualified_name AS q, kind, file_path AS path FROM symbols WHERE project_id = ${quote(proj.id)} AND length(name) >= 5 AND key IS NULL ORDER BY rowid`);
const names = new Set(sql(`SELECT name FROM symbol_names WHERE project_id = ${quote(proj.id)}`).map((r) => r.name));

// Seeded Fisher–Yates, then the first `cases` whose typo names no symbol.
const rand = prng(Number(values.seed));
for (let i = rows.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1));
  [rows[i], rows[j]] = [rows[j], rows[i]];
}
const cases = [];
for (const r of rows) {
  if (cases.length >= Number(values.cases)) break;
  const typo = r.name.slice(0, -2) + r.name.slice(-1);
  if (names.has(typo) || !r.q.endsWith(r.name)) continue;
  const q = r.q.slice(0, r.q.length - r.name.length) + typo;
  cases.push({ meant: r.id, name: r.name, id: `${r.path}::${q}#${r.kind}`, q });
}

const server = await startDevServer({ persistTo: path.resolve(dir), vars: { PINCHER_ALLOW_OPEN: '1' } });
const call = async (tool, args) => (await fetch(`${server.url}/v1/tools/${tool}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project: values.project, ...args }) })).json();
const questions = [
  ['symbol, mistyped id', (c) => call('symbol', { id: c.id })],
  ['context, mistyped qualified name', (c) => call('context', { name: c.q })],
];
try {
  console.log(`${cases.length} typos of ${values.project}'s symbols (seed ${values.seed}), ${file}`);
  for (const [label, ask] of questions) {
    const score = { name: 0, id: 0, first: 0, ms: [] };
    for (const c of cases) await ask(c);
    for (const c of cases) {
      const body = await ask(c);
      const steps = (body._meta?.next_steps ?? []).filter((s) => /did you mean/.test(s.why ?? ''));
      const ids = steps.map((s) => s.args.id);
      score.ms.push(body._meta?.latency_ms ?? 0);
      if (steps.some((s) => s.why.includes(`'${c.name}'`))) score.name++;
      if (ids.includes(c.meant)) score.id++;
      if (ids[0] === c.meant) score.first++;
    }
    const ms = score.ms.sort((a, b) => a - b);
    console.log(`${label}: name meant offered ${score.name}/${cases.length}, id meant offered ${score.id}, as the first step ${score.first}; server p50 ${ms[Math.ceil(ms.length / 2) - 1]} ms`);
  }
} finally {
  await server.stop();
}
