// Reference names and their last identifier: the shortcuts for plain identifiers and
// whitespace-free callees give exactly what the general rewriting gives.
import { describe, expect, it } from 'vitest';
import { lastIdentifier, MAX_REFERENCE_NAME, referenceName } from '../../../src/extract/text';

/** The general rules, spelled out without any shortcut. */
function generalLastIdentifier(expr: string): string | null {
  let text = expr;
  for (let i = 0; i < 8; i++) {
    const peeled = text.replace(/<[^<>]*>|\[[^[\]]*\]|\([^()]*\)/g, '');
    if (peeled === text) break;
    text = peeled;
  }
  const all = text.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu);
  return all ? all[all.length - 1] : null;
}

function generalReferenceName(text: string): string {
  const compact = text
    .replace(/\s+/g, ' ')
    .replace(/ ?(\?\.|->|::|[.()[\]<>]) ?/g, '$1')
    .trim();
  if (compact.length <= MAX_REFERENCE_NAME) return compact;
  return generalLastIdentifier(compact) ?? compact.slice(-MAX_REFERENCE_NAME);
}

const SAMPLES = [
  'foo',
  '_private',
  '$',
  '$el',
  'a1',
  '1abc',
  'obj.bar',
  'pkg.Base<T>',
  'Map<string, Array<number>>',
  'a?.b',
  'ptr->field',
  'std::vector<int>::push_back',
  'items[0].run',
  'make()(1)',
  'züge',
  'naïve.größe',
  '名前',
  'x\u00a0.y',
  'a\n  .b\n  .c',
  '  spaced  ',
  '',
  '()',
  '<>',
  `${'chain.'.repeat(30)}end`,
  `${'call(arg).'.repeat(20)}last`,
  `$(selector)\n  .map(function (x) {\n    return x + 1;\n  })\n  .filter(Boolean)`,
  'a'.repeat(130),
  `${'a '.repeat(70)}b`,
];

describe('reference names', () => {
  it.each(SAMPLES)('names %j as the general rules do', (text) => {
    expect(referenceName(text)).toBe(generalReferenceName(text));
  });

  it.each(SAMPLES)('finds the last identifier of %j as the general rules do', (text) => {
    expect(lastIdentifier(text)).toBe(generalLastIdentifier(text));
  });

  it('keeps a plain identifier as it is', () => {
    expect(lastIdentifier('handleRequest')).toBe('handleRequest');
    expect(referenceName('handleRequest')).toBe('handleRequest');
  });
});
