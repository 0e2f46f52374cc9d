// Native tree-sitter (the Node addon) parse-only throughput on the same files, for scale.
// The packages are not dependencies of the project: they are installed at bench time with
// npm into a cache folder under node_modules/.cache (node-gyp compiles the runtime, about
// two minutes on two cores), under a time limit. Parsing runs in a child process so that a
// crashing addon cannot take the benchmark down.
//
//   parent: ensureNative(...), runNativeParse(...)   child: node parse-native.mjs --child …
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './proc.mjs';

const SELF = fileURLToPath(import.meta.url);

export const NATIVE_PACKAGES = ['tree-sitter@0.25.1', 'tree-sitter-python@0.25.0', 'tree-sitter-javascript@0.25.0', 'tree-sitter-typescript@0.23.2'];
const CACHE_KEY = NATIVE_PACKAGES.join('+').replace(/[@/]/g, '-');

/**
 * Makes the native packages available: reuses the cache unless `fresh`, else runs
 * `npm install` (tree-sitter-typescript 0.23.2 declares a peer of tree-sitter ^0.21, hence
 * --legacy-peer-deps) into a temp folder and moves it into the cache when the addons load.
 * @param {{ root: string, timeoutMs: number, fresh?: boolean, log?: (line: string) => void }} options
 * @returns {Promise<{ ok: true, dir: string, cached: boolean, installMs: number } | { ok: false, reason: string, installMs: number }>}
 */
export async function ensureNative({ root, timeoutMs, fresh = false, log = () => {} }) {
  const cacheRoot = path.join(root, 'node_modules', '.cache', 'pincher-bench');
  const dir = path.join(cacheRoot, CACHE_KEY);
  if (!fresh && existsSync(path.join(dir, 'ok'))) {
    const check = await probe(dir);
    if (check.ok) return { ok: true, dir, cached: true, installMs: 0 };
    log(`cached native packages do not load (${check.reason}); reinstalling`);
  }
  await mkdir(cacheRoot, { recursive: true });
  const tmp = await mkdtemp(path.join(cacheRoot, 'install-'));
  const started = performance.now();
  try {
    log(`npm install ${NATIVE_PACKAGES.join(' ')} (node-gyp build, limit ${Math.round(timeoutMs / 1000)} s)…`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const res = await run(npm, ['install', '--no-save', '--legacy-peer-deps', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', tmp, ...NATIVE_PACKAGES], {
      cwd: tmp,
      timeoutMs,
      env: installEnv(),
    }).catch((err) => ({ code: null, signal: null, stdout: '', stderr: String(err?.message ?? err), timedOut: false, wallMs: 0 }));
    const installMs = Math.round(performance.now() - started);
    if (res.timedOut) return { ok: false, reason: `npm install did not finish within ${Math.round(timeoutMs / 1000)} s`, installMs };
    if (res.code !== 0) {
      const lines = res.stderr.split('\n').filter((l) => /error|ERR|gyp/i.test(l));
      return { ok: false, reason: `npm install failed (exit ${res.code ?? res.signal}): ${(lines.slice(-3).join(' | ') || res.stderr.trim().slice(-300)).slice(0, 400)}`, installMs };
    }
    const check = await probe(tmp);
    if (!check.ok) return { ok: false, reason: `installed but the addon does not load: ${check.reason}`, installMs };
    await writeFile(path.join(tmp, 'ok'), `${new Date().toISOString()}\n`);
    await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir);
    return { ok: true, dir, cached: false, installMs };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The environment for the nested npm: `npm run bench` exports the project's prefix and lifecycle. */
function installEnv() {
  const env = { ...process.env, npm_config_update_notifier: 'false' };
  for (const key of Object.keys(env)) {
    if (/^npm_(config_local_prefix|config_prefix|package_|lifecycle_|command$)/i.test(key)) delete env[key];
  }
  return env;
}

/** Loads the addons in a child and parses one line of each language. @param {string} dir */
async function probe(dir) {
  const res = await run(process.execPath, [SELF, '--probe', dir], { timeoutMs: 60_000 });
  return res.code === 0 ? { ok: true } : { ok: false, reason: res.stderr.trim().split('\n').slice(-2).join(' | ').slice(0, 300) || `exit ${res.code ?? res.signal}` };
}

/**
 * @param {{ nativeDir: string, dir: string, listFile: string, timeoutMs?: number }} options
 */
export async function runNativeParse({ nativeDir, dir, listFile, timeoutMs = 10 * 60_000 }) {
  const res = await run(process.execPath, [SELF, '--child', nativeDir, dir, listFile], { timeoutMs });
  const last = res.stdout.trim().split('\n').pop() ?? '';
  if (res.code !== 0 || !last.startsWith('{')) {
    const why = res.timedOut ? `timed out after ${Math.round(timeoutMs / 1000)} s` : `exit ${res.code ?? res.signal}: ${res.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 400)}`;
    return { ok: false, reason: why };
  }
  return { ok: true, ...JSON.parse(last) };
}

/** @param {string} nativeDir */
function loadLanguages(nativeDir) {
  const require = createRequire(path.join(nativeDir, 'noop.js'));
  const Parser = require('tree-sitter');
  return {
    Parser,
    languages: {
      python: require('tree-sitter-python'),
      javascript: require('tree-sitter-javascript'),
      typescript: require('tree-sitter-typescript').typescript,
    },
  };
}

/** @param {number} bytes @param {number} ms */
const mbps = (bytes, ms) => (ms > 0 ? bytes / 1e6 / (ms / 1000) : 0);
/** @param {number} x @param {number} [d] */
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

async function child([nativeDir, dir, listFile]) {
  const { Parser, languages } = loadLanguages(nativeDir);
  const parser = new Parser();
  /** @type {{ path: string, language: string, bytes: number }[]} */
  const list = JSON.parse(await readFile(listFile, 'utf8'));
  const files = await Promise.all(list.map(async (f) => ({ ...f, text: await readFile(path.join(dir, f.path), 'utf8') })));
  for (const lang of Object.keys(languages)) {
    parser.setLanguage(languages[lang]);
    for (const f of files.filter((x) => x.language === lang).slice(0, 10)) parser.parse(f.text);
  }
  /** @type {Record<string, { files: number, bytes: number, ms: number, cpuMs: number, errorTrees: number }>} */
  const per = {};
  for (const f of files) {
    const language = languages[f.language];
    if (!language) continue;
    const row = (per[f.language] ??= { files: 0, bytes: 0, ms: 0, cpuMs: 0, errorTrees: 0 });
    parser.setLanguage(language);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const tree = parser.parse(f.text);
    row.ms += performance.now() - t0;
    const c = process.cpuUsage(c0);
    row.cpuMs += (c.user + c.system) / 1000;
    row.files++;
    row.bytes += f.bytes;
    if (tree.rootNode.hasError) row.errorTrees++;
  }
  const total = { files: 0, bytes: 0, ms: 0, cpuMs: 0, errorTrees: 0 };
  const shape = (/** @type {typeof total} */ r) => ({
    files: r.files,
    bytes: r.bytes,
    parse_ms: round(r.ms),
    parse_mbps: round(mbps(r.bytes, r.ms), 2),
    parse_cpu_ms: round(r.cpuMs),
    parse_cpu_mbps: round(mbps(r.bytes, r.cpuMs), 2),
    error_trees: r.errorTrees,
  });
  const byLanguage = {};
  for (const [lang, r] of Object.entries(per)) {
    byLanguage[lang] = shape(r);
    for (const k of Object.keys(total)) total[k] += r[k];
  }
  const version = JSON.parse(await readFile(path.join(nativeDir, 'node_modules', 'tree-sitter', 'package.json'), 'utf8')).version;
  process.stdout.write(`${JSON.stringify({ version, byLanguage, overall: shape(total) })}\n`);
}

function probeChild([nativeDir]) {
  const { Parser, languages } = loadLanguages(nativeDir);
  const parser = new Parser();
  const samples = { python: 'def f(x):\n    return x\n', javascript: 'let x = 1;\n', typescript: 'let x: number = 1;\n' };
  for (const [lang, text] of Object.entries(samples)) {
    parser.setLanguage(languages[lang]);
    const tree = parser.parse(text);
    if (tree.rootNode.hasError) throw new Error(`${lang} sample parsed with errors`);
  }
}

if (process.argv[1] === SELF && (process.argv[2] === '--child' || process.argv[2] === '--probe')) {
  (process.argv[2] === '--child' ? child(process.argv.slice(3)) : Promise.resolve(probeChild(process.argv.slice(3)))).catch((err) => {
    process.stderr.write(`parse-native: ${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
