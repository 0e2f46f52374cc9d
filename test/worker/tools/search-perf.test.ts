import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { countQuery, missCounts, numbered, pageQuery, prefixMatch, searchQuery, translateQuery, type SymbolFilters } from '../../../src/db/search';
import { extractionGapsQuery } from '../../../src/db/extraction-gaps';
import { EXTRACTOR_VERSION } from '../../../src/extract';
import { SCHEMA_VERSION } from '../../../src/version';
import { rest, type Json } from '../helpers';

/**
 * A synthetic 50k-symbol project (2,500 files) written straight into D1, plus
 * a second one of the same size so the shared FTS index holds 100k rows: the
 * latency of the most-called tool, and the plan that keeps it low.
 */
const PROJECT = 'search-perf';
const OTHER = 'search-perf-other';
const SYMBOLS = 50_000;
const PER_FILE = 20;

const VERBS = ['get', 'set', 'load', 'save', 'parse', 'render', 'handle', 'build'];
const NOUNS = ['User', 'Order', 'Invoice', 'Session', 'Token', 'Config', 'Request', 'Response', 'Cache', 'Queue', 'Report', 'Widget', 'Account', 'Payment', 'Event', 'Channel'];
const caseOf = (list: string[], expr: string) => `CASE ${expr} ${list.map((v, i) => `WHEN ${i} THEN '${v}'`).join(' ')} END`;

async function seed(name: string, id: string): Promise<void> {
  const now = Date.now();
  const content = 'export function x() {\n  return 1;\n}\n'.repeat(PER_FILE);
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO projects (id, name, created_at, indexed_at, extractor_version, schema_version_at_index, file_count, symbol_count)
       VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6, ?7)`,
    ).bind(id, name, now, EXTRACTOR_VERSION, SCHEMA_VERSION, SYMBOLS / PER_FILE, SYMBOLS),
    env.DB.prepare('INSERT INTO blobs (hash, size, content, created_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(hash) DO NOTHING').bind(
      'perf-blob',
      content.length,
      content,
      now,
    ),
    env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?2 - 1)
       INSERT INTO files (project_id, path, hash, size, language, corpus, status, symbol_count, extractor_version, indexed_at)
       SELECT ?1, 'src/m' || (i % 40) || '/f' || i || '.ts', 'perf-blob', ?3, 'typescript', 'code', 'indexed', ?4, ?5, ?6 FROM n`,
    ).bind(id, SYMBOLS / PER_FILE, content.length, PER_FILE, EXTRACTOR_VERSION, now),
  ]);
  // Names like getUser17 / handleToken3: 8 verbs × 16 nouns × 50 numbers, with words split as the extractor does.
  // No parent: parent_raw '' (the qualified name Mod….name would imply one; src/db/symbol-parent.ts).
  const verb = caseOf(VERBS, 'i % 8');
  const noun = caseOf(NOUNS, '(i / 8) % 16');
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?2 - 1),
     v AS (SELECT i, ${verb} AS verb, ${noun} AS noun, (i / 128) % 50 AS num, 'src/m' || ((i / ${PER_FILE}) % 40) || '/f' || (i / ${PER_FILE}) || '.ts' AS path FROM n)
     INSERT INTO symbols (project_id, key, file_path, name, qualified_name, kind, signature, docstring, parent_raw, language, corpus,
                          is_exported, is_test, start_line, end_line, start_byte, end_byte, confidence, words)
     SELECT ?1, verb || noun || num || '_' || i || '#Function', path, verb || noun || num,
            'Mod' || (i % 300) || '.' || verb || noun || num,
            CASE i % 3 WHEN 0 THEN 'Function' WHEN 1 THEN 'Method' ELSE 'Class' END,
            'export function ' || verb || noun || num || '(input: ' || noun || '): void',
            CASE WHEN i % 7 = 0 THEN 'Handles the ' || lower(noun) || ' for the ' || verb || ' path.' END,
            '', 'typescript', 'code', 1, 0, (i % ${PER_FILE}) * 3 + 1, (i % ${PER_FILE}) * 3 + 3, (i % ${PER_FILE}) * 34, (i % ${PER_FILE}) * 34 + 33,
            CASE WHEN i % 11 = 0 THEN 0.8 ELSE 1.0 END,
            verb || ' ' || lower(noun) || ' ' || num || ' mod' || (i % 300)
     FROM v`,
  )
    .bind(id, SYMBOLS)
    .run();
}

let projectId = '';

beforeAll(async () => {
  projectId = 'PERF0000000000000000000001';
  await seed(PROJECT, projectId);
  await seed(OTHER, 'PERF0000000000000000000002');
}, 300_000);

const QUERIES: { label: string; args: Json }[] = [
  { label: 'exact name', args: { query: 'handleToken17' } },
  { label: 'pkg.Func (name index)', args: { query: 'm7.handleToken17' } },
  { label: 'two words (AND)', args: { query: 'parse invoice' } },
  { label: 'prefix', args: { query: 'renderWid*' } },
  { label: 'phrase + kind + file_pattern', args: { query: '"save order"', kind: 'Class', file_pattern: 'src/m1*/**' } },
  { label: 'common word, page 3 with snippets', args: { query: 'user', offset: 40, snippet_lines: 3 } },
  { label: 'AND→OR fallback', args: { query: 'getUser3 zebra' } },
  { label: 'empty: query_too_narrow verifier', args: { query: 'handleToken17', kind: 'Interface' } },
];

describe(`search on a ${SYMBOLS.toLocaleString('en')}-symbol project`, () => {
  it('drives the join from the FTS index and looks symbols up by rowid (no scan, no N+1)', async () => {
    const filters: SymbolFilters = { projectId, corpus: 'code', kind: 'Function', language: 'typescript', minConfidence: 0.5, path: { prefix: 'src/' } };
    for (const q of [pageQuery(translateQuery('parse invoice').match, filters, { limit: 20, offset: 0, snippets: true }), countQuery('"user"', filters)]) {
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).bind(...q.params).all<{ detail: string }>();
      const details = plan.results.map((r) => r.detail);
      expect(details.some((d) => /SCAN symbols_fts VIRTUAL TABLE INDEX/.test(d)), details.join(' | ')).toBe(true);
      expect(details.some((d) => /SEARCH s USING INTEGER PRIMARY KEY/.test(d)), details.join(' | ')).toBe(true);
      expect(details.some((d) => /SCAN s\b|SCAN symbols\b/.test(d)), details.join(' | ')).toBe(false);
      if (q.sql.includes('LEFT JOIN files')) {
        expect(details.some((d) => /SEARCH f USING INDEX sqlite_autoindex_files_1/.test(d)), details.join(' | ')).toBe(true);
        expect(details.some((d) => /SEARCH b USING INDEX sqlite_autoindex_blobs_1/.test(d)), details.join(' | ')).toBe(true);
      }
    }
  });

  it('looks a qualified name up through the name index, next to the FTS join', async () => {
    const filters: SymbolFilters = { projectId, corpus: 'code' };
    const query = translateQuery('m7.handleToken17');
    for (const q of [pageQuery(query.match, filters, { limit: 20, offset: 0, snippets: false }, query.rank), countQuery(query.match, filters, query.rank)]) {
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).bind(...q.params).all<{ detail: string }>();
      const details = plan.results.map((r) => r.detail);
      expect(details.some((d) => /SCAN symbols_fts VIRTUAL TABLE INDEX/.test(d)), details.join(' | ')).toBe(true);
      // The member's name-index entries (covering: only their rowids, the rows are read for those kept).
      expect(details.some((d) => /SEARCH s USING (COVERING )?INDEX symbols_name \(project_id=\? AND name=\?\)/.test(d)), details.join(' | ')).toBe(true);
      expect(details.some((d) => /SCAN s\b|SCAN symbols\b/.test(d)), details.join(' | ')).toBe(false);
    }
  });

  it('runs a whole search, its any-word fallback and its miss questions in one statement without a scan of symbols', async () => {
    const filters: SymbolFilters = { projectId, corpus: 'code', kind: 'Function', path: { prefix: 'src/' } };
    const query = translateQuery('parse invoice');
    const miss = {
      match: query.orMatch!,
      relaxations: [{ ...filters, kind: undefined }, { ...filters, corpus: 'docs' }, { projectId, corpus: 'code' }],
      gaps: { text: 'parse', limit: 11 },
      prefixes: ['pars', 'par'].map(prefixMatch),
    };
    const q = numbered(searchQuery({ all: query.match, any: query.orMatch! }, filters, { limit: 20, offset: 0, snippets: true }, query.rank, miss));
    expect(q.params.length).toBeLessThanOrEqual(100);
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).bind(...q.params).all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail);
    expect(details.some((d) => /SCAN symbols_fts VIRTUAL TABLE INDEX/.test(d)), details.join(' | ')).toBe(true);
    expect(details.some((d) => /SEARCH s USING INTEGER PRIMARY KEY/.test(d)), details.join(' | ')).toBe(true);
    expect(details.some((d) => /SCAN (s|symbols|f|files|b|blobs)\b/.test(d)), details.join(' | ')).toBe(false);
  });

  it('counts hits that carry no score, and pages from scored hits equal to pageQuery\'s (SQLite copies a CTE into every query reading it)', async () => {
    const filters: SymbolFilters = { projectId, corpus: 'code' };
    let found = 0;
    for (const text of ['handleToken17', 'parse invoice', 'm7.handleToken17', 'user']) {
      const query = translateQuery(text);
      const match = query.orMatch ? { all: query.match, any: query.orMatch } : query.match;
      const page = { limit: 20, offset: 0, snippets: false };
      const q = numbered(searchQuery(match, filters, page, query.rank, null));
      const counted = /(?:^WITH |, )h AS NOT MATERIALIZED \((.*?)\), t AS /s.exec(q.sql)?.[1] ?? '';
      expect(counted, text).toMatch(/symbols_fts MATCH/);
      expect(counted, text).not.toMatch(/bm25|score/);
      const plain = pageQuery(match, filters, page, query.rank);
      const got = await env.DB.prepare(q.sql).bind(...q.params).all<{ rid: number | null; score: number; total_n: number }>();
      const want = await env.DB.prepare(plain.sql).bind(...plain.params).all<{ rid: number; score: number }>();
      expect(got.results.filter((r) => r.rid !== null).map((r) => [r.rid, r.score]), text).toEqual(want.results.map((r) => [r.rid, r.score]));
      found += want.results.length;
    }
    expect(found).toBeGreaterThan(20);
  });

  it('asks every relaxation and every shorter prefix in one count each: the text does not grow with them, the answers are their own counts', async () => {
    const filters: SymbolFilters = { projectId, corpus: 'code', kind: 'Function', language: 'typescript', minConfidence: 0.9, path: { prefix: 'src/m1' } };
    const relaxationsOf = (f: SymbolFilters): SymbolFilters[] => [
      { ...f, kind: undefined },
      { ...f, language: undefined },
      { ...f, path: undefined },
      { ...f, minConfidence: undefined },
      { ...f, corpus: 'docs' },
      { projectId, corpus: 'code' },
      { projectId, corpus: 'docs' },
    ];
    const prefixes = ['handleTokenz', 'handleToken', 'handleToke', 'handleTok', 'handleTo', 'handleT', 'handle'].map(prefixMatch);
    const ask = (text: string, f: SymbolFilters, n: number) => {
      const query = translateQuery(text);
      const miss = { match: query.match, relaxations: relaxationsOf(f).slice(0, n), gaps: null, prefixes: prefixes.slice(0, n) };
      return numbered(searchQuery(query.match, f, { limit: 20, offset: 0, snippets: false }, query.rank, miss));
    };
    const matches = (sql: string) => sql.split('symbols_fts MATCH').length - 1;
    expect(matches(ask('handleTokenzz', filters, 7).sql)).toBe(matches(ask('handleTokenzz', filters, 2).sql));
    const own = async (m: string, f: SymbolFilters) => {
      const c = countQuery(m, f, translateQuery(m).rank);
      const r = await env.DB.prepare(c.sql).bind(...c.params).first<{ n: number; best: number | null }>();
      return [r?.n ?? 0, r?.best ?? null];
    };
    const row = async (q: { sql: string; params: unknown[] }) => {
      expect(q.params.length).toBeLessThan(30);
      const r = await env.DB.prepare(q.sql).bind(...q.params).first<{ total_n: number; relaxed: string }>();
      expect(r?.total_n).toBe(0);
      return r!;
    };
    const questions = (n: number) => ({ match: '', relaxations: relaxationsOf(filters).slice(0, n), gaps: null, prefixes: prefixes.slice(0, n) });
    // A name of the project under a kind it does not have: the relaxations find it (and the prefixes are not counted).
    const narrow = { ...filters, kind: 'Interface' };
    const relaxedRow = missCounts(await row(ask('handleToken17', narrow, 7)), questions(7));
    const expected = await Promise.all(relaxationsOf(narrow).map((r) => own(translateQuery('handleToken17').match, r)));
    expect(relaxedRow.relaxed).toEqual(expected);
    expect(expected.filter(([n]) => (n as number) > 0).length).toBeGreaterThan(0);
    expect(relaxedRow.prefixes).toEqual([]);
    // A name found nowhere: the shorter prefixes are counted under the search's filters, in the relaxations' list.
    const prefixRow = missCounts(await row(ask('handleTokenzz', filters, 7)), questions(7));
    const counts = await Promise.all(prefixes.map(async (p) => (await own(p, filters))[0]));
    expect(prefixRow.prefixes).toEqual(counts);
    expect(prefixRow.relaxed).toEqual(relaxationsOf(filters).map(() => [0, null]));
    expect(counts.filter((n) => (n as number) > 0).length).toBeGreaterThan(1);
  });

  it('prepares no question twice: the shorter prefixes ride in the relaxations\' count, the fallback asks once whether every word matches, gaps write only their conditions', () => {
    const filters: SymbolFilters = { projectId, corpus: 'code' };
    const matches = (sql: string) => sql.split('symbols_fts MATCH').length - 1;
    const query = translateQuery('parse invoice');
    const page = { limit: 20, offset: 0, snippets: false };
    const miss = (prefixes: string[]) => ({ match: query.orMatch!, relaxations: [{ projectId, corpus: 'docs' }], gaps: { text: 'parse', limit: 11 }, prefixes });
    const withPrefixes = numbered(searchQuery(query.match, filters, page, query.rank, miss(['pars', 'par'].map(prefixMatch))));
    const without = numbered(searchQuery(query.match, filters, page, query.rank, miss([])));
    expect(matches(withPrefixes.sql)).toBe(matches(without.sql));
    const single = numbered(searchQuery(query.match, filters, page, query.rank, null));
    const fallback = numbered(searchQuery({ all: query.match, any: query.orMatch! }, filters, page, query.rank, null));
    expect(matches(fallback.sql)).toBe(matches(single.sql) + 1);
    expect(extractionGapsQuery(projectId, { text: null, limit: 3 }).sql).not.toMatch(/IS NULL|blobs|corpus|f\.path =/);
    const narrowed = extractionGapsQuery(projectId, { text: 'x', corpus: 'code', path: 'a.ts', limit: 3 }).sql;
    for (const part of [/JOIN blobs/, /f\.corpus = \?/, /f\.path = \?/]) expect(narrowed).toMatch(part);
  });

  it('sorts a prefix query whose names fill the page from those names, with the page of every hit, and no scan or temporary table', async () => {
    const filters: SymbolFilters = { projectId, corpus: 'code' };
    for (const [text, offset] of [['renderWid*', 0], ['renderWid*', 380], ['getU*', 40], ['inp*', 0], ['Handl*', 0]] as const) {
      const query = translateQuery(text);
      const page = { limit: 20, offset, snippets: false };
      const q = numbered(searchQuery(query.match, filters, page, query.rank, null));
      const plain = pageQuery(query.match, filters, page, query.rank);
      const got = await env.DB.prepare(q.sql).bind(...q.params).all<{ rid: number | null; score: number }>();
      const want = await env.DB.prepare(plain.sql).bind(...plain.params).all<{ rid: number; score: number }>();
      expect(got.results.filter((r) => r.rid !== null).map((r) => [r.rid, r.score]), `${text} @${offset}`).toEqual(want.results.map((r) => [r.rid, r.score]));
      expect(want.results.length, `${text} @${offset}`).toBeGreaterThan(0);
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).bind(...q.params).all<{ detail: string }>();
      const details = plan.results.map((r) => r.detail);
      expect(details.some((d) => /SCAN (s|symbols)\b|MATERIALIZE (?!pg$)|LIST SUBQUERY/.test(d)), details.join(' | ')).toBe(false);
    }
  });

  it('binds each distinct value once, numbering the placeholders and leaving string literals alone', () => {
    expect(numbered({ sql: "SELECT ? AS a, '?' AS q, 'it''s ?' AS r, ?, ?, ?", params: ['x', 1, 'x', '1'] })).toEqual({
      sql: "SELECT ?1 AS a, '?' AS q, 'it''s ?' AS r, ?2, ?1, ?3",
      params: ['x', 1, '1'],
    });
    expect(() => numbered({ sql: 'SELECT ?', params: [1, 2] })).toThrow();
    expect(numbered({ sql: "SELECT ? FROM t LIMIT ? OFFSET ?", params: [20, 20, 0] })).toEqual({ sql: 'SELECT ?1 FROM t LIMIT 20 OFFSET 0', params: [20] });
    expect(numbered({ sql: "SELECT 'LIMIT ?', ? FROM t LIMIT ?", params: ['a', 'x'] })).toEqual({ sql: "SELECT 'LIMIT ?', ?1 FROM t LIMIT ?2", params: ['a', 'x'] });
  });

  it('sorts and cuts the page where its hits are scored, not from a CTE or subquery of them (each a copy of the score for SQLite to prepare)', async () => {
    const filters: SymbolFilters = { projectId, corpus: 'code' };
    const page = { limit: 20, offset: 0, snippets: false };
    let found = 0;
    for (const text of ['handleToken17', 'parse invoice', 'Handl*', 'm7.handleToken17']) {
      const query = translateQuery(text);
      const match = query.orMatch ? { all: query.match, any: query.orMatch } : query.match;
      const q = numbered(searchQuery(match, filters, page, query.rank, null));
      expect(q.sql, text).not.toMatch(/\bhp AS/);
      const cut = /FROM \((SELECT s\.rowid AS rid|SELECT rid, score, file_path, start_line FROM \(SELECT s\.rowid AS rid)[^]*? ORDER BY score DESC, file_path, start_line, rid LIMIT 20 OFFSET 0\) p/.exec(q.sql);
      // Only the name index's candidates (a UNION ALL beside the full-text hits) are sorted from a subquery.
      expect(cut?.[1], text).toBe(text === 'm7.handleToken17' ? 'SELECT rid, score, file_path, start_line FROM (SELECT s.rowid AS rid' : 'SELECT s.rowid AS rid');
      const got = await env.DB.prepare(q.sql).bind(...q.params).all<{ rid: number | null; score: number }>();
      const scores = got.results.filter((r) => r.rid !== null).map((r) => r.score);
      expect(scores, text).toEqual([...scores].sort((a, b) => b - a));
      found += scores.length;
    }
    expect(found).toBeGreaterThan(20);
  });

  it('writes only the filters some relaxation has into the relaxations\' count: a search without filters counts the other corpora without kind, language or confidence conditions', async () => {
    const query = translateQuery('handleToken17');
    const filters: SymbolFilters = { projectId, corpus: 'docs' };
    const relaxations: SymbolFilters[] = [{ projectId, corpus: 'code' }, { projectId, corpus: 'config' }];
    const miss = { match: query.match, relaxations, gaps: null, prefixes: [] };
    const q = numbered(searchQuery(query.match, filters, { limit: 20, offset: 0, snippets: false }, query.rank, miss));
    expect(q.sql).not.toMatch(/rx\.(kind|language|min_confidence)/);
    expect(q.sql).toMatch(/rx\.corpus IS NULL OR s\.corpus = rx\.corpus/);
    const r = await env.DB.prepare(q.sql).bind(...q.params).first<{ total_n: number; relaxed: string }>();
    expect(r?.total_n).toBe(0);
    const own = await Promise.all(relaxations.map(async (f) => {
      const c = countQuery(query.match, f, query.rank);
      const row = await env.DB.prepare(c.sql).bind(...c.params).first<{ n: number; best: number | null }>();
      return [row?.n ?? 0, row?.best ?? null];
    }));
    expect(missCounts(r!, { ...miss, prefixes: [] }).relaxed).toEqual(own);
    expect(own[0][0]).toBeGreaterThan(0);
    const kinds = numbered(searchQuery(query.match, { ...filters, kind: 'Interface' }, null, query.rank, { ...miss, relaxations: [{ ...filters, kind: 'Interface', corpus: 'code' }] }));
    expect(kinds.sql).toMatch(/rx\.kind IS NULL OR s\.kind = rx\.kind/);
    expect(kinds.sql).not.toMatch(/rx\.(language|min_confidence)/);
  });

  it('writes every LIMIT and OFFSET of a search into its text: a bound one makes SQLite prepare the statement again at its first step', () => {
    const rank = translateQuery('get*').rank;
    const miss = { match: '"get"*', relaxations: [{ projectId, corpus: 'docs' }], gaps: { text: 'get', limit: 4 }, prefixes: [] };
    const q = numbered(searchQuery('"get"*', { projectId, corpus: 'code' }, { limit: 7, offset: 3, snippets: false }, rank, miss));
    expect(q.sql).not.toMatch(/\b(LIMIT|OFFSET)\s+\?/i);
    expect(q.sql).toMatch(/LIMIT 7 OFFSET 3/);
    expect(q.sql).toMatch(/LIMIT 4\b/);
  });

  // Latency on this project is measured by `npm run bench` (latency stage), not here.
  for (const { label, args } of QUERIES) {
    it(`answers "${label}" with a page that agrees with its total`, async () => {
      const res = await rest('search', { project: PROJECT, ...args });
      expect(res.status).toBe(200);
      const r = res.body.result;
      expect(r.results.length).toBeLessThanOrEqual(r.total);
      if (res.body._meta.empty_reason) expect(r.results).toEqual([]);
      else expect(r.results.length).toBeGreaterThan(0);
    });
  }

  it('stops offering pages past offset 5000 and says so', async () => {
    const body = (await rest('search', { project: PROJECT, query: 'parse', offset: 4990, limit: 20 })).body;
    expect(body.result.total).toBeGreaterThan(5010);
    expect(body.result.has_more).toBe(true);
    expect(body.result).not.toHaveProperty('next_offset');
    expect(body._meta.next_steps ?? []).toEqual([]);
    expect(body._meta.warnings_v2.map((w: Json) => w.code)).toContain('offset_cap');
  });

  it('counts every match of a word that is in a sixteenth of the project', async () => {
    const body = (await rest('search', { project: PROJECT, query: 'user', limit: 5 })).body;
    const users = Array.from({ length: SYMBOLS }, (_, i) => Math.floor(i / 8) % 16 === 0).filter(Boolean).length;
    expect(body.result.total).toBe(users);
    expect(body.result.has_more).toBe(true);
  });
});
