// The storage and shards stages measure cache projects or any checkout given as a folder: a folder
// is pushed as the CLI's walk sees it, so the bench measures what a user's push would store.
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusFromFolder, skippedLine } from '../../../scripts/bench/corpus.mjs';
import { copyProjects, storageEntry, symbolDensity } from '../../../scripts/bench/storage.mjs';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function files(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) if (e.isFile()) out.push(path.relative(root, path.join(e.parentPath ?? e.path, e.name)));
  return out.sort();
}

describe('storage entries', () => {
  it('reads a bare name as a cache id and anything path-like as a folder', () => {
    const taken = new Set<string>();
    expect(storageEntry('ts-zod', taken, '/w')).toEqual({ id: 'ts-zod', folder: null });
    expect(storageEntry('./repo', taken, '/w')).toEqual({ id: 'repo', folder: '/w/repo' });
    expect(storageEntry('../x/my repo!', taken, '/w/y')).toEqual({ id: 'my-repo-', folder: '/w/x/my repo!' });
    expect(storageEntry('/abs/path/lib', taken, '/w')).toEqual({ id: 'lib', folder: '/abs/path/lib' });
    expect(storageEntry('~/src/app', taken, '/w')).toEqual({ id: 'app', folder: path.join(homedir(), 'src/app') });
    expect(storageEntry('.', taken, '/w/proj')).toEqual({ id: 'proj', folder: '/w/proj' });
  });

  it('gives two folders of one name two ids, and a nameless one a valid id', () => {
    const taken = new Set<string>();
    expect(storageEntry('/a/lib', taken).id).toBe('lib');
    expect(storageEntry('/b/lib', taken).id).toBe('lib-2');
    expect(storageEntry('/c/lib', taken).id).toBe('lib-3');
    expect(storageEntry('/', taken).id).toBe('checkout');
    expect(storageEntry('/d/.hidden', taken).id).toBe('hidden');
  });

  it('copies a folder as the CLI would push it: ignored files and .git left out', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'storage-entries-'));
    dirs.push(root);
    const repo = path.join(root, 'my-repo');
    await mkdir(path.join(repo, 'src'), { recursive: true });
    await mkdir(path.join(repo, '.git'), { recursive: true });
    await mkdir(path.join(repo, 'dist'), { recursive: true });
    await writeFile(path.join(repo, '.gitignore'), 'dist/\n*.log\n');
    await writeFile(path.join(repo, 'src', 'a.ts'), 'export const a = 1;\n');
    await writeFile(path.join(repo, 'README.md'), '# r\n');
    await writeFile(path.join(repo, 'debug.log'), 'noise\n');
    await writeFile(path.join(repo, 'dist', 'a.js'), 'exports.a = 1;\n');
    await writeFile(path.join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const out = path.join(root, 'out');
    const copied = await copyProjects({ ids: [repo], cache: path.join(root, 'no-cache'), tmp: out });
    expect(copied).toEqual([{ id: 'my-repo', dir: path.join(out, 'my-repo'), from: repo }]);
    const got = await files(path.join(out, 'my-repo'));
    expect(got).toContain(path.join('src', 'a.ts'));
    expect(got).toContain('README.md');
    expect(got.some((f) => f.startsWith('dist') || f.endsWith('.log') || f.startsWith('.git' + path.sep))).toBe(false);
  });

  it('refuses a folder that is missing, and a cache id that is not installed, saying what to do', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'storage-entries-'));
    dirs.push(root);
    await expect(copyProjects({ ids: [path.join(root, 'nope')], cache: root, tmp: path.join(root, 'o1') })).rejects.toThrow(/is not a folder/);
    await expect(copyProjects({ ids: ['py-nothing'], cache: root, tmp: path.join(root, 'o2') })).rejects.toThrow(/install the corpora first.*or give a folder path/);
  });

  it('builds the latency corpus from a checkout: every walked file copied and counted, languages left to the server', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'storage-entries-'));
    dirs.push(root);
    const repo = path.join(root, 'app');
    await mkdir(path.join(repo, 'pkg'), { recursive: true });
    await writeFile(path.join(repo, '.gitignore'), 'build/\n');
    await mkdir(path.join(repo, 'build'), { recursive: true });
    await writeFile(path.join(repo, 'build', 'out.js'), 'x\n');
    await writeFile(path.join(repo, 'pkg', 'mod.py'), 'def f():\n    return 1\n');
    await writeFile(path.join(repo, 'pkg', 'main.go'), 'package pkg\n');
    const out = path.join(root, 'corpus');
    const corpus = await corpusFromFolder({ folder: repo, outDir: out });
    const copied = await files(out);
    expect(copied).toEqual(expect.arrayContaining([path.join('pkg', 'mod.py'), path.join('pkg', 'main.go')]));
    expect(copied.some((f) => f.startsWith('build'))).toBe(false);
    expect(corpus.totals).toEqual({ files: copied.length, bytes: (await Promise.all(copied.map((f) => stat(path.join(out, f))))).reduce((a, st) => a + st.size, 0) });
    expect(corpus.files).toEqual([]);
    expect(corpus.folder).toBe(repo);
    await expect(corpusFromFolder({ folder: path.join(root, 'missing'), outDir: path.join(root, 'c3') })).rejects.toThrow(/not a folder|no file to push/);
    const empty = path.join(root, 'empty');
    await mkdir(empty);
    await expect(corpusFromFolder({ folder: empty, outDir: path.join(root, 'c4') })).rejects.toThrow(/no file to push/);
  });

  it('says what the walk left out, and how to bring a skipped folder back', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'storage-entries-'));
    dirs.push(root);
    // A package as published: its code under dist/ (build output, which a push leaves out) and a README.
    const pkg = path.join(root, 'pkg');
    await mkdir(path.join(pkg, 'dist'), { recursive: true });
    await writeFile(path.join(pkg, 'dist', 'index.js'), 'export function f() {\n  return 1;\n}\n');
    await writeFile(path.join(pkg, 'README.md'), '# pkg\n');
    const lines: string[] = [];
    const corpus = await corpusFromFolder({ folder: pkg, outDir: path.join(root, 'c1'), log: (l) => lines.push(l) });
    expect(corpus.totals.files).toBe(1);
    expect(lines.join('\n')).toMatch(/1 files from .*skipped blocked 1: dist\/ .*a \.pincherignore line !dist\/ brings the folder back/);
    const copied = await copyProjects({ ids: [pkg], cache: path.join(root, 'no-cache'), tmp: path.join(root, 'c2'), log: (l) => lines.push(l) });
    expect(copied).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/pkg: 1 files from .*skipped blocked 1: dist\//);
    expect(skippedLine([])).toBe('');
    // Files only: counts by reason, the first three paths, no folder hint.
    const many = [1, 2, 3, 4].map((n) => ({ path: `m${n}.js.map`, reason: 'blocked', detail: 'source map' }));
    expect(skippedLine([...many, { path: 'x.bin', reason: 'binary' }])).toBe('skipped blocked 4, binary 1: m1.js.map (source map), m2.js.map (source map), m3.js.map (source map), …');
    // Brought back, dist/ is pushed.
    await writeFile(path.join(pkg, '.pincherignore'), '!dist/\n');
    const back = await corpusFromFolder({ folder: pkg, outDir: path.join(root, 'c3') });
    expect(back.totals.files).toBe(3);
  });
});

describe('symbolDensity', () => {
  it('counts the symbols per source MB and the bytes of their row, search entry and name per symbol', () => {
    const tables = { symbols: 300_000, symbols_fts: 80_000, symbol_names: 20_000, blobs: 1_000_000, edge_rows: 50_000 };
    expect(symbolDensity(tables, 1_000, 500_000)).toEqual({ symbols_per_source_mb: 2_000, bytes_per_symbol: 400 });
  });

  it('leaves out a missing table and says nothing per symbol without symbols or per MB without source', () => {
    expect(symbolDensity({ symbols: 4_000 }, 10, 2_000_000)).toEqual({ symbols_per_source_mb: 5, bytes_per_symbol: 400 });
    expect(symbolDensity({ blobs: 4_096 }, 0, 1_000)).toEqual({ symbols_per_source_mb: 0, bytes_per_symbol: null });
    expect(symbolDensity({}, 0, 0)).toEqual({ symbols_per_source_mb: null, bytes_per_symbol: null });
  });
});
