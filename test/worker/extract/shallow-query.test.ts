import { Query } from 'web-tree-sitter';
import { describe, expect, it } from 'vitest';
import { compileTagsQuery } from '../../../src/extract/engine';
import { compileQuery, Deadline, ensureLanguage, loadLanguage, parse, runQuery } from '../../../src/extract/parser';
import type { QueryMatch } from '../../../src/extract/parser';
import { shallowQuery } from '../../../src/extract/shallow-query';
import { TABLE, type GrammarRow } from '../../../src/extract/languages/table';

function row(id: string): GrammarRow {
  const found = TABLE.find((r) => r.id === id);
  if (found?.tier !== 'ast') throw new Error(`${id} row missing`);
  return found;
}

/** Pattern index and named captures (private ones left out) of each match, in order. */
function shape(matches: readonly QueryMatch[]): string[] {
  return matches.map((m) => `${m.patternIndex}: ${m.captures.filter((c) => !c.name.startsWith('_')).map((c) => `${c.name}=${c.node.type}@${c.node.startIndex}`).join(' ')}`);
}

describe('shallowQuery', () => {
  it('makes the typed nodes with children below a root wildcards that capture their type', () => {
    expect(shallowQuery('(a f: (b (c (d)) g: (e "k") (x)) (y (z)))')).toBe('(a f: (_ (_ (d)) @_is.c g: (_ "k") @_is.e (x)) @_is.b (y (z)))');
    // an alternation holding a wildcard captures the node of each member; a quantified node stays typed
    expect(shallowQuery('(a f: [(b) (c (d)) (_) "e"] g: (h (i (j))?))')).toBe('(a f: [(b) @_is.b (_ (d)) @_is.c (_) @_is._ "e" @_is._] g: (_ (i (j))?) @_is.h)');
    // roots (also in a top-level alternation or group), predicates, strings and comments stay
    const source = '; (x f: (y (z)))\n[(a f: (b (c))) (c (d (e)))]\n((f) . (g f: (h (i))) (#match? @q "(j (k))"))';
    expect(shallowQuery(source)).toBe('; (x f: (y (z)))\n[(a f: (_ (c)) @_is.b) (c (d (e)))]\n((f) . (g f: (_ (i)) @_is.h) (#match? @q "(j (k))"))');
    // negated fields and anchors are no children; supertypes stay
    expect(shallowQuery('(a f: (b !name) f: (c . (d) .) f: (expression/identifier (e)))')).toBe('(a f: (b !name) f: (_ . (d) .) @_is.c f: (expression/identifier (e)))');
  });

  it('is its own fixed point', () => {
    for (const r of TABLE) {
      if (r.tier !== 'ast') continue;
      const once = shallowQuery(r.query);
      expect(shallowQuery(once), r.id).toBe(once);
    }
  });
});

describe('compiled queries', () => {
  it('match as the query as written does, in the same order', async () => {
    const samples: Record<string, string> = {
      c: 'typedef struct A { int x, *y; void (*cb)(int); } B;\nstatic int (*g(void))(int) { return 0; }\nint *h(void);\ntypedef void (*fn_t)(int);\nint a[3] = {0};\n',
      cpp: 'namespace n { class K : public B<int> { int *f(); ~K(); operator bool() const; }; }\nint K::f() { return new X(); }\ntemplate <typename T> T &g(T x) { return std::h<T>(x); }\nconst int A::kUnused = 1;\n',
      typescript: 'export class C { constructor(private readonly x: number) {} m() {} }\nconst o = { a: 1, "b": () => 2, c() {} };\nmodule.exports.f = function () {};\nimport { a as b } from "m";\n(function () { var q = 1; })();\n',
      ruby: 'module M\n  class C < Base\n    attr_reader :size\n    def self.k; end\n    def m; foo.bar(1); end\n  end\nend\n',
    };
    let dropped = 0;
    for (const [id, text] of Object.entries(samples)) {
      const r = row(id);
      await ensureLanguage(r.grammar);
      const asWritten = new Query(loadLanguage(r.grammar), r.query);
      const rewritten = compileQuery(r.grammar, r.query, true);
      const tree = parse(r.grammar, text, new Deadline(10_000));
      if (!tree) throw new Error('parse cancelled');
      try {
        const expected = shape(runQuery(asWritten, tree.rootNode, new Deadline(10_000)).matches);
        // The wildcards alone match more: the type checks are what brings it back.
        if (rewritten.matches(tree.rootNode).length > expected.length) dropped++;
        expect(shape(runQuery(rewritten, tree.rootNode, new Deadline(10_000)).matches), id).toEqual(expected);
        expect(expected.length, id).toBeGreaterThan(5);
      } finally {
        tree.delete();
        asWritten.delete();
        rewritten.delete();
      }
    }
    expect(dropped).toBeGreaterThan(1);
  }, 60_000);

  it('compile as written too: tree-sitter still checks every pattern of every language', async () => {
    for (const r of TABLE) {
      if (r.tier !== 'ast') continue;
      await ensureLanguage(r.grammar);
      new Query(loadLanguage(r.grammar), r.query).delete();
    }
  }, 60_000);

  it('reject a node type the grammar does not have below a root', async () => {
    const python = row('python');
    await expect(compileTagsQuery(python.grammar, '(function_definition body: (blok (expression_statement)))', true)).rejects.toThrow(/unknown node type blok/);
  });
});
