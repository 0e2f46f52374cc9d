// The committed grammars (src/extract/grammars/: code module + zstd-compressed parse tables) are
// the pinned @vscode/tree-sitter-wasm grammars, byte for byte, and load into web-tree-sitter
// as the very same language: same parse trees as the package's own .wasm files.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decompress } from 'fzstd';
import { Language, Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKED_DIR, PACKED_GRAMMARS, SOURCE_DIR, splitGrammar } from '../../../scripts/pack-grammars.mjs';
import { withGrammarData } from '../../../src/extract/packed-grammar';

const FIXTURES = path.resolve(__dirname, '../../fixtures/extract');
/** Grammar → fixture folders whose sample files it parses (as src/extract/languages/table.ts maps them). */
const SAMPLES: Record<string, string[]> = {
  bash: ['bash'], 'c-sharp': ['csharp'], cpp: ['c', 'cpp'], go: ['go'], java: ['java'], javascript: ['javascript'],
  php: ['php'], python: ['python'], ruby: ['ruby'], rust: ['rust'], tsx: ['tsx'], typescript: ['typescript'],
};

// Node compiles from bytes (workerd does not); the Workers typings in scope declare Module abstract.
const compile = (bytes: Uint8Array) => new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(bytes);
const read = (file: string) => new Uint8Array(readFileSync(file));
const packed = (name: string) => ({
  code: read(path.join(PACKED_DIR, `tree-sitter-${name}.code.wasm`)),
  data: read(path.join(PACKED_DIR, `tree-sitter-${name}.data.zst`)),
});

function samples(name: string): string[] {
  return SAMPLES[name]!.flatMap((dir) =>
    readdirSync(path.join(FIXTURES, dir), { withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.endsWith('.json'))
      .map((e) => readFileSync(path.join(FIXTURES, dir, e.name), 'utf8')),
  );
}

describe('packed grammars', () => {
  beforeAll(async () => {
    await Parser.init();
  });

  it('cover every grammar the language table imports', () => {
    const index = readFileSync(path.join(PACKED_DIR, 'index.ts'), 'utf8');
    const imported = [...index.matchAll(/'\.\/tree-sitter-([\w-]+)\.code\.wasm'/g)].map((m) => m[1]).sort();
    expect(imported).toEqual([...PACKED_GRAMMARS].sort());
    expect(Object.keys(SAMPLES).sort()).toEqual([...PACKED_GRAMMARS].sort());
  });

  it.each(PACKED_GRAMMARS)('%s: code and decompressed data are the package grammar split in two', (name) => {
    const { code, data } = splitGrammar(read(path.join(SOURCE_DIR, `tree-sitter-${name}.wasm`)));
    const files = packed(name);
    expect(Buffer.compare(Buffer.from(files.code), Buffer.from(code))).toBe(0);
    expect(Buffer.compare(Buffer.from(decompress(files.data)), Buffer.from(data))).toBe(0);
  });

  it.each(PACKED_GRAMMARS)('%s: parses the fixtures into the same trees as the package grammar', (name) => {
    const files = packed(name);
    const grammar = { code: compile(files.code), data: files.data.buffer as ArrayBuffer };
    const fromPacked = withGrammarData(grammar, () => Language.loadSync(grammar.code));
    const fromPackage = Language.loadSync(compile(read(path.join(SOURCE_DIR, `tree-sitter-${name}.wasm`))));
    const parser = new Parser();
    const texts = samples(name);
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) {
      parser.setLanguage(fromPackage);
      const expected = parser.parse(text)!;
      parser.setLanguage(fromPacked);
      const actual = parser.parse(text)!;
      expect(actual.rootNode.toString()).toBe(expected.rootNode.toString());
      expect(actual.rootNode.hasError).toBe(expected.rootNode.hasError);
      expected.delete();
      actual.delete();
    }
    parser.delete();
  });

  it('refuses to load when the grammar module is never instantiated', () => {
    const files = packed('go');
    const grammar = { code: compile(files.code), data: files.data.buffer as ArrayBuffer };
    expect(() => withGrammarData(grammar, () => null)).toThrow(/not instantiated/);
  });
});
