// `npm run bench -- --only bundle`: what Cloudflare would receive and how long the Worker takes to
// start. Two dry-run builds (`wrangler deploy --dry-run --outdir`): the default one and the one
// `npm run deploy:exact` uploads (cl100k_base ranks included). Each reports wrangler's own
// "Total Upload … / gzip …" line — the figure Cloudflare's size limit applies to — and the gzip
// size of each module, largest first. Startup: `wrangler check startup` profiles the Worker's
// startup phase (global scope and module evaluation) in local workerd; the figure is the CPU
// time in that profile, idle samples left out, median of `runs`. It is measured on this machine's
// CPU, not Cloudflare's, and a loaded machine inflates it (the load average is reported with it).
import { execFile } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const run = promisify(execFile);

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
 * @param {{ root: string, tmp: string, runs?: number, log: (s: string) => void }} o
 */
export async function runBundle({ root, tmp, runs = 3, log }) {
  log('bundle stage: dry-run builds (default and exact accounting)…');
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
    targets: BUNDLE_TARGETS,
    builds,
    startup: { method: 'wrangler check startup: CPU time of the startup profile, idle left out (local workerd)', samples_ms: samples, median_ms: sorted[Math.floor(sorted.length / 2)], loadavg_before: loadBefore },
  };
}

/** @param {any} b @param {typeof import('./table.mjs').renderTable} renderTable */
export function formatBundle(b, renderTable) {
  const kib = (/** @type {number} */ n) => (n / 1024).toFixed(0);
  const mark = (/** @type {boolean} */ ok) => (ok ? '✓' : '✗');
  const out = [];
  const rows = [['build', 'command', 'upload KiB', 'gzip KiB', `target ≤ ${b.targets.upload_gzip_kib}`]];
  for (const [name, r] of Object.entries(b.builds)) rows.push([name, r.command, r.upload_kib.toFixed(0), r.upload_gzip_kib.toFixed(0), mark(r.upload_gzip_kib <= b.targets.upload_gzip_kib)]);
  out.push('', renderTable(rows, { title: 'Upload size (wrangler deploy --dry-run; gzip is what the size limit counts)' }));
  const mods = [['module (default build)', 'KiB', 'gzip KiB']];
  for (const m of b.builds.default.modules.slice(0, 16)) mods.push([m.module, kib(m.bytes), kib(m.gzip_bytes)]);
  out.push('', renderTable(mods, { title: 'Largest modules' }));
  out.push('', `Startup (${b.startup.method}): median ${b.startup.median_ms} ms of ${b.startup.samples_ms.join(', ')} ms ${mark(b.startup.median_ms <= b.targets.startup_ms)} target ≤ ${b.targets.startup_ms} ms; load average before ${b.startup.loadavg_before.join(' ')}`);
  return out.join('\n');
}
