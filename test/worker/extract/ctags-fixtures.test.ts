import { describe, expect, it } from 'vitest';
import { extractFile } from '../../../src/extract/index';
import type { SymbolKind } from '../../../src/extract/index';

interface CtagsExpectation {
  source: string;
  oracle: string;
  definitions: { name: string; kind: string; line: number }[];
}

// Excerpts of real code (licence headers kept) next to the definitions universal-ctags
// reported for them, derived once and committed: the extractor must find every one.
const SLOW = 60_000;
const sources = import.meta.glob<string>(['../../fixtures/extract/*/ctags/*', '!**/*.ctags.json'], {
  query: '?raw',
  import: 'default',
  eager: true,
});
const expectations = import.meta.glob<CtagsExpectation>('../../fixtures/extract/*/ctags/*.ctags.json', { import: 'default', eager: true });

/** ctags kinds → the kinds that stand for them here (ctags calls a JS object literal a class). */
const KINDS: Record<string, readonly SymbolKind[]> = {
  function: ['Function', 'Method'],
  generator: ['Function', 'Method'],
  method: ['Method', 'Function'],
  getter: ['Method'],
  setter: ['Method'],
  class: ['Class', 'Method', 'Function', 'Field', 'Variable', 'Constant'],
  field: ['Field', 'Method'],
  property: ['Field', 'Method', 'Function'],
  interface: ['Interface'],
  enum: ['Enum'],
  alias: ['Type'],
};

const cases = Object.entries(expectations).map(([file, expected]) => {
  const dir = file.slice(0, file.lastIndexOf('/'));
  const lang = dir.split('/').at(-2) ?? '';
  return { lang, expected, source: sources[`${dir}/${expected.source}`] };
});

describe('real-code fixtures against universal-ctags', () => {
  it('has ctags expectations for javascript and typescript', () => {
    expect(new Set(cases.map((c) => c.lang))).toEqual(new Set(['javascript', 'typescript']));
    for (const c of cases) expect(c.source, c.expected.source).toBeTypeOf('string');
  });

  for (const { lang, expected, source } of cases) {
    it(`finds every definition ctags reports in ${lang}/${expected.source}, at its line`, async () => {
      const ext = expected.source.slice(expected.source.lastIndexOf('.'));
      const result = await extractFile(`src/${lang}/file${ext}`, source);
      expect(result.failure).toBeNull();
      const missing = expected.definitions.filter(
        (d) => !result.symbols.some((s) => s.name === d.name && s.start_line === d.line && KINDS[d.kind].includes(s.kind)),
      );
      expect(missing).toEqual([]);
    }, SLOW);
  }
});
