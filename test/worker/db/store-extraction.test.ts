import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { storeExtractionStatements, type ExtractionRow } from '../../../src/db/index-store';
import { JSON_PARAM_BUDGET } from '../../../src/db/json-param';

const DB = (env as unknown as { DB: D1Database }).DB;

function row(hash: string, over: Partial<ExtractionRow> = {}): ExtractionRow {
  return {
    hash,
    language: 'typescript',
    extractorVersion: 999_001,
    corpus: 'code',
    status: 'ok',
    reason: null,
    message: null,
    hadErrors: false,
    symbolCount: 1,
    refCount: 0,
    parseMs: 3,
    symbolsJson: '[["k","f","f","Function"]]',
    refsJson: '[]',
    ...over,
  };
}

/** Every stored column with its SQLite type, as both the bulk and the one-row statements must leave it. */
async function stored(hashes: string[]) {
  const blobs = await DB.prepare(
    `SELECT hash, size, typeof(size) AS size_t, content, created_at, typeof(created_at) AS created_t FROM blobs WHERE hash IN (SELECT value FROM json_each(?1)) ORDER BY rowid`,
  )
    .bind(JSON.stringify(hashes))
    .all();
  const extractions = await DB.prepare(
    `SELECT hash, language, extractor_version, typeof(extractor_version) AS version_t, corpus, status, reason, message, had_errors, typeof(had_errors) AS errors_t,
       symbol_count, ref_count, parse_ms, typeof(parse_ms) AS parse_t, symbols_json, refs_json, created_at
     FROM extractions WHERE hash IN (SELECT value FROM json_each(?1)) ORDER BY rowid`,
  )
    .bind(JSON.stringify(hashes))
    .all();
  return { blobs: blobs.results, extractions: extractions.results };
}

describe('storeExtractionStatements', () => {
  it('writes a batch as a few statements, each row as one statement per row would have', async () => {
    const items = [
      { row: row('se-a', { hadErrors: true, reason: 'x', message: 'quote " and \\ and \n and ünïcödé 漢字 😀' }), content: 'const a = "漢字 😀";\n\t\\', size: 26 },
      { row: row('se-b', { status: 'skipped', reason: 'unsupported_language', symbolCount: 0, symbolsJson: '[]' }), content: null, size: 0 },
      { row: row('se-c'), content: 'x'.repeat(10), size: 10 },
    ];
    const stmts = storeExtractionStatements(DB, items, 1234);
    // One statement for the contents, one for the extractions.
    expect(stmts).toHaveLength(2);
    await DB.batch(stmts);
    const got = await stored(['se-a', 'se-b', 'se-c']);
    expect(got.blobs).toEqual([
      { hash: 'se-a', size: 26, size_t: 'integer', content: items[0].content, created_at: 1234, created_t: 'integer' },
      { hash: 'se-c', size: 10, size_t: 'integer', content: 'xxxxxxxxxx', created_at: 1234, created_t: 'integer' },
    ]);
    expect(got.extractions.map((e) => [e.hash, e.had_errors, e.errors_t, e.version_t, e.parse_t, e.reason, e.message, e.symbols_json, e.status])).toEqual([
      ['se-a', 1, 'integer', 'integer', 'integer', 'x', items[0].row.message, items[0].row.symbolsJson, 'ok'],
      ['se-b', 0, 'integer', 'integer', 'integer', 'unsupported_language', null, '[]', 'skipped'],
      ['se-c', 0, 'integer', 'integer', 'integer', null, null, items[2].row.symbolsJson, 'ok'],
    ]);
  });

  it('gives a row longer than one statement\'s budget a statement of its own, in order, and binds a lone surrogate as a string', async () => {
    const big = 'y'.repeat(JSON_PARAM_BUDGET);
    const items = [
      { row: row('se-d'), content: 'd', size: 1 },
      { row: row('se-e'), content: big, size: big.length },
      { row: row('se-f', { message: 'lone \ud800 surrogate' }), content: 'f', size: 1 },
      { row: row('se-g'), content: 'g', size: 1 },
    ];
    const stmts = storeExtractionStatements(DB, items, 99);
    // contents: [d], e alone, [f g]; extractions: [d e f g]
    expect(stmts).toHaveLength(4);
    await DB.batch(stmts);
    const got = await stored(['se-d', 'se-e', 'se-f', 'se-g']);
    expect(got.blobs.map((b) => [b.hash, (b.content as string).length])).toEqual([['se-d', 1], ['se-e', big.length], ['se-f', 1], ['se-g', 1]]);
    expect(got.extractions.map((e) => e.hash)).toEqual(['se-d', 'se-e', 'se-f', 'se-g']);
    // Bound as a string: the lone surrogate reads back as a bound one does.
    const f = await DB.prepare("SELECT message FROM extractions WHERE hash = 'se-f'").first<{ message: string }>();
    const bound = await DB.prepare('SELECT ?1 AS v').bind('lone \ud800 surrogate').first<{ v: string }>();
    expect(f?.message).toBe(bound?.v);
  });

  it('keeps a NUL whole (values are bound as strings: some SQLite builds end JSON-extracted text at a NUL)', async () => {
    const items = [
      { row: row('se-n1', { message: 'a\0b' }), content: 'x\0y', size: 3 },
      { row: row('se-n2'), content: 'n', size: 1 },
    ];
    await DB.batch(storeExtractionStatements(DB, items, 5));
    const got = await DB.prepare("SELECT b.hash, length(CAST(b.content AS BLOB)) AS bytes, length(CAST(e.message AS BLOB)) AS msg FROM blobs b JOIN extractions e ON e.hash = b.hash WHERE b.hash IN ('se-n1', 'se-n2') ORDER BY b.hash").all();
    expect(got.results).toEqual([
      { hash: 'se-n1', bytes: 3, msg: 3 },
      { hash: 'se-n2', bytes: 1, msg: null },
    ]);
  });

  it('keeps every statement within D1\'s 100 parameters: 25 contents or 7 extractions a statement, in order', async () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ row: row(`se-p${String(i).padStart(2, '0')}`), content: `c${i}`, size: `c${i}`.length }));
    const stmts = storeExtractionStatements(DB, items, 7);
    expect(stmts).toHaveLength(2 + 5);
    await DB.batch(stmts);
    const got = await stored(items.map((i) => i.row.hash));
    expect(got.blobs.map((b) => [b.hash, b.content, b.size_t])).toEqual(items.map((i) => [i.row.hash, i.content, 'integer']));
    expect(got.extractions.map((e) => e.hash)).toEqual(items.map((i) => i.row.hash));
  });

  it('updates an extraction stored before (same content, language and version), as the upsert did', async () => {
    await DB.batch(storeExtractionStatements(DB, [{ row: row('se-h', { status: 'failed', reason: 'timeout' }), content: 'h', size: 1 }], 1));
    await DB.batch(storeExtractionStatements(DB, [{ row: row('se-h', { symbolCount: 7 }), content: 'h', size: 1 }], 2));
    const got = await stored(['se-h']);
    expect(got.blobs.map((b) => [b.hash, b.created_at])).toEqual([['se-h', 1]]);
    expect(got.extractions.map((e) => [e.status, e.reason, e.symbol_count, e.created_at])).toEqual([['ok', null, 7, 1]]);
  });
});
