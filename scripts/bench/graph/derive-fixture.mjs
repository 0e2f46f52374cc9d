#!/usr/bin/env node
// Writes the oracle's callers of a small fixture as committed expected JSON:
//   node scripts/bench/graph/derive-fixture.mjs test/fixtures/graph-oracle/<lang>
// TypeScript/JavaScript through the TypeScript language service, Python through scip-python
// (installed by `npm run bench -- --only graph` into .tmp/graph-bench/oracles), Go through
// go/types (the Go toolchain the bench fetches there), Java through javac, Rust through a
// nightly rustc's MIR (a crate folder with Cargo.toml and src/lib.rs, no dependencies). The expected
// file lists every function and method with its oracle call sites (`alts`: the caller names a
// resolver may rightly report, see score.mjs); test/worker/resolve/oracle-fixtures.test.ts
// holds the resolver's default view to it.
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { oracleGo } from './oracle-go.mjs';
import { oracleJava } from './oracle-java.mjs';
import { oraclePy } from './oracle-py.mjs';
import { oracleRust } from './oracle-rust.mjs';
import { oracleTs } from './oracle-ts.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

async function list(dir, rel = '') {
  const out = [];
  for (const e of (await readdir(path.join(dir, rel), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await list(dir, r)));
    else if (/\.(ts|js|py|go|java|rs)$|^Cargo\.toml$/.test(e.name)) out.push(r);
  }
  return out;
}

const dir = path.resolve(process.argv[2] ?? '');
const files = await list(dir);
const has = (ext) => files.some((f) => f.endsWith(ext));
const cache = path.join(ROOT, '.tmp', 'graph-bench');
const oracle = has('.py')
  ? await oraclePy({ root: ROOT, dir, files, scipPython: { bin: path.join(cache, 'oracles', 'node_modules', '.bin', 'scip-python'), version: '0.6.6' }, maxTargets: 10_000 })
  : has('.go')
    ? await oracleGo({ dir, files, cache, maxTargets: 10_000 })
    : has('.java')
      ? await oracleJava({ dir, files, maxTargets: 10_000 })
      : has('.rs')
        ? await oracleRust({ dir, files, maxTargets: 10_000 })
        : oracleTs({ root: ROOT, dir, files, maxTargets: 10_000 });
const targets = oracle.targets.map((t) => ({ ...t, callers: t.callers.map(({ alts, line }) => ({ line, alts })) }));
await writeFile(path.join(dir, 'expected-callers.json'), `${JSON.stringify({ oracle: oracle.tool, targets }, null, 1)}\n`);
console.log(`${path.relative(ROOT, dir)}: ${targets.length} functions, ${targets.reduce((n, t) => n + t.callers.length, 0)} call sites (${oracle.tool})`);
