import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { translateQuery } from '../../../src/db/search';
import { callTool, rest, type Json } from '../helpers';

const PROJECT = 'search-main';

const AUTH = [
  '/** Authenticates users against the store. */',
  'export class AuthService {',
  '  /** Logs a user in. */',
  '  login(user: string): boolean {',
  '    return user.length > 0;',
  '  }',
  '  logout(): void {}',
  '  refreshToken(): string {',
  "    return 'é-ü — 日本';",
  '  }',
  '}',
  'export function tokenRefresh() {}',
  '',
].join('\n');

const PARSE = [
  'export function parse(input: string): string {',
  '  return input.trim();',
  '}',
  '/** Reads config files. */',
  'export function parseConfig(path: string) {',
  '  return path;',
  '}',
  '/** We parse nothing here. */',
  'export function noop() {}',
  'export function getActiveUser() {}',
  '',
].join('\n');

const MANY = Array.from({ length: 25 }, (_, i) => `export function item${String(i).padStart(2, '0')}() {}`).join('\n') + '\n';

const FILES: Record<string, string> = {
  'src/auth/service.ts': AUTH,
  'src/util/parse.ts': PARSE,
  'src/many.ts': MANY,
  'src/crlf.ts': 'export function crlfOne() {\r\n  return 1;\r\n}\r\n',
  'src/broken.ts': 'export function broken() {\n  return (;\n}\nexport function fine() { return 1 }\n',
  'src/big.ts': `${Array.from({ length: 200 }, (_, i) => `// filler line ${i}: text an agent would otherwise read`).join('\n')}\n\nexport function bigHelper() {}\n`,
  'lib/parser.py': 'class Parser:\n    def parse(self, text):\n        return text\n',
  'cmd/main.go': 'package main\n\nfunc Parse() {}\n\nfunc main() {}\n',
  'docs/guide.md': '# Guide\n\n## Parse options\n\nSome text.\n',
  'config/app.yaml': 'parse_mode: strict\nserver:\n  port: 80\n',
};

async function search(args: Json, headers: Record<string, string> = {}): Promise<Json> {
  const res = await rest('search', { project: PROJECT, ...args }, headers);
  expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
  return res.body;
}

function names(body: Json): string[] {
  return (body.result.results as Json[]).map((r) => r.name as string);
}

function warningCodes(body: Json): string[] {
  return ((body._meta.warnings_v2 ?? []) as Json[]).map((w) => w.code as string);
}

async function fileContent(path: string): Promise<string> {
  const row = await env.DB.prepare(
    'SELECT b.content FROM files f JOIN projects p ON p.id = f.project_id JOIN blobs b ON b.hash = f.hash WHERE p.name = ?1 AND f.path = ?2',
  )
    .bind(PROJECT, path)
    .first<{ content: string }>();
  return row?.content ?? '';
}

beforeAll(async () => {
  const pushed = await rest('index', { project: PROJECT, files: Object.entries(FILES).map(([path, content]) => ({ path, content })) });
  expect(pushed.status).toBe(200);
});

describe('ranking and query syntax', () => {
  it('ranks an exact name above a name-word match, and both above a docstring mention', async () => {
    const body = await search({ query: 'parse', limit: 50 });
    const got = names(body);
    expect(got[0].toLowerCase()).toBe('parse');
    const lastExact = Math.max(...got.map((n, i) => (n.toLowerCase() === 'parse' ? i : -1)));
    expect(lastExact).toBeLessThan(got.indexOf('parseConfig'));
    expect(got.indexOf('parseConfig')).toBeLessThan(got.indexOf('noop'));
    const scores = (body.result.results as Json[]).map((r) => r.score as number);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('matches a prefix with term*', async () => {
    expect(names(await search({ query: 'parseC*' }))).toEqual(['parseConfig']);
    expect(names(await search({ query: 'tok*' })).sort()).toEqual(['refreshToken', 'tokenRefresh']);
  });

  it('matches an exact phrase only in order', async () => {
    expect(names(await search({ query: '"refresh token"' }))).toEqual(['refreshToken']);
    expect(names(await search({ query: 'refresh token' })).sort()).toEqual(['refreshToken', 'tokenRefresh']);
  });

  it('unions with OR and excludes with NOT', async () => {
    expect(names(await search({ query: 'login OR logout' })).sort()).toEqual(['login', 'logout']);
    const not = names(await search({ query: 'parse* NOT config' }));
    expect(not).toContain('parse');
    expect(not).not.toContain('parseConfig');
    expect(names(await search({ query: '(login OR logout) NOT logout' }))).toEqual(['login']);
  });

  it('reads -word as NOT word, moving a leading one behind the other terms', async () => {
    const body = await search({ query: '-config parse*' });
    expect(names(body)).not.toContain('parseConfig');
    expect(names(body)).toContain('parse');
    expect(warningCodes(body)).toContain('query_rewritten');
    expect(body._meta.warnings_v2[0].data.rewritten).toBe('parse* NOT config');
  });

  it('falls back from AND to OR when no symbol has every word, and says so', async () => {
    const body = await search({ query: 'login zebra' });
    expect(names(body)).toEqual(['login']);
    expect(warningCodes(body)).toContain('and_fallback_or');
    const info = (body._meta.diagnosis_v2 as Json[]).find((d) => d.code === 'and_fallback_or');
    expect(info?.severity).toBe('info');
    expect(body._meta).not.toHaveProperty('empty_reason');
  });

  it('does not fall back when the AND query has hits', async () => {
    // Members carry their class's words (AuthService.login → "login auth service").
    const body = await search({ query: 'auth service' });
    expect(names(body).sort()).toEqual(['AuthService', 'login', 'logout', 'refreshToken']);
    expect(warningCodes(body)).not.toContain('and_fallback_or');
  });

  const rejected: [string, string | null][] = [
    ['OR parse', 'parse'],
    ['parse AND', 'parse'],
    ['(parse', '(parse)'],
    ['parse)', 'parse'],
    ['login OR OR logout', 'login OR logout'],
    ['NOT parse', 'parse'],
    ['parse (OR login)', 'parse (login)'],
    ['*', null],
    ['::', null],
  ];
  for (const [query, corrected] of rejected) {
    it(`rejects ${JSON.stringify(query)} with invalid_params and a corrected query that runs`, async () => {
      const res = await rest('search', { project: PROJECT, query });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_params');
      expect(res.body.error.suggestion).toBeTruthy();
      if (corrected === null) {
        expect(res.body.error.suggestion).toContain('query="');
        return;
      }
      expect(res.body.error.details.corrected).toBe(corrected);
      expect(res.body.error.suggestion).toContain(JSON.stringify(corrected));
      const retry = await rest('search', { project: PROJECT, query: corrected });
      expect(retry.status).toBe(200);
    });
  }

  const rewritten: [string, string, string[]][] = [
    ['"refresh token', '"refresh token"', ['refreshToken']],
    ['name:parseConfig', 'parseConfig', ['parseConfig']],
    ['{name signature}:parseConfig', 'parseConfig', ['parseConfig']],
    ['*Config', 'Config', ['parseConfig']],
    ['parseConfig *', 'parseConfig', ['parseConfig']],
    ['get*User', 'get* User', ['getActiveUser']],
    ['parseConfig()', 'parseConfig', ['parseConfig']],
    ['parseConfig ""', 'parseConfig', ['parseConfig']],
    ['parseConfig -> ==', 'parseConfig', ['parseConfig']],
    ['NEAR(parseConfig)', '(parseConfig)', ['parseConfig']],
  ];
  for (const [query, canonical, expected] of rewritten) {
    it(`rewrites ${JSON.stringify(query)} to ${canonical} with a query_rewritten warning`, async () => {
      const body = await search({ query });
      expect(names(body)).toEqual(expected);
      const w = (body._meta.warnings_v2 as Json[]).find((x) => x.code === 'query_rewritten');
      expect(w?.data).toEqual({ original: query, rewritten: canonical });
    });
  }

  it('translates every term into a quoted FTS5 string with explicit AND', () => {
    expect(translateQuery('auth* "token refresh" NOT test').match).toBe('"auth"* AND "token refresh" NOT "test"');
    expect(translateQuery('a (b OR c)').match).toBe('"a" AND ( "b" OR "c" )');
    expect(translateQuery('std::vector').match).toBe('"std::vector"');
    expect(translateQuery('a b').orMatch).toBe('"a" OR "b"');
    expect(translateQuery('a OR b').orMatch).toBeUndefined();
  });

  it('searches words joined by punctuation as a phrase (snake_case, dotted names)', async () => {
    expect(names(await search({ query: 'AuthService.login' }))).toEqual(['login']);
    expect(names(await search({ query: 'parse_mode', corpus: 'config' }))).toEqual(['parse_mode']);
  });
});

describe('filters', () => {
  it('keeps only the given kind', async () => {
    const body = await search({ query: 'auth* OR login', kind: 'Class' });
    expect(names(body)).toEqual(['AuthService']);
  });

  it('rejects an unknown kind, listing the allowed values', async () => {
    const res = await rest('search', { project: PROJECT, query: 'parse', kind: 'Klass' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_params');
    const issue = (res.body.error.details.issues as Json[]).find((i) => i.param === 'kind');
    expect(issue?.allowed).toContain('Function');
    expect(issue?.allowed).toContain('Setting');
  });

  it('keeps only the given language', async () => {
    const body = await search({ query: 'parse', language: 'python', fields: ['name', 'language'] });
    expect((body.result.results as Json[]).map((r) => [r.name, r.language])).toEqual([['parse', 'python']]);
    expect(names(await search({ query: 'parse', language: 'go' }))).toEqual(['Parse']);
    expect(names(await search({ query: 'parse', language: 'Python' }))).toEqual(['parse']);
  });

  it('searches code by default and config or docs on request', async () => {
    expect(names(await search({ query: 'parse' }))).not.toContain('Parse options');
    expect(names(await search({ query: 'parse', corpus: 'docs' }))).toEqual(['Parse options']);
    expect(names(await search({ query: 'parse', corpus: 'config' }))).toEqual(['parse_mode']);
  });

  it('drops symbols under min_confidence', async () => {
    const all = await search({ query: 'broken OR fine' });
    const conf = Object.fromEntries((all.result.results as Json[]).map((r) => [r.name, r.extraction_confidence]));
    expect(conf.broken).toBeLessThan(conf.fine);
    const floor = await search({ query: 'broken OR fine', min_confidence: String(conf.fine) });
    expect(names(floor)).toEqual(['fine']);
  });

  const globs: [string, string[]][] = [
    ['src/auth/**', ['src/auth/service.ts']],
    ['src/**/*.ts', ['src/auth/service.ts', 'src/util/parse.ts']],
    ['src/*.ts', []],
    ['src/*/*.ts', ['src/auth/service.ts', 'src/util/parse.ts']],
    ['*.py', ['lib/parser.py']],
    ['**/*.go', ['cmd/main.go']],
    ['parse.ts', ['src/util/parse.ts']],
    ['pa?se.ts', ['src/util/parse.ts']],
    ['src/util/', ['src/util/parse.ts']],
    ['src/util/parse.ts', ['src/util/parse.ts']],
    ['./lib/*', ['lib/parser.py']],
    ['SRC/**', []],
    ['src/**/serv*.ts', ['src/auth/service.ts']],
  ];
  for (const [pattern, files] of globs) {
    it(`filters file_pattern ${pattern} to ${files.join(', ') || 'nothing'}`, async () => {
      const body = await search({ query: 'parse* OR auth* OR Parse OR login', file_pattern: pattern, limit: 100 });
      const got = [...new Set((body.result.results as Json[]).map((r) => r.file_path as string))].sort();
      expect(got).toEqual(files);
    });
  }
});

describe('result shape', () => {
  async function expectExactSnippet(query: string, lines: number): Promise<Json> {
    const body = await search({ query, snippet_lines: lines });
    const hit = body.result.results[0] as Json;
    const content = await fileContent(hit.file_path);
    const count = Math.min(lines, hit.end_line - hit.start_line + 1);
    const expected = content.split('\n').slice(hit.start_line - 1, hit.start_line - 1 + count).join('\n');
    expect(hit.snippet).toBe(expected);
    return hit;
  }

  it('cuts snippets byte-exactly from the stored content, from the first line of the symbol', async () => {
    const hit = await expectExactSnippet('AuthService', 3);
    expect(hit.snippet.split('\n')).toHaveLength(3);
    expect(hit.snippet.startsWith('export class AuthService')).toBe(true);
  });

  it('keeps multibyte characters and indentation, and never runs past the symbol', async () => {
    const hit = await expectExactSnippet('refreshToken', 20);
    expect(hit.snippet).toContain('é-ü — 日本');
    expect(hit.snippet.startsWith('  refreshToken')).toBe(true);
    const one = await expectExactSnippet('logout', 5);
    expect(one.snippet).toBe('  logout(): void {}');
  });

  it('keeps CR bytes of CRLF files', async () => {
    const hit = await expectExactSnippet('crlfOne', 2);
    expect(hit.snippet).toBe('export function crlfOne() {\r\n  return 1;\r');
  });

  it('omits snippet unless snippet_lines > 0, docstring when there is none, and by default language and a confidence of 1', async () => {
    const body = await search({ query: 'parse' });
    for (const r of body.result.results as Json[]) expect(r).not.toHaveProperty('snippet');
    const parse = (body.result.results as Json[]).find((r) => r.id === 'src/util/parse.ts::parse#Function');
    expect(parse).toEqual({
      id: 'src/util/parse.ts::parse#Function',
      name: 'parse',
      qualified_name: 'parse',
      kind: 'Function',
      file_path: 'src/util/parse.ts',
      start_line: 1,
      end_line: 3,
      signature: 'export function parse(input: string): string',
      score: expect.any(Number),
    });
    const asked = (await search({ query: 'parse', fields: ['id', 'language', 'extraction_confidence'] })).result.results as Json[];
    expect(asked.find((r) => r.id === 'src/util/parse.ts::parse#Function')).toEqual({
      id: 'src/util/parse.ts::parse#Function',
      language: 'typescript',
      extraction_confidence: 1,
    });
    const documented = (await search({ query: 'parseConfig' })).result.results[0] as Json;
    expect(documented.docstring).toBe('Reads config files.');
  });

  it('projects results to the requested fields', async () => {
    const body = await search({ query: 'parse', fields: ['name', 'file_path'] });
    expect(body.result.results.length).toBeGreaterThan(0);
    for (const r of body.result.results as Json[]) expect(Object.keys(r).sort()).toEqual(['file_path', 'name']);
  });

  it('rejects unknown field names, listing the allowed ones', async () => {
    const res = await rest('search', { project: PROJECT, query: 'parse', fields: ['name', 'nme'] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_params');
    const issue = (res.body.error.details.issues as Json[])[0];
    expect(issue.param).toBe('fields.1');
    expect(issue.allowed).toContain('name');
    expect(issue.allowed).toContain('snippet');
  });

  it('answers the same over MCP, with the result as structuredContent', async () => {
    const restBody = await search({ query: 'login OR logout' });
    const { body } = await callTool('search', { project: PROJECT, query: 'login OR logout' });
    expect(body.result.structuredContent.results).toEqual(restBody.result.results);
    expect(body.result._meta.complexity_tier).toBe('lite');
  });
});

describe('pagination', () => {
  it('pages with has_more and next_offset, and the next step fetches the next page', async () => {
    const whole = await search({ query: 'item*', limit: 100 });
    expect(whole.result.total).toBe(25);
    expect(whole.result.has_more).toBe(false);
    expect(whole.result).not.toHaveProperty('next_offset');

    const seen: string[] = [];
    let body = await search({ query: 'item*', limit: 10 });
    expect(body.result).toMatchObject({ total: 25, has_more: true, next_offset: 10 });
    for (let hops = 0; hops < 5; hops++) {
      seen.push(...names(body));
      const step = (body._meta.next_steps as Json[] | undefined)?.[0];
      if (!step) break;
      expect(step.tool).toBe('search');
      expect(step.args).toEqual({ project: PROJECT, query: 'item*', limit: 10, offset: body.result.next_offset });
      const res = await rest(step.tool, step.args);
      expect(res.status).toBe(200);
      body = res.body;
    }
    expect(body.result).toMatchObject({ has_more: false });
    expect(seen).toEqual(names(whole));
  });

  it('accepts obvious base-10 strings for numbers', async () => {
    const body = await search({ query: 'item*', limit: '3', offset: '22' });
    expect(names(body)).toEqual(['item22', 'item23', 'item24']);
  });
});

describe('token accounting', () => {
  async function sizes(paths: string[]): Promise<number> {
    let total = 0;
    for (const p of paths) {
      const row = await env.DB.prepare('SELECT f.size FROM files f JOIN projects p ON p.id = f.project_id WHERE p.name = ?1 AND f.path = ?2')
        .bind(PROJECT, p)
        .first<{ size: number }>();
      total += row?.size ?? 0;
    }
    return total;
  }

  /** `grep -rn` output characters over FILES for lines matching `re`, recomputed here. */
  function grepChars(re: RegExp): number {
    let n = 0;
    for (const path of Object.keys(FILES).sort()) {
      const lines = FILES[path].split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      lines.forEach((raw, i) => {
        const l = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (re.test(l)) n += `${path}:${i + 1}:${l}\n`.length;
      });
    }
    return n;
  }

  it('states its baseline as the grep -rni output of the query words', async () => {
    const body = await search({ query: 'bigHelper OR parse OR parseConfig' });
    expect(body.result.results.length).toBeGreaterThan(1);
    const baseline = Math.ceil(grepChars(/bigHelper|parse|parseConfig/i) / 4);
    const meta = body._meta;
    expect(meta.baseline_method).toBe('grep_recursive');
    expect(baseline).toBeGreaterThan(0);
    // On this small fixture grep's output can be shorter than the answer: then nothing is saved, never a negative.
    expect(meta.tokens_saved).toBe(Math.max(0, baseline - meta.tokens_used));
    expect(meta.tokens_saved_pct).toBe(meta.tokens_saved === 0 ? 0 : Math.round((1000 * meta.tokens_saved) / (meta.tokens_saved + meta.tokens_used)) / 10);
    expect(await sizes([])).toBe(0);
  });
});
