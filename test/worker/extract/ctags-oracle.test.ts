import { describe, expect, it } from 'vitest';
import { extractFile, LANGUAGES } from '../../../src/extract/index';
import type { SymbolKind } from '../../../src/extract/index';

// Real-code excerpts (test/fixtures/extract/<lang>/ctags/) with the definitions universal-ctags
// reported for them, derived once and committed: every one must be a symbol of the same name and
// a fitting kind whose lines hold ctags' line (ctags points at the name: the line of a typedef's
// name closes `typedef struct {…} Name;`, a Java method's follows its annotations).
interface OracleEntry {
  name: string;
  kind: string;
  ctags_kind: string;
  line: number;
}
interface Oracle {
  oracle: string;
  files: Record<string, OracleEntry[]>;
}

const SLOW = 60_000;
// Coverage, not speed, is under test here: a loaded machine must not turn a parse into a timeout.
const PARSE_BUDGET = { timeoutMs: 30_000 };
const sources = import.meta.glob<string>(['../../fixtures/extract/*/ctags/*', '!**/expected.json'], {
  query: '?raw',
  import: 'default',
  eager: true,
});
const oracles = import.meta.glob<Oracle>('../../fixtures/extract/*/ctags/expected.json', { import: 'default', eager: true });

/** The symbol kinds that stand for a ctags kind (a Go method spec is a Method, a typedef of a struct a Struct…). */
const ACCEPTED: Record<string, readonly SymbolKind[]> = {
  function: ['Function', 'Method'],
  method: ['Method', 'Function'],
  class: ['Class', 'Struct'],
  struct: ['Struct', 'Class', 'Type'],
  interface: ['Interface', 'Trait'],
  trait: ['Trait', 'Interface'],
  enum: ['Enum', 'Type'],
  field: ['Field'],
  type: ['Type', 'Struct', 'Enum', 'Interface'],
};

const cases = Object.entries(oracles).map(([file, oracle]) => {
  const dir = file.slice(0, file.lastIndexOf('/'));
  const lang = dir.split('/').at(-2) ?? dir;
  return { lang, dir, oracle };
});

describe('definitions universal-ctags reports on real code', () => {
  it('has ctags fixtures for every tree-sitter language of the table', () => {
    // JavaScript and TypeScript keep theirs in the `.ctags.json` form (ctags-fixtures.test.ts);
    // universal-ctags reads no TSX.
    const withCtags = new Set(Object.keys(sources).map((file) => file.split('/').at(-3)));
    const ast = LANGUAGES.filter((l) => l.tier === 'ast' && l.id !== 'tsx').map((l) => l.id);
    expect(ast.filter((id) => !withCtags.has(id))).toEqual([]);
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const { lang, dir, oracle } of cases) {
    for (const [name, expected] of Object.entries(oracle.files)) {
      it(`finds every ctags definition of ${lang}/${name} on its lines with a fitting kind`, async () => {
        const source = sources[`${dir}/${name}`];
        expect(source, name).toBeTypeOf('string');
        expect(expected.length).toBeGreaterThan(0);
        const result = await extractFile(name, source, PARSE_BUDGET);
        expect(result.failure).toBeNull();
        const missing = expected.filter(
          (e) =>
            !result.symbols.some(
              (s) => s.name === e.name && s.start_line - 1 <= e.line && e.line <= s.end_line && (ACCEPTED[e.kind] ?? []).includes(s.kind),
            ),
        );
        expect(missing).toEqual([]);
      }, SLOW);
    }
  }

  it('gives a field its owning type as parent and a Type.field qualified name', async () => {
    const go = cases.find((c) => c.lang === 'go');
    const source = go ? sources[`${go.dir}/list.go`] : undefined;
    expect(source).toBeTypeOf('string');
    const result = await extractFile('list.go', source ?? '', PARSE_BUDGET);
    const next = result.symbols.find((s) => s.kind === 'Field' && s.name === 'next');
    expect(next).toMatchObject({ parent: 'Element', qualified_name: 'Element.next' });
  }, SLOW);
});
