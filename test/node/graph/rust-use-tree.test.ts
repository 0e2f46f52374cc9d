import { describe, expect, it } from 'vitest';
import { flattenUseTree } from '../../../src/graph/resolve/rust';

describe('Rust use trees', () => {
  it('flattens nested groups into one path per name', () => {
    expect(flattenUseTree('store::{memory::Memory, Store}')).toEqual(['store::memory::Memory', 'store::Store']);
    expect(flattenUseTree('a::{b::{c, d as e}, self, f::*}')).toEqual(['a::b::c', 'a::b::d as e', 'a::self', 'a::f::*']);
  });

  it('keeps an item without braces as written', () => {
    expect(flattenUseTree('cart::Cart')).toEqual(['cart::Cart']);
    expect(flattenUseTree('Foo as Bar')).toEqual(['Foo as Bar']);
  });
});
