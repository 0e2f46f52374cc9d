// Fingerprints every extraction of the quality corpora, to prove that a change to the queries or
// the engine leaves the output as it was (or to list the files whose output moved). Runs the
// project's own extractor (src/extract/index.ts) in Node, as extract-node.mjs does, with a
// generous budget so that no file times out on a busy machine, and writes one line per file:
// `<project>/<path> <sha256 of the JSON result>`. With a second file it compares the two.
//
//   node scripts/bench/extract-hash.mjs /work/cache/bench-corpora/projects out.txt
//   node scripts/bench/extract-hash.mjs --compare before.txt after.txt
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');

/** @param {string} file */
async function lines(file) {
  const map = new Map();
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    const at = line.lastIndexOf(' ');
    if (at > 0) map.set(line.slice(0, at), line.slice(at + 1));
  }
  return map;
}

async function compare(a, b) {
  const [before, after] = [await lines(a), await lines(b)];
  const changed = [...before].filter(([k, v]) => after.has(k) && after.get(k) !== v).map(([k]) => k);
  const missing = [...before.keys()].filter((k) => !after.has(k));
  const added = [...after.keys()].filter((k) => !before.has(k));
  console.log(JSON.stringify({ before: before.size, after: after.size, changed: changed.length, missing: missing.length, added: added.length }));
  for (const k of [...changed, ...missing, ...added].slice(0, 40)) console.log(k);
  process.exit(changed.length || missing.length || added.length ? 1 : 0);
}

/** @param {string} dir @returns {AsyncGenerator<string>} */
async function* walk(dir) {
  for (const e of (await readdir(dir, { withFileTypes: true })).sort((x, y) => (x.name < y.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile()) yield p;
  }
}

async function fingerprint(projects, out) {
  const { register: tsx } = await import('tsx/esm/api');
  tsx();
  register(pathToFileURL(path.join(HERE, 'extract-hooks.mjs')));
  const { extractFile } = await import(pathToFileURL(path.join(ROOT, 'src', 'extract', 'index.ts')).href);
  const { rowForPath } = await import(pathToFileURL(path.join(ROOT, 'src', 'extract', 'languages', 'table.ts')).href);
  const rows = [];
  const per = {};
  const t0 = performance.now();
  for (const project of (await readdir(projects, { withFileTypes: true })).filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name).sort()) {
    for await (const abs of walk(path.join(projects, project))) {
      const rel = path.relative(path.join(projects, project), abs).split(path.sep).join('/');
      const row = rowForPath(rel);
      if (!row) continue;
      const text = await readFile(abs, 'utf8');
      const started = performance.now();
      const result = await extractFile(rel, text, { maxBytes: 1024 * 1024, timeoutMs: 60_000 });
      const lang = (per[row.id] ??= { files: 0, ms: 0, first_ms: null });
      const ms = performance.now() - started;
      lang.first_ms ??= Math.round(ms);
      lang.files++;
      lang.ms += ms;
      // parse_ms is a timing, not output.
      rows.push(`${project}/${rel} ${createHash('sha256').update(JSON.stringify({ ...result, parse_ms: 0 })).digest('hex').slice(0, 20)}`);
    }
  }
  await writeFile(out, `${rows.join('\n')}\n`);
  for (const v of Object.values(per)) v.ms = Math.round(v.ms);
  console.log(JSON.stringify({ files: rows.length, ms: Math.round(performance.now() - t0), per }));
}

const args = process.argv.slice(2);
if (args[0] === '--compare') await compare(args[1], args[2]);
else await fingerprint(args[0], args[1]);
