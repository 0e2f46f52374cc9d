// The tarball the Worker serves at /v1/cli.tgz (cli/dist/pincher-edge.tgz) is committed;
// these tests rebuild the bundle from cli/ and fail when the committed one is stale.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN_PATH, TARBALL, bundleCli, cliManifest } from '../../../scripts/build-cli.mjs';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'served-cli-'));
  const untar = spawnSync('tar', ['-xzf', TARBALL, '-C', dir], { encoding: 'utf8' });
  expect(untar.status, untar.stderr).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the committed CLI tarball', () => {
  it('holds the current bundle of cli/ (run `npm run build:cli` after changing cli/)', async () => {
    const committed = readFileSync(path.join(dir, 'package', BIN_PATH), 'utf8');
    expect(committed === (await bundleCli())).toBe(true);
  });

  it("has this repository's name, version and licence, a bin and no dependencies", () => {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package', 'package.json'), 'utf8'));
    expect(pkg).toEqual(cliManifest());
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.bin['pincher-edge']).toBe(BIN_PATH);
  });

  it('runs with Node alone: --version prints the package version, push --help lists its options', () => {
    const bin = path.join(dir, 'package', BIN_PATH);
    const version = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', cwd: dir });
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(cliManifest().version);
    const help = spawnSync(process.execPath, [bin, 'push', '--help'], { encoding: 'utf8', cwd: dir });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--take-over');
  });
});
