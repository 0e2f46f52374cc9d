import { describe, expect, it } from 'vitest';
import type { Expr, Query } from '../../../src/query/ast';
import { excerptAt, positionOf, QueryError } from '../../../src/query/errors';
import { parseQuery } from '../../../src/query/parser';
import { printExpr, printQuery } from '../../../src/query/printer';

function where(text: string): Expr {
  const q = parseQuery(`MATCH (a)-[r]->(b) WHERE ${text} RETURN a`);
  if (!q.where) throw new Error('no WHERE');
  return q.where;
}

/** Parses and returns the QueryError, failing when the text parses. */
function problem(text: string): QueryError {
  try {
    parseQuery(text);
  } catch (err) {
    if (err instanceof QueryError) return err;
    throw err;
  }
  throw new Error(`parsed without error: ${text}`);
}

/** The error points at `at`: an offset, the first occurrence of a string, or the end of the text for ''. */
function failsAt(text: string, at: string | number, message: RegExp): QueryError {
  const err = problem(text);
  expect(err.message).toMatch(message);
  expect(err.suggestion.length).toBeGreaterThan(5);
  expect(err.span[0]).toBe(typeof at === 'number' ? at : at === '' ? text.length : text.indexOf(at));
  return err;
}

describe('patterns', () => {
  it('reads a bare, an anonymous and a labelled node, and label unions', () => {
    expect(parseQuery('MATCH (a) RETURN a').match.left).toMatchObject({ variable: { name: 'a' }, labels: [], props: [] });
    expect(parseQuery('MATCH () RETURN 1').match.left.variable).toBeUndefined();
    expect(parseQuery('MATCH (:Function) RETURN 1').match.left.labels.map((l) => l.name)).toEqual(['Function']);
    expect(parseQuery('MATCH (a:Function|Method|:Class) RETURN a').match.left.labels.map((l) => l.name)).toEqual(['Function', 'Method', 'Class']);
    expect(parseQuery('MATCH (`my var`:Function) RETURN `my var`').match.left.variable?.name).toBe('my var');
  });

  it('reads property maps of literals: strings, integers, floats, negatives, booleans, null', () => {
    const q = parseQuery("MATCH (a {name: 'x', line: 3, confidence: -0.5, is_test: false, docstring: null}) RETURN a");
    expect(q.match.left.props.map((p) => [p.key.name, p.value.type === 'literal' ? p.value.value : '?'])).toEqual([
      ['name', 'x'], ['line', 3], ['confidence', -0.5], ['is_test', false], ['docstring', null],
    ]);
  });

  it('reads relationship directions, types, variables and property maps', () => {
    const out = parseQuery('MATCH (a)-[r:CALLS|IMPORTS {provenance: \'import\'}]->(b) RETURN a').match.rel;
    expect(out).toMatchObject({ variable: { name: 'r' }, direction: 'out', types: [{ name: 'CALLS' }, { name: 'IMPORTS' }], props: [{ key: { name: 'provenance' } }] });
    expect(parseQuery('MATCH (a)<-[:CALLS|:INHERITS]-(b) RETURN a').match.rel).toMatchObject({ direction: 'in', types: [{ name: 'CALLS' }, { name: 'INHERITS' }] });
    expect(parseQuery('MATCH (a)-->(b) RETURN a').match.rel).toMatchObject({ direction: 'out', types: [] });
    expect(parseQuery('MATCH (a)<--(b) RETURN a').match.rel).toMatchObject({ direction: 'in', types: [] });
  });

  it('reads variable-length ranges: * is 1..3, *n is n..n, an open upper bound is 10', () => {
    const range = (r: string) => parseQuery(`MATCH (a)-[:CALLS${r}]->(b) RETURN a`).match.rel?.range;
    expect(range('*')).toMatchObject({ min: 1, max: 3 });
    expect(range('*2')).toMatchObject({ min: 2, max: 2 });
    expect(range('*2..')).toMatchObject({ min: 2, max: 10 });
    expect(range('*..4')).toMatchObject({ min: 1, max: 4 });
    expect(range('*0..1')).toMatchObject({ min: 0, max: 1 });
    expect(range('*1..10')).toMatchObject({ min: 1, max: 10 });
    expect(range('')).toBeUndefined();
  });
});

describe('expressions', () => {
  it('binds OR loosest, then XOR, AND, NOT, comparisons, + -, * / %, unary minus', () => {
    expect(printExpr(where('a.x = 1 OR a.y = 2 AND NOT a.z = 3'))).toBe('a.x = 1 OR a.y = 2 AND NOT a.z = 3');
    const e = where('a.x = 1 OR a.y = 2 AND a.z = 3');
    expect(e).toMatchObject({ type: 'binary', op: 'OR', right: { type: 'binary', op: 'AND' } });
    expect(where('a OR b XOR c AND d')).toMatchObject({ op: 'OR', right: { op: 'XOR', right: { op: 'AND' } } });
    expect(where('NOT a.x = 1')).toMatchObject({ type: 'not', operand: { type: 'binary', op: '=' } });
    expect(where('a.x + 2 * 3 > -a.y % 4')).toMatchObject({
      op: '>',
      left: { op: '+', right: { op: '*' } },
      right: { op: '%', left: { type: 'neg' } },
    });
    expect(where('(a.x = 1 OR a.y = 2) AND a.z = 3')).toMatchObject({ op: 'AND', left: { op: 'OR' } });
  });

  it('folds a minus into a number literal and reads != as <>', () => {
    expect(where('a.line = -3')).toMatchObject({ right: { type: 'literal', value: -3 } });
    expect(where('a.confidence <> 0.5')).toMatchObject({ op: '<>', right: { value: 0.5, float: true } });
    expect(where('a.line != 3')).toMatchObject({ op: '<>' });
  });

  it('reads every predicate operator', () => {
    expect(where("a.name STARTS WITH 'g'")).toMatchObject({ op: 'STARTS WITH' });
    expect(where("a.name ENDS WITH 'g'")).toMatchObject({ op: 'ENDS WITH' });
    expect(where("a.name CONTAINS 'g'")).toMatchObject({ op: 'CONTAINS' });
    expect(where("a.name =~ 'g.*'")).toMatchObject({ op: '=~', right: { value: 'g.*' } });
    expect(where("a.name IN ['x', 'y']")).toMatchObject({ op: 'IN', right: { type: 'list', items: [{ value: 'x' }, { value: 'y' }] } });
    expect(where('a.docstring IS NULL')).toMatchObject({ type: 'isnull', negated: false });
    expect(where('a.docstring IS NOT NULL')).toMatchObject({ type: 'isnull', negated: true });
    expect(where('a.line <= 3 AND a.line >= 1 AND a.line < 9 AND a.line > 0')).toMatchObject({ op: 'AND' });
  });

  it('reads literals: escapes in either quote, booleans, null, floats with exponents', () => {
    expect(where("a.name = 'it\\'s \\\\ \\n \\u00e9'")).toMatchObject({ right: { value: "it's \\ \n é" } });
    expect(where('a.name = "double \\"q\\""')).toMatchObject({ right: { value: 'double "q"' } });
    expect(where('a.is_test = TRUE')).toMatchObject({ right: { value: true } });
    expect(where('a.is_test = false')).toMatchObject({ right: { value: false } });
    expect(where('a.parent = null')).toMatchObject({ right: { value: null } });
    expect(where('a.confidence > 1.5e-1')).toMatchObject({ right: { value: 0.15, float: true } });
  });

  it('reads function calls with *, DISTINCT and several forms', () => {
    const q = parseQuery('MATCH (a) RETURN count(*), count(DISTINCT a.file), toLower(a.name), collect(a)');
    expect(q.items.map((i) => i.expr)).toMatchObject([
      { type: 'call', name: { name: 'count' }, star: true },
      { type: 'call', distinct: true, args: [{ type: 'prop' }] },
      { type: 'call', name: { name: 'toLower' } },
      { type: 'call', args: [{ type: 'var', name: 'a' }] },
    ]);
  });

  it('tells a pattern predicate from a parenthesised expression', () => {
    expect(where('NOT ()-[:CALLS]->(a)')).toMatchObject({ type: 'not', operand: { type: 'pattern', pattern: { rel: { direction: 'out' } } } });
    expect(where('(a)<-[:CALLS]-(:Method {name: \'x\'})')).toMatchObject({ type: 'pattern', pattern: { right: { labels: [{ name: 'Method' }] } } });
    expect(where('(a)-->()')).toMatchObject({ type: 'pattern' });
    expect(where('(a.line) - 1 > 0')).toMatchObject({ op: '>', left: { op: '-' } });
    expect(where('exists((a)-[:CALLS]->())')).toMatchObject({ type: 'call', args: [{ type: 'pattern' }] });
    expect(where('NOT EXISTS { ()-[:CALLS]->(a) }')).toMatchObject({ type: 'not', operand: { type: 'pattern', pattern: { rel: { direction: 'out' } } } });
    expect(where('EXISTS { MATCH (a)<-[:CALLS]-() }')).toMatchObject({ type: 'pattern', pattern: { rel: { direction: 'in' } } });
  });

  it('reads label tests on variables', () => {
    expect(where('a:Function OR a:Method|Class')).toMatchObject({
      op: 'OR',
      left: { type: 'label', operand: { name: 'a' }, labels: [{ name: 'Function' }] },
      right: { type: 'label', labels: [{ name: 'Method' }, { name: 'Class' }] },
    });
    expect(where('NOT r:CALLS')).toMatchObject({ type: 'not', operand: { type: 'label', operand: { name: 'r' } } });
  });
});

describe('clauses', () => {
  it('reads RETURN DISTINCT, *, aliases, ORDER BY directions, SKIP/OFFSET and LIMIT', () => {
    const q = parseQuery('MATCH (a) RETURN DISTINCT a.name AS n, a.file ORDER BY n DESC, a.file ASC, a.line DESCENDING, a.id ASCENDING SKIP 5 LIMIT 10;');
    expect(q.distinct).toBe(true);
    expect(q.items.map((i) => i.alias?.name)).toEqual(['n', undefined]);
    expect(q.order.map((o) => o.descending)).toEqual([true, false, true, false]);
    expect(q.skip?.value).toBe(5);
    expect(q.limit?.value).toBe(10);
    expect(parseQuery('MATCH (a) RETURN * OFFSET 2').skip?.value).toBe(2);
    expect(parseQuery('MATCH (a) RETURN *').star).toBe(true);
  });

  it('treats keywords case-insensitively and skips comments', () => {
    const q = parseQuery('match (a:Function) // functions\n where /* named */ a.name = \'x\' return a.name order by a.name limit 1');
    expect(printQuery(q)).toBe("MATCH (a:Function) WHERE a.name = 'x' RETURN a.name ORDER BY a.name LIMIT 1");
  });
});

describe('the printer', () => {
  const canonical = [
    "MATCH (a:Function|Method {name: 'x', line: 3}) WHERE a.name STARTS WITH 'get' AND NOT a.is_test RETURN a.name AS n, count(*) ORDER BY n DESC SKIP 2 LIMIT 5",
    'MATCH (a)-[r:CALLS*1..3 {provenance: \'import\'}]->(b) WHERE (a.line + 1) * 2 > -b.line RETURN DISTINCT a, r.depth',
    "MATCH (a)<--(b) WHERE (a.x = 1 OR a.y = 2) AND a.z IN [1, 'two', null, 2.5] XOR a.w IS NOT NULL RETURN *",
    "MATCH (`odd name`:`Odd Label`) WHERE NOT ()-[:CALLS]->(`odd name`) AND `odd name`.name =~ '(?i)x\\\\.y' RETURN `odd name`.`key with space`",
    "MATCH (a) WHERE a.name = 'it\\'s\\n' AND a.confidence >= 1.0 RETURN collect(DISTINCT a.file), `match`.x",
    'MATCH (a)-[r]->(b) WHERE (a:Function|Method OR NOT r:CALLS) AND NOT ()-[:CALLS]->(a) RETURN a:Class AS c',
  ];
  for (const text of canonical) {
    it(`prints ${text.slice(0, 50)}… back the same`, () => {
      expect(printQuery(parseQuery(text))).toBe(text);
    });
  }

  it('adds the parentheses precedence needs and drops the rest', () => {
    expect(printQuery(parseQuery('MATCH (a) WHERE ((a.x = 1)) AND (a.y = 2 OR (a.z = 3)) RETURN ((a.line - 1) - (2 - 3))'))).toBe(
      'MATCH (a) WHERE a.x = 1 AND (a.y = 2 OR a.z = 3) RETURN a.line - 1 - (2 - 3)',
    );
  });

  it('round-trips every printed query to the same tree', () => {
    const strip = (q: Query) => JSON.parse(JSON.stringify(q, (k, v) => (k === 'span' ? undefined : v)));
    for (const text of canonical) {
      const once = parseQuery(text);
      expect(strip(parseQuery(printQuery(once)))).toEqual(strip(once));
    }
  });
});

describe('positions and excerpts', () => {
  it('counts lines and columns from 1', () => {
    expect(positionOf('ab\ncd', 0)).toEqual({ offset: 0, line: 1, column: 1 });
    expect(positionOf('ab\ncd', 4)).toEqual({ offset: 4, line: 2, column: 2 });
    expect(positionOf('ab', 2)).toEqual({ offset: 2, line: 1, column: 3 });
  });

  it('puts a caret under the offset, clipping long lines around it', () => {
    expect(excerptAt('MATCH (a RETURN a', 9)).toBe('MATCH (a RETURN a\n         ^');
    const long = `${'x'.repeat(100)}!${'y'.repeat(100)}`;
    const [line, caret] = excerptAt(long, 100).split('\n');
    expect(line.startsWith('…') && line.endsWith('…')).toBe(true);
    expect(line[caret.length - 1]).toBe('!');
  });
});

describe('syntax errors point at the problem', () => {
  it('rejects an empty query and a query not starting with MATCH', () => {
    failsAt('   ', '', /expected MATCH, found the end of the query/);
    failsAt('RETURN 1', 'RETURN', /expected MATCH/);
  });

  it('rejects write clauses as read-only and other clauses as unsupported', () => {
    for (const kw of ['CREATE', 'MERGE', 'DELETE', 'DETACH', 'SET', 'REMOVE']) failsAt(`${kw} (a)`, kw, new RegExp(`read-only: ${kw}`));
    failsAt('MATCH (a) SET a.name = 1 RETURN a', 'SET', /read-only: SET/);
    failsAt('MATCH (a) DELETE a', 'DELETE', /read-only: DELETE/);
    for (const kw of ['OPTIONAL', 'WITH', 'UNWIND', 'CALL']) failsAt(`${kw} x`, kw, new RegExp(`${kw} is not supported`));
    failsAt('MATCH (a) WITH a RETURN a', 'WITH', /WITH is not supported/);
    failsAt('MATCH (a) RETURN a UNION MATCH (b) RETURN b', 'UNION', /UNION is not supported/);
  });

  it('rejects a missing or misspelled RETURN, a second MATCH, WHERE or RETURN', () => {
    failsAt('MATCH (a)', '', /expected RETURN/);
    failsAt('MATCH (a) RETRUN a', 'RETRUN', /did you mean RETURN/);
    failsAt('MATCH (a) MATCH (b) RETURN a', 'MATCH (b)', /one MATCH per query/);
    failsAt("MATCH (a) WHERE a.x = 1 WHERE a.y = 2 RETURN a", 'WHERE a.y', /one WHERE per query/);
    failsAt('MATCH (a) RETURN a RETURN a', 'MATCH (a) RETURN a '.length, /one RETURN per query/);
    failsAt("MATCH (a) RETURN a WHERE a.x = 1", 'WHERE', /WHERE goes before RETURN/);
  });

  it('rejects broken tokens', () => {
    failsAt("MATCH (a) WHERE a.name = 'x RETURN a", "'x", /unterminated string/);
    failsAt("MATCH (a) WHERE a.name = 'x\\q' RETURN a", '\\q', /unknown escape/);
    failsAt("MATCH (a) WHERE a.name = '\\u12' RETURN a", '\\u', /four hex digits/);
    failsAt('MATCH (`a) RETURN 1', '`', /unterminated `name`/);
    failsAt('MATCH (a) /* open RETURN a', '/*', /unterminated \/\* comment/);
    failsAt('MATCH (a) WHERE a.line = 3x RETURN a', '3x', /is not a number/);
    failsAt('MATCH (a) WHERE a.line # 3 RETURN a', '#', /unexpected character/);
    failsAt('MATCH (a) WHERE a.line = 99999999999999999999 RETURN a', '9999', /too large/);
  });

  it('rejects broken node patterns', () => {
    failsAt('MATCH (a RETURN a', 'RETURN', /expected \) to close the node pattern/);
    failsAt("MATCH (a.name = 'x') RETURN a", '.', /conditions do not go inside a node pattern/);
    failsAt('MATCH (a:Function:Method) RETURN a', ':Method', /one kind/);
    failsAt('MATCH (match) RETURN 1', 'match', /reserved word/);
    failsAt('MATCH a RETURN a', 'a RETURN', /expected a node pattern/);
    failsAt('MATCH (a:) RETURN a', ')', /expected a symbol kind/);
  });

  it('rejects broken relationships', () => {
    failsAt('MATCH (a)-[:CALLS]-(b) RETURN a', '-[', /need a direction/);
    failsAt('MATCH (a)<-[:CALLS]->(b) RETURN a', '<-', /one direction/);
    failsAt('MATCH (a)-[:CALLS->(b) RETURN a', '->', /expected a \] closing the relationship/);
    failsAt('MATCH (a)-(b) RETURN a', '-', /a relationship is written/);
    failsAt('MATCH (a)-[:CALLS*1.5]->(b) RETURN a', '1.5', /whole numbers/);
    const deep = failsAt('MATCH (a)-[:CALLS*1..11]->(b) RETURN a', '*', /at most 10, got 11/);
    expect(deep.stage).toBe('semantic');
    failsAt('MATCH (a)-[:CALLS*11]->(b) RETURN a', '*', /at most 10/);
    failsAt('MATCH (a)-[:CALLS*5..2]->(b) RETURN a', '*', /lower bound 5 is above the upper bound 2/);
    failsAt('MATCH (a)-[:CALLS]->(b)-[:CALLS]->(c) RETURN a', '-[:CALLS]->(c)', /one relationship per pattern/);
    failsAt('MATCH (a), (b) RETURN a', ',', /one pattern per query/);
  });

  it('rejects broken property maps', () => {
    failsAt('MATCH (a {name: a.file}) RETURN a', 'a.file', /literal values/);
    failsAt("MATCH (a {name: 'x', name: 'y'}) RETURN a", "name: 'y'", /appears twice/);
    failsAt("MATCH (a {name 'x'}) RETURN a", "'x'", /expected : after name/);
    failsAt("MATCH (a {name: 'x' kind: 'y'}) RETURN a", 'kind', /expected , or \}/);
  });

  it('rejects unsupported or malformed expressions', () => {
    failsAt('MATCH (a) WHERE a.name = $name RETURN a', '$name', /parameters/);
    failsAt('MATCH (a) RETURN CASE WHEN a.x THEN 1 END', 'CASE', /CASE is not supported/);
    failsAt('MATCH (a) WHERE EXISTS { (a) } RETURN a', '(a) }', /needs a relationship pattern/);
    failsAt('MATCH (a) WHERE EXISTS { (a)-->(b) WHERE b.x = 1 } RETURN a', 'WHERE b', /conditions inside EXISTS/);
    failsAt('MATCH (a) WHERE EXISTS { (a)-->() RETURN a', 'RETURN', /expected \} to close EXISTS/);
    failsAt('MATCH (a) WHERE a:Function:Method RETURN a', ':Method', /a:A:B never holds/);
    failsAt('MATCH (a) WHERE 1 < a.line < 5 RETURN a', '< 5', /chained comparisons/);
    failsAt("MATCH (a) WHERE a.name NOT IN ['x'] RETURN a", 'NOT', /NOT goes before the whole condition/);
    failsAt('MATCH (a) WHERE a.line = RETURN a', 'RETURN', /expected an expression, found the keyword RETURN/);
    failsAt('MATCH (a) WHERE (a.line = 1 RETURN a', 'RETURN', /expected a \) closing the parenthesis/);
    failsAt("MATCH (a) WHERE a.name IN ['x',] RETURN a", ']', /expected an expression/);
    failsAt('MATCH (a) WHERE a.name IS nothing RETURN a', 'nothing', /expected NULL/);
    failsAt("MATCH (a) WHERE a.name STARTS 'x' RETURN a", "'x'", /expected WITH/);
    failsAt('MATCH (a) RETURN a.', '', /expected a property name/);
    failsAt('MATCH (a) RETURN a AS', '', /expected an alias after AS/);
  });

  it('rejects expressions nested past the limit', () => {
    const text = `MATCH (a) WHERE ${'('.repeat(70)}a.x = 1${')'.repeat(70)} RETURN a`;
    // The 65th parenthesis is one too deep.
    failsAt(text, 'MATCH (a) WHERE '.length + 64, /nests deeper than 64/);
  });

  it('rejects broken ORDER BY, SKIP and LIMIT', () => {
    failsAt('MATCH (a) RETURN a ORDER a.name', 'a.name', /expected BY/);
    failsAt('MATCH (a) RETURN a LIMIT ten', 'ten', /whole number/);
    failsAt('MATCH (a) RETURN a LIMIT -1', '-1', /cannot be negative/);
    failsAt('MATCH (a) RETURN a LIMIT 1.5', '1.5', /whole number/);
    failsAt('MATCH (a) RETURN a SKIP $n', '$n', /parameters/);
    failsAt('MATCH (a) RETURN a LIMIT 1 SKIP 1', 'SKIP', /SKIP goes before LIMIT/);
    failsAt('MATCH (a) RETURN a LIMIT 1 ORDER BY a.name', 'ORDER', /ORDER is out of place/);
    failsAt('MATCH (a) RETURN a LIMIT 1 garbage', 'garbage', /unexpected 'garbage' after the query/);
  });
});
