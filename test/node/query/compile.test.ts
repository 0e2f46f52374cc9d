import { describe, expect, it } from 'vitest';
import { analyze, type Analyzed } from '../../../src/query/analyze';
import type { Expr } from '../../../src/query/ast';
import { assertBindable, compileCount, compileLanguages, compileMain, compileRegexCandidates, compileWalkSize, conjunctsOf, regexTests } from '../../../src/query/compile';
import { QueryError } from '../../../src/query/errors';
import { WALK_CAP } from '../../../src/query/limits';
import { parseQuery } from '../../../src/query/parser';

const PID = 'project-1';

function a(text: string): Analyzed {
  return analyze(text, parseQuery(text));
}

function main(text: string, regex: string[] = []) {
  const q = a(text);
  const values = new Map<Expr, string[]>(regexTests(q).map((t) => [t, regex]));
  return compileMain(q, PID, values, { limit: 201, offset: 0 });
}

/** Every `?N` in the SQL has a value, and every value is used. */
function wellBound(sql: string, params: unknown[]): void {
  const used = new Set([...sql.matchAll(/\?(\d+)/g)].map((m) => Number(m[1])));
  expect([...used].sort((x, y) => x - y)).toEqual(params.map((_, k) => k + 1));
}

describe('parameters', () => {
  it('binds every literal, label and type; the project id is always ?1', () => {
    const s = main("MATCH (a:Function {name: 'x'})-[r:CALLS {provenance: 'import'}]->(b) WHERE b.line > 3 AND b.signature CONTAINS 'y' RETURN a.name");
    expect(s.params).toEqual([PID, 'CALLS', 'import', 'Function', 'x', 3, 'y']);
    expect(s.sql).not.toMatch(/'x'|'y'|'import'|Function|CALLS/);
    expect(s.sql).toContain('r0.project_id = ?1');
    expect(s.sql).toContain('CAST(?6 AS INTEGER)');
    wellBound(s.sql, s.params);
  });

  it('never puts user text into the SQL, whatever it holds', () => {
    const evil = "x'); DROP TABLE symbols; --";
    const s = main(`MATCH (\`n0; DROP\`:\`Function; DROP\` {name: '${evil.replace(/'/g, "\\'")}'}) WHERE \`n0; DROP\`.\`name; DROP\` = 'q' RETURN \`n0; DROP\`.name AS \`c0; DROP\``);
    expect(s.sql).not.toContain('DROP');
    expect(s.params).toContain(evil);
    expect(s.params).toContain('Function; DROP');
    wellBound(s.sql, s.params);
  });

  it('passes IN lists and regex matches as one JSON parameter each', () => {
    const s = main("MATCH (a) WHERE a.name IN ['x', 'y'] AND a.file =~ 'src/.*' RETURN a.name", ['src/a.ts']);
    expect(s.params).toEqual([PID, '["x","y"]', '["src/a.ts"]']);
    expect(s.sql).toContain('n0.name IN (SELECT value FROM json_each(?2))');
    expect(s.sql).toContain('n0.file_path IN (SELECT value FROM json_each(?3))');
  });

  it('reuses one parameter where an operator needs the operand twice', () => {
    const s = main("MATCH (a) WHERE a.name ENDS WITH 'Id' AND a.name STARTS WITH 'get' RETURN a");
    expect(s.params).toEqual([PID, 'Id', 'get']);
    expect(s.sql.match(/\?2/g)?.length).toBe(4);
    expect(s.sql.match(/\?3/g)?.length).toBe(2);
  });

  it('uses instr/substr, never LIKE (D1 caps LIKE patterns at 50 bytes)', () => {
    const s = main("MATCH (a) WHERE a.name CONTAINS 'x' OR a.name STARTS WITH 'y' OR a.name ENDS WITH 'z' RETURN a");
    expect(s.sql).not.toMatch(/\bLIKE\b|\bGLOB\b/i);
    expect(s.sql).toContain('instr(n0.name, ?2) > 0');
  });

  it('compiles an unknown property to NULL and booleans to 1/0', () => {
    const s = main('MATCH (a {colour: 1}) WHERE a.is_test = true AND a.shape IS NULL RETURN a.size');
    expect(s.sql).toContain('SELECT NULL AS c0');
    expect(s.sql).toContain('n0.is_test = 1');
    expect(s.sql).toContain('(NULL IS NULL)');
  });

  it('refuses a query that would bind more than 100 values', () => {
    const many = Array.from({ length: 101 }, (_, k) => `a.name = 'n${k}'`).join(' OR ');
    const err = (() => {
      try {
        assertBindable(a(`MATCH (a) WHERE ${many} RETURN a`));
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(QueryError);
    expect((err as QueryError).message).toContain('binds 102 values');
    expect(() => assertBindable(a(`MATCH (a) WHERE a.name IN [${Array.from({ length: 500 }, (_, k) => `'n${k}'`).join(', ')}] RETURN a`))).not.toThrow();
  });
});

describe('statement shapes', () => {
  it('selects from symbols for a node pattern, scoped to the project', () => {
    const s = main('MATCH (a:Method) RETURN a.name');
    expect(s.sql).toBe('SELECT n0.name AS c0 FROM symbols n0 WHERE n0.project_id = ?1 AND n0.kind IN (?2) LIMIT 201 OFFSET 0');
    expect(s.walkColumn).toBe(false);
  });

  it('joins both ends of a single hop through edges, by direction', () => {
    const out = main('MATCH (a)-[:CALLS]->(b) RETURN a.name').sql;
    expect(out).toContain("JOIN symbols n0 ON n0.project_id = r0.project_id AND n0.id = (r0.src_file || '::' || r0.src_key)");
    expect(out).toContain("JOIN symbols n1 ON n1.project_id = r0.project_id AND n1.id = (r0.dst_file || '::' || r0.dst_key)");
    const back = main('MATCH (a)<-[:CALLS]-(b) RETURN a.name').sql;
    expect(back).toContain("n1.id = (r0.src_file || '::' || r0.src_key)");
    expect(back).toContain("n0.id = (r0.dst_file || '::' || r0.dst_key)");
    expect(main('MATCH (a)-->(a) RETURN a').sql).toContain("n0.id = (r0.src_file || '::' || r0.src_key) AND n0.id = (r0.dst_file || '::' || r0.dst_key)");
  });

  it('walks variable length with a recursive CTE: depth bound, dedup, cap, shortest depth per pair', () => {
    const s = main("MATCH (a {name: 'x'})-[:CALLS*2..4]->(b) RETURN b.name");
    expect(s.sql).toMatch(/^WITH RECURSIVE walk\(start, node, depth\) AS \(SELECT s\.id, s\.id, 0 FROM symbols s WHERE s\.project_id = \?1 AND s\.name = \?\d+ UNION SELECT/);
    expect(s.sql).toContain('w.depth < 4');
    expect(s.sql).toContain(`LIMIT ${WALK_CAP})`);
    expect(s.sql).toContain('min(depth) FROM walk WHERE depth >= 2 GROUP BY start, node');
    expect(s.sql).toContain("e.src_end = (SELECT edge_end_.id FROM edge_ends edge_end_ WHERE edge_end_.project_id = ?1 AND edge_end_.file = substr(w.node, 1, instr(w.node, '::') - 1) AND edge_end_.key = substr(w.node, instr(w.node, '::') + 2))");
    expect(s.sql).toContain('(SELECT count(*) FROM walk) AS cwalk');
    expect(s.walkColumn).toBe(true);
    expect(s.sql).not.toContain('UNION ALL');
    wellBound(s.sql, s.params);
  });

  it('starts the walk from the constrained end, walking against the edges when that end is the target', () => {
    const s = main("MATCH (a)-[:CALLS*1..3]->(b {name: 'run'}) RETURN a.name");
    expect(s.sql).toContain("e.dst_end = (SELECT edge_end_.id FROM edge_ends edge_end_ WHERE edge_end_.project_id = ?1 AND edge_end_.file = substr(w.node, 1, instr(w.node, '::') - 1) AND edge_end_.key = substr(w.node, instr(w.node, '::') + 2))");
    expect(s.sql).toContain('n1.id = r0.start');
    expect(s.sql).toContain('n0.id = r0.node');
  });

  it('pushes conditions on the start node into the walk seed', () => {
    const s = main("MATCH (a)-[:CALLS*1..3]->(b) WHERE a.name STARTS WITH 'get' AND b.line > 1 RETURN b.name");
    const seed = s.sql.slice(0, s.sql.indexOf('UNION'));
    expect(seed).toContain('substr(s.name, 1, length(');
    expect(seed).not.toContain('start_line');
  });

  it('groups by the non-aggregated items and orders nulls as Cypher does', () => {
    const s = main('MATCH (a) RETURN a.kind, a.file, count(*) AS n ORDER BY n DESC, a.kind');
    expect(s.sql).toContain('GROUP BY n0.kind, n0.file_path');
    expect(s.sql).toContain('ORDER BY c2 DESC NULLS FIRST, c0 ASC NULLS LAST');
  });

  it('renders nodes, relationships and collect() as JSON', () => {
    const s = main('MATCH (a)-[r]->(b) RETURN a, r, collect(b.name)').sql;
    expect(s).toContain("json_object('id', n0.id, 'name', n0.name");
    expect(s).toContain("json_object('kind', r0.kind, 'src', (r0.src_file || '::' || r0.src_key), 'dst', (r0.dst_file || '::' || r0.dst_key)");
    expect(s).toContain('json_group_array(n1.name) FILTER (WHERE n1.name IS NOT NULL)');
  });

  it('compiles relationship patterns in WHERE to EXISTS over edges with symbol ends', () => {
    const s = main('MATCH (f:Function) WHERE NOT ()-[:CALLS]->(f) RETURN f').sql;
    expect(s).toContain("(NOT EXISTS (SELECT 1 FROM edges e0 JOIN symbols o0s ON o0s.project_id = e0.project_id AND o0s.id = (e0.src_file || '::' || e0.src_key) WHERE e0.project_id = ?1 AND e0.kind IN (?");
    expect(s).toContain('e0.dst_end = (SELECT edge_end_.id FROM edge_ends edge_end_ WHERE edge_end_.project_id = ?1 AND edge_end_.file = n0.file_path AND edge_end_.key = substr(n0.id, length(n0.file_path) + 3))');
  });

  it('compiles label tests to a bound kind test', () => {
    const s = main('MATCH (a)-[r]->(b) WHERE a:Function|Method AND r:CALLS RETURN a');
    expect(s.sql).toContain('(n0.kind IN (?2, ?3))');
    expect(s.sql).toContain('(r0.kind IN (?4))');
    expect(s.params.slice(1)).toEqual(['Function', 'Method', 'CALLS']);
  });

  it('pages with LIMIT and OFFSET', () => {
    const q = a('MATCH (a) RETURN a');
    expect(compileMain(q, PID, new Map(), { limit: 6, offset: 10 }).sql).toMatch(/LIMIT 6 OFFSET 10$/);
  });
});

describe('helper statements', () => {
  it('counts matches under a subset of the WHERE conditions, capped', () => {
    const q = a("MATCH (a) WHERE a.name = 'x' AND a.line > 2 RETURN a");
    const [first] = conjunctsOf(q.query.where);
    const s = compileCount(q, PID, new Map(), [first], 1000);
    expect(s.sql).toBe('SELECT count(*) AS n FROM (SELECT 1 FROM symbols n0 WHERE n0.project_id = ?1 AND (n0.name = ?2) LIMIT 1000)');
    expect(s.params).toEqual([PID, 'x']);
  });

  it('fetches regex candidates under the plain conditions, prefiltered by the literals the regex requires', () => {
    const q = a("MATCH (a:Function) WHERE a.name =~ '(?i)get.*user' AND a.line > 2 RETURN a");
    const [test] = regexTests(q);
    const s = compileRegexCandidates(q, PID, test);
    expect(s.sql).toContain('SELECT DISTINCT n0.name AS v FROM symbols n0');
    expect(s.sql).toContain('n0.start_line > CAST(?');
    expect(s.sql).toContain('instr(lower(n0.name), ?');
    expect(s.params).toEqual(expect.arrayContaining(['get', 'user']));
    const loose = compileRegexCandidates(q, PID, test, { whereFilters: false });
    expect(loose.sql).not.toContain('start_line');
  });

  it('does not prefilter a regex under NOT', () => {
    const q = a("MATCH (a) WHERE NOT a.name =~ 'get.*' RETURN a");
    expect(compileRegexCandidates(q, PID, regexTests(q)[0]).sql).not.toContain('instr');
  });

  it('sizes the walk only for variable-length patterns, and lists languages per node pattern', () => {
    expect(compileWalkSize(a('MATCH (a) RETURN a'), PID, new Map())).toBeNull();
    expect(compileWalkSize(a('MATCH (a)-[*]->(b) RETURN a'), PID, new Map())?.sql).toMatch(/SELECT count\(\*\) AS n FROM walk$/);
    const q = a("MATCH (a:Class {name: 'x'}) RETURN a");
    const s = compileLanguages(q, PID, q.query.match.left);
    expect(s.sql).toContain('GROUP BY n.language');
    expect(s.params).toEqual([PID, 'Class', 'x']);
  });
});
