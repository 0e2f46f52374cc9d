import { describe, expect, it } from 'vitest';
import { extractFile } from '../../../src/extract/index';

describe('extraction failures never throw', () => {
  it('returns unsupported_language for an unknown extension', async () => {
    const r = await extractFile('assets/logo.svg', '<svg/>');
    expect(r.failure?.reason).toBe('unsupported_language');
    expect(r.language).toBe('');
    expect(r.symbols).toEqual([]);
  });

  it('returns binary for content with a NUL byte', async () => {
    const r = await extractFile('src/a.ts', 'const a = 1;\0\0\0');
    expect(r.failure?.reason).toBe('binary');
    expect(r.language).toBe('typescript');
  });

  it('returns encoding for a lone surrogate', async () => {
    const r = await extractFile('src/a.py', 'x = "\uD800"\n');
    expect(r.failure?.reason).toBe('encoding');
  });

  it('extracts text that contains the character U+FFFD (a string literal, a comment)', async () => {
    const r = await extractFile('src/a.ts', 'export const REPLACEMENT = "\uFFFD";\n// \uFFFD marks bad input\nexport function clean(s: string) { return s; }\n');
    expect(r.failure).toBeNull();
    expect(r.symbols.map((s) => s.name)).toEqual(['REPLACEMENT', 'clean']);
    const doc = await extractFile('README.md', '# Title \uFFFD\n');
    expect(doc.failure).toBeNull();
    expect(doc.symbols.map((s) => s.name)).toEqual(['Title \uFFFD']);
  });

  it('keeps well-formed astral characters (surrogate pairs)', async () => {
    const r = await extractFile('src/a.py', 'def smile():\n    return "😀"\n');
    expect(r.failure).toBeNull();
    expect(r.symbols.map((s) => s.name)).toEqual(['smile']);
  });

  it('returns file_too_large above maxBytes, counted in UTF-8 bytes', async () => {
    expect((await extractFile('src/a.go', 'package a\n'.repeat(20), { maxBytes: 100 })).failure?.reason).toBe('file_too_large');
    // 40 UTF-16 units but 120 UTF-8 bytes.
    const wide = `// ${'中'.repeat(40)}\n`;
    expect((await extractFile('src/a.go', wide, { maxBytes: 100 })).failure?.reason).toBe('file_too_large');
    expect((await extractFile('src/a.go', wide, { maxBytes: 200 })).failure).toBeNull();
  });

  it('defaults maxBytes to 1 MiB', async () => {
    const big = `${'#'.repeat(1024 * 1024)}\n`;
    expect((await extractFile('notes.md', big)).failure?.reason).toBe('file_too_large');
  });

  it('returns timeout when the parse exceeds timeoutMs', async () => {
    const body = 'export function f(a: number): number { return g(a) + 1; }\n'.repeat(8000);
    const r = await extractFile('src/big.ts', body, { timeoutMs: 1 });
    expect(r.failure?.reason).toBe('timeout');
    expect(r.symbols).toEqual([]);
    // The parser recovers: the next file parses normally.
    const next = await extractFile('src/small.ts', 'export const x = 1;\n');
    expect(next.failure).toBeNull();
    expect(next.symbols.map((s) => s.key)).toEqual(['x#Constant']);
  });

  it('returns parse_error for a mostly unparsable file but keeps what it found, at low confidence', async () => {
    const garbage = ')))) ]]] }}} ==> <== '.repeat(200);
    const r = await extractFile('src/bad.py', `def ok():\n    return 1\n\n${garbage}\n`);
    expect(r.failure?.reason).toBe('parse_error');
    expect(r.had_errors).toBe(true);
    expect(r.symbols.map((s) => s.name)).toEqual(['ok']);
    expect(r.symbols[0].extraction_confidence).toBeLessThan(0.5);
  });

  it('lowers confidence when the tree has errors, most for the symbol holding one', async () => {
    const src = 'def good():\n    return 1\n\ndef bad(:\n    return (\n\ndef later():\n    pass\n';
    const r = await extractFile('src/m.py', src);
    expect(r.failure).toBeNull();
    expect(r.had_errors).toBe(true);
    expect(r.symbols.length).toBeGreaterThan(0);
    for (const s of r.symbols) expect(s.extraction_confidence).toBeLessThan(1);
    const good = r.symbols.find((s) => s.name === 'good');
    expect(good?.extraction_confidence).toBe(0.8);
  });

  it('gives a clean file confidence 1 and no errors', async () => {
    const r = await extractFile('src/m.py', 'def good():\n    return 1\n');
    expect(r.had_errors).toBe(false);
    expect(r.symbols[0].extraction_confidence).toBe(1);
    expect(r.parse_ms).toBeGreaterThanOrEqual(0);
  });

  it('handles an empty file', async () => {
    for (const path of ['a.ts', 'a.py', 'a.md', 'a.json', 'a.yaml', 'a.toml']) {
      const r = await extractFile(path, '');
      expect(r.failure, path).toBeNull();
      expect(r.symbols, path).toEqual([]);
    }
  });
});
