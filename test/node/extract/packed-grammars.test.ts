// The committed grammars (src/extract/grammars/: code module + deflated parse tables) are the
// pinned @vscode/tree-sitter-wasm grammars, byte for byte, and load into web-tree-sitter as the
// very same language: same parse trees as the package's own .wasm files.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKED_DIR, PACKED_GRAMMARS, SOURCE_DIR, splitGrammar, toPlanes } from '../../../scripts/pack-grammars.mjs';
import { fromPlanes, inflateGrammarData, withGrammarData } from '../../../src/extract/packed-grammar';

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
  data: read(path.join(PACKED_DIR, `tree-sitter-${name}.data.deflate`)),
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

  it.each(PACKED_GRAMMARS)('%s: code and inflated data are the package grammar split in two', async (name) => {
    const { code, data } = splitGrammar(read(path.join(SOURCE_DIR, `tree-sitter-${name}.wasm`)));
    const files = packed(name);
    expect(Buffer.compare(Buffer.from(files.code), Buffer.from(code))).toBe(0);
    const planes = await inflateGrammarData({ code: compile(files.code), data: files.data.buffer as ArrayBuffer });
    expect(Buffer.compare(Buffer.from(planes), Buffer.from(toPlanes(data)))).toBe(0);
    const restored = new Uint8Array(planes.length);
    fromPlanes(planes, restored);
    expect(Buffer.compare(Buffer.from(restored), Buffer.from(data))).toBe(0);
  });

  it.each(PACKED_GRAMMARS)('%s: parses the fixtures into the same trees as the package grammar', async (name) => {
    const files = packed(name);
    const grammar = { code: compile(files.code), data: files.data.buffer as ArrayBuffer };
    const planes = await inflateGrammarData(grammar);
    const fromPacked = withGrammarData(grammar, planes, () => Language.loadSync(grammar.code));
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

  it('refuses to load when the grammar module is never instantiated', async () => {
    const files = packed('go');
    const grammar = { code: compile(files.code), data: files.data.buffer as ArrayBuffer };
    const planes = await inflateGrammarData(grammar);
    expect(() => withGrammarData(grammar, planes, () => null)).toThrow(/not instantiated/);
  });

  it('says so when the parse tables do not inflate', async () => {
    const files = packed('go');
    const grammar = { code: compile(files.code), data: new Uint8Array([0xff, 0xff, 0xff, 0xff]).buffer };
    await expect(inflateGrammarData(grammar)).rejects.toThrow(/parse tables did not inflate/);
    const truncated = { code: grammar.code, data: files.data.slice(0, files.data.length >> 1).buffer as ArrayBuffer };
    await expect(inflateGrammarData(truncated)).rejects.toThrow(/parse tables did not inflate/);
  });

  it('restores bytes from planes at odd lengths and odd offsets', () => {
    const data = Uint8Array.from({ length: 11 }, (_, i) => (i * 37 + 5) & 0xff);
    const planes = toPlanes(data);
    for (const offset of [0, 1]) {
      const out = new Uint8Array(data.length + 2);
      fromPlanes(planes, out.subarray(offset, offset + data.length));
      expect([...out.subarray(offset, offset + data.length)]).toEqual([...data]);
      expect(out[offset + data.length]).toBe(0);
    }
  });
});
