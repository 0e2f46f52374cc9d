// `node scripts/bench/store-ab.mjs [--baseline REF] [--rounds N] [corpus…]`: the CPU of storing a
// push's contents and extractions (src/db/index-store.ts `storeExtractionStatements`), this tree
// against a baseline ref (default main), alone: each corpus of the quality cache
// (/work/cache/bench-corpora/projects/<corpus>, default py-stdlib-modules) is extracted once in
// Node, cut into the CLI's 2 MiB batches, and every round stores it through a fresh local D1
// (Miniflare, a copy of one migrated database) with either side's statement builder, sides
// alternating. The figure is the workerd process's CPU seconds (the D1 driver, the database
// object and SQLite); on a shared machine run several rounds and read the medians.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { register } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { checkoutRef } from './bundle.mjs';
import { run } from './proc.mjs';
import { descendants, isWorkerd } from '../proc-tree.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CORPORA = '/work/cache/bench-corpora/projects';
const BATCH_BYTES = 2 << 20;

const { values: opts, positionals } = parseArgs({ options: { baseline: { type: 'string', default: 'main' }, rounds: { type: 'string', default: '5' } }, allowPositionals: true });
const corpora = positionals.length ? positionals : ['py-stdlib-modules'];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'store-ab-'));

/** CPU seconds of `pid` (utime + stime). @param {number} pid */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** @param {string} dir @returns {string[]} */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : e.isFile() ? [path.join(dir, e.name)] : []));
}

const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const base = await checkoutRef(ROOT, opts.baseline, path.join(tmp, 'baseline'));
  if (!base) throw new Error(`baseline ref '${opts.baseline}' not found`);
  const migrated = path.join(tmp, 'migrated');
  const migrate = await run('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', migrated], {
    cwd: ROOT,
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', CI: 'true' },
  });
  if (migrate.code !== 0) throw new Error(`migrations failed:\n${migrate.stderr.slice(-2000)}`);

  const { register: tsx } = await import('tsx/esm/api');
  tsx();
  register(pathToFileURL(path.join(ROOT, 'scripts', 'bench', 'extract-hooks.mjs')));
  const { extractionRow } = await import(pathToFileURL(path.join(ROOT, 'src', 'upload', 'extract-rows.ts')).href);
  const sides = {
    [opts.baseline]: (await import(pathToFileURL(path.join(base.root, 'src', 'db', 'index-store.ts')).href)).storeExtractionStatements,
    current: (await import(pathToFileURL(path.join(ROOT, 'src', 'db', 'index-store.ts')).href)).storeExtractionStatements,
  };
  const { Miniflare } = await import('miniflare');
  const rounds = Number(opts.rounds);

  for (const corpus of corpora) {
    const dir = path.join(CORPORA, corpus);
    /** @type {{ row: any, content: string, size: number }[][]} */
    const batches = [[]];
    let batchBytes = 0;
    for (const file of filesUnder(dir).sort()) {
      const content = readFileSync(file, 'utf8');
      const size = Buffer.byteLength(content);
      const hash = createHash('sha256').update(content).digest('hex');
      const row = await extractionRow(path.relative(dir, file).split(path.sep).join('/'), hash, content, { maxBytes: 1 << 20, timeoutMs: 60_000 });
      if (batchBytes > 0 && batchBytes + size > BATCH_BYTES) {
        batches.push([]);
        batchBytes = 0;
      }
      batches.at(-1)?.push({ row, content, size });
      batchBytes += size;
    }
    /** @type {Record<string, number[]>} */
    const cpu = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
    /** @type {Record<string, number>} */
    const statements = {};
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? Object.keys(sides).reverse() : Object.keys(sides);
      for (const side of order) {
        const persist = path.join(tmp, 'run');
        rmSync(persist, { recursive: true, force: true });
        cpSync(path.join(migrated, 'v3', 'd1'), persist, { recursive: true });
        const mf = new Miniflare({ modules: true, script: 'export default { fetch() { return new Response(null); } };', d1Databases: { DB: '00000000-0000-0000-0000-000000000000' }, d1Persist: persist });
        try {
          const db = await mf.getD1Database('DB');
          await db.prepare('SELECT 1').all();
          const runtime = descendants(process.pid).filter(isWorkerd);
          const before = runtime.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
          let count = 0;
          for (const batch of batches) {
            const stmts = sides[side](db, batch, Date.now());
            count += stmts.length;
            await db.batch(stmts);
          }
          cpu[side]?.push(runtime.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - before);
          statements[side] = count;
        } finally {
          await mf.dispose();
        }
      }
    }
    const files = batches.reduce((n, b) => n + b.length, 0);
    console.log(`${corpus}: ${files} files in ${batches.length} batches, ${rounds} rounds`);
    for (const [side, xs] of Object.entries(cpu)) {
      console.log(`  ${side.padEnd(10)} ${String(statements[side]).padStart(4)} statements  workerd CPU median ${median(xs).toFixed(2)} s  (${xs.map((x) => x.toFixed(2)).join(', ')})`);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
