// The benchmark corpus: real TypeScript/JavaScript from installed npm packages and the Python
// standard library of the machine's python3, copied into a temp folder. Everything exists
// offline after `npm ci`. Selection is deterministic: candidates are sorted, filtered with
// the CLI's own rules (so the corpus is exactly what `pincher-edge push` will send), deduped
// by content, then sampled at an even stride per language.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BLOCKED_DIRS, VCS_DIRS, blockedByContent, blockedByName } from '../../cli/blocklist.mjs';
import { walk } from '../../cli/walk.mjs';

/** Files bigger than this are left out (the CLI default cap is 1 MiB; generated giants skew a sample). */
export const MAX_CORPUS_FILE_BYTES = 512 * 1024;

/** npm packages the corpus reads, with the sub-folder to take (all devDependencies of the project). */
export const NPM_SOURCES = [
  { pkg: 'zod', under: '' },
  { pkg: 'hono', under: '' },
  { pkg: 'drizzle-orm', under: '' },
  { pkg: '@modelcontextprotocol/sdk', under: '' },
  { pkg: '@modelcontextprotocol/server', under: '' },
  { pkg: 'typescript', under: 'lib' },
];

/** Extension → language id, as in src/extract/languages/table.ts. */
const LANGUAGE_OF_EXT = new Map([
  ['.ts', 'typescript'], ['.mts', 'typescript'], ['.cts', 'typescript'],
  ['.js', 'javascript'], ['.mjs', 'javascript'], ['.cjs', 'javascript'],
  ['.py', 'python'],
]);

/** Share of the corpus per language (Python's share goes to the others without python3). */
const WEIGHTS = { python: 0.3, typescript: 0.4, javascript: 0.3 };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** @param {string} file */
export function languageOf(file) {
  return LANGUAGE_OF_EXT.get(path.extname(file).toLowerCase()) ?? null;
}

/** The stdlib folder of `python3`, or a reason it is unavailable. */
export function pythonStdlib() {
  const res = spawnSync('python3', ['-c', "import sysconfig,sys;print(sysconfig.get_paths()['stdlib']);print(sys.version.split()[0])"], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (res.error) return { ok: false, reason: `python3 not runnable (${res.error.code ?? res.error.message})` };
  if (res.status !== 0) return { ok: false, reason: `python3 exited ${res.status}: ${res.stderr.trim().slice(0, 200)}` };
  const [dir, version] = res.stdout.trim().split('\n');
  if (!dir || !existsSync(dir)) return { ok: false, reason: `python3 stdlib folder not found (${dir})` };
  return { ok: true, dir, version };
}

/**
 * Lists candidate source files under `abs` (sorted, no symlinks, no nested node_modules,
 * site-packages or caches).
 * @param {string} abs
 * @param {string} rel
 * @param {(name: string) => boolean} wantFile
 * @param {string[]} out
 */
async function listFiles(abs, rel, wantFile, out) {
  let entries;
  try {
    entries = await readdir(abs, { withFileTypes: true });
  } catch {
    return out;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const childRel = rel ? `${rel}/${e.name}` : e.name;
    if (e.isSymbolicLink()) continue;
    if (e.isDirectory()) {
      if (['node_modules', 'site-packages', '__pycache__', '.git'].includes(e.name)) continue;
      await listFiles(path.join(abs, e.name), childRel, wantFile, out);
    } else if (e.isFile() && wantFile(e.name)) {
      out.push(childRel);
    }
  }
  return out;
}

/**
 * A corpus path the CLI walker will not skip: folder names on its blocklist (dist, build,
 * vendor, venv…) get a trailing underscore.
 * @param {string} rel
 */
function safePath(rel) {
  return rel
    .split('/')
    .map((seg, i, all) => (i < all.length - 1 && (BLOCKED_DIRS.has(seg) || VCS_DIRS.has(seg) || seg.startsWith('.')) ? `${seg.replace(/^\./, '_')}_` : seg))
    .join('/');
}

/**
 * Reads one candidate and applies the CLI walker's rules; null when the CLI would skip it.
 * @param {string} abs
 */
async function readCandidate(abs) {
  const st = await lstat(abs).catch(() => null);
  if (!st || !st.isFile() || st.size === 0 || st.size > MAX_CORPUS_FILE_BYTES) return null;
  const bytes = await readFile(abs);
  if (bytes.subarray(0, 8192).includes(0)) return null;
  let text;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  if (blockedByContent(text, bytes.length)) return null;
  return { bytes, hash: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * Evenly spaced picks of `k` items out of `items` (all of them when k ≥ length).
 * @template T @param {T[]} items @param {number} k @returns {T[]}
 */
function stride(items, k) {
  if (k >= items.length) return items.slice();
  const out = [];
  for (let i = 0; i < k; i++) out.push(items[Math.floor((i * items.length) / k)]);
  return out;
}

/**
 * Builds the corpus under `outDir`.
 * @param {{ root: string, outDir: string, files: number, log?: (line: string) => void }} options
 */
export async function buildCorpus({ root, outDir, files: wanted, log = () => {} }) {
  const started = performance.now();
  /** @type {Record<string, { source: string, abs: string, rel: string }[]>} */
  const pools = { python: [], typescript: [], javascript: [] };
  const sources = [];

  const wantCode = (/** @type {string} */ name) => languageOf(name) !== null && !blockedByName(name, false);
  for (const { pkg, under } of NPM_SOURCES) {
    const base = path.join(root, 'node_modules', pkg, under);
    if (!existsSync(base)) {
      sources.push({ source: `npm:${pkg}`, available: false });
      continue;
    }
    const version = JSON.parse(await readFile(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;
    const listed = await listFiles(base, '', (name) => wantCode(name) && name !== 'package.json', []);
    for (const rel of listed) {
      const lang = languageOf(rel);
      if (lang === 'python') continue;
      pools[lang].push({ source: `npm:${pkg}@${version}`, abs: path.join(base, rel), rel: safePath(`npm/${pkg.replace('/', '__')}/${under ? `${under}/` : ''}${rel}`) });
    }
    sources.push({ source: `npm:${pkg}@${version}`, available: true, candidates: listed.length });
  }

  const python = pythonStdlib();
  if (python.ok) {
    const listed = await listFiles(python.dir, '', (name) => name.endsWith('.py') && wantCode(name), []);
    for (const rel of listed) pools.python.push({ source: `python${python.version}-stdlib`, abs: path.join(python.dir, rel), rel: safePath(`python/${rel}`) });
    sources.push({ source: `python${python.version}-stdlib`, available: true, candidates: listed.length, dir: python.dir });
  } else {
    sources.push({ source: 'python-stdlib', available: false, reason: python.reason });
    log(`python3 standard library skipped: ${python.reason}`);
  }

  // Every candidate is read and checked first (sorted order, first copy of a content wins),
  // then each language's quota is an even stride over what passed.
  const langs = Object.keys(pools).filter((l) => pools[l].length > 0);
  const weightSum = langs.reduce((s, l) => s + WEIGHTS[l], 0);
  const quota = Object.fromEntries(langs.map((l) => [l, Math.round((wanted * WEIGHTS[l]) / weightSum)]));
  const seen = new Set();
  /** @type {{ path: string, abs: string, language: string, source: string, bytes: number, hash: string }[]} */
  const picked = [];
  for (const lang of langs) {
    const pool = pools[lang].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    const valid = [];
    for (const c of pool) {
      const read = await readCandidate(c.abs);
      if (!read || seen.has(read.hash)) continue;
      seen.add(read.hash);
      valid.push({ path: c.rel, abs: c.abs, language: lang, source: c.source, bytes: read.bytes.length, hash: read.hash });
    }
    picked.push(...stride(valid, quota[lang]));
  }
  picked.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  // Copy into the temp folder.
  await mkdir(outDir, { recursive: true });
  for (const f of picked) {
    const dest = path.join(outDir, f.path);
    await mkdir(path.dirname(dest), { recursive: true });
    await writeFile(dest, await readFile(f.abs));
  }

  const byLanguage = tally(picked, (f) => f.language);
  const bySource = tally(picked, (f) => f.source);
  const declarationFiles = picked.filter((f) => /\.d\.[cm]?ts$/.test(f.path));
  return {
    dir: outDir,
    requested: wanted,
    files: picked.map(({ path: p, language, source, bytes, hash }) => ({ path: p, language, source, bytes, hash })),
    totals: { files: picked.length, bytes: picked.reduce((s, f) => s + f.bytes, 0) },
    byLanguage,
    bySource,
    typescriptDeclarations: { files: declarationFiles.length, bytes: declarationFiles.reduce((s, f) => s + f.bytes, 0) },
    sources,
    maxFileBytes: MAX_CORPUS_FILE_BYTES,
    buildMs: Math.round(performance.now() - started),
  };
}

/**
 * Files and bytes per key (a language, a source) of `files`.
 * @template {{ bytes: number }} F
 * @param {readonly F[]} files @param {(f: F) => string} key
 * @returns {Record<string, { files: number, bytes: number }>}
 */
export function tally(files, key) {
  /** @type {Record<string, { files: number, bytes: number }>} */
  const out = {};
  for (const f of files) {
    const row = (out[key(f)] ??= { files: 0, bytes: 0 });
    row.files++;
    row.bytes += f.bytes;
  }
  return out;
}

/** Occurrences of each value. @template T @param {T[]} xs @returns {Map<T, number>} */
export function count(xs) {
  const m = new Map();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

/**
 * Copies a checkout to `to` as the CLI's walk sees it (its ignore rules applied, `.git` left out):
 * the files a push of it would send, nothing else, so that a bench never writes into the checkout.
 * Fails, saying so, when `folder` is not a folder or holds nothing to push. `skipped` says in a line what the
 * walk left out (a package's `dist/` is build output: a bench on it measures what a push of it would hold).
 * @param {string} folder @param {string} to @returns {Promise<{ files: number, bytes: number, skipped: string }>}
 */
export async function copyWalked(folder, to) {
  if (!(await stat(folder).catch(() => null))?.isDirectory()) throw new Error(`${folder} is not a folder`);
  const walked = await walk(folder);
  const skipped = skippedLine(walked.skipped);
  if (walked.files.length === 0) throw new Error(`${folder}: the CLI's walk finds no file to push there${skipped ? ` (${skipped})` : ''}`);
  for (const f of walked.files) {
    await mkdir(path.dirname(path.join(to, f.path)), { recursive: true });
    await copyFile(path.join(folder, f.path), path.join(to, f.path));
  }
  return { files: walked.files.length, bytes: walked.files.reduce((n, f) => n + f.size, 0), skipped };
}

/**
 * What a walk skipped, in one line: the count by reason and the first few paths (a folder stands for all it holds), or ''.
 * @param {{ path: string, reason: string, detail?: string }[]} skipped
 */
export function skippedLine(skipped) {
  if (skipped.length === 0) return '';
  const byReason = [...count(skipped.map((s) => s.reason))].map(([reason, n]) => `${reason} ${n}`);
  const shown = skipped.slice(0, 3).map((s) => `${s.path}${s.detail ? ` (${s.detail})` : ''}`);
  const folder = skipped.find((s) => s.path.endsWith('/'))?.path;
  const back = folder ? `; a .pincherignore line !${folder} brings the folder back` : '';
  return `skipped ${byReason.join(', ')}: ${shown.join(', ')}${skipped.length > 3 ? ', …' : ''}${back}`;
}

/**
 * A corpus from a checkout instead of the built one: the files the CLI's walk finds in `folder`,
 * copied to `outDir` (copyWalked) so that the bench's edits (the one-file change) never touch the
 * checkout. Every walked file is pushed and counted in `totals`; `files` is left empty, for the
 * caller to fill with the languages the server gives the pushed files (codeFilesOf in latency.mjs),
 * since the query mix samples every language with a tags extractor.
 * @param {{ folder: string, outDir: string, log?: (line: string) => void }} o
 */
export async function corpusFromFolder({ folder, outDir, log = () => {} }) {
  const started = performance.now();
  const { skipped, ...totals } = await copyWalked(folder, outDir);
  log(`  ${totals.files} files from ${folder}${skipped ? ` (the CLI's walk ${skipped})` : ''}`);
  return {
    dir: outDir,
    requested: null,
    folder,
    /** @type {{ path: string, language: string, bytes: number }[]} */
    files: [],
    totals,
    /** @type {Record<string, { files: number, bytes: number }>} */
    byLanguage: {},
    bySource: { [folder]: totals },
    buildMs: Math.round(performance.now() - started),
  };
}
