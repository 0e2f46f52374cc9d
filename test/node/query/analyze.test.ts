import { describe, expect, it } from 'vitest';
import { analyze, type Analyzed } from '../../../src/query/analyze';
import { QueryError } from '../../../src/query/errors';
import { parseQuery } from '../../../src/query/parser';

function ok(text: string): Analyzed {
  return analyze(text, parseQuery(text));
}

function rejects(text: string, message: RegExp, at?: string): QueryError {
  try {
    ok(text);
  } catch (err) {
    if (!(err instanceof QueryError)) throw err;
    expect(err.message).toMatch(message);
    expect(err.stage).toBe('semantic');
    expect(err.suggestion.length).toBeGreaterThan(5);
    if (at !== undefined) expect(text.slice(err.span[0], err.span[0] + at.length)).toBe(at);
    return err;
  }
  throw new Error(`analysed without error: ${text}`);
}

describe('bindings', () => {
  it('gives pattern nodes and the relationship fixed aliases, one alias for a node named twice', () => {
    expect(ok('MATCH (a)-[r]->(b) RETURN a').aliases).toEqual({ left: 'n0', rel: 'r0', right: 'n1' });
    expect(ok('MATCH (a)-[r]->(a) RETURN a').aliases).toEqual({ left: 'n0', rel: 'r0', right: 'n0' });
    expect(ok('MATCH ()-->() RETURN count(*)').aliases).toEqual({ left: 'n0', rel: 'r0', right: 'n1' });
    expect(ok('MATCH (a)-[r*1..2]->(b) RETURN r').bindings.get('r')?.kind).toBe('path');
  });

  it('rejects a name used for a node and a relationship, and unknown variables with a did-you-mean', () => {
    rejects('MATCH (a)-[a]->(b) RETURN a', /names both a node and a relationship/, 'a');
    const err = rejects('MATCH (caller)-->(callee) RETURN calee.name', /calee is not defined.*did you mean callee/, 'calee');
    expect(err.data).toMatchObject({ variable: 'calee', did_you_mean: 'callee' });
  });
});

describe('columns', () => {
  it('names columns by alias, else by the canonical expression', () => {
    expect(ok('MATCH (a) RETURN a.name AS n, count( * ), toupper(a.name), a.line+1').columns).toEqual(['n', 'count(*)', 'toUpper(a.name)', 'a.line + 1']);
  });

  it('expands RETURN * to the named variables and rejects it without one', () => {
    expect(ok('MATCH (a)-[r]->(b) RETURN *').columns).toEqual(['a', 'r', 'b']);
    expect(ok('MATCH (a)-->(a) RETURN *').columns).toEqual(['a']);
    rejects('MATCH ()-->() RETURN *', /needs a named variable/);
  });

  it('types columns for output conversion', () => {
    const a = ok('MATCH (a)-[r]->(b) RETURN a, r, a.is_test, collect(a.is_exported), a.line, a.confidence, a.name');
    expect(a.columnTypes).toEqual(['node', 'rel', 'bool', 'list', 'int', 'float', 'string']);
    expect(a.columnElements[3]).toBe('bool');
  });

  it('rejects duplicate column names', () => {
    rejects('MATCH (a) RETURN a.name, a.file AS `a.name`', /appears twice/);
  });
});

describe('aggregation', () => {
  it('marks aggregate items and groups by the others', () => {
    const a = ok('MATCH (a) RETURN a.kind, count(*) AS n, max(a.line) + 1');
    expect(a.aggregates).toEqual([false, true, true]);
    expect(a.grouped).toBe(true);
    expect(ok('MATCH (a) RETURN a.kind').grouped).toBe(false);
  });

  it('rejects aggregates in WHERE, nested aggregates, and items mixing an aggregate with a plain value', () => {
    rejects('MATCH (a) WHERE count(*) > 2 RETURN a', /not allowed in WHERE/, 'count(*)');
    rejects('MATCH (a) RETURN max(count(*))', /cannot be nested/, 'count(*)');
    rejects('MATCH (a) RETURN a.line + count(*)', /mixes an aggregate/);
    rejects('MATCH (a) RETURN sum(a.name)', /a number to sum/, 'a.name');
    rejects('MATCH (a) RETURN min(a)', /for min\(\)/, 'a');
    rejects('MATCH (a) RETURN count(a.x, a.y)', /exactly one argument/);
    rejects('MATCH (a) RETURN sum(*)', /only valid in count/);
    rejects('MATCH (a) RETURN toLower(DISTINCT a.name)', /only valid inside an aggregate/);
  });
});

describe('ORDER BY', () => {
  it('resolves aliases and returned expressions to their column, keeps other expressions', () => {
    const a = ok('MATCH (a) RETURN a.name AS n, a.file ORDER BY n, a.file, a.line DESC');
    expect(a.order.map((o) => [o.ref, o.descending])).toEqual([[0, false], [1, false], [null, true]]);
  });

  it('after DISTINCT or an aggregate, accepts only returned columns', () => {
    expect(ok('MATCH (a) RETURN a.kind, count(*) AS n ORDER BY n DESC, a.kind').order.map((o) => o.ref)).toEqual([1, 0]);
    rejects('MATCH (a) RETURN DISTINCT a.kind ORDER BY a.name', /with DISTINCT, ORDER BY can only use returned columns/, 'a.name');
    rejects('MATCH (a) RETURN a.name ORDER BY count(*)', /ORDER BY an aggregate needs it in RETURN/);
  });
});

describe('types', () => {
  const bad: [string, RegExp, string?][] = [
    ["MATCH (a) WHERE a.line = '3' RETURN a", /cannot compare a number with a string/, "a.line = '3'"],
    ["MATCH (a) WHERE a.name > 3 RETURN a", /cannot compare a string with a number/, 'a.name > 3'],
    ['MATCH (a) WHERE a.is_test < true RETURN a', /cannot compare a boolean with a boolean using </, 'a.is_test < true'],
    ['MATCH (a)-->(b) WHERE a < b RETURN a', /cannot compare a node with a node using </, 'a < b'],
    ['MATCH (a) WHERE a.name RETURN a', /WHERE needs a condition/, 'a.name'],
    ["MATCH (a) WHERE a.name CONTAINS 3 RETURN a", /a string after CONTAINS/, '3'],
    ['MATCH (a) WHERE a.line STARTS WITH \'1\' RETURN a', /a string before STARTS WITH/, 'a.line'],
    ['MATCH (a) WHERE a.name IN a.file RETURN a', /IN needs a list literal/, 'a.file'],
    ["MATCH (a) WHERE a.line IN [1, 'x'] RETURN a", /never equals a string/, "'x'"],
    ['MATCH (a) WHERE a.line IN [a.end_line] RETURN a', /IN lists hold literal values/, 'a.end_line'],
    ["MATCH (a) RETURN ['x']", /only supported after IN/, "['x']"],
    ['MATCH (a) WHERE NOT a.name RETURN a', /expected a condition, got a string/, 'a.name'],
    ['MATCH (a) RETURN -a.name', /expected a number, got a string/, 'a.name'],
    ['MATCH (a) RETURN a.is_test + 1', /cannot add a boolean and a number/],
    ['MATCH (a) RETURN a.name * 2', /expected a number, got a string/, 'a.name'],
    ["MATCH (a {line: 'x'}) RETURN a", /line holds a number, so it never equals a string/],
    ['MATCH (a) RETURN a.name.first', /properties belong to a variable/],
    ['MATCH (a)-[r]->(b) RETURN type(a)', /single-hop relationship variable/, 'a'],
    ['MATCH (a)-[r*1..2]->(b) RETURN type(r)', /single-hop relationship variable/, 'r'],
    ['MATCH (a) RETURN exists(a.name)', /relationship pattern/, 'a.name'],
    ['MATCH (a) RETURN size(a.line)', /a string or a variable-length relationship/, 'a.line'],
    ['MATCH (a) RETURN lenght(a.name)', /unknown function lenght\(\); did you mean length\(\)/, 'lenght'],
  ];
  for (const [text, message, at] of bad) {
    it(`rejects ${text}`, () => {
      rejects(text, message, at);
    });
  }

  it('types arithmetic: int with int stays int, a float makes float, a string concatenates', () => {
    const a = ok("MATCH (a) RETURN a.line + 1, a.line * 1.5, a.name + a.line, 'x' + 'y', a.line / 2");
    expect(a.columnTypes).toEqual(['int', 'float', 'string', 'string', 'int']);
  });

  it('accepts equality between nodes and mixed numbers', () => {
    ok('MATCH (a)-->(b) WHERE a = b OR a.line = b.confidence RETURN a');
  });
});

describe('regular expressions', () => {
  it('compiles =~ literals at analysis time', () => {
    const a = ok("MATCH (a) WHERE a.name =~ 'get.*' RETURN a.name =~ '(?i)X' AS x");
    expect(a.regexes.size).toBe(2);
  });

  it('rejects unsafe, invalid and non-literal patterns and patterns over aggregates', () => {
    expect(rejects("MATCH (a) WHERE a.name =~ '(\\\\w+\\\\s?)*$' RETURN a", /refused/).data.rule).toBe('nested_quantifier');
    rejects("MATCH (a) WHERE a.name =~ '(a|aa)+' RETURN a", /refused/);
    rejects("MATCH (a) WHERE a.name =~ '[' RETURN a", /not a valid regular expression/, "'['");
    rejects("MATCH (a) WHERE a.name =~ '(?s).*' RETURN a", /inline flag \(\?s\) is not supported/);
    rejects("MATCH (a) RETURN min(a.name) =~ 'x'", /cannot test an aggregate/);
  });
});

describe('relationship patterns in expressions', () => {
  it('accepts bound and anonymous nodes', () => {
    const a = ok("MATCH (f:Function) WHERE NOT ()-[:CALLS]->(f) AND (f)-[:CALLS]->(:Method {name: 'x'}) RETURN f");
    expect(a.usesGraph).toBe(true);
    expect(ok('MATCH (f) RETURN f').usesGraph).toBe(false);
  });

  it('rejects new variables, named relationships, variable length and relationship variables as nodes', () => {
    rejects('MATCH (f) WHERE (f)-->(g) RETURN f', /g is not defined/, 'g');
    rejects('MATCH (f) WHERE (f)-[r]->() RETURN f', /naming a relationship/, 'r');
    rejects('MATCH (f) WHERE (f)-[*1..2]->() RETURN f', /only supported in MATCH/, '*');
    rejects('MATCH (a)-[r]->(b) WHERE (r)-->() RETURN a', /r is a relationship, not a node/, 'r');
  });
});

describe('lints', () => {
  it('flags near-miss labels, types and properties with a did-you-mean and a fix span', () => {
    const text = "MATCH (a:Functon)-[:CALL]->(b:function) WHERE a.nme = 'x' RETURN b.flie";
    const a = ok(text);
    expect(a.lints.map((l) => [l.code, l.data.did_you_mean, l.fix && text.slice(l.fix.span[0], l.fix.span[1])])).toEqual([
      ['unknown_label', 'Function', 'Functon'],
      ['unknown_relationship_type', 'CALLS', 'CALL'],
      ['unknown_label', 'Function', 'function'],
      ['unknown_property', 'name', 'nme'],
      ['unknown_property', 'file', 'flie'],
    ]);
  });

  it('flags unknown names without a close match, and lists what exists', () => {
    const [l] = ok('MATCH (a:Widget) RETURN a').lints;
    expect(l).toMatchObject({ code: 'unknown_label', data: { label: 'Widget' } });
    expect(l.fix).toBeUndefined();
    expect(l.data.kinds).toContain('Function');
  });

  it('flags unknown names in label tests, against kinds for nodes and types for relationships', () => {
    expect(ok('MATCH (a)-[r]->(b) WHERE a:Functon OR r:CALL RETURN a').lints.map((l) => [l.code, l.data.did_you_mean])).toEqual([
      ['unknown_label', 'Function'],
      ['unknown_relationship_type', 'CALLS'],
    ]);
    rejects('MATCH (a)-[r*1..2]->(b) WHERE r:CALLS RETURN a', /has no single type/);
  });

  it('flags comparisons with null, in WHERE and in property maps', () => {
    expect(ok('MATCH (a) WHERE a.parent = null RETURN a').lints.map((l) => l.code)).toEqual(['null_comparison']);
    expect(ok('MATCH (a {parent: null}) RETURN a').lints.map((l) => l.code)).toEqual(['null_comparison']);
  });

  it('knows the variable-length property depth and edge properties', () => {
    expect(ok('MATCH (a)-[r*1..2]->(b) RETURN r.depth').lints).toEqual([]);
    expect(ok('MATCH (a)-[r*1..2]->(b) RETURN r.line').lints.map((l) => l.code)).toEqual(['unknown_property']);
    expect(ok('MATCH (a)-[r]->(b) RETURN r.line, r.provenance, r.confidence, r.kind, r.name').lints).toEqual([]);
  });
});
