// Real corpora for the graph bench, one per cross-file language, fetched with the ordinary
// clients and cached under .tmp/graph-bench/ (npm tarballs via `npm pack <pkg>@<version>`,
// Debian python3-*, golang-*-dev and librust-*-dev packages via `apt-get download`). When a fetch fails offline, the same
// exact version already on the machine (node_modules, dist-packages) is used. Test files are
// left out of every corpus, so callers in tests never count on either side.
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { run } from '../proc.mjs';

/** Paths that are tests or benchmarks (left out of the corpora). */
export const TEST_PATH = /(^|\/)(tests?|__tests__|benchmarks?|testing)(\/|$)|\.(test|spec|bench)\.[cm]?[jt]sx?$|(^|\/)test_[^/]*\.py$|_test\.py$|(^|\/)conftest\.py$|_test\.go$|(^|\/)testdata(\/|$)/;

/**
 * `keep`: the folder the files keep in the corpus (a Go package's import path, a Python
 * package's name) so imports between them resolve; by default none.
 * @typedef {{ language: string, name: string, source: string, under: string, ext: RegExp, keep?: string }} CorpusSpec
 * @type {CorpusSpec[]}
 */
export const CORPORA = [
  { language: 'typescript', name: 'zod@4.6.7', source: 'npm', under: 'src', ext: /\.ts$/ },
  { language: 'javascript', name: 'semver@7.8.6', source: 'npm', under: '', ext: /\.js$/ },
  { language: 'python', name: 'python3-oauthlib', source: 'deb', under: 'usr/lib/python3/dist-packages/oauthlib', ext: /\.py$/, keep: 'oauthlib' },
  { language: 'python', name: 'python3-jwt', source: 'deb', under: 'usr/lib/python3/dist-packages/jwt', ext: /\.py$/, keep: 'jwt' },
  { language: 'go', name: 'golang-github-spf13-pflag-dev', source: 'deb', under: 'usr/share/gocode/src/github.com/spf13/pflag', ext: /\.go$/, keep: 'github.com/spf13/pflag' },
  { language: 'go', name: 'golang-github-burntsushi-toml-dev', source: 'deb', under: 'usr/share/gocode/src/github.com/BurntSushi/toml', ext: /\.go$/, keep: 'github.com/BurntSushi/toml' },
  // Rust: a crate without dependencies (the oracle compiles it alone), with its Cargo.toml.
  { language: 'rust', name: 'librust-regex-syntax-dev', source: 'deb', under: 'usr/share/cargo/registry/regex-syntax-0.6.27', ext: /\.rs$|^Cargo\.toml$/, keep: 'regex-syntax' },
  { language: 'java', name: 'cordova-android@15.1.0', source: 'npm', under: 'framework/src', ext: /\.java$/ },
  { language: 'java', name: '@capacitor/android@8.5.2', source: 'npm', under: 'capacitor/src/main/java', ext: /\.java$/ },
];

async function listFiles(abs, rel, ext, out) {
  const entries = (await readdir(abs, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!['node_modules', '__pycache__', '.git'].includes(e.name)) await listFiles(path.join(abs, e.name), r, ext, out);
    } else if (e.isFile() && ext.test(e.name) && !/\.d\.[cm]?ts$/.test(e.name) && !TEST_PATH.test(r)) out.push(r);
  }
  return out;
}

/** Unpacks the spec's package into `cache` (once) and returns the folder holding its files. */
async function fetchSpec(spec, { cache, root, log }) {
  const dest = path.join(cache, spec.name.replace(/[@/]/g, '_'));
  if (existsSync(path.join(dest, '.done'))) return { dir: path.join(dest, spec.under), fetched: 'cache' };
  await rm(dest, { recursive: true, force: true });
  await mkdir(dest, { recursive: true });
  if (spec.source === 'npm') {
    const packed = await run('npm', ['pack', spec.name, '--silent', '--pack-destination', dest], { cwd: dest, timeoutMs: 120_000 });
    const tgz = packed.stdout.trim().split('\n').pop();
    if (packed.code === 0 && tgz && existsSync(path.join(dest, tgz))) {
      const x = await run('tar', ['xzf', tgz, '--strip-components', '1'], { cwd: dest, timeoutMs: 120_000 });
      if (x.code === 0) {
        await run('touch', ['.done'], { cwd: dest });
        return { dir: path.join(dest, spec.under), fetched: 'npm pack' };
      }
    }
    // Offline: the same version installed under node_modules.
    const [pkg, version] = [spec.name.slice(0, spec.name.lastIndexOf('@')), spec.name.slice(spec.name.lastIndexOf('@') + 1)];
    const local = path.join(root, 'node_modules', pkg);
    const have = existsSync(path.join(local, 'package.json')) ? JSON.parse(await readFile(path.join(local, 'package.json'), 'utf8')).version : null;
    if (have !== version) throw new Error(`npm pack ${spec.name} failed and node_modules has ${have ?? 'no'} ${pkg}`);
    log(`  npm pack ${spec.name} failed; using node_modules/${pkg}`);
    return { dir: path.join(local, spec.under), fetched: 'node_modules' };
  }
  const dl = await run('apt-get', ['download', spec.name], { cwd: dest, timeoutMs: 180_000 });
  const deb = (await readdir(dest)).find((f) => f.endsWith('.deb'));
  if (dl.code === 0 && deb) {
    const x = await run('dpkg-deb', ['-x', deb, '.'], { cwd: dest, timeoutMs: 120_000 });
    if (x.code === 0) {
      await run('touch', ['.done'], { cwd: dest });
      return { dir: path.join(dest, spec.under), fetched: `apt-get download (${deb})` };
    }
  }
  const local = path.join('/', spec.under);
  if (!existsSync(local)) throw new Error(`apt-get download ${spec.name} failed and ${local} is absent`);
  log(`  apt-get download ${spec.name} failed; using the installed ${local}`);
  return { dir: local, fetched: 'installed package' };
}

/**
 * Copies each language's corpora into `outDir/<language>/<package>/…` (test files left out).
 * @returns {Promise<Map<string, { dir: string, files: string[], sources: { name: string, fetched: string, files: number }[] }>>}
 */
export async function buildGraphCorpora({ root, outDir, cache, languages, log = () => {} }) {
  const out = new Map();
  for (const spec of CORPORA) {
    if (languages && !languages.includes(spec.language)) continue;
    const { dir, fetched } = await fetchSpec(spec, { cache, root, log });
    if (!existsSync(dir) || !(await stat(dir)).isDirectory()) throw new Error(`${spec.name}: ${dir} is not a folder`);
    const files = await listFiles(dir, '', spec.ext, []);
    const prefix = spec.keep ?? '';
    const entry = out.get(spec.language) ?? { dir: path.join(outDir, spec.language), files: [], sources: [] };
    for (const f of files) {
      const rel = prefix ? `${prefix}/${f}` : f;
      await mkdir(path.dirname(path.join(entry.dir, rel)), { recursive: true });
      await cp(path.join(dir, f), path.join(entry.dir, rel));
      entry.files.push(rel);
    }
    entry.sources.push({ name: spec.name, fetched, files: files.length });
    out.set(spec.language, entry);
  }
  return out;
}
