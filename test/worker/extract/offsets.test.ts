import { describe, expect, it } from 'vitest';
import { extractFile } from '../../../src/extract/index';
import type { ExtractedSymbol } from '../../../src/extract/index';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function sliceBytes(source: string, s: ExtractedSymbol): string {
  return decoder.decode(encoder.encode(source).slice(s.start_byte, s.end_byte));
}

describe('UTF-8 byte offsets', () => {
  it('slices each symbol exactly out of a file with multibyte text before it', async () => {
    const source = [
      '// Grüße, 中文, emoji 😀🎉 before any symbol',
      'const ÉCHELLE = "ü";',
      '/** Größe in 📏 */',
      'export function größe(x: number): string {',
      '  return `${x} 😀`;',
      '}',
      'class Café { brühen() { return "☕"; } }',
      '',
    ].join('\n');
    const r = await extractFile('src/cafe.ts', source);
    const byName = new Map(r.symbols.map((s) => [s.qualified_name, s]));
    expect(sliceBytes(source, byName.get('ÉCHELLE') as ExtractedSymbol)).toBe('const ÉCHELLE = "ü";');
    expect(sliceBytes(source, byName.get('größe') as ExtractedSymbol)).toBe(
      'export function größe(x: number): string {\n  return `${x} 😀`;\n}',
    );
    expect(sliceBytes(source, byName.get('Café.brühen') as ExtractedSymbol)).toBe('brühen() { return "☕"; }');
    expect(byName.get('größe')?.docstring).toBe('Größe in 📏');
    // The byte offset differs from the UTF-16 index once multibyte text precedes it.
    const fn = byName.get('größe') as ExtractedSymbol;
    expect(fn.start_byte).toBeGreaterThan(source.indexOf('export function'));
  });

  it('keeps byte offsets right past 64-unit blocks of mixed text', async () => {
    const filler = Array.from({ length: 50 }, (_, i) => `# ${'é'.repeat(i % 7)}${'😀'.repeat(i % 3)} line ${i}`).join('\n');
    const source = `${filler}\ndef target(arg):\n    return "ß"\n`;
    const r = await extractFile('src/m.py', source);
    const target = r.symbols.find((s) => s.name === 'target') as ExtractedSymbol;
    expect(sliceBytes(source, target)).toBe('def target(arg):\n    return "ß"');
    expect(target.start_line).toBe(51);
  });

  it('gives scanner symbols whole-line byte ranges in UTF-8', async () => {
    const source = '# Überblick 😀\n\nText.\n\n## Détails\n\nMehr.\n';
    const r = await extractFile('docs/guide.md', source);
    expect(r.symbols.map((s) => sliceBytes(source, s))).toEqual([
      '# Überblick 😀\n\nText.\n\n## Détails\n\nMehr.',
      '## Détails\n\nMehr.',
    ]);
    const yaml = 'naïve: "ü"\nlist:\n  - ☕\n';
    const y = await extractFile('conf.yaml', yaml);
    expect(y.symbols.map((s) => sliceBytes(yaml, s))).toEqual(['naïve: "ü"', 'list:\n  - ☕']);
  });

  it('handles CRLF line endings', async () => {
    const source = 'def a():\r\n    return 1\r\n\r\ndef b():\r\n    return 2\r\n';
    const r = await extractFile('src/m.py', source);
    expect(r.symbols.map((s) => [s.name, s.start_line, s.end_line])).toEqual([
      ['a', 1, 2],
      ['b', 4, 5],
    ]);
    expect(sliceBytes(source, r.symbols[1])).toBe('def b():\r\n    return 2');
  });
});
