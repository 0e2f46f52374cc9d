// `npm run bench -- --only bundle`: what Cloudflare would receive and how long the Worker takes to
// start. Two dry-run builds (`wrangler deploy --dry-run --outdir`): the default one and the one
// `npm run deploy:exact` uploads (cl100k_base ranks included). Each reports wrangler's own
// "Total Upload … / gzip …" line — the figure Cloudflare's size limit applies to — and the gzip
// size of each module, largest first. Startup: `wrangler check startup` profiles the Worker's
// startup phase (global scope and module evaluation) in local workerd; the figure is the CPU
// time in that profile, idle samples left out, median of `runs`. It is measured on this machine's
// CPU, not Cloudflare's, and a loaded machine inflates it (the load average is reported with it).
// Before/after: with a baseline git ref (`--bundle-baseline`, default main) the same figures are
// taken for that ref's code (git archive, this tree's node_modules) and printed beside these.
// Grammar first load: grammars ship their parse tables deflated (scripts/pack-grammars.mjs); the
// time to inflate each one, paid once per isolate on a language's first file, is measured here in
// Node with zlib's inflate (workerd's DecompressionStream is that zlib in C++; Node's own is
// JavaScript streams around it, far slower), cold (a fresh process per sample).
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const run = promisify(execFile);

/** What the dry run needs from a git ref: the Worker's sources and configuration. */
const BASELINE_PATHS = ['src', 'cli', 'migrations', 'wrangler.toml', 'package.json', 'tsconfig.json'];

/**
 * The code of `ref` in `dest` (node_modules linked from `repo`); null when the ref does not exist.
 * @param {string} repo @param {string} ref @param {string} dest
 */
export async function checkoutRef(repo, ref, dest) {
  const commit = await run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: repo }).then((r) => r.stdout.trim(), () => null);
  if (!commit) return null;
  await rm(dest, { recursive: true, force: true });
  await mkdir(dest, { recursive: true });
  const paths = [];
  for (const p of BASELINE_PATHS) {
    if (await run('git', ['cat-file', '-e', `${commit}:${p}`], { cwd: repo }).then(() => true, () => false)) paths.push(p);
  }
  await run('bash', ['-c', 'git archive "$1" -- "${@:2}" | tar -x -C "$0"', dest, commit, ...paths], { cwd: repo, maxBuffer: 64 << 20 });
  await symlink(path.join(repo, 'node_modules'), path.join(dest, 'node_modules'), 'dir');
  return { root: dest, commit };
}

/**
 * Inflate time of each packed grammar's parse tables (median of `runs`, ms), each in a fresh Node
 * process so the decompressor starts cold, as it does for the first grammar a new isolate loads.
 * @param {string} root
 */
async function grammarDecode(root, runs = 3) {
  const dir = path.join(root, 'src', 'extract', 'grammars');
  const names = (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.data.deflate')).sort();
  const rows = [];
  for (const name of names) {
    const script = `
      const { readFileSync } = await import('node:fs');
      const { inflateRawSync } = await import('node:zlib');
      const packed = readFileSync(${JSON.stringify(path.join(dir, name))});
      const t0 = performance.now();
      const data = inflateRawSync(packed);
      console.log(JSON.stringify({ packed_bytes: packed.length, bytes: data.length, ms: performance.now() - t0 }));`;
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { maxBuffer: 1 << 20 });
      samples.push(JSON.parse(stdout));
    }
    const ms = samples.map((r) => r.ms).sort((a, b) => a - b);
    rows.push({ grammar: name.replace(/^tree-sitter-|\.data\.deflate$/g, ''), packed_bytes: samples[0].packed_bytes, bytes: samples[0].bytes, decode_ms: Math.round(ms[Math.floor(ms.length / 2)]) });
  }
  return rows.sort((a, b) => b.bytes - a.bytes);
}

export const BUNDLE_TARGETS = { upload_gzip_kib: 2048, startup_ms: 200 };

/**
 * @param {string} root  the code under test
 * @param {string} outDir  a scratch folder
 * @param {string[]} extra  wrangler flags for this build
 */
async function dryRun(root, outDir, extra) {
  await rm(outDir, { recursive: true, force: true });
  const { stdout, stderr } = await run('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', outDir, ...extra], { cwd: root, maxBuffer: 64 << 20, env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } });
  const text = `${stdout}\n${stderr}`;
  const m = /Total Upload:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(text);
  if (!m) throw new Error(`wrangler deploy --dry-run printed no "Total Upload" line:\n${text.slice(-2000)}`);
  const modules = [];
  for (const name of await readdir(outDir)) {
    if (name === 'README.md' || name.endsWith('.map')) continue;
    const bytes = await readFile(path.join(outDir, name));
    // Hashed module names (`<sha1>-tree-sitter-cpp.wasm`) read better without the hash.
    modules.push({ module: name.replace(/^[0-9a-f]{40}-/, ''), bytes: bytes.length, gzip_bytes: gzipSync(bytes, { level: 9 }).length });
  }
  modules.sort((a, b) => b.gzip_bytes - a.gzip_bytes);
  return { upload_kib: Number(m[1]), upload_gzip_kib: Number(m[2]), modules };
}

/** CPU milliseconds in a V8 .cpuprofile, idle samples left out. @param {any} profile */
export function profileCpuMs(profile) {
  const idle = new Set(profile.nodes.filter((/** @type {any} */ n) => n.callFrame.functionName === '(idle)').map((/** @type {any} */ n) => n.id));
  let us = 0;
  profile.samples.forEach((/** @type {number} */ id, /** @type {number} */ i) => {
    if (!idle.has(id)) us += profile.timeDeltas[i] ?? 0;
  });
  return us / 1000;
}

/** @param {string} root @param {string} outFile */
async function startupOnce(root, outFile) {
  await rm(outFile, { force: true });
  await run('npx', ['wrangler', 'check', 'startup', '--outfile', outFile], { cwd: root, maxBuffer: 64 << 20, env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } });
  return profileCpuMs(JSON.parse(await readFile(outFile, 'utf8')));
}

/**
 * The upload sizes and startup time of the code in `root`.
 * @param {{ root: string, tmp: string, runs: number, log: (s: string) => void }} o
 */
async function measure({ root, tmp, runs, log }) {
  const builds = {
    default: { command: 'npm run deploy', ...(await dryRun(root, path.join(tmp, 'bundle-default'), [])) },
    exact: { command: 'npm run deploy:exact', ...(await dryRun(root, path.join(tmp, 'bundle-exact'), ['--define', 'PINCHER_EXACT_TOKENS:true'])) },
  };
  log(`upload gzip: default ${builds.default.upload_gzip_kib} KiB, exact ${builds.exact.upload_gzip_kib} KiB; startup profile ×${runs}…`);
  const loadBefore = os.loadavg().map((x) => Math.round(x * 100) / 100);
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(Math.round(await startupOnce(root, path.join(tmp, `startup-${i}.cpuprofile`))));
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    builds,
    startup: { method: 'wrangler check startup: CPU time of the startup profile, idle left out (local workerd)', samples_ms: samples, median_ms: sorted[Math.floor(sorted.length / 2)], loadavg_before: loadBefore },
  };
}

/**
 * @param {{ root: string, repo?: string, baseline?: string | null, tmp: string, runs?: number, log: (s: string) => void }} o
 *   repo: the git checkout the baseline ref is read from (default root)
 */
export async function runBundle({ root, repo = root, baseline = null, tmp, runs = 3, log }) {
  log('bundle stage: dry-run builds (default and exact accounting)…');
  const current = await measure({ root, tmp: path.join(tmp, 'bundle-current'), runs, log });
  log('bundle stage: grammar parse-table decode times…');
  const grammars = await grammarDecode(root);
  /** @type {any} */
  let before = null;
  if (baseline) {
    const checkout = await checkoutRef(repo, baseline, path.join(tmp, 'bundle-baseline-code'));
    if (!checkout) log(`bundle stage: baseline ref '${baseline}' not found; no before/after`);
    else {
      log(`bundle stage: baseline ${baseline} (${checkout.commit.slice(0, 10)})…`);
      before = { ref: baseline, commit: checkout.commit, ...(await measure({ root: checkout.root, tmp: path.join(tmp, 'bundle-baseline'), runs, log })) };
    }
  }
  return { targets: BUNDLE_TARGETS, ...current, grammars, baseline: before };
}

/** @param {any} b @param {typeof import('./table.mjs').renderTable} renderTable */
export function formatBundle(b, renderTable) {
  const kib = (/** @type {number} */ n) => (n / 1024).toFixed(0);
  const mark = (/** @type {boolean} */ ok) => (ok ? '✓' : '✗');
  const out = [];
  const before = b.baseline;
  const rows = [['build', 'command', 'upload KiB', 'gzip KiB', ...(before ? [`gzip KiB at ${before.ref}`, 'change'] : []), `target ≤ ${b.targets.upload_gzip_kib}`]];
  for (const [name, r] of Object.entries(b.builds)) {
    const was = before?.builds[name];
    const change = was ? `${r.upload_gzip_kib - was.upload_gzip_kib >= 0 ? '+' : ''}${(r.upload_gzip_kib - was.upload_gzip_kib).toFixed(0)}` : '';
    rows.push([name, r.command, r.upload_kib.toFixed(0), r.upload_gzip_kib.toFixed(0), ...(before ? [was ? was.upload_gzip_kib.toFixed(0) : '—', change] : []), mark(r.upload_gzip_kib <= b.targets.upload_gzip_kib)]);
  }
  out.push('', renderTable(rows, { title: 'Upload size (wrangler deploy --dry-run; gzip is what the size limit counts)' }));
  const mods = [['module (default build)', 'KiB', 'gzip KiB']];
  for (const m of b.builds.default.modules.slice(0, 16)) mods.push([m.module, kib(m.bytes), kib(m.gzip_bytes)]);
  out.push('', renderTable(mods, { title: 'Largest modules' }));
  if (b.grammars?.length) {
    const g = [['grammar', 'parse tables KiB', 'deflate KiB', 'inflate ms']];
    for (const r of b.grammars) g.push([r.grammar, kib(r.bytes), kib(r.packed_bytes), String(r.decode_ms)]);
    out.push('', renderTable(g, { title: "Grammar first load: inflating the parse tables, once per isolate on a language's first file (Node, cold, this machine, median of 3)" }));
  }
  const startup = (/** @type {any} */ s) => `median ${s.median_ms} ms of ${s.samples_ms.join(', ')} ms; load average before ${s.loadavg_before.join(' ')}`;
  out.push('', `Startup (${b.startup.method}): ${startup(b.startup)} ${mark(b.startup.median_ms <= b.targets.startup_ms)} target ≤ ${b.targets.startup_ms} ms`);
  if (before) out.push(`Startup at ${before.ref} (${before.commit.slice(0, 10)}): ${startup(before.startup)}`);
  return out.join('\n');
}
