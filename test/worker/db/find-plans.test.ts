import { beforeAll, describe, expect, it } from 'vitest';
import { filePage, listedFiles, projectFiles } from '../../../src/db/content';
import { endingExt } from '../../../src/db/path-filter';
import { compileGlob } from '../../../src/util/glob';
import { DB, indexProject } from '../graph/support';
import { rest, type Json } from '../helpers';
import { recording, type Captured } from '../recording-d1';

// Name endings (`*.py`, `**/*.d.ts`) seek files_ext and files_dotted_folders (migration 0020) instead of testing every
// path of the project; these hold the plans and that every answer is still the glob's own test over every path.
const PROJECT = 'find-plans';
const PATHS = [
  'a.py',
  'src/b.py',
  'src/deep/c.PY',
  'src/x.pyc',
  '.py',
  'x/.py',
  'lib/.hidden.py',
  'pkg.py/inner.txt',
  'pkg.py/inner.py',
  'b.d.ts',
  'types/x.d.ts',
  'types/y.ts',
  'types.d.ts/readme.md',
  'py',
  'tools/py',
  'Makefile',
  'notes.verylongextension1',
  'x/y.verylongextension1',
  'x/y.abcdefghijklmno',
  'é/ü.py',
  'src/\u{1F600}.py',
  'archive.tar.gz',
  'dir.v1/file',
  'dir.v1/sub/test_one.py',
  '.github/workflows/ci.yml',
  'a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/long_name_without_a_dot',
  'test/test_two.py',
  'test/helper.py',
  'trailing.',
  'x/odd..py',
];
let projectId = '';

beforeAll(async () => {
  projectId = (await indexProject(PROJECT, Object.fromEntries(PATHS.map((p, i) => [p, `# file ${i}\n`])))).id;
});

async function plans(seen: readonly Captured[]): Promise<string[][]> {
  const out: string[][] = [];
  for (const s of seen) {
    const rows = await DB.prepare(`EXPLAIN QUERY PLAN ${s.sql}`)
      .bind(...s.args)
      .all<{ detail: string }>();
    out.push(rows.results.map((r) => r.detail));
  }
  return out;
}

/** A read of every path of the project: the primary key sought by the project alone. */
const WHOLE_PROJECT = /USING (COVERING )?INDEX sqlite_autoindex_files_1 \(project_id=\?\)$/;

describe('find seeks name endings', () => {
  it('the page and count of a name ending seek files_ext and files_dotted_folders, never every path', async () => {
    const { d1, seen } = recording();
    for (const ending of ['.py', '.d.ts', '.gz']) {
      const page = await filePage(d1, projectId, {}, { ending }, 2);
      const all = PATHS.filter((p) => compileGlob(`*${ending}`).test(p)).sort();
      expect(page.total, ending).toBe(all.length);
      expect(page.rows.map((r) => r.path), ending).toEqual(all.slice(0, 2));
    }
    const rows = await projectFiles(d1, projectId, { ending: '.py', pathContains: ['test_'] });
    expect(rows.map((r) => r.path)).toEqual(['dir.v1/sub/test_one.py', 'test/test_two.py']);
    // find's candidates: the same files and fields but the content hash, which find never shows.
    const listed = await listedFiles(d1, projectId, { ending: '.py', pathContains: ['test_'] });
    expect(listed).toStrictEqual(rows.map(({ hash: _h, ...f }) => f));
    const found = await plans(seen);
    expect(found).toHaveLength(5);
    for (const plan of found) {
      const text = plan.join('\n');
      expect(text).toMatch(/SEARCH files USING (COVERING )?INDEX files_ext \(project_id=\? AND ext=\?\)/);
      expect(text).toMatch(/SEARCH files USING (COVERING )?INDEX files_dotted_folders \(project_id=\?\)/);
      expect(plan.filter((d) => WHOLE_PROJECT.test(d) || /^SCAN files/.test(d)), text).toEqual([]);
    }
  });

  it('an ending with no `.`, or a long text after its last `.`, is tested on every path as before', () => {
    expect(endingExt('.py')).toEqual({ ext: 'py', exact: true });
    expect(endingExt('.d.ts')).toEqual({ ext: 'ts', exact: false });
    expect(endingExt('_test.go')).toEqual({ ext: 'go', exact: false });
    expect(endingExt('.')).toEqual({ ext: '', exact: true });
    expect(endingExt('.abcdefghijklmno')).toEqual({ ext: 'abcdefghijklmno', exact: true });
    expect(endingExt('.verylongextension1')).toBeNull();
    expect(endingExt('Makefile')).toBeNull();
  });

  it('the stored ext is the text after the last `.` of the path’s last 16 characters, null without one', async () => {
    const rows = await DB.prepare('SELECT path, ext FROM files WHERE project_id = ?1').bind(projectId).all<{ path: string; ext: string | null }>();
    const expected = (path: string) => {
      const tail = [...path].slice(-16).join('');
      return tail.includes('.') ? tail.slice(tail.lastIndexOf('.') + 1) : null;
    };
    expect(rows.results.length).toBe(PATHS.length);
    for (const r of rows.results) expect(r.ext, r.path).toBe(expected(r.path));
  });

  const PATTERNS = [
    '*.py', '**/*.py', '*.PY', '*.d.ts', '**/*.d.ts', '*.ts', '*.verylongextension1', '*.abcdefghijklmno', '*.gz', '*.tar.gz', '*py',
    '*.', '**/test_*.py', '**/?.py', '**/[ab].py', '*.p?', 'src/*.py', '**/*.py/**', '.py', '**/.py', '*.yml', '**/inner.*', 'pkg.py',
    '**', 'x/*', '*.txt', '**/*ü.py', '*\u{1F600}.py', '*..py', 'test_*.py', '*.{py,ts}', '*[.]py', 'types.d.ts', '**/*.md',
  ];
  for (const pattern of PATTERNS) {
    it(`'${pattern}' finds exactly the paths its glob matches, first page and total`, async () => {
      const expected = PATHS.filter((p) => compileGlob(pattern).test(p)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      for (const limit of [1000, 2]) {
        const { status, body } = await rest('find', { project: PROJECT, pattern, limit });
        expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
        expect(
          (body.result.files as Json[]).map((f) => f.path),
          `${pattern} limit ${limit}`,
        ).toEqual(expected.slice(0, limit));
        expect(body.result.total, `${pattern} limit ${limit}`).toBe(expected.length);
      }
    });
  }
});
