import { beforeAll, describe, expect, it } from 'vitest';
import { pathsByFileNames } from '../../../src/db/composites';
import { DB, indexProject } from '../graph/support';
import { planTexts, recording } from '../recording-d1';

// pathsByFileNames seeks each name (`driver.js`, `Makefile`) among the paths of that file name (files_base): it must
// give the paths whose last segment is the name, shortest first, at most perName each, whatever the folders' names
// hold (a `.` in a folder's name, a name without an ext, a leading or trailing `.`).
const FILES = {
  'driver.js': 'export const a = 1;\n',
  'pg/driver.js': 'export const b = 1;\n',
  'pglite/driver.js': 'export const c = 1;\n',
  'pglite/sub/driver.js': 'export const d = 1;\n',
  'pg/mydriver.js': 'export const e = 1;\n',
  'pg/driver.js.map.ts': 'export const f = 1;\n',
  'x/index.ts': 'export const g = 1;\n',
  'x/y/index.ts': 'export const h = 1;\n',
  'x/session.ts': 'export const i = 1;\n',
  'Session.ts': 'export const j = 1;\n',
  'v1.2/driver.js': 'export const k = 1;\n',
  'Makefile': 'all:\n',
  'a.b/Makefile': 'all:\n',
  'c.d/e/Makefile': 'all:\n',
  '.eslintrc': '{}\n',
  'conf/.eslintrc': '{}\n',
  'weird.': 'x\n',
  'w/weird.': 'x\n',
  'long/notes.averyveryverylongext': 'x\n',
  'notes.averyveryverylongext': 'x\n',
  'LICENSE': 'x\n',
  'x.y/LICENSE': 'x\n',
  'p/README': 'x\n',
  'q/README': 'x\n',
};

let projectId = '';
beforeAll(async () => {
  projectId = (await indexProject('paths-by-file-names', FILES)).id;
});

/** The answer worked out in JavaScript from every path. */
function expected(names: readonly string[], perName: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const name of new Set(names)) {
    const paths = Object.keys(FILES)
      .filter((p) => p.split('/').pop() === name)
      .sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, perName);
    if (paths.length) out.set(name, paths);
  }
  return out;
}

describe('paths by file name', () => {
  it.each([
    [['driver.js'], 50],
    [['driver.js'], 2],
    [['driver.js', 'driver.js', 'index.ts'], 50],
    [['session.ts', 'Session.ts'], 50],
    [['mydriver.js', 'river.js', 'pg/driver.js', ''], 50],
    [['driver.js', 'index.ts', 'session.ts', 'Session.ts', 'mydriver.js', 'absent.ts'], 50],
    [['driver.js', 'index.ts', 'session.ts', 'Session.ts', 'mydriver.js', 'absent.ts'], 1],
    [['Makefile', '.eslintrc', 'weird.', 'notes.averyveryverylongext'], 50],
    [['Makefile', 'LICENSE', 'README', 'driver.js'], 50],
    [['Makefile', 'LICENSE', 'README', 'notes.averyveryverylongext', 'absent', 'driver.js', '.eslintrc'], 50],
    [['Makefile', 'LICENSE', 'README', 'notes.averyveryverylongext', 'absent', 'driver.js', '.eslintrc'], 1],
  ])('%j, %i each', async (names, perName) => {
    expect(await pathsByFileNames(DB, projectId, names, perName)).toEqual(expected(names, perName));
  });

  it('seeks every name among the paths of that file name (files_base), with an ext or without, and tests no other path', async () => {
    const { d1, seen } = recording();
    await pathsByFileNames(d1, projectId, ['driver.js', 'index.ts', 'Makefile', 'notes.averyveryverylongext'], 50);
    const plan = (await planTexts(seen)).flatMap((t) => t.split('\n'));
    expect(plan.some((d) => /SEARCH f USING (COVERING )?INDEX files_base \(project_id=\? AND base=\?\)/.test(d)), plan.join(' | ')).toBe(true);
    expect(plan.filter((d) => /SCAN f\b|SEARCH f USING .*\(project_id=\?\)$/.test(d)), plan.join(' | ')).toEqual([]);
  });
});
