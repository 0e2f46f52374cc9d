import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { contestedContents } from '../../../src/db/composites';
import { projectRow, push } from '../upload/support';

// changes reads the contents of the diff files both of whose sides are stored (to choose the side the index holds)
// with the look-up of which paths are stored. These hold what that read takes: the pairs with both paths stored, in
// the pairs' order, while the pair and byte caps allow (tools/changes.ts assumes the old side for what they leave out).
const DB = (env as unknown as { DB: D1Database }).DB;
const PROJECT = 'contested-contents';
const FILES = {
  'a.ts': 'export const a = 1;\n',
  'b.ts': 'export const b = 22;\n',
  'c.ts': 'export const c = 333;\n',
  'd.ts': 'export const d = 4444;\n',
};
const size = (p: keyof typeof FILES) => new TextEncoder().encode(FILES[p]).length;
let projectId = '';

beforeAll(async () => {
  const r = await push(PROJECT, FILES);
  expect(r.commit?.status).toBe(200);
  projectId = (await projectRow(PROJECT))!.id;
});

describe('the contents of diff files both of whose sides are stored', () => {
  it('reads a modified file once and both paths of a rename, and skips a pair with a side not stored', async () => {
    const got = await contestedContents(DB, projectId, [
      { old: 'a.ts', new: 'a.ts' },
      { old: 'gone.ts', new: 'b.ts' },
      { old: 'c.ts', new: 'd.ts' },
    ], 100, 1 << 20);
    expect(Object.fromEntries(got)).toEqual({ 'a.ts': FILES['a.ts'], 'c.ts': FILES['c.ts'], 'd.ts': FILES['d.ts'] });
  });

  it('takes the first pairs only, by count and by bytes, and none after the first that goes over', async () => {
    const pairs = [
      { old: 'a.ts', new: 'a.ts' },
      { old: 'b.ts', new: 'c.ts' },
      { old: 'd.ts', new: 'd.ts' },
    ];
    expect([...(await contestedContents(DB, projectId, pairs, 1, 1 << 20)).keys()].sort()).toEqual(['a.ts']);
    expect([...(await contestedContents(DB, projectId, pairs, 2, 1 << 20)).keys()].sort()).toEqual(['a.ts', 'b.ts', 'c.ts']);
    // a.ts fits, b.ts + c.ts go over; d.ts alone would fit, but the read stops at the first pair over.
    const cap = size('a.ts') + size('d.ts');
    expect(cap).toBeLessThan(size('a.ts') + size('b.ts') + size('c.ts'));
    expect([...(await contestedContents(DB, projectId, pairs, 100, cap)).keys()]).toEqual(['a.ts']);
  });

  it('reads nothing for no pair, another project, or pairs too many to send in one statement', async () => {
    expect((await contestedContents(DB, projectId, [], 100, 1 << 20)).size).toBe(0);
    expect((await contestedContents(DB, 'no-such-project', [{ old: 'a.ts', new: 'a.ts' }], 100, 1 << 20)).size).toBe(0);
    const many = Array.from({ length: 30_000 }, (_, i) => ({ old: `some/long/folder/name/file-${i}.ts`, new: `some/long/folder/name/file-${i}.ts` }));
    expect((await contestedContents(DB, projectId, [{ old: 'a.ts', new: 'a.ts' }, ...many], 100, 1 << 20)).size).toBe(0);
  });
});
