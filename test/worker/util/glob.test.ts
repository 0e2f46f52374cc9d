import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { compileGlob, GlobError } from '../../../src/util/glob';
import { pathConditions } from '../../../src/db/search';
import { rest, type Json } from '../helpers';

describe('path globs', () => {
  const cases: [string, string[], string[]][] = [
    ['*.ts', ['a.ts', 'src/b.ts', 'src/deep/c.ts'], ['a.tsx', 'src/b.js']],
    ['src/*.ts', ['src/b.ts'], ['src/deep/c.ts', 'a.ts', 'lib/src/b.ts']],
    ['src/**/*.ts', ['src/b.ts', 'src/deep/c.ts'], ['a.ts', 'lib/src/x.ts']],
    ['src', ['src/b.ts', 'lib/src/x.ts'], ['srcx/a.ts']],
    ['src/', ['src/b.ts', 'src/deep/c.ts'], ['lib/src/x.ts']],
    ['./src/deep', ['src/deep/c.ts'], ['src/b.ts']],
    ['*.{ts,py}', ['a.ts', 'x/y.py'], ['a.js']],
    ['[ab].ts', ['a.ts', 'q/b.ts'], ['c.ts']],
    ['[!ab].ts', ['c.ts'], ['a.ts']],
    ['?.md', ['a.md'], ['ab.md']],
    ['**', ['a', 'x/y/z'], []],
    ['docs/**', ['docs/a.md', 'docs/x/b.md'], ['a/docs/c.md']],
    ['\\[x\\].txt', ['[x].txt'], ['x.txt']],
  ];
  for (const [glob, yes, no] of cases) {
    it(`'${glob}' matches ${yes.join(', ') || 'nothing listed'} and not ${no.join(', ') || '-'}`, () => {
      const g = compileGlob(glob);
      for (const p of yes) expect(g.test(p), p).toBe(true);
      for (const p of no) expect(g.test(p), p).toBe(false);
    });
  }
  it('names the folder every match lies under, so SQL can narrow the rows', () => {
    expect(compileGlob('src/db/*.ts').folder).toBe('src/db');
    expect(compileGlob('src/db').folder).toBe('src'); // src/db may be a file
    expect(compileGlob('src/**').folder).toBe('src');
    expect(compileGlob('*.ts').folder).toBe('');
    expect(compileGlob('{src,lib}/a').folder).toBe('');
  });
  it('calls plain only the globs whose test is a folder, a prefix or a name ending', () => {
    expect(compileGlob('src/db').plain).toEqual({ under: 'src/db' });
    expect(compileGlob('./src/db/').plain).toEqual({ under: 'src/db' });
    expect(compileGlob('src/db/**').plain).toEqual({ prefix: 'src/db/' });
    expect(compileGlob('*.py').plain).toEqual({ ending: '.py' });
    expect(compileGlob('**/*.d.ts').plain).toEqual({ ending: '.d.ts' });
    // Rooted `*.py` tests the first segment only; an unrooted name tests every segment whole.
    for (const g of ['/*.py', 'src', '**.py', '**/*', 'src/*.ts', '*.{ts,py}', 'src/**/x', '**', 'a\\*b', '*[ab].ts', 'src/**/**']) {
      expect(compileGlob(g).plain, g).toBeUndefined();
    }
  });

  it('names the fixed text a segment of every match ends with, before any wildcard, class or brace', () => {
    const endings: [string, string][] = [
      ['**/test_*.py', '.py'], ['*.d.ts', '.d.ts'], ['src/db/', 'db'], ['python/*/__init__.py', '__init__.py'], ['a\\*.py', '.py'],
      ['*.{ts,py}', ''], ['[ab].ts', '.ts'], ['*.p[yc]', ''], ['src/**', ''], ['npm/**/index.*', ''], ['x?', ''], ['', ''],
    ];
    for (const [glob, ending] of endings) expect(compileGlob(glob).ending, glob).toBe(ending);
    for (const [glob, ending] of endings) {
      for (const path of ['a/test_x.py', 'src/db', 'src/db/x.ts', 'python/os/__init__.py', 'a*.py', 'b.ts', 'y.d.ts', 'pkg.py/z']) {
        if (compileGlob(glob).test(path)) expect(path.split('/').some((s) => s.endsWith(ending)), `${glob} ${path}`).toBe(true);
      }
    }
  });

  it('a plain glob is the same condition in SQL as in test', async () => {
    const paths = [
      'src', 'src/db', 'src/db.ts', 'src/db/a.ts', 'src/dbx/a.ts', 'src/db/deep/b.py', 'lib/src/db/c.ts', 'a.py', 'x/a.py', 'a.py/b.txt',
      'a.pyc', 'b.d.ts', 'x/y/z.d.ts', 'd.ts', '.py', 'x/.py', 'é/ü.py', 'src/db\u{1F600}/a.ts', 'src/db/\u{1F600}.py', 'src/d', 'src/db/',
    ];
    const globs = ['src/db', 'src/db/', 'src/db/**', '*.py', '**/*.py', '*.d.ts', '**/*.d.ts', '*db', 'é/**', '*ü.py', '*\u{1F600}.py'];
    const db = (env as unknown as { DB: D1Database }).DB;
    for (const source of globs) {
      const glob = compileGlob(source);
      expect(glob.plain, source).toBeDefined();
      const params: unknown[] = [JSON.stringify(paths)];
      const cond = pathConditions('value', glob.plain!, params);
      const { results } = await db.prepare(`SELECT value FROM json_each(?) WHERE ${cond.join(' AND ')}`).bind(...params).all<{ value: string }>();
      expect(results.map((r) => r.value).sort(), source).toEqual(paths.filter((p) => glob.test(p)).sort());
    }
  });

  for (const bad of ['src/[abc', '*.{ts,js', 'a}b', 'x]y', '{a,{b,c}']) {
    it(`refuses the unbalanced glob '${bad}'`, () => {
      expect(() => compileGlob(bad)).toThrow(GlobError);
    });
  }
});

describe('one glob syntax across tools', () => {
  const PROJECT = 'glob-tools';
  // Each file (no test paths) defines one uncalled, unexported function, so grep, find, search and dead_code all see every file.
  const FILES: Record<string, string> = {
    'a.ts': 'function unused_a() { return 1; }\n',
    'src/b.ts': 'function unused_b() { return 1; }\n',
    'src/deep/c.ts': 'function unused_c() { return 1; }\n',
    'src/tools/d.ts': 'function unused_d() { return 1; }\n',
    'lib/src/e.py': 'def _unused_e():\n    return 1\n',
    'lib/f.py': 'def _unused_f():\n    return 1\n',
    'tools/g.ts': 'function unused_g() { return 1; }\n',
    'srcx/h.ts': 'function unused_h() { return 1; }\n',
  };
  const PATHS = Object.keys(FILES).sort();
  const GLOBS = [
    '*.ts',
    '*.py',
    'src',
    'src/',
    './src/deep',
    'src/*.ts',
    'src/**/*.ts',
    '**/*.py',
    'tools',
    '{lib,tools}/*',
    '[ab].ts',
    '[!ab].ts',
    '?.ts',
    'lib/f.py',
    'SRC/**',
  ];

  /** Every glob-taking parameter: the call that filters the project's files with it, and the files its result names. */
  const PARAMS: { tool: string; param: string; args: Json; files: (result: Json) => string[] }[] = [
    { tool: 'grep', param: 'path', args: { pattern: 'unused_', literal: true, summary: true }, files: (r) => (r.files ?? []).map((f: Json) => f.path) },
    { tool: 'find', param: 'pattern', args: {}, files: (r) => r.files.map((f: Json) => f.path) },
    { tool: 'search', param: 'file_pattern', args: { query: 'unused*', limit: 100 }, files: (r) => r.results.map((h: Json) => h.file_path) },
    { tool: 'dead_code', param: 'path', args: { limit: 200 }, files: (r) => r.dead.map((d: Json) => d.file) },
  ];

  beforeAll(async () => {
    const files = Object.entries(FILES).map(([path, content]) => ({ path, content }));
    const pushed = await rest('index', { project: PROJECT, files });
    expect(pushed.status).toBe(200);
  });

  for (const glob of GLOBS) {
    const expected = PATHS.filter((p) => compileGlob(glob).test(p));
    for (const p of PARAMS) {
      it(`${p.tool} ${p.param} '${glob}' keeps ${expected.join(', ') || 'nothing'}`, async () => {
        const { status, body } = await rest(p.tool, { project: PROJECT, ...p.args, [p.param]: glob });
        expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
        expect([...new Set(p.files(body.result))].sort()).toEqual(expected);
      });
    }
  }

  for (const p of PARAMS) {
    it(`${p.tool} ${p.param} refuses an unbalanced brace with invalid_params on that parameter`, async () => {
      const { status, body } = await rest(p.tool, { project: PROJECT, ...p.args, [p.param]: 'src/{a,b' });
      expect(status).toBe(400);
      expect(body.error.code).toBe('invalid_params');
      expect(body.error.details.issues[0].param).toBe(p.param);
    });
  }
});

describe('glob literals (the SQL prefilter of path globs)', () => {
  const GLOBS = [
    '**/*.py', '*.d.ts', '*.mjs', '**/test_*.py', 'python/*/__init__.py', 'npm/**/index.*', 'src/db', 'src/**/*.{ts,tsx}',
    '[!a]*.ts', '[]x]y.md', 'a\\*b', '**', 'docs/', './lib/*.js', 'src/**/test/**', '{src,lib}/x.ts', '?.ts', 'a**b.ts', 'x/**/y/*.c',
  ];
  const PATHS = [
    'a.py', 'src/a.py', 'src/x.py/b.ts', 'types/index.d.ts', 'x.mjs', 'pkg/test_a.py', 'python/json/__init__.py', 'npm/a/b/index.js',
    'src/db/a.ts', 'src/db', 'src/a/b.tsx', 'b.ts', ']y.md', 'xy.md', 'a*b', 'docs/readme.md', 'lib/a.js', 'src/test/a.ts',
    'lib/x.ts', 'q.ts', 'aXXb.ts', 'x/y/z.c', 'x/k/y/z.c', 'src/app/test/deep/file.ts',
  ];
  it('names only strings every matching path contains', () => {
    for (const g of GLOBS) {
      const glob = compileGlob(g);
      for (const p of PATHS) {
        if (glob.test(p)) for (const lit of glob.literals) expect(p.includes(lit), `${g} matches ${p} without '${lit}'`).toBe(true);
      }
    }
  });

  it('keeps the extension and folder text that narrows a listing', () => {
    expect(compileGlob('**/*.py').literals).toEqual(['.py']);
    expect(compileGlob('**/test_*.py').literals).toEqual(['test_', '.py']);
    expect(compileGlob('src/**/*.{ts,tsx}').literals).toEqual(['src/', '.']);
    expect(compileGlob('**').literals).toEqual([]);
  });
});
