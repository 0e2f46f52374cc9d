import { describe, expect, it } from 'vitest';
import { compileFullMatch, RegexProblem } from '../../../src/query/regex';

function refused(pattern: string): RegexProblem {
  try {
    compileFullMatch(pattern);
  } catch (err) {
    if (err instanceof RegexProblem) return err;
    throw err;
  }
  throw new Error(`accepted ${pattern}`);
}

describe('full-match regular expressions', () => {
  it('match the whole value, as Cypher =~ does', () => {
    const r = compileFullMatch('get.*');
    expect(r.test('getUser')).toBe(true);
    expect(r.test('forgetUser')).toBe(false);
    expect(compileFullMatch('User').test('getUser')).toBe(false);
    expect(compileFullMatch('a|ab').test('ab')).toBe(true);
    expect(compileFullMatch('(a|b)c').test('bc')).toBe(true);
    expect(compileFullMatch('x$|^y').test('y')).toBe(true);
  });

  it('honour a leading (?i) and refuse other inline flags', () => {
    const r = compileFullMatch('(?i)GET.*');
    expect(r.ignoreCase).toBe(true);
    expect(r.test('getUser')).toBe(true);
    expect(refused('(?m)a').message).toContain('(?m)');
  });

  it('never let . cross a line terminator, unless the pattern consumes one explicitly', () => {
    expect(compileFullMatch('.*').test('one\ntwo')).toBe(false);
    expect(compileFullMatch('one\\ntwo').test('one\ntwo')).toBe(true);
    expect(compileFullMatch('[\\s\\S]*two').test('one\ntwo')).toBe(true);
  });

  it('run .* chains in linear time on long values', () => {
    const r = compileFullMatch('.*a.*b.*c.*d');
    const value = 'ab'.repeat(5000);
    const started = Date.now();
    expect(r.test(value)).toBe(false);
    expect(Date.now() - started).toBeLessThan(500);
    expect(r.test('xaybzcwd')).toBe(true);
  });

  it('keep backreferences working', () => {
    expect(compileFullMatch('(a)x\\1').test('axa')).toBe(true);
    expect(compileFullMatch('(a)x\\1|b').test('b')).toBe(true);
  });

  it('refuse patterns that backtrack catastrophically, with a safer form', () => {
    expect(refused('(a+)+b').rule).toBe('nested_quantifier');
    expect(refused('(a|aa)+').rule).toBe('overlapping_alternation');
    expect(refused('\\w+\\s*\\w+').rule).toBe('stacked_quantifiers');
    expect(refused('(a+)+b').suggestion.length).toBeGreaterThan(10);
  });

  it('refuse invalid syntax', () => {
    expect(refused('(').message).toMatch(/not a valid regular expression/);
    expect(refused('[a-').message).toMatch(/not a valid regular expression/);
  });

  it('name the literals every match contains, for the SQL prefilter', () => {
    expect(compileFullMatch('get.*User').required).toEqual({ op: 'and', items: [{ op: 'lit', s: 'get' }, { op: 'lit', s: 'User' }] });
    expect(compileFullMatch('.*').required).toBeNull();
  });
});
