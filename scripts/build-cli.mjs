#!/usr/bin/env node
// `npm run build:cli`: bundles the `pincher-edge` CLI (cli/ and its dependencies) into one
// file with no runtime dependencies and packs it as an npm tarball, cli/dist/pincher-edge.tgz.
// The Worker serves that tarball at /v1/cli.tgz, so any CI with Node ≥ 20 can run
// `npx --yes <server>/v1/cli.tgz push`. The tarball is committed; a test rebuilds the
// bundle and fails when it no longer matches cli/ (run this script after changing cli/).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TARBALL = path.join(ROOT, 'cli', 'dist', 'pincher-edge.tgz');
/** Where the bundled command sits inside the package (bin.mjs reads ../package.json for --version). */
export const BIN_PATH = 'bin/pincher-edge.mjs';

/** The CLI as one ES module: dependencies inlined, Node built-ins left as imports. */
export async function bundleCli() {
  const out = await build({
    entryPoints: [path.join(ROOT, 'cli', 'bin.mjs')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    legalComments: 'inline',
    logLevel: 'warning',
    // CommonJS dependencies call require() for Node built-ins: give the ES module one.
    banner: { js: "import { createRequire as __pincherRequire } from 'node:module';\nconst require = __pincherRequire(import.meta.url);" },
  });
  return out.outputFiles[0].text;
}

/** package.json of the served package: the root's name, version and licence; no dependencies. */
export function cliManifest() {
  const root = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return {
    name: root.name,
    version: root.version,
    description: 'pincher-edge push: upload a repository to a pincher-edge server (single file, no dependencies)',
    type: 'module',
    bin: { 'pincher-edge': BIN_PATH },
    engines: { node: '>=20' },
    license: root.license,
    ...(root.repository ? { repository: root.repository } : {}),
  };
}

async function main() {
  const stage = mkdtempSync(path.join(tmpdir(), 'pincher-cli-'));
  try {
    mkdirSync(path.join(stage, 'bin'));
    writeFileSync(path.join(stage, BIN_PATH), await bundleCli(), { mode: 0o755 });
    writeFileSync(path.join(stage, 'package.json'), JSON.stringify(cliManifest(), null, 2) + '\n');
    copyFileSync(path.join(ROOT, 'LICENSE'), path.join(stage, 'LICENSE'));
    copyFileSync(path.join(ROOT, 'docs', 'indexing.md'), path.join(stage, 'README.md'));
    const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', stage], { cwd: stage, encoding: 'utf8' });
    if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
    const [{ filename }] = JSON.parse(packed.stdout);
    mkdirSync(path.dirname(TARBALL), { recursive: true });
    renameSync(path.join(stage, filename), TARBALL);
    const size = readFileSync(TARBALL).length;
    console.log(`cli/dist/pincher-edge.tgz: ${(size / 1024).toFixed(1)} KiB (${cliManifest().name}@${cliManifest().version})`);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
