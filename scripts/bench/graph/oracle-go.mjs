// Oracle for Go callers: the Go type checker (go/parser + go/types, go_calls.go) over the
// corpus, the standard library type-checked from source. The Go toolchain is Debian's
// golang-1.19-go with its golang-1.19-src, fetched with `apt-get download` and unpacked
// (never installed) under the bench cache; an installed /usr/lib/go-1.19 serves offline.
//
//   oracleGo({ dir, files, cache }) → { tool, targets: [...] } (same shape as oracle-ts)
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../proc.mjs';
import { targetsFromSites } from './sites.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const GO_PACKAGES = ['golang-1.19-go', 'golang-1.19-src'];

/** GOROOT of a Go 1.19 toolchain unpacked into `cache/oracles/go` (once). */
export async function ensureGo(cache, log = () => {}) {
  const dest = path.join(cache, 'oracles', 'go');
  const goroot = path.join(dest, 'usr', 'lib', 'go-1.19');
  if (existsSync(path.join(dest, '.done'))) return goroot;
  await rm(dest, { recursive: true, force: true });
  await mkdir(dest, { recursive: true });
  log(`  fetching ${GO_PACKAGES.join(' + ')} into ${dest}…`);
  const dl = await run('apt-get', ['download', ...GO_PACKAGES], { cwd: dest, timeoutMs: 600_000 });
  const debs = (await readdir(dest)).filter((f) => f.endsWith('.deb'));
  if (dl.code === 0 && debs.length === GO_PACKAGES.length) {
    for (const deb of debs) {
      const x = await run('dpkg-deb', ['-x', deb, '.'], { cwd: dest, timeoutMs: 300_000 });
      if (x.code !== 0) throw new Error(`dpkg-deb -x ${deb} failed: ${x.stderr.slice(-300)}`);
      await rm(path.join(dest, deb));
    }
    await run('touch', ['.done'], { cwd: dest });
    return goroot;
  }
  if (existsSync('/usr/lib/go-1.19/bin/go') && existsSync('/usr/lib/go-1.19/src/go/types')) {
    log(`  apt-get download ${GO_PACKAGES.join(' ')} failed; using the installed /usr/lib/go-1.19`);
    return '/usr/lib/go-1.19';
  }
  throw new Error(`apt-get download ${GO_PACKAGES.join(' ')} failed: ${dl.stderr.slice(-300)}`);
}

/** @param {{ dir: string, files: string[], cache: string, maxTargets?: number, log?: (l: string) => void }} o */
export async function oracleGo({ dir, files, cache, maxTargets = 300, log = () => {} }) {
  const goroot = await ensureGo(cache, log);
  const env = { ...process.env, GOROOT: goroot, GO111MODULE: 'off', GOPATH: path.join(cache, 'oracles', 'gopath'), GOCACHE: path.join(cache, 'oracles', 'gocache'), GOFLAGS: '', CGO_ENABLED: '0', GOTOOLCHAIN: 'local' };
  const go = path.join(goroot, 'bin', 'go');
  const version = await run(go, ['version'], { env, timeoutMs: 60_000 });
  const r = await run(go, ['run', path.join(HERE, 'go_calls.go'), dir, ...files], { cwd: dir, env, timeoutMs: 20 * 60_000 });
  if (r.code !== 0) throw new Error(`go_calls.go failed (exit ${r.code}): ${r.stderr.slice(-400)}`);
  const { defs, calls } = JSON.parse(r.stdout);
  return { tool: `${version.stdout.trim().replace(/^go version /, '')} go/types`, targets: targetsFromSites(defs, calls, maxTargets) };
}
