import { beforeAll, describe, expect, it } from 'vitest';
import { EDGES, ID, indexProject, query, seedEdges, type Json } from './support';

const P = 'q-exec';

async function run(text: string, extra: Json = {}) {
  const r = await query(P, text, extra);
  expect(r.status, JSON.stringify(r.body).slice(0, 600)).toBe(200);
  return r.body as Json;
}

async function rows(text: string): Promise<unknown[][]> {
  return (await run(text)).result.rows as unknown[][];
}

const names = (rs: unknown[][]) => rs.map((r) => r[0]);

beforeAll(async () => {
  await indexProject(P);
  await seedEdges(P, EDGES);
});

describe('node patterns', () => {
  it('filters by label and WHERE, and orders', async () => {
    const body = await run("MATCH (f:Function) WHERE f.language = 'typescript' AND f.is_test = false RETURN f.name ORDER BY f.name");
    expect(body.result.columns).toEqual(['f.name']);
    expect(names(body.result.rows)).toEqual(['execute', 'getUserById', 'getUserByName', 'query', 'run', 'setUser']);
    expect(body.result.row_count).toBe(6);
    expect(body.result.truncated).toBe(false);
    expect(body._meta.baseline_method).toBe('none');
    expect(body._meta.complexity_tier).toBe('standard');
  });

  it('matches any of several labels with :A|B', async () => {
    expect(names(await rows('MATCH (s:Class|Interface) RETURN s.name ORDER BY s.name'))).toEqual(['Handler', 'Service']);
  });

  it('matches an inline property map and reads the short property forms (file, line)', async () => {
    expect(await rows("MATCH (f {name: 'query'}) RETURN f.id, f.kind, f.file, f.line, f.end_line, f.start_line, f.file_path")).toEqual([
      [ID.query, 'Function', 'src/core/db.ts', 1, 3, 1, 'src/core/db.ts'],
    ]);
    expect(await rows("MATCH (m:Method {name: 'handle', is_exported: true}) RETURN m.qualified_name, m.parent")).toEqual([['Handler.handle', 'Handler']]);
  });

  it('returns a node variable as an object and RETURN * as every named variable', async () => {
    const [[node]] = await rows("MATCH (f:Function {name: 'query'}) RETURN f");
    expect(node).toEqual({ id: ID.query, name: 'query', kind: 'Function', file: 'src/core/db.ts', line: 1, end_line: 3, signature: expect.stringContaining('query(sql: string)') });
    const body = await run("MATCH (f:Function {name: 'run'}) RETURN *");
    expect(body.result.columns).toEqual(['f']);
    expect((body.result.rows[0][0] as Json).id).toBe(ID.run);
  });

  it('returns booleans as true/false and supports arithmetic and string concatenation', async () => {
    expect(await rows("MATCH (f {name: 'query'}) RETURN f.is_exported, f.is_test, f.end_line - f.line + 1 AS lines, f.name + '@' + f.line AS at, 7 / 2, 7 % 4, -f.line")).toEqual([
      [true, false, 3, 'query@1', 3, 3, -1],
    ]);
  });
});

describe('string operators, IN and NULL', () => {
  const inDb = "MATCH (f:Function) WHERE f.file = 'src/core/db.ts' AND ";
  it('STARTS WITH, ENDS WITH and CONTAINS are case-sensitive substring tests', async () => {
    expect(names(await rows(`${inDb}f.name STARTS WITH 'get' RETURN f.name ORDER BY f.name`))).toEqual(['getUserById', 'getUserByName']);
    expect(names(await rows(`${inDb}f.name ENDS WITH 'Name' RETURN f.name`))).toEqual(['getUserByName']);
    expect(names(await rows(`${inDb}f.name CONTAINS 'User' RETURN f.name ORDER BY f.name`))).toEqual(['getUserById', 'getUserByName', 'setUser']);
    expect(await rows(`${inDb}f.name CONTAINS 'user' RETURN f.name`)).toEqual([]);
    expect(names(await rows(`${inDb}toLower(f.name) CONTAINS 'user' RETURN f.name ORDER BY f.name`))).toEqual(['getUserById', 'getUserByName', 'setUser']);
    expect((await rows(`${inDb}f.name ENDS WITH '' RETURN f.name`)).length).toBe(6);
    expect((await rows(`${inDb}f.name STARTS WITH '' RETURN f.name`)).length).toBe(6);
  });

  it('handles literals longer than the 50-byte LIKE limit (no LIKE is used)', async () => {
    const long = 'x'.repeat(80);
    expect(await rows(`${inDb}f.name CONTAINS '${long}' RETURN f.name`)).toEqual([]);
    expect(await rows(`${inDb}NOT f.name STARTS WITH '${long}' AND f.name = 'run' RETURN f.name`)).toEqual([['run']]);
  });

  it('IN tests membership in a literal list, of strings or numbers; an empty list matches nothing', async () => {
    expect(names(await rows(`${inDb}f.name IN ['query', 'run', 'nope'] RETURN f.name ORDER BY f.name`))).toEqual(['query', 'run']);
    expect(names(await rows(`${inDb}f.line IN [1, 5] RETURN f.name ORDER BY f.line`))).toEqual(['query', 'run']);
    expect(await rows(`${inDb}f.name IN [] RETURN f.name`)).toEqual([]);
  });

  it('IS NULL and IS NOT NULL read missing values; an unknown property reads as null', async () => {
    expect(await rows(`${inDb}f.docstring IS NOT NULL RETURN f.name, f.docstring`)).toEqual([['getUserById', 'Loads one user.']]);
    expect(names(await rows("MATCH (m:Method) WHERE m.parent IS NOT NULL RETURN m.qualified_name ORDER BY m.qualified_name"))).toEqual(['Handler.handle', 'Handler.serve', 'Service.serve']);
    const body = await run(`${inDb}f.colour IS NULL RETURN count(*)`);
    expect(body.result.rows).toEqual([[6]]);
    expect(body._meta.warnings_v2.map((w: Json) => w.code)).toEqual(['unknown_property']);
  });

  it('orders nulls last ascending and first descending, as Cypher does', async () => {
    const asc = await rows('MATCH (f:Function) RETURN f.docstring ORDER BY f.docstring');
    expect(asc[0][0]).toBe('Loads one user.');
    expect(asc[asc.length - 1][0]).toBeNull();
    const desc = await rows('MATCH (f:Function) RETURN f.docstring ORDER BY f.docstring DESC');
    expect(desc[0][0]).toBeNull();
    expect(desc[desc.length - 1][0]).toBe('Loads one user.');
  });

  it('combines conditions with AND, OR, XOR, NOT and parentheses', async () => {
    expect(names(await rows(`${inDb}(f.name = 'run' OR f.name = 'query') AND NOT f.is_exported RETURN f.name`))).toEqual(['run']);
    expect(names(await rows(`${inDb}(f.is_exported XOR f.name STARTS WITH 'e') RETURN f.name ORDER BY f.name`))).toEqual(['execute', 'getUserById', 'getUserByName', 'query', 'setUser']);
  });
});

describe('regular expressions (=~)', () => {
  const inDb = "MATCH (f:Function) WHERE f.file = 'src/core/db.ts' AND ";
  it('matches the whole value, not a substring', async () => {
    expect(names(await rows(`${inDb}f.name =~ 'get.*' RETURN f.name ORDER BY f.name`))).toEqual(['getUserById', 'getUserByName']);
    expect(await rows(`${inDb}f.name =~ 'get' RETURN f.name`)).toEqual([]);
  });

  it('supports a leading (?i), .* chains, alternation and classes', async () => {
    expect(names(await rows(`${inDb}f.name =~ '(?i)GETUSER.*' RETURN f.name ORDER BY f.name`))).toEqual(['getUserById', 'getUserByName']);
    expect(names(await rows(`${inDb}f.name =~ '.*User.*By.*' RETURN f.name ORDER BY f.name`))).toEqual(['getUserById', 'getUserByName']);
    expect(names(await rows(`${inDb}f.name =~ 'q.*|r[a-z]n' RETURN f.name ORDER BY f.name`))).toEqual(['query', 'run']);
  });

  it('works under NOT and inside RETURN', async () => {
    expect(names(await rows(`${inDb}NOT f.name =~ '.*User.*' RETURN f.name ORDER BY f.name`))).toEqual(['execute', 'query', 'run']);
    expect(await rows(`${inDb}f.line < 8 RETURN f.name, f.name =~ 'q.*' AS q ORDER BY f.name`)).toEqual([
      ['query', true],
      ['run', false],
    ]);
  });
});

describe('aggregation', () => {
  it('groups by the non-aggregated items, as Cypher does', async () => {
    expect(await rows('MATCH (s) RETURN s.kind AS kind, count(*) AS n ORDER BY n DESC, kind')).toEqual([
      ['Function', 9],
      ['Method', 3],
      ['Class', 1],
      ['Constant', 1],
      ['Interface', 1],
      ['Setting', 1],
    ]);
  });

  it('aggregates over everything when no item groups, giving one row even when nothing matches', async () => {
    expect(await rows('MATCH (s) RETURN count(*)')).toEqual([[16]]);
    expect(await rows("MATCH (f:Function {name: 'nope'}) RETURN count(*), sum(f.line), avg(f.line), collect(f.name)")).toEqual([[0, 0, null, []]]);
    expect(await rows("MATCH (f:Function {name: 'nope'}) RETURN f.file, count(*)")).toEqual([]);
  });

  it('computes count(DISTINCT), sum, avg, min, max and collect', async () => {
    expect(await rows('MATCH (s) RETURN count(DISTINCT s.file), count(s.docstring)')).toEqual([[5, 1]]);
    const lines = (await rows("MATCH (f:Function) WHERE f.file = 'src/core/db.ts' RETURN f.line, f.end_line")) as number[][];
    const starts = lines.map((l) => l[0]);
    const spans = lines.map((l) => l[1] - l[0] + 1);
    const [[min, max, sum, avg, anyHidden]] = await rows(
      "MATCH (f:Function) WHERE f.file = 'src/core/db.ts' RETURN min(f.line), max(f.line), sum(f.end_line - f.line + 1), avg(f.line), min(f.is_exported)",
    );
    expect([min, max, sum]).toEqual([Math.min(...starts), Math.max(...starts), spans.reduce((x, y) => x + y, 0)]);
    expect(avg).toBeCloseTo(starts.reduce((x, y) => x + y, 0) / starts.length, 6);
    expect(anyHidden).toBe(false);
    const grouped = await rows("MATCH (s) WHERE s.file STARTS WITH 'src/api/' RETURN s.file, collect(s.name) AS names ORDER BY s.file");
    expect(grouped.map(([f, n]) => [f, [...(n as string[])].sort()])).toEqual([
      ['src/api/handler.test.ts', ['testHandle']],
      ['src/api/handler.ts', ['Handler', 'Service', 'VERSION', 'handle', 'serve', 'serve']],
    ]);
    expect(await rows("MATCH (s:Method) RETURN collect(DISTINCT s.name) AS n")).toEqual([[expect.arrayContaining(['handle', 'serve'])]]);
  });
});

describe('DISTINCT, ORDER BY, SKIP and LIMIT', () => {
  it('drops duplicate rows with DISTINCT', async () => {
    expect(await rows('MATCH (s) RETURN DISTINCT s.language ORDER BY s.language')).toEqual([['ruby'], ['typescript'], ['yaml']]);
  });

  it('orders by several keys, by alias or by an expression not returned, then skips and limits', async () => {
    const inDb = "MATCH (f:Function) WHERE f.file = 'src/core/db.ts' RETURN f.name AS n";
    expect(names(await rows(`${inDb} ORDER BY n DESC SKIP 1 LIMIT 2`))).toEqual(['run', 'query']);
    expect(names(await rows(`${inDb} ORDER BY f.line DESC LIMIT 1`))).toEqual(['setUser']);
    expect(names(await rows(`${inDb} ORDER BY f.is_exported, n LIMIT 2`))).toEqual(['execute', 'run']);
  });
});

describe('single-hop relationships', () => {
  it('matches edges by type and direction and reads edge properties', async () => {
    expect(await rows("MATCH (a)-[r:CALLS]->(b {name: 'query'}) RETURN a.name, r.line, r.provenance, r.confidence ORDER BY a.name")).toEqual([
      ['getUserById', 15, 'same_file', 0.95],
      ['getUserByName', 19, 'same_file', 0.95],
    ]);
    expect(names(await rows("MATCH (q {name: 'query'})<-[:CALLS]-(c) RETURN c.name ORDER BY c.name"))).toEqual(['getUserById', 'getUserByName']);
  });

  it('returns type(r) and a relationship object', async () => {
    expect(await rows('MATCH (a)-[r]->(b:Interface) RETURN a.name, type(r), r')).toEqual([
      ['Handler', 'IMPLEMENTS', { kind: 'IMPLEMENTS', src: ID.handler, dst: ID.service, line: 7, confidence: 0.95, provenance: 'same_file' }],
    ]);
  });

  it('filters on edge property maps and type unions', async () => {
    expect(await rows("MATCH (a)-[:CALLS {provenance: 'import'}]->(b) RETURN a.id, b.id")).toEqual([[ID.handle, ID.byId]]);
    expect(await rows('MATCH (a)-[:CALLS|IMPLEMENTS]->(b) RETURN count(*)')).toEqual([[9]]);
    expect(await rows('MATCH (a)-->(b) RETURN count(*)')).toEqual([[9]]);
  });

  it('never matches module-level edges: both ends of a relationship are symbols', async () => {
    expect(await rows('MATCH (a)-[:IMPORTS]->(b) RETURN count(*)')).toEqual([[0]]);
  });

  it('counts fan-in with grouping and ordering', async () => {
    expect(await rows('MATCH (a)-[:CALLS]->(b) RETURN b.name, count(*) AS callers ORDER BY callers DESC, b.name LIMIT 2')).toEqual([
      ['query', 2],
      ['run', 2],
    ]);
  });

  it('compares two nodes and matches a relationship from a node to itself', async () => {
    expect(await rows("MATCH (a)-[:CALLS]->(b) WHERE a = b RETURN a.name")).toEqual([]);
    expect(await rows('MATCH (a)-[:CALLS]->(a) RETURN a.name')).toEqual([]);
    expect((await rows("MATCH (a)-[:CALLS]->(b) WHERE a <> b RETURN count(*)"))[0][0]).toBe(8);
  });
});

describe('variable-length relationships', () => {
  it('walks up to the bound, one row per reachable node, with its shortest depth', async () => {
    expect(await rows("MATCH (a {name: 'getUserById'})-[r:CALLS*1..5]->(b) RETURN b.name, r.depth ORDER BY r.depth")).toEqual([
      ['query', 1],
      ['run', 2],
      ['execute', 3],
    ]);
  });

  it('binds a WHERE on the start of a labelled variable-length walk with DISTINCT and LIMIT', async () => {
    expect(names(await rows("MATCH (a)-[:CALLS*1..3]->(b:Function) WHERE a.name = 'getUserById' RETURN DISTINCT b.name ORDER BY b.name LIMIT 100"))).toEqual([
      'execute', 'query', 'run',
    ]);
    expect(names(await rows("MATCH (a)-[:CALLS*1..3]->(b:Function) WHERE a.name = 'getUserById' RETURN DISTINCT b.name LIMIT 100")).sort()).toEqual([
      'execute', 'query', 'run',
    ]);
  });

  it('terminates on cycles and finds the nodes on them', async () => {
    expect(names(await rows('MATCH (a)-[:CALLS*1..4]->(a) RETURN a.name ORDER BY a.name'))).toEqual(['execute', 'run']);
    expect(await rows("MATCH (a {name: 'run'})-[:CALLS*1..10]->(b) RETURN count(*)")).toEqual([[2]]);
  });

  it('reads * as *1..3, *n as exactly n and *0..n as including the start', async () => {
    const from = "MATCH (a {name: 'getUserById'})-";
    expect(names(await rows(`${from}[:CALLS*]->(b) RETURN b.name ORDER BY b.name`))).toEqual(['execute', 'query', 'run']);
    expect(names(await rows(`${from}[:CALLS*1..2]->(b) RETURN b.name ORDER BY b.name`))).toEqual(['query', 'run']);
    expect(names(await rows(`${from}[:CALLS*2]->(b) RETURN b.name`))).toEqual(['run']);
    expect(names(await rows(`${from}[:CALLS*0..1]->(b) RETURN b.name ORDER BY b.name`))).toEqual(['getUserById', 'query']);
  });

  it('walks against the edges from a constrained end, in both arrow directions', async () => {
    expect(names(await rows("MATCH (a)-[:CALLS*1..3]->(b {name: 'run'}) RETURN a.name ORDER BY a.name"))).toEqual([
      'execute', 'getUserById', 'getUserByName', 'handle', 'query', 'run',
    ]);
    expect(names(await rows("MATCH (a)<-[:CALLS*1..3]-(b {name: 'testHandle'}) RETURN a.name ORDER BY a.name"))).toEqual(['getUserById', 'handle', 'query']);
  });

  it('applies WHERE on both ends and edge property maps on every hop', async () => {
    expect(names(await rows("MATCH (a:Method)-[:CALLS*1..3]->(b) WHERE b.name STARTS WITH 'q' OR b.name = 'run' RETURN b.name ORDER BY b.name"))).toEqual(['query', 'run']);
    expect(names(await rows("MATCH (a:Method)-[:CALLS*1..3 {provenance: 'import'}]->(b) RETURN b.name"))).toEqual(['getUserById']);
  });

  it('returns a variable-length relationship as {depth} and accepts length()', async () => {
    expect(await rows("MATCH (a {name: 'query'})-[r:CALLS*2..2]->(b) RETURN r, length(r), size(r)")).toEqual([[{ depth: 2 }, 2, 2]]);
  });
});

describe('patterns as conditions', () => {
  it('finds functions nobody calls with NOT ()-[:CALLS]->(f)', async () => {
    expect(names(await rows('MATCH (f:Function) WHERE NOT ()-[:CALLS]->(f) AND f.is_test = false RETURN f.name ORDER BY f.name'))).toEqual([
      'caller_one', 'getUserByName', 'setUser',
    ]);
  });

  it('accepts EXISTS { pattern } and label tests in WHERE', async () => {
    expect(names(await rows('MATCH (f:Function) WHERE NOT EXISTS { ()-[:CALLS]->(f) } AND NOT f.is_test RETURN f.name ORDER BY f.name'))).toEqual([
      'caller_one', 'getUserByName', 'setUser',
    ]);
    expect(await rows('MATCH (f)<-[c:CALLS]-() WHERE f:Function OR f:Method RETURN f.name AS fn, count(c) AS callers ORDER BY callers DESC, fn LIMIT 3')).toEqual([
      ['query', 2],
      ['run', 2],
      ['execute', 1],
    ]);
    expect(await rows('MATCH (a)-[r]->(b) WHERE NOT r:CALLS RETURN a.name, b.name')).toEqual([['Handler', 'Service']]);
  });

  it('takes labels on anonymous nodes and works in RETURN and exists()', async () => {
    expect(names(await rows('MATCH (f:Function) WHERE (f)<-[:CALLS]-(:Method) RETURN f.name'))).toEqual(['getUserById']);
    expect(await rows("MATCH (f:Function) WHERE f.file = 'src/core/db.ts' AND f.line < 8 RETURN f.name, exists((f)-[:CALLS]->()) AS calls, (f)<-[:CALLS]-(:Function {name: 'query'}) AS fromQuery ORDER BY f.name")).toEqual([
      ['query', true, false],
      ['run', true, true],
    ]);
  });
});

describe('variable-length walks and name guesses', () => {
  const W = 'q-exec-weak';
  beforeAll(async () => {
    await indexProject(W);
    // A name guess back from query to getUserById would close a false cycle.
    await seedEdges(W, [...EDGES, { src: ID.query, dst: ID.byId, line: 3, provenance: 'ambiguous', confidence: 0.25 }]);
  });

  it('follows no edge under the default floor, so a name guess closes no recursion cycle', async () => {
    const body = await query(W, 'MATCH (a)-[:CALLS*1..4]->(a) RETURN a.name ORDER BY a.name');
    expect(names(body.body.result.rows)).toEqual(['execute', 'run']);
  });

  it('still shows the weak edge as a single hop, with its confidence', async () => {
    const body = await query(W, "MATCH (a {name: 'query'})-[r:CALLS]->(b {name: 'getUserById'}) RETURN r.provenance, r.confidence");
    expect(body.body.result.rows).toEqual([['ambiguous', 0.25]]);
  });

  it('follows the weak edges a relationship map asks for', async () => {
    const body = await query(W, "MATCH (a {name: 'query'})-[:CALLS*1..2 {provenance: 'ambiguous'}]->(b) RETURN b.name");
    expect(names(body.body.result.rows)).toEqual(['getUserById']);
  });
});
