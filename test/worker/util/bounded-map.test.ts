import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../../src/util/bounded-map';

describe('BoundedMap', () => {
  it('drops the oldest set entry past its bound', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2).set('c', 3);
    expect([...m.keys()]).toEqual(['b', 'c']);
  });

  it('makes a key set again the newest, so it outlives older ones', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
    expect([...m.entries()]).toEqual([
      ['a', 10],
      ['c', 3],
    ]);
  });
});
