// The quality stage's corpora: real projects nobody here wrote, one folder each, installed by the
// bench itself from the two registries a fresh machine reaches — npm (`npm pack NAME@VERSION`,
// exact versions) and Debian (`apt-get download NAME` + `dpkg-deb -x`, never installed
// system-wide). Downloads and extractions are cached under .tmp/bench-corpora/ (gitignored); a
// project folder is rebuilt only when its spec changes. Anything that cannot be installed stops
// the stage with a message naming the package and the command that failed.
//
// C# comes from Unity packages published on npm (they ship their .cs sources).
//
// Debian packages are named without a version: the archive keeps only the current one of a
// stable release (security updates replace it), so the version actually used is recorded in the
// results instead.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * @typedef {{ type: 'npm', spec: string } | { type: 'deb', pkg: string, tarball?: string }} Source
 * `tarball`: a tar archive inside the package, unpacked (only the `take` folders) in its place.
 * @typedef {object} ProjectSpec
 * @property {string} id
 * @property {'typescript' | 'javascript' | 'python' | 'go' | 'rust' | 'java' | 'ruby' | 'c' | 'cpp' | 'php' | 'bash' | 'csharp'} language
 * @property {Source} source
 * @property {string[]} take folders (relative to the package root) copied into the project; a
 *   trailing `/*` takes the folder's files without its sub-folders
 * @property {string[]} [skip] folder names left out anywhere below a `take` folder
 * @property {number} [maxFiles] most source files of the language kept (an even stride over the sorted list)
 * @property {string} [suffix] appended to files without an extension (shell scripts named like commands)
 */

/** Source-file extensions per language, as the oracle and the server both read them. */
export const EXTENSIONS = {
  typescript: ['.ts', '.mts', '.cts'],
  javascript: ['.js', '.mjs', '.cjs'],
  python: ['.py'],
  go: ['.go'],
  rust: ['.rs'],
  java: ['.java'],
  ruby: ['.rb'],
  c: ['.c', '.h'],
  cpp: ['.cc', '.cpp', '.cxx', '.hpp', '.hh', '.h'],
  php: ['.php'],
  bash: ['.sh', '.bash'],
  csharp: ['.cs'],
};

const GO = 'usr/share/go-1.19/src';
const GOCODE = 'usr/share/gocode/src/github.com';
const CARGO = 'usr/share/cargo/registry';
const RUBY = 'usr/lib/ruby/3.1.0';
const GEMS = 'usr/share/rubygems-integration/all/gems';
const PY = 'usr/lib/python3.11';
const DIST = 'usr/lib/python3/dist-packages';
const JDK_ZIP = 'usr/lib/jvm/openjdk-17/lib/src.zip';

/** @type {ProjectSpec[]} */
export const PROJECTS = [
  // TypeScript: sources (.ts) and declaration-heavy packages (.d.ts).
  { id: 'ts-rxjs', language: 'typescript', source: { type: 'npm', spec: 'rxjs@7.8.2' }, take: ['package/src'] },
  { id: 'ts-type-fest', language: 'typescript', source: { type: 'npm', spec: 'type-fest@4.26.1' }, take: ['package/source', 'package/index.d.ts'] },
  { id: 'ts-types-node', language: 'typescript', source: { type: 'npm', spec: '@types/node@20.19.25' }, take: ['node v20.19'] },
  { id: 'ts-zod', language: 'typescript', source: { type: 'npm', spec: 'zod@3.23.8' }, take: ['package/lib'], skip: ['benchmarks', '__tests__'] },
  // JavaScript: CommonJS and ES modules.
  { id: 'js-express', language: 'javascript', source: { type: 'npm', spec: 'express@4.21.2' }, take: ['package/lib', 'package/index.js'] },
  { id: 'js-lodash', language: 'javascript', source: { type: 'npm', spec: 'lodash@4.17.21' }, take: ['package/*'], maxFiles: 300 },
  { id: 'js-commander', language: 'javascript', source: { type: 'npm', spec: 'commander@12.1.0' }, take: ['package/lib', 'package/index.js'] },
  { id: 'js-axios', language: 'javascript', source: { type: 'npm', spec: 'axios@1.7.9' }, take: ['package/lib'] },
  { id: 'js-koa', language: 'javascript', source: { type: 'npm', spec: 'koa@2.15.3' }, take: ['package/lib'] },
  // Python: the standard library in two parts, and three Debian python3-* packages.
  { id: 'py-stdlib-asyncio', language: 'python', source: { type: 'deb', pkg: 'libpython3.11-stdlib' }, take: [`${PY}/asyncio`, `${PY}/concurrent`, `${PY}/multiprocessing`] },
  { id: 'py-stdlib-modules', language: 'python', source: { type: 'deb', pkg: 'libpython3.11-stdlib' }, take: [`${PY}/*`, `${PY}/json`, `${PY}/http`, `${PY}/html`, `${PY}/sqlite3`, `${PY}/tomllib`], maxFiles: 200 },
  { id: 'py-requests', language: 'python', source: { type: 'deb', pkg: 'python3-requests' }, take: [`${DIST}/requests`] },
  { id: 'py-jinja2', language: 'python', source: { type: 'deb', pkg: 'python3-jinja2' }, take: [`${DIST}/jinja2`] },
  { id: 'py-click', language: 'python', source: { type: 'deb', pkg: 'python3-click' }, take: [`${DIST}/click`] },
  // Go: the standard library in two parts, and three Debian golang-*-dev packages.
  { id: 'go-std-net-http', language: 'go', source: { type: 'deb', pkg: 'golang-1.19-src' }, take: [`${GO}/net/http`], skip: ['testdata'] },
  { id: 'go-std-go', language: 'go', source: { type: 'deb', pkg: 'golang-1.19-src' }, take: ['ast', 'parser', 'printer', 'scanner', 'token', 'format', 'doc', 'build', 'constant'].map((d) => `${GO}/go/${d}`), skip: ['testdata'], maxFiles: 300 },
  { id: 'go-cobra', language: 'go', source: { type: 'deb', pkg: 'golang-github-spf13-cobra-dev' }, take: [`${GOCODE}/spf13/cobra`] },
  { id: 'go-logrus', language: 'go', source: { type: 'deb', pkg: 'golang-github-sirupsen-logrus-dev' }, take: [`${GOCODE}/sirupsen/logrus`] },
  { id: 'go-mux', language: 'go', source: { type: 'deb', pkg: 'golang-github-gorilla-mux-dev' }, take: [`${GOCODE}/gorilla/mux`] },
  // Rust: crates from Debian's librust-*-dev packages.
  { id: 'rust-serde', language: 'rust', source: { type: 'deb', pkg: 'librust-serde-dev' }, take: [`${CARGO}/serde-1.0.152/src`] },
  { id: 'rust-regex-syntax', language: 'rust', source: { type: 'deb', pkg: 'librust-regex-syntax-dev' }, take: [`${CARGO}/regex-syntax-0.6.27/src`], skip: ['unicode_tables'] },
  { id: 'rust-syn', language: 'rust', source: { type: 'deb', pkg: 'librust-syn-dev' }, take: [`${CARGO}/syn-1.0.107/src`] },
  { id: 'rust-clap', language: 'rust', source: { type: 'deb', pkg: 'librust-clap-dev' }, take: [`${CARGO}/clap-4.0.32/src`, `${CARGO}/clap-4.0.32/examples`] },
  // Java: the JDK 17 sources (src.zip), one project per module or package.
  { id: 'java-util', language: 'java', source: { type: 'deb', pkg: 'openjdk-17-source', tarball: JDK_ZIP }, take: ['java.base/java/util/*'] },
  { id: 'java-io', language: 'java', source: { type: 'deb', pkg: 'openjdk-17-source', tarball: JDK_ZIP }, take: ['java.base/java/io'] },
  { id: 'java-net-http', language: 'java', source: { type: 'deb', pkg: 'openjdk-17-source', tarball: JDK_ZIP }, take: ['java.net.http'] },
  { id: 'java-sql', language: 'java', source: { type: 'deb', pkg: 'openjdk-17-source', tarball: JDK_ZIP }, take: ['java.sql'] },
  // Ruby: the standard library in two parts, and three Debian ruby-* gems.
  { id: 'rb-stdlib-net', language: 'ruby', source: { type: 'deb', pkg: 'libruby3.1' }, take: ['net', 'uri', 'optparse', 'csv', 'logger'].flatMap((d) => [`${RUBY}/${d}`]).concat([`${RUBY}/*`]) },
  { id: 'rb-rubygems', language: 'ruby', source: { type: 'deb', pkg: 'libruby3.1' }, take: [`${RUBY}/rubygems`], maxFiles: 250 },
  { id: 'rb-rack', language: 'ruby', source: { type: 'deb', pkg: 'ruby-rack' }, take: [`${GEMS}/rack-2.2.22/lib`] },
  { id: 'rb-thor', language: 'ruby', source: { type: 'deb', pkg: 'ruby-thor' }, take: [`${GEMS}/thor-1.2.1/lib`] },
  { id: 'rb-rspec-core', language: 'ruby', source: { type: 'deb', pkg: 'ruby-rspec-core' }, take: [`${GEMS}/rspec-core-3.12.0/lib`] },
  // C: sources and headers.
  { id: 'c-gnulib', language: 'c', source: { type: 'deb', pkg: 'gnulib' }, take: ['usr/share/gnulib/lib'], maxFiles: 300 },
  { id: 'c-openssl-headers', language: 'c', source: { type: 'deb', pkg: 'libssl-dev' }, take: ['usr/include/openssl'] },
  { id: 'c-glibc-string', language: 'c', source: { type: 'deb', pkg: 'glibc-source', tarball: 'usr/src/glibc/glibc-2.36.tar.xz' }, take: ['glibc-2.36/string', 'glibc-2.36/malloc'], maxFiles: 300 },
  // C++: header-only libraries and a library with sources.
  { id: 'cpp-googletest', language: 'cpp', source: { type: 'deb', pkg: 'googletest' }, take: ['usr/src/googletest/googletest/src', 'usr/src/googletest/googletest/include', 'usr/src/googletest/googlemock/src', 'usr/src/googletest/googlemock/include'] },
  { id: 'cpp-nlohmann-json', language: 'cpp', source: { type: 'deb', pkg: 'nlohmann-json3-dev' }, take: ['usr/include/nlohmann'] },
  { id: 'cpp-fmt', language: 'cpp', source: { type: 'deb', pkg: 'libfmt-dev' }, take: ['usr/include/fmt'] },
  // PHP: Debian php-* libraries.
  { id: 'php-twig', language: 'php', source: { type: 'deb', pkg: 'php-twig' }, take: ['usr/share/php/Twig'] },
  { id: 'php-monolog', language: 'php', source: { type: 'deb', pkg: 'php-monolog' }, take: ['usr/share/php/Monolog'] },
  { id: 'php-symfony-console', language: 'php', source: { type: 'deb', pkg: 'php-symfony-console' }, take: ['usr/share/php/Symfony/Component/Console'] },
  // Bash: completion scripts and commands written in shell (named like commands: given a .bash suffix).
  { id: 'bash-completion', language: 'bash', source: { type: 'deb', pkg: 'bash-completion' }, take: ['usr/share/bash-completion/*', 'usr/share/bash-completion/completions'], suffix: '.bash', maxFiles: 250 },
  { id: 'bash-git-extras', language: 'bash', source: { type: 'deb', pkg: 'git-extras' }, take: ['usr/bin', 'usr/share/bash-completion/completions'], suffix: '.bash' },
  { id: 'bash-xdg-utils', language: 'bash', source: { type: 'deb', pkg: 'xdg-utils' }, take: ['usr/bin'], suffix: '.bash' },
  { id: 'bash-libtool', language: 'bash', source: { type: 'deb', pkg: 'libtool' }, take: ['usr/share/libtool/build-aux', 'usr/bin'], suffix: '.bash' },
  // C#: Unity packages from npm (Rx for Unity, async/await for Unity, a localisation plugin).
  { id: 'cs-unirx', language: 'csharp', source: { type: 'npm', spec: 'com.neuecc.unirx@7.1.0' }, take: ['package'] },
  { id: 'cs-unitask', language: 'csharp', source: { type: 'npm', spec: 'com.cysharp.unitask@2.2.5' }, take: ['package/Runtime', 'package/Editor'] },
  { id: 'cs-crowdin', language: 'csharp', source: { type: 'npm', spec: 'com.crowdin.unity-plugin@0.12.0' }, take: ['package/Plugin', 'package/Editor'] },
];

/** What each external command comes from, for the install hint and the automatic install. */
const TOOL_PACKAGES = { ctags: 'universal-ctags', unzip: 'unzip', xz: 'xz-utils', 'dpkg-deb': 'dpkg', 'apt-get': 'apt', tar: 'tar', npm: null };

/** A failure to install a corpus: names the project, the source and the command. */
export class CorpusError extends Error {}

/** @param {string} cmd */
function have(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/**
 * @param {string} command @param {string[]} args @param {{ cwd?: string, timeoutMs?: number }} [o]
 * @returns {string} stdout
 */
function sh(command, args, { cwd, timeoutMs = 600_000 } = {}) {
  const res = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (res.error || res.status !== 0) {
    const why = res.error ? res.error.message : `exit ${res.status}: ${(res.stderr || res.stdout || '').trim().split('\n').slice(-4).join(' | ')}`;
    throw new CorpusError(`\`${command} ${args.join(' ')}\` failed (${why})`);
  }
  return res.stdout;
}

let aptUpdated = false;
/** `apt-get update`, at most once per run, only after a look-up or download failed. */
function aptUpdate(log) {
  if (aptUpdated) return false;
  aptUpdated = true;
  log('  apt-get update (package lists missing or stale)…');
  sh('apt-get', ['update'], { timeoutMs: 300_000 });
  return true;
}

/**
 * Makes sure the commands the stage runs exist; installs the missing ones with apt-get when
 * running as root, else fails with the command to run.
 * @param {(line: string) => void} log
 */
export function ensureTools(log) {
  const missing = Object.keys(TOOL_PACKAGES).filter((t) => !have(t));
  const installable = missing.filter((t) => TOOL_PACKAGES[t]);
  if (missing.includes('npm') || missing.includes('apt-get') || missing.includes('dpkg-deb')) {
    throw new CorpusError(`the quality stage needs npm, apt-get and dpkg-deb (a Debian-based machine); missing: ${missing.join(', ')}`);
  }
  if (installable.length === 0) return;
  const pkgs = [...new Set(installable.map((t) => TOOL_PACKAGES[t]))];
  if (process.getuid?.() !== 0) throw new CorpusError(`missing ${installable.join(', ')}: run \`sudo apt-get install -y --no-install-recommends ${pkgs.join(' ')}\``);
  log(`installing ${pkgs.join(', ')} (apt-get)…`);
  const install = () => sh('apt-get', ['install', '-y', '--no-install-recommends', ...pkgs], { timeoutMs: 600_000 });
  try {
    install();
  } catch (err) {
    if (!aptUpdate(log)) throw err;
    install();
  }
}

/** The key of a source in the download cache. @param {Source} s */
const sourceKey = (s) => (s.type === 'npm' ? `npm-${s.spec.replace(/[/@]/g, '_')}` : `deb-${s.pkg}`);

/**
 * Downloads and unpacks one source into `<cache>/sources/<key>/root` (once); returns the root
 * and the version in use.
 * @param {Source} s @param {string} cache @param {(line: string) => void} log
 */
async function fetchSource(s, cache, log) {
  const dir = path.join(cache, 'sources', sourceKey(s));
  const done = path.join(dir, 'source.json');
  if (existsSync(done)) return JSON.parse(await readFile(done, 'utf8'));
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'root'), { recursive: true });
  let version;
  if (s.type === 'npm') {
    log(`  npm pack ${s.spec}…`);
    const out = sh('npm', ['pack', s.spec, '--silent', '--pack-destination', dir], { cwd: dir, timeoutMs: 300_000 });
    const tgz = out.trim().split('\n').pop();
    if (!tgz) throw new CorpusError(`\`npm pack ${s.spec}\` printed no file name`);
    sh('tar', ['-xzf', path.join(dir, tgz), '-C', path.join(dir, 'root')]);
    await rm(path.join(dir, tgz), { force: true });
    version = s.spec.slice(s.spec.lastIndexOf('@') + 1);
  } else {
    log(`  apt-get download ${s.pkg}…`);
    const download = () => sh('apt-get', ['download', s.pkg], { cwd: dir, timeoutMs: 600_000 });
    try {
      download();
    } catch (err) {
      if (!aptUpdate(log)) throw err;
      download();
    }
    const deb = (await readdir(dir)).find((f) => f.endsWith('.deb'));
    if (!deb) throw new CorpusError(`\`apt-get download ${s.pkg}\` left no .deb file`);
    sh('dpkg-deb', ['-x', path.join(dir, deb), path.join(dir, 'root')]);
    version = sh('dpkg-deb', ['-f', path.join(dir, deb), 'Version']).trim();
    await rm(path.join(dir, deb), { force: true });
  }
  const meta = { source: s.type === 'npm' ? `npm:${s.spec}` : `deb:${s.pkg}=${version}`, version, root: path.join(dir, 'root') };
  await writeFile(done, JSON.stringify(meta));
  return meta;
}

/**
 * Unpacks the `take` folders of an archive inside a package (src.zip, a .tar.xz) into
 * `<dir>/unpacked-<hash>` (once) and returns that folder.
 * @param {string} archive @param {string[]} take @param {string} dir
 */
async function unpackArchive(archive, take, dir) {
  const folders = take.map((t) => t.replace(/\/\*$/, ''));
  const out = path.join(dir, `unpacked-${createHash('sha256').update(JSON.stringify(folders)).digest('hex').slice(0, 12)}`);
  if (existsSync(path.join(out, '.done'))) return out;
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  if (archive.endsWith('.zip')) sh('unzip', ['-q', '-o', archive, ...folders.map((f) => `${f}/*`), '-d', out]);
  else sh('tar', ['-xf', archive, '-C', out, ...folders]);
  await writeFile(path.join(out, '.done'), '');
  return out;
}

/**
 * Files below `abs` (sorted; no symlinks), as paths relative to `abs`.
 * @param {string} abs @param {boolean} recursive @param {Set<string>} skip
 */
async function listTree(abs, recursive, skip, rel = '', out = /** @type {string[]} */ ([])) {
  const entries = await readdir(path.join(abs, rel), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory() && recursive && !skip.has(e.name)) await listTree(abs, recursive, skip, r, out);
    else if (e.isFile()) out.push(r);
  }
  return out;
}

/** @template T @param {T[]} items @param {number} k @returns {T[]} */
function stride(items, k) {
  if (k >= items.length) return items.slice();
  return Array.from({ length: k }, (_, i) => items[Math.floor((i * items.length) / k)]);
}

/**
 * Builds one project folder under `<cache>/projects/<id>` from its source (downloaded once).
 * @param {ProjectSpec} spec @param {string} cache @param {(line: string) => void} log
 * @returns {Promise<{ id: string, language: string, dir: string, source: string, files: number, bytes: number }>}
 */
async function buildProject(spec, cache, log) {
  const dir = path.join(cache, 'projects', spec.id);
  const stamp = path.join(cache, 'projects', `${spec.id}.json`);
  const specHash = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 16);
  if (existsSync(stamp)) {
    const prior = JSON.parse(await readFile(stamp, 'utf8'));
    if (prior.spec_hash === specHash && existsSync(dir)) return { ...prior, dir };
  }
  const fetched = await fetchSource(spec.source, cache, log);
  let base = fetched.root;
  if (spec.source.type === 'deb' && spec.source.tarball) {
    const archive = path.join(fetched.root, spec.source.tarball);
    if (!existsSync(archive)) throw new CorpusError(`${spec.source.pkg} has no ${spec.source.tarball}`);
    base = await unpackArchive(archive, spec.take, path.dirname(fetched.root));
  }
  const exts = EXTENSIONS[spec.language];
  const skip = new Set(spec.skip ?? []);
  /** @type {{ from: string, to: string, code: boolean }[]} */
  const picked = [];
  for (const t of spec.take) {
    const flat = t.endsWith('/*');
    const rel = flat ? t.slice(0, -2) : t;
    const abs = path.join(base, rel);
    const st = await lstat(abs).catch(() => null);
    if (!st) throw new CorpusError(`${fetched.source} has no ${rel} (project ${spec.id})`);
    const parent = path.basename(rel).replace(/\s+/g, '-');
    const files = st.isFile() ? [''] : await listTree(abs, !flat, skip);
    for (const f of files) {
      const from = f ? path.join(abs, f) : abs;
      let to = f ? `${parent}/${f}` : parent;
      if (spec.suffix && !path.basename(to).includes('.')) to += spec.suffix;
      picked.push({ from, to, code: exts.includes(path.extname(to).toLowerCase()) });
    }
  }
  const code = picked.filter((p) => p.code);
  const kept = new Set(stride(code, spec.maxFiles ?? Infinity));
  const chosen = picked.filter((p) => !p.code || kept.has(p));
  if (kept.size === 0) throw new CorpusError(`project ${spec.id}: no ${spec.language} files under ${spec.take.join(', ')} of ${fetched.source}`);
  await rm(dir, { recursive: true, force: true });
  let bytes = 0;
  for (const p of chosen) {
    const dest = path.join(dir, p.to);
    await mkdir(path.dirname(dest), { recursive: true });
    await cp(p.from, dest);
    bytes += (await lstat(dest)).size;
  }
  const info = { id: spec.id, language: spec.language, source: fetched.source, files: chosen.length, code_files: kept.size, bytes, spec_hash: specHash };
  await writeFile(stamp, JSON.stringify(info));
  return { ...info, dir };
}

/**
 * Installs every project of `specs` (downloads cached in `cache`); throws a CorpusError naming
 * the project that could not be installed.
 * @param {{ specs: ProjectSpec[], cache: string, log: (line: string) => void }} o
 */
export async function installCorpora({ specs, cache, log }) {
  ensureTools(log);
  await mkdir(cache, { recursive: true });
  const out = [];
  for (const spec of specs) {
    try {
      out.push(await buildProject(spec, cache, log));
    } catch (err) {
      const msg = /** @type {Error} */ (err)?.message ?? String(err);
      throw new CorpusError(`corpus ${spec.id} (${spec.source.type === 'npm' ? `npm ${spec.source.spec}` : `Debian ${spec.source.pkg}`}) could not be installed: ${msg}`);
    }
  }
  return out;
}
