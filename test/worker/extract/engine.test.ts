import { describe, expect, it } from 'vitest';
import { compileTagsQuery } from '../../../src/extract/engine';
import { extractFile } from '../../../src/extract/index';
import { TABLE } from '../../../src/extract/languages/table';

const python = TABLE.find((row) => row.id === 'python');
if (!python || python.tier !== 'ast') throw new Error('python row missing');

describe('capture vocabulary', () => {
  it('rejects a query with a capture outside the vocabulary', async () => {
    await expect(compileTagsQuery(python.grammar, '(function_definition name: (identifier) @name) @definition.banana')).rejects.toThrow(
      /unknown capture @definition\.banana/,
    );
    await expect(compileTagsQuery(python.grammar, '(identifier) @reference.type')).rejects.toThrow(/unknown capture/);
  });

  it('accepts the vocabulary and private `_` captures used by predicates', async () => {
    const query = await compileTagsQuery(
      python.grammar,
      '((function_definition name: (identifier) @name) @definition.function @export (#match? @name "^[a-z]"))\n((call function: (identifier) @_f) @reference.call)',
    );
    expect(query.captureNames).toContain('_f');
    query.delete();
  });

  it('compiles the query of every tree-sitter language in the table', async () => {
    for (const row of TABLE) {
      if (row.tier !== 'ast') continue;
      const query = await compileTagsQuery(row.grammar, row.query);
      expect(query.patternCount(), row.id).toBeGreaterThan(0);
      query.delete();
    }
  }, 60_000);
});

describe('symbol keys', () => {
  it('suffixes duplicates ~2, ~3 in source order', async () => {
    const r = await extractFile('src/m.py', 'def f():\n    pass\n\ndef f():\n    pass\n\nclass f:\n    pass\n\ndef f():\n    pass\n');
    expect(r.symbols.map((s) => [s.key, s.start_line])).toEqual([
      ['f#Function', 1],
      ['f#Function~2', 4],
      ['f#Class', 7],
      ['f#Function~3', 10],
    ]);
  });

  it('attributes references to the right duplicate', async () => {
    const r = await extractFile('src/m.go', 'package m\n\nfunc a() { one() }\n\nfunc a() { two() }\n');
    expect(r.references.map((ref) => [ref.name, ref.enclosing])).toEqual([
      ['one', 'a#Function'],
      ['two', 'a#Function~2'],
    ]);
  });
});

describe('outline rules', () => {
  it('drops variables local to a function and attributes their calls to the function', async () => {
    const r = await extractFile('src/m.ts', 'export function outer() {\n  const x = 1;\n  const onDone = () => deep();\n  onDone();\n}\n');
    expect(r.symbols.map((s) => s.key)).toEqual(['outer#Function']);
    expect(r.references.map((ref) => [ref.name, ref.enclosing])).toEqual([
      ['deep', 'outer#Function'],
      ['onDone', 'outer#Function'],
    ]);
  });

  it('keeps a JavaScript function declared in a function, qualified by it', async () => {
    const r = await extractFile('src/m.ts', 'export function outer() {\n  function inner() { deep(); }\n  inner();\n}\n');
    expect(r.symbols.map((s) => [s.key, s.parent])).toEqual([
      ['outer#Function', null],
      ['outer.inner#Function', 'outer'],
    ]);
    expect(r.references.map((ref) => [ref.name, ref.enclosing])).toEqual([
      ['deep', 'outer.inner#Function'],
      ['inner', 'outer#Function'],
    ]);
  });

  it('qualifies nested classes and their methods by containment', async () => {
    const r = await extractFile('src/m.py', 'class Outer:\n    class Inner:\n        def method(self):\n            pass\n');
    expect(r.symbols.map((s) => [s.qualified_name, s.kind, s.parent])).toEqual([
      ['Outer', 'Class', null],
      ['Outer.Inner', 'Class', 'Outer'],
      ['Outer.Inner.method', 'Method', 'Outer.Inner'],
    ]);
  });

  it('keeps only top-level variables and constants', async () => {
    const r = await extractFile('src/m.rs', 'const A: u8 = 1;\nfn f() { const B: u8 = 2; }\n');
    expect(r.symbols.map((s) => s.key)).toEqual(['A#Constant', 'f#Function']);
  });

  it('qualifies Go methods by receiver even when the type lives in another file', async () => {
    const r = await extractFile('pkg/m.go', 'package m\n\nfunc (s *server) Serve() {}\n\nfunc (c Client) Do() {}\n');
    expect(r.symbols.map((s) => [s.key, s.parent, s.is_exported])).toEqual([
      ['server.Serve#Method', 'server', false],
      ['Client.Do#Method', 'Client', true],
    ]);
  });

  it('marks test files by path convention', async () => {
    const go = await extractFile('pkg/m_test.go', 'package m\n\nfunc helper() {}\n');
    expect(go.symbols[0].is_test).toBe(true);
    const ts = await extractFile('src/m.test.ts', 'function helper() {}\n');
    expect(ts.symbols[0].is_test).toBe(true);
    const plain = await extractFile('src/m.ts', 'function helper() {}\n');
    expect(plain.symbols[0].is_test).toBe(false);
  });

  it('does not make it/describe callbacks symbols', async () => {
    const r = await extractFile('src/m.test.ts', "describe('x', () => {\n  it('y', () => { run(); });\n});\n");
    expect(r.symbols).toEqual([]);
    expect(r.references.map((ref) => ref.name)).toEqual(['describe', 'it', 'run']);
  });
});
