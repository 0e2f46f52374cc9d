import { createHash } from 'node:crypto';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BLOCKED_DIRS, LOCKFILES } from '../../../cli/blocklist.mjs';
import { walk } from '../../../cli/walk.mjs';
import { addToTree, makeTree, removeTrees } from './tree';

afterAll(removeTrees);

const paths = (result: { files: { path: string }[] }) => result.files.map((f) => f.path);
const reasonOf = (result: { skipped: { path: string; reason: string; detail?: string }[] }, path: string) =>
  result.skipped.find((s) => s.path === path);
const source = 'export function add(a: number, b: number) {\n  return a + b;\n}\n';

describe('ignore files', () => {
  it('applies a nested .gitignore relative to its own folder', async () => {
    const root = await makeTree({
      '.gitignore': '*.log\n',
      'a.log': 'x',
      'local.txt': 'root copy',
      'gen/x.ts': source,
      'sub/.gitignore': '/local.txt\ngen/\n',
      'sub/local.txt': 'ignored here',
      'sub/deep/local.txt': 'anchored rule does not reach here',
      'sub/gen/x.ts': source,
      'sub/trace.log': 'x',
    });
    const result = await walk(root);
    expect(paths(result)).toEqual(['.gitignore', 'gen/x.ts', 'local.txt', 'sub/.gitignore', 'sub/deep/local.txt']);
    expect(reasonOf(result, 'sub/local.txt')).toMatchObject({ reason: 'ignored', detail: '.gitignore' });
    expect(reasonOf(result, 'sub/gen/')).toMatchObject({ reason: 'ignored' });
    expect(reasonOf(result, 'sub/trace.log')).toMatchObject({ reason: 'ignored' });
    expect(result.counts.ignored).toBe(4);
  });

  it('lets a .pincherignore exclude more and re-include with ! at any level', async () => {
    const root = await makeTree({
      '.gitignore': '*.log\n',
      '.pincherignore': '!keep.log\nsecret/\n',
      'keep.log': 'wanted',
      'other.log': 'not wanted',
      'secret/key.ts': source,
      'docs/.pincherignore': '*.md\n!README.md\n',
      'docs/README.md': '# readme',
      'docs/guide.md': '# guide',
      'notes.md': '# root notes are not under docs/',
    });
    const result = await walk(root);
    expect(paths(result)).toEqual(['.gitignore', '.pincherignore', 'docs/.pincherignore', 'docs/README.md', 'keep.log', 'notes.md']);
    expect(reasonOf(result, 'secret/')).toMatchObject({ reason: 'ignored', detail: '.pincherignore' });
    expect(reasonOf(result, 'docs/guide.md')).toMatchObject({ reason: 'ignored', detail: '.pincherignore' });
    expect(reasonOf(result, 'other.log')).toMatchObject({ reason: 'ignored', detail: '.gitignore' });
  });

  it('lets a deeper .pincherignore override a shallower one', async () => {
    const root = await makeTree({
      '.pincherignore': '*.txt\n',
      'a.txt': 'x',
      'sub/.pincherignore': '!b.txt\n',
      'sub/b.txt': 'y',
      'sub/c.txt': 'z',
    });
    expect(paths(await walk(root))).toEqual(['.pincherignore', 'sub/.pincherignore', 'sub/b.txt']);
  });

  it('re-includes a blocklisted folder named by a .pincherignore negation, but never .git', async () => {
    const root = await makeTree({
      '.pincherignore': '!vendor/\n!.git/\n',
      'vendor/lib.go': 'package lib\n',
      'vendor/app.min.js': 'var a=1;',
      '.git/HEAD': 'ref: refs/heads/main\n',
      'build/out.js': 'x',
    });
    const result = await walk(root);
    expect(paths(result)).toEqual(['.pincherignore', 'vendor/lib.go']);
    expect(reasonOf(result, '.git/')).toMatchObject({ reason: 'blocked', detail: 'folder' });
    expect(reasonOf(result, 'vendor/app.min.js')).toMatchObject({ reason: 'blocked', detail: 'minified' });
    expect(reasonOf(result, 'build/')).toMatchObject({ reason: 'blocked' });
  });

  it('walks a gitignored folder re-included by a .pincherignore, still applying the blocklist', async () => {
    const root = await makeTree({
      '.gitignore': 'generated/\n*.log\n',
      '.pincherignore': '!generated/\n',
      'generated/api.ts': source,
      'generated/deep/more.ts': source,
      'generated/deep/trace.log': 'x',
      'generated/bundle.min.js': 'x',
      'other.log': 'x',
    });
    const result = await walk(root);
    expect(paths(result)).toEqual(['.gitignore', '.pincherignore', 'generated/api.ts', 'generated/deep/more.ts', 'generated/deep/trace.log']);
    expect(result.skipped.map((s) => [s.path, s.reason])).toEqual([['generated/bundle.min.js', 'blocked'], ['other.log', 'ignored']]);
  });

  it('honours the .gitignore files of the work tree above the walked folder', async () => {
    const root = await makeTree({
      '.git/info/exclude': '*.local\n',
      '.gitignore': '*.tmp\n/packages/web/out/\n',
      'packages/.gitignore': 'scratch/\n',
      'packages/web/a.ts': source,
      'packages/web/b.tmp': 'x',
      'packages/web/c.local': 'x',
      'packages/web/out/x.ts': source,
      'packages/web/scratch/y.ts': source,
    });
    const result = await walk(join(root, 'packages/web'));
    expect(paths(result)).toEqual(['a.ts']);
    expect(result.skipped.map((s) => s.path)).toEqual(['b.tmp', 'c.local', 'out/', 'scratch/']);
  });
});

describe('built-in blocklist', () => {
  it('blocks every blocklisted folder without walking into it', async () => {
    const spec: Record<string, string> = { 'src/keep.ts': source };
    for (const dir of [...BLOCKED_DIRS, '.git', '.hg', '.svn']) spec[`${dir}/inner.ts`] = source;
    const result = await walk(await makeTree(spec));
    expect(paths(result)).toEqual(['src/keep.ts']);
    for (const dir of [...BLOCKED_DIRS, '.git', '.hg', '.svn']) {
      expect(reasonOf(result, `${dir}/`)).toMatchObject({ reason: 'blocked', detail: 'folder' });
    }
    // Folder names are blocked anywhere in the tree, not only at the top.
    const nested = await walk(await makeTree({ 'pkg/node_modules/x/index.js': 'x', 'pkg/index.js': 'x' }));
    expect(paths(nested)).toEqual(['pkg/index.js']);
  });

  it('blocks lockfiles by name', async () => {
    const spec: Record<string, string> = { 'package.json': '{}' };
    for (const name of LOCKFILES) spec[`nested/${name}`] = 'lock';
    const result = await walk(await makeTree(spec));
    expect(paths(result)).toEqual(['package.json']);
    expect(result.counts.blocked).toBe(LOCKFILES.size);
    expect(['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'Cargo.lock', 'poetry.lock', 'Gemfile.lock', 'composer.lock', 'go.sum']
      .every((name) => LOCKFILES.has(name))).toBe(true);
  });

  it('blocks minified bundles, source maps and generated files by name', async () => {
    const result = await walk(await makeTree({
      'app.min.js': 'x',
      'style.min.css': 'x',
      'app.js.map': '{}',
      'api.generated.ts': source,
      'msg_pb2.py': 'x = 1\n',
      'api.pb.go': 'package api\n',
      'app.js': 'let x = 1;\n',
    }));
    expect(paths(result)).toEqual(['app.js']);
    expect(result.skipped.map((s) => [s.path, s.detail])).toEqual([
      ['api.generated.ts', 'generated'],
      ['api.pb.go', 'generated'],
      ['app.js.map', 'source map'],
      ['app.min.js', 'minified'],
      ['msg_pb2.py', 'generated'],
      ['style.min.css', 'minified'],
    ]);
  });

  it('blocks files whose first lines say they are generated', async () => {
    const result = await walk(await makeTree({
      'a.ts': '// @generated by some tool\nexport const a = 1;\n',
      'b.go': '// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage b\n',
      'c.cs': '// <auto-generated>\nclass C {}\n',
      'late.ts': `${'// line\n'.repeat(10)}// @generated is only a header marker\n`,
    }));
    expect(paths(result)).toEqual(['late.ts']);
    expect(result.skipped.every((s) => s.reason === 'blocked' && s.detail === 'generated')).toBe(true);
  });

  it('blocks minified content by its very long lines and keeps ordinary code', async () => {
    const bundle = `!function(){${'var a=1;'.repeat(1000)}}();\n`;
    const ordinary = `${'const value = compute(alpha, beta);\n'.repeat(200)}const data = "${'x'.repeat(5000)}";\n`;
    const result = await walk(await makeTree({ 'bundle.js': bundle, 'ordinary.js': ordinary, 'tiny.js': 'a();' }));
    expect(paths(result)).toEqual(['ordinary.js', 'tiny.js']);
    expect(reasonOf(result, 'bundle.js')).toMatchObject({ reason: 'blocked', detail: 'minified' });
  });
});

describe('content checks', () => {
  it('skips binaries, invalid UTF-8 and files over the size cap', async () => {
    const root = await makeTree({
      'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
      'latin1.txt': Buffer.from('caf\xe9\n', 'latin1'),
      'broken.ts': Buffer.from([0x61, 0xc3, 0x28, 0x0a]),
      'big.ts': 'x'.repeat(101),
      'exact.ts': 'y'.repeat(100),
      'bom.ts': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('export {};\n')]),
      'late-nul.txt': Buffer.concat([Buffer.from('a'.repeat(9000)), Buffer.from([0])]),
    });
    const result = await walk(root, { maxFileSize: 100 });
    expect(paths(result)).toEqual(['bom.ts', 'exact.ts']);
    expect(result.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['big.ts', 'too_large'],
      ['broken.ts', 'encoding'],
      ['image.png', 'binary'],
      ['late-nul.txt', 'too_large'],
      ['latin1.txt', 'encoding'],
    ]);
    expect(result.counts).toEqual({ ignored: 0, blocked: 0, binary: 1, encoding: 2, too_large: 2, symlink: 0 });
  });

  it('finds a NUL byte only in the first 8 KiB', async () => {
    const root = await makeTree({
      'early.dat': Buffer.concat([Buffer.from('a'.repeat(8000)), Buffer.from([0])]),
      'late.txt': Buffer.concat([Buffer.from('a\n'.repeat(4500)), Buffer.from([0])]),
    });
    const result = await walk(root);
    expect(paths(result)).toEqual(['late.txt']);
    expect(reasonOf(result, 'early.dat')?.reason).toBe('binary');
  });

  it('skips a file whose name is not UTF-8', async () => {
    const root = await makeTree({ 'ok.ts': source });
    await writeFile(Buffer.from(`${root}/bad-\xff.ts`, 'latin1'), source);
    const result = await walk(root);
    expect(paths(result)).toEqual(['ok.ts']);
    expect(result.counts.encoding).toBe(1);
  });

  it('skips a name holding a backslash, which the protocol would read as a separator', async () => {
    const result = await walk(await makeTree({ 'ok.ts': source, 'odd\\name.ts': source }));
    expect(paths(result)).toEqual(['ok.ts']);
    expect(result.skipped).toEqual([{ path: 'odd\\name.ts', reason: 'encoding', detail: 'backslash in the name' }]);
  });

  it('hashes the raw bytes with lowercase hex SHA-256, keeping a BOM', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(source)]);
    const result = await walk(await makeTree({ 'a.ts': bytes }));
    expect(result.files).toEqual([{ path: 'a.ts', size: bytes.length, hash: createHash('sha256').update(bytes).digest('hex') }]);
  });
});

describe('tree shape', () => {
  it('does not follow symlinks to folders or files', async () => {
    const outside = await makeTree({ 'secret.ts': 'export const secret = 1;\n' });
    const root = await makeTree({ 'src/a.ts': source });
    await symlink(outside, join(root, 'linked-dir'));
    await symlink(join(outside, 'secret.ts'), join(root, 'linked.ts'));
    await symlink(join(root, 'src'), join(root, 'src/loop'));
    const result = await walk(root);
    expect(paths(result)).toEqual(['src/a.ts']);
    expect(result.skipped).toEqual([
      { path: 'linked-dir', reason: 'symlink' },
      { path: 'linked.ts', reason: 'symlink' },
      { path: 'src/loop', reason: 'symlink' },
    ]);
  });

  it('returns paths sorted with / separators whatever the creation order', async () => {
    const root = await makeTree({});
    for (const path of ['z.ts', 'b/a.ts', 'a-b/x.ts', 'a/z.ts', 'A.ts', 'a/b/c/d.ts', 'a.ts']) await addToTree(root, { [path]: source });
    await mkdir(join(root, 'empty'));
    const result = await walk(root);
    expect(paths(result)).toEqual(['A.ts', 'a-b/x.ts', 'a.ts', 'a/b/c/d.ts', 'a/z.ts', 'b/a.ts', 'z.ts']);
    expect(await walk(root)).toEqual(result);
  });
});
