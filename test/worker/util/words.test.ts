import { describe, expect, it } from 'vitest';
import { identifierWords } from '../../../src/util/words';

/** The splitting as first written, with regular expressions: the single pass must give the same text. */
function byRegex(...names: string[]): string {
  const words = new Set<string>();
  for (const name of names) {
    const split = /[A-Z]/.test(name) ? name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2') : name;
    for (const w of split.split(/[^A-Za-z0-9]+/)) if (w) words.add(w.toLowerCase());
  }
  return [...words].join(' ');
}

describe('identifierWords', () => {
  it('splits camel case, acronyms, snake case and qualified names into lower-case words, each once', () => {
    expect(identifierWords('handleRequest')).toBe('handle request');
    expect(identifierWords('HTTPServer')).toBe('http server');
    expect(identifierWords('parseHTTPResponse2XX')).toBe('parse http response2 xx');
    expect(identifierWords('handle_request', 'Server.handle_request')).toBe('handle request server');
    expect(identifierWords('ABcDEf')).toBe('a bc d ef');
    expect(identifierWords('x1ABc')).toBe('x1 a bc');
    expect(identifierWords('__init__', 'Foo.__init__')).toBe('init foo');
    expect(identifierWords('café_Ünïcode', '$scope')).toBe('caf n code scope');
    expect(identifierWords('', '_', '😀Smile😀')).toBe('smile');
  });

  it('gives what the regular expressions gave on random names', () => {
    // A small alphabet makes every boundary case common: case changes, digits, runs, separators, non-ASCII.
    const alphabet = ['a', 'b', 'z', 'A', 'B', 'Z', '0', '9', '_', '.', '$', '-', 'é', 'É', '😀', ' '];
    let seed = 7;
    const rand = (k: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % k;
    };
    for (let t = 0; t < 20_000; t++) {
      const names = Array.from({ length: 1 + rand(2) }, () => Array.from({ length: rand(14) }, () => alphabet[rand(alphabet.length)]).join(''));
      expect(identifierWords(...names), JSON.stringify(names)).toBe(byRegex(...names));
    }
  });
});
