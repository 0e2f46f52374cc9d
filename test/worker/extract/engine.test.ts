import { describe, expect, it } from 'vitest';
import { collect } from '../../../src/extract/collect';
import { compileTagsQuery } from '../../../src/extract/engine';
import { Deadline, parse } from '../../../src/extract/parser';
import { extractFile } from '../../../src/extract/index';
import { TABLE, type GrammarRow } from '../../../src/extract/languages/table';

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

describe('@documented', () => {
  const typescript = TABLE.find((row) => row.id === 'typescript');
  const java = TABLE.find((row) => row.id === 'java');
  if (typescript?.tier !== 'ast' || java?.tier !== 'ast') throw new Error('rows missing');

  /** Docs of every definition, read with `query` (start offsets of the doc comments by definition name). */
  async function docsWith(row: GrammarRow, source: string, text: string, comments: string[]) {
    const query = await compileTagsQuery(row.grammar, source);
    const tree = parse(row.grammar, text, new Deadline(10_000));
    if (!tree) throw new Error('parse cancelled');
    try {
      const { definitions } = collect(query.matches(tree.rootNode), text, new Map(), new Set(comments));
      return Object.fromEntries(definitions.map((d) => [d.name, d.docs.map((doc) => doc.text).sort()]));
    } finally {
      tree.delete();
      query.delete();
    }
  }

  it('reads the run of comments right before its node, as a `(comment)* @doc .` pattern captures it', async () => {
    const text = [
      '// license', 'import x from "y";', '// a', '/* a2 */', 'const z = 1;', '// b', '', '// c', 'export function f() {}',
      'class K {', '  // m', '  ;', '  m() {}', '  n() {}', '}', 'function g() {} // trailing', 'function h() {}',
    ].join('\n');
    const old = '((comment)* @doc . [(function_declaration name: (identifier) @name) @definition.function (class_declaration name: (type_identifier) @name) @definition.class (method_definition name: (property_identifier) @name) @definition.method (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.constant])\n((comment)* @doc . (export_statement declaration: (function_declaration name: (identifier) @name) @definition.function) @export)';
    const now = '([(function_declaration name: (identifier) @name) @definition.function (class_declaration name: (type_identifier) @name) @definition.class (method_definition name: (property_identifier) @name) @definition.method (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.constant] @documented)\n((export_statement declaration: (function_declaration name: (identifier) @name) @definition.function) @export @documented)';
    const expected = await docsWith(typescript, old, text, ['comment']);
    expect(await docsWith(typescript, now, text, ['comment'])).toEqual(expected);
    expect(expected).toMatchObject({ z: ['/* a2 */', '// a'], f: ['// b', '// c'], m: ['// m'], n: [], h: [] });
  });

  it('reads only adjacent comments before the last one, as the repetition does (C: a comment on an `#if 0` line)', async () => {
    const c = TABLE.find((row) => row.id === 'c');
    if (c?.tier !== 'ast') throw new Error('c row missing');
    const text = '#if 0 /* off */\n/* a */\n/* b */\nint f(void) {}\n#endif\n/* c */\nint g(void) {}\n';
    const old = '((comment)* @doc . (function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function)';
    const now = '((function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function @documented)';
    const expected = await docsWith(c, old, text, ['comment']);
    expect(await docsWith(c, now, text, ['comment'])).toEqual(expected);
    expect(expected).toEqual({ f: ['/* a */', '/* b */'], g: ['/* c */'] });
  });

  it('takes the comment types of the row (Java: block and line comments)', async () => {
    const text = 'class A {\n  /** doc */\n  // more\n  void m() {}\n  int x; // after\n  void n() {}\n}\n';
    const old = '(([(block_comment) (line_comment)]* @doc . (method_declaration name: (identifier) @name) @definition.method))';
    const now = '((method_declaration name: (identifier) @name) @definition.method @documented)';
    const expected = await docsWith(java, old, text, ['block_comment', 'line_comment']);
    expect(await docsWith(java, now, text, ['block_comment', 'line_comment'])).toEqual(expected);
    expect(expected).toEqual({ m: ['/** doc */', '// more'], n: ['// after'] });
  });
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
