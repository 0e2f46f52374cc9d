import { describe, expect, it } from 'vitest';
import { extractionRow, fittedPrefix, REFS_JSON_BYTES, ROW_JSON_BYTES } from '../../../src/upload/extract-rows';
import { byteLength, push, rows, tool } from './support';

// One extraction row holds a file's definitions and references as JSON, and D1 refuses a row past 2 MB. A file past
// the row's budget keeps the longest prefix of each list that fits and is recorded as indexed in part (failed,
// too_many_symbols, with what was kept), never cut silently; a file of thousands of definitions that fits keeps them all.
const OPTS = { maxBytes: 1024 * 1024, timeoutMs: 20_000 };

/** A TypeScript file of `n` documented constants: about 40 bytes of source and 150 of stored JSON each. */
function constants(n: number): string {
  return Array.from({ length: n }, (_, i) => `/** c${i} */\nexport const c${i} = ${i};\n`).join('');
}

describe('the row budget of an extraction', () => {
  it('keeps every definition of a file of thousands that fits', async () => {
    const row = await extractionRow('src/many.ts', 'h-many', constants(6_000), OPTS);
    expect(row).toMatchObject({ status: 'ok', reason: null, symbolCount: 6_000 });
    expect(byteLength(row.symbolsJson) + byteLength(row.refsJson)).toBeLessThanOrEqual(ROW_JSON_BYTES);
  });

  it('cuts a file past the budget to the longest prefix that fits and says what it kept', async () => {
    const text = constants(24_000);
    expect(byteLength(text)).toBeLessThan(OPTS.maxBytes);
    const row = await extractionRow('src/huge.ts', 'h-huge', text, OPTS);
    expect(row.status).toBe('failed');
    expect(row.reason).toBe('too_many_symbols');
    expect(row.symbolCount).toBeGreaterThan(5_000);
    expect(row.symbolCount).toBeLessThan(24_000);
    const kept = JSON.parse(row.symbolsJson) as unknown[];
    expect(kept).toHaveLength(row.symbolCount);
    expect(byteLength(row.symbolsJson) + byteLength(row.refsJson)).toBeLessThanOrEqual(ROW_JSON_BYTES);
    expect(row.message).toMatch(new RegExp(`^kept ${row.symbolCount} of 24000 definitions .*starting after line \\d+ may be missing$`));
  });

  it('fits a prefix by UTF-8 bytes, not characters', () => {
    const items = Array.from({ length: 100 }, (_, i) => `é${i}`.repeat(10));
    const encode = (xs: string[]) => JSON.stringify(xs);
    const { kept, json } = fittedPrefix(items, encode, 1_000);
    expect(byteLength(json)).toBeLessThanOrEqual(1_000);
    expect(byteLength(encode(items.slice(0, kept.length + 1)))).toBeGreaterThan(1_000);
    expect(fittedPrefix(items, encode, 1_000_000).kept).toHaveLength(100);
    expect(fittedPrefix(items, encode, 1).kept).toHaveLength(0);
    expect(REFS_JSON_BYTES).toBeLessThan(ROW_JSON_BYTES);
  });

  it('commits a cut file with its content and the symbols kept, and names it where a look-up misses', async () => {
    const files = { 'src/huge.ts': constants(24_000), 'src/small.ts': 'export const small = 1;\n' };
    const pushed = await push('row-budget', files);
    expect(pushed.sent?.status).toBe(200);
    expect(pushed.sent?.body.failures).toEqual([{ path: 'src/huge.ts', reason: 'too_many_symbols', message: expect.stringMatching(/^kept \d+ of 24000 definitions/) }]);
    expect(pushed.commit?.status).toBe(200);
    const [file] = await rows<{ status: string; reason: string; symbol_count: number; content: number }>(
      "SELECT f.status, f.reason, f.symbol_count, b.content IS NOT NULL AS content FROM files f JOIN projects p ON p.id = f.project_id LEFT JOIN blobs b ON b.hash = f.hash WHERE p.name = 'row-budget' AND f.path = 'src/huge.ts'",
    );
    expect(file).toMatchObject({ status: 'failed', reason: 'too_many_symbols', content: 1 });
    expect(file.symbol_count).toBeGreaterThan(5_000);
    // A definition past the cut: the miss names the file cut, whose stored content mentions it.
    const miss = await tool('search', { project: 'row-budget', query: 'c23999' });
    expect(miss.body.result.hits ?? miss.body.result.results ?? []).toEqual([]);
    expect(miss.body._meta.empty_reason).toBe('low_confidence_extractor');
    expect(miss.body._meta.diagnosis).toContain('src/huge.ts (failed: too_many_symbols)');
    expect(miss.body._meta.next_steps[0]).toMatchObject({ tool: 'grep', args: { pattern: 'c23999', path: 'src/huge.ts' } });
  });
});
