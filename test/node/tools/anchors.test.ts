import { describe, expect, it } from 'vitest';
import { lineHash, normaliseLine, splitLines } from '../../../src/tools/read/anchors';

/** The anchor hash as the module comment defines it: FNV-1a over the UTF-8 bytes of the normalised line, xor-folded. */
function reference(line: string): string {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(normaliseLine(line))) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return (((h >>> 16) ^ h) & 0xffff).toString(16).padStart(4, '0');
}

/** The same, encoding lone surrogates as their 3-byte form (TextEncoder would write U+FFFD). */
function referenceRaw(line: string): string {
  const text = normaliseLine(line);
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (text.charCodeAt(i + 1) - 0xdc00);
      i++;
    }
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  let h = 0x811c9dc5;
  for (const byte of bytes) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return (((h >>> 16) ^ h) & 0xffff).toString(16).padStart(4, '0');
}

describe('line anchors', () => {
  it('hash every UTF-16 unit alone, between letters and around spaces as the normalised text does', () => {
    const wrong: string[] = [];
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      for (const line of [ch, `a${ch}b`, ` ${ch} `, `${ch}${ch}x`]) if (lineHash(line) !== referenceRaw(line)) wrong.push(JSON.stringify(line));
    }
    expect(wrong).toEqual([]);
  });

  it('hash random lines of spaces, letters, astral and lone surrogates as the normalised text does', () => {
    const parts = [' ', '\t', '\u00a0', '\u3000', '\ufeff', '\r', 'a', 'Z', 'é', '€', '\u{1F600}', '\ud800', '\udc00', '\u2028', 'x y', '\u180e', '\u200b'];
    let seed = 7;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    for (let k = 0; k < 5000; k++) {
      let line = '';
      for (let j = rand(12); j > 0; j--) line += parts[rand(parts.length)];
      expect(lineHash(line), JSON.stringify(line)).toBe(referenceRaw(line));
    }
  });

  it('keep known anchors: re-indenting keeps the hash, ASCII lines match the TextEncoder form', () => {
    expect(lineHash('  const x = 1;')).toBe(lineHash('const   x = 1;'.replace('   ', ' ')));
    expect(lineHash('\tfoo(bar)  ')).toBe(lineHash('foo(bar)'));
    for (const line of ['', 'a', 'export function f() {}', '  x\t=\ty  ', 'naïve café ☕']) expect(lineHash(line)).toBe(reference(line));
  });

  it('split lines on LF, dropping a trailing CR and the phantom line after a final newline', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\r\nb\r\n')).toEqual(['a', 'b']);
    expect(splitLines('a\rb\n\r')).toEqual(['a\rb', '']);
    expect(splitLines('\n')).toEqual(['']);
  });
});
