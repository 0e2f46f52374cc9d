import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { callTool, rest, type Json } from '../helpers';
import { compileGlob } from '../../../src/util/glob';

const PROJECT = 'find-main';
const big = `export const table = [\n${'  "0123456789abcdef0123456789abcdef",\n'.repeat(400)}];\n`;
const FILES: Record<string, string> = {
  'src/app.ts': 'export function main(): void {}\nexport class App {}\n',
  'src/db/schema.ts': 'export interface Row { id: string }\n',
  'src/db/big.ts': big,
  'lib/util.py': 'def helper():\n    return 1\n',
  'docs/readme.md': '# Readme\n\nSome words.\n',
  'data/notes.txt': 'plain notes\n',
  'test/app.test.ts': "import { main } from '../src/app';\nmain();\n",
};
const LANGUAGE: Record<string, string> = { ts: 'typescript', py: 'python', md: 'markdown', txt: 'none' };

const bytes = (s: string) => new TextEncoder().encode(s).length;
const languageOf = (path: string) => LANGUAGE[path.split('.').pop() as string];
const paths = Object.keys(FILES).sort();

async function find(args: Json): Promise<Json> {
  const { status, body } = await rest('find', { project: PROJECT, ...args });
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return body;
}

function pathsOf(body: Json): string[] {
  return (body.result.files as Json[]).map((f) => f.path);
}

async function runStep(step: Json): Promise<Json> {
  const { status, body } = await rest(step.tool, step.args);
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
  expect(((body._meta.warnings_v2 ?? []) as Json[]).filter((w) => w.code === 'unknown_arg')).toEqual([]);
  return body;
}

beforeAll(async () => {
  const pushed = await rest('index', { project: PROJECT, files: Object.entries(FILES).map(([path, content]) => ({ path, content })) });
  expect(pushed.status).toBe(200);
});

describe('find', () => {
  it('lists every file with language, size, symbols and status, sorted by path', async () => {
    const body = await find({});
    expect(pathsOf(body)).toEqual(paths);
    for (const f of body.result.files as Json[]) {
      expect(f.language).toBe(languageOf(f.path));
      expect(f.size).toBe(bytes(FILES[f.path]));
    }
    const app = body.result.files.find((f: Json) => f.path === 'src/app.ts');
    expect(app).toMatchObject({ status: 'indexed' });
    expect(app.symbols).toBeGreaterThan(0);
    expect(body.result.files.find((f: Json) => f.path === 'data/notes.txt')).toMatchObject({ symbols: 0, status: 'skipped' });
    expect(body.result).toMatchObject({ total: paths.length, has_more: false });
  });

  it('filters by glob, language and size (bytes or k/m units)', async () => {
    expect(pathsOf(await find({ pattern: '*.ts' }))).toEqual(paths.filter((p) => p.endsWith('.ts')));
    expect(pathsOf(await find({ pattern: 'src/db/*' }))).toEqual(['src/db/big.ts', 'src/db/schema.ts']);
    expect(pathsOf(await find({ pattern: '{lib,docs}/**' }))).toEqual(['docs/readme.md', 'lib/util.py']);
    expect(pathsOf(await find({ language: 'python' }))).toEqual(['lib/util.py']);
    expect(pathsOf(await find({ min_size: '10k' }))).toEqual(paths.filter((p) => bytes(FILES[p]) >= 10 * 1024));
    expect(pathsOf(await find({ max_size: 30 }))).toEqual(paths.filter((p) => bytes(FILES[p]) <= 30));
    expect(pathsOf(await find({ min_size: '20', max_size: '0.05k', language: 'typescript' }))).toEqual(
      paths.filter((p) => languageOf(p) === 'typescript' && bytes(FILES[p]) >= 20 && bytes(FILES[p]) <= 51),
    );
  });

  it('a plain glob (folder, name ending) pages in SQL exactly as the glob and a JavaScript sort do, odd characters included', async () => {
    const project = 'find-plain';
    // U+E000–U+FFFF sort after astral characters in JavaScript (UTF-16) and before them in SQLite (code points).
    const odd = ['w/\u{1F600}.ts', 'w/\uFF21.ts', 'w/a.ts', 'w/x.d.ts', 'w/x.ts/y.md', 'w2/a.ts', 'w', 'v/w/a.ts'];
    const pushed = await rest('index', { project, files: odd.map((path) => ({ path, content: 'x\n' })) });
    expect(pushed.status).toBe(200);
    for (const pattern of ['w/', 'w/**', '/w', '*.ts', '**/*.ts', '*.d.ts', undefined]) {
      const glob = pattern === undefined ? null : compileGlob(pattern);
      expect(glob === null || glob.plain !== undefined, pattern).toBe(true);
      const want = odd.filter((p) => !glob || glob.test(p)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      for (const limit of [1, 2, 100]) {
        const { status, body } = await rest('find', { project, limit, ...(pattern === undefined ? {} : { pattern }) });
        expect(status).toBe(200);
        expect(pathsOf(body), `${pattern} limit ${limit}`).toEqual(want.slice(0, limit));
        expect(body.result.total, `${pattern}`).toBe(want.length);
      }
    }
  });

  it('checks path order again after a push: a path with an odd character in a new generation pages in the JavaScript order', async () => {
    const project = 'find-regen';
    const plain = ['w/a.ts', 'w/b.ts'];
    expect((await rest('index', { project, files: plain.map((path) => ({ path, content: 'x\n' })) })).status).toBe(200);
    expect(pathsOf((await rest('find', { project, pattern: '*.ts', limit: 1 })).body)).toEqual(['w/a.ts']);
    // The same project pushed again with U+FF21 and an astral name: SQLite puts U+FF21 last, JavaScript the astral one.
    const odd = [...plain, 'w/\uFF21.ts', 'w/\u{1F600}.ts'];
    expect((await rest('index', { project, files: odd.map((path) => ({ path, content: 'x\n' })) })).status).toBe(200);
    const want = [...odd].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const limit of [3, 4]) {
      const { body } = await rest('find', { project, pattern: '*.ts', limit });
      expect(pathsOf(body), `limit ${limit}`).toEqual(want.slice(0, limit));
      expect(body.result.total).toBe(4);
    }
  });

  it('answers over MCP with structuredContent valid against the output schema', async () => {
    const { body } = await callTool('find', { project: PROJECT, pattern: '*.ts', min_size: '1k' });
    expect(body.result.isError).toBeUndefined();
    expect(body.result.structuredContent.files.map((f: Json) => f.path)).toEqual(['src/db/big.ts']);
  });

  it('pages with limit and has_more, with a next step that lists the rest', async () => {
    const body = await find({ limit: 2 });
    expect(pathsOf(body)).toEqual(paths.slice(0, 2));
    expect(body.result).toMatchObject({ total: paths.length, has_more: true });
    const next = await runStep(body._meta.next_steps[0]);
    expect(pathsOf(next)).toEqual(paths);
  });

  it('declares a walk_directory baseline: every path and size of the project, one line each', async () => {
    const body = await find({ language: 'python' });
    const listing = paths.reduce((n, p) => n + `${p} ${bytes(FILES[p])}\n`.length, 0);
    const used = Math.ceil(JSON.stringify(body.result).length / 4);
    expect(body._meta.baseline_method).toBe('walk_directory');
    expect(body._meta.tokens_saved).toBe(Math.max(0, Math.ceil(listing / 4) - used));
  });

  it('refuses sizes that are not non-negative sizes, min_size above max_size, and unbalanced globs', async () => {
    for (const args of [{ min_size: 'ten' }, { max_size: '-1' }, { min_size: '2k', max_size: '1k' }, { pattern: 'src/[ab' }, { pattern: '{a,b' }]) {
      const { status, body } = await rest('find', { project: PROJECT, ...args });
      expect(status, JSON.stringify(args)).toBe(400);
      expect(body.error.code).toBe('invalid_params');
      expect(body.error.suggestion).toBeTruthy();
    }
  });
});

describe('find empty results', () => {
  it('query_too_narrow names the filter to drop and steps to a call that finds files', async () => {
    const body = await find({ pattern: '*.py', language: 'typescript' });
    expect(body._meta.empty_reason).toBe('query_too_narrow');
    expect(body.result).toEqual({ files: [], total: 0, has_more: false });
    const [step] = body._meta.next_steps as Json[];
    expect(step.tool).toBe('find');
    const after = await runStep(step);
    expect(after.result.total).toBeGreaterThan(0);
  });

  it('query_too_narrow counts what dropping each filter finds: the count it names is the step call\'s total', async () => {
    const cases: Json[] = [
      { pattern: '*.py', language: 'typescript' },
      { pattern: '**/*.rs' },
      { pattern: 'src/**', language: 'python' },
      { pattern: '**/app*.rs', min_size: 10 },
      { pattern: 'src/*/schema.*', max_size: 5 },
      { language: 'python', min_size: 5000 },
      { pattern: '**/*.ts', min_size: 100, max_size: 200 },
    ];
    for (const args of cases) {
      const body = await find(args);
      expect(body._meta.empty_reason, JSON.stringify(args)).toBe('query_too_narrow');
      const named = /dropping (\w+) finds (\d+)/.exec(body._meta.diagnosis);
      const [step] = body._meta.next_steps as Json[];
      const after = await runStep(step);
      if (named) {
        expect(step.args[named[1]], JSON.stringify(args)).toBeUndefined();
        expect(after.result.total, JSON.stringify(args)).toBe(Number(named[2]));
      } else expect(step.args, JSON.stringify(args)).toEqual({ project: PROJECT });
    }
  });

  it('query_too_narrow lists the project languages for an unknown language', async () => {
    const body = await find({ language: 'typscript' });
    expect(body._meta.empty_reason).toBe('query_too_narrow');
    expect(body._meta.diagnosis).toContain('typescript');
    const after = await runStep(body._meta.next_steps[0]);
    expect(after.result.total).toBe(paths.length);
  });

  it('no_results_in_corpus for a project with no files', async () => {
    // An indexed project whose files are all gone (index with files: [] cannot make one: it fails today).
    await env.DB.prepare("INSERT INTO projects (id, name, created_at, indexed_at, file_count, symbol_count) VALUES ('find-empty-id', 'find-empty', 1, 2, 0, 0)").run();
    const { body } = await rest('find', { project: 'find-empty' });
    expect(body._meta.empty_reason).toBe('no_results_in_corpus');
    for (const step of body._meta.next_steps) await runStep(step);
  });

  it('no_project_indexed for an unknown project', async () => {
    const { body } = await rest('find', { project: 'find-nope' });
    expect(body._meta.empty_reason).toBe('no_project_indexed');
    for (const step of body._meta.next_steps) await runStep(step);
  });
});
