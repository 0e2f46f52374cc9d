import { describe, expect, it } from 'vitest';
import { extractFile, LANGUAGES } from '../../../src/extract/index';

interface Expected {
  path: string;
  language: string;
  corpus: string;
  had_errors: boolean;
  symbols: Record<string, unknown>[];
  references: Record<string, unknown>[];
}

// One realistic file per language next to a hand-checked expected.json.
// The first file of a language loads its grammar and compiles its query: allow time.
const SLOW = 60_000;
const sources = import.meta.glob<string>(['../../fixtures/extract/*/*', '!**/expected.json'], {
  query: '?raw',
  import: 'default',
  eager: true,
});
const expectations = import.meta.glob<Expected>('../../fixtures/extract/*/expected.json', { import: 'default', eager: true });

const SYMBOL_FIELDS = ['key', 'kind', 'qualified_name', 'parent', 'start_line', 'end_line', 'is_exported', 'is_test', 'signature', 'docstring'];
const REFERENCE_FIELDS = ['kind', 'name', 'target', 'imported_names', 'enclosing', 'line'];

function pick(item: object, fields: readonly string[]): Record<string, unknown> {
  const record = item as Record<string, unknown>;
  return Object.fromEntries(fields.map((f) => [f, record[f]]));
}

const cases = Object.entries(expectations).map(([file, expected]) => {
  const dir = file.slice(0, file.lastIndexOf('/'));
  const name = expected.path.slice(expected.path.lastIndexOf('/') + 1);
  return { lang: dir.slice(dir.lastIndexOf('/') + 1), expected, source: sources[`${dir}/${name}`] };
});

describe('language fixtures', () => {
  it('has one fixture per language of the table, in a directory named by its id', () => {
    expect(cases.map((c) => c.lang).sort()).toEqual(LANGUAGES.map((l) => l.id).sort());
    for (const c of cases) {
      expect(c.source, c.lang).toBeTypeOf('string');
      expect(c.expected.language, c.lang).toBe(c.lang);
    }
  });

  for (const { lang, expected, source } of cases) {
    it(`extracts the ${lang} fixture exactly`, async () => {
      const result = await extractFile(expected.path, source);
      expect(result.failure).toBeNull();
      expect(result.language).toBe(expected.language);
      expect(result.corpus).toBe(expected.corpus);
      expect(result.had_errors).toBe(expected.had_errors);
      expect(result.symbols.map((s) => pick(s, SYMBOL_FIELDS))).toEqual(expected.symbols);
      expect(result.references.map((r) => pick(r, REFERENCE_FIELDS))).toEqual(expected.references);
    }, SLOW);
  }

  for (const { lang, expected, source } of cases) {
    it(`gives ${lang} symbols byte ranges that start on their first line and keys unique in the file`, async () => {
      const result = await extractFile(expected.path, source);
      const bytes = new TextEncoder().encode(source);
      const lineStarts = [0];
      bytes.forEach((b, i) => {
        if (b === 0x0a) lineStarts.push(i + 1);
      });
      for (const s of result.symbols) {
        expect(s.start_byte).toBeGreaterThanOrEqual(lineStarts[s.start_line - 1]);
        expect(s.start_byte).toBeLessThan(lineStarts[s.start_line] ?? bytes.length + 1);
        expect(s.end_byte).toBeGreaterThan(s.start_byte);
        expect(s.end_byte).toBeLessThanOrEqual(lineStarts[s.end_line] ?? bytes.length);
        expect(s.signature.length).toBeLessThanOrEqual(300);
        expect(s.signature).not.toMatch(/\n/);
        expect(s.extraction_confidence).toBeGreaterThan(0.9);
      }
      expect(new Set(result.symbols.map((s) => s.key)).size).toBe(result.symbols.length);
    }, SLOW);
  }
});
