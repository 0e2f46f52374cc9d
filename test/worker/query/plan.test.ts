import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/query/analyze';
import { compileCount, compileMain, conjunctsOf } from '../../../src/query/compile';
import { countMatches } from '../../../src/query/execute';
import { parseQuery } from '../../../src/query/parser';
import { DB, EDGES, indexProject, seedEdges } from './support';

// The plans workerd's SQLite (the one D1 runs) picks for pinchQL statements. Without table
// statistics it would happily scan every edge of a project per walk step; on a 200k-edge
// project that turned a 20 ms walk into minutes. These hold the join order the compiler fixes.
const PROJECT = 'q-plan';
let projectId = '';

beforeAll(async () => {
  projectId = await indexProject(PROJECT);
  await seedEdges(PROJECT, EDGES);
});

async function plan(text: string): Promise<string[]> {
  const a = analyze(text, parseQuery(text));
  const s = compileMain(a, projectId, new Map(), { limit: 10, offset: 0 });
  const rows = await DB.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).bind(...s.params).all<{ detail: string }>();
  return rows.results.map((r) => r.detail);
}

/** An edge end sought by its project, file and key (src/db/edge-ends.ts). */
const BY_END = 'SEARCH edge_end_ USING COVERING INDEX edge_ends_at (project_id=? AND file=? AND key=?)';

describe('pinchQL statement plans', () => {
  it('walks a variable-length pattern by seeking each reached node as an edge end, then edge_rows_src (outbound)', async () => {
    const d = await plan("MATCH (a)-[:CALLS*1..3]->(b:Function) WHERE a.name = 'query' RETURN DISTINCT b.name");
    expect(d, d.join(' | ')).toContain(BY_END);
    expect(d, d.join(' | ')).toContain('SEARCH r USING INDEX edge_rows_src (src=?)');
    expect(d.filter((x) => /\b(SCAN|SEARCH) r\b/.test(x)), d.join(' | ')).toHaveLength(1);
    // The reached pairs drive the symbol lookups, each by id.
    expect(d, d.join(' | ')).toContain('SCAN r0');
    expect(d.filter((x) => /SEARCH n\d USING INDEX symbols_project_id \(project_id=\? AND id=\?\)/.test(x))).toHaveLength(2);
  });

  it('walks against the edges by seeking edge_rows_dst when the anchor is the target', async () => {
    const d = await plan("MATCH (a)-[:CALLS*1..3]->(b) WHERE b.name = 'run' RETURN count(*)");
    expect(d, d.join(' | ')).toContain(BY_END);
    expect(d, d.join(' | ')).toContain('SEARCH r USING INDEX edge_rows_dst (dst=?)');
    expect(d.some((x) => /SCAN (r|s|edge_rows|edge_ends)\b|edge_ends_at \(project_id=\?\)/.test(x)), d.join(' | ')).toBe(false);
  });

  it('starts a single hop from a node with conditions of its own and seeks its edges', async () => {
    const d = await plan("MATCH (a)-[:CALLS]->(b) WHERE b.name = 'run' RETURN a.name");
    expect(d[0], d.join(' | ')).toMatch(/^SEARCH n1 USING INDEX symbols_name \(project_id=\? AND name=\?\)/);
    expect(d, d.join(' | ')).toContain(BY_END);
    expect(d, d.join(' | ')).toContain('SEARCH r USING INDEX edge_rows_dst (dst=?)');
    const out = await plan("MATCH (a {name: 'query'})-[:CALLS]->(b) RETURN b.name");
    expect(out, out.join(' | ')).toContain('SEARCH r USING INDEX edge_rows_src (src=?)');
  });

  it('reads the symbols of one file (a property or a WHERE test) from its range of the id index', async () => {
    const range = /SEARCH n0 USING INDEX symbols_project_id \(project_id=\? AND id>\? AND id<\?\)/;
    for (const text of ["MATCH (a {file: 'src/core/db.ts'}) RETURN a.name", "MATCH (a) WHERE a.path = 'src/core/db.ts' AND a.kind = 'Function' RETURN a.name"]) {
      const d = await plan(text);
      expect(d.some((x) => range.test(x)), `${text}: ${d.join(' | ')}`).toBe(true);
    }
  });

  it('keeps the edge scan for a pattern with no narrowing condition (LIMIT stops it early): the project\'s edge ends, each end\'s edges', async () => {
    const d = await plan('MATCH (a:Function)-[:CALLS]->(b) RETURN a.name, b.name LIMIT 5');
    expect(d[0], d.join(' | ')).toBe('SEARCH s USING COVERING INDEX edge_ends_at (project_id=?)');
    expect(d, d.join(' | ')).toContain('SEARCH r USING INDEX edge_rows_src (src=?)');
  });
});

describe('the count a query diagnosis runs for a variable-length pattern', () => {
  const counts = async (text: string, cap: number) => {
    const a = analyze(text, parseQuery(text));
    const [n] = await countMatches(DB, a, projectId, new Map(), [conjunctsOf(a.query.where)], cap);
    // What the walk itself finds: one row per (start, end) pair.
    const pairs = compileMain(a, projectId, new Map(), { limit: 100_000, offset: 0 });
    const rows = await DB.prepare(pairs.sql).bind(...pairs.params).raw();
    return { n, walked: Math.min(rows.length, cap) };
  };

  it.each([
    'MATCH (a)-[:CALLS*1..3]->(b) RETURN a.id, b.id',
    'MATCH (a)-[*1..2]->(b) RETURN a.id, b.id',
    'MATCH (a)<-[:CALLS*1..2]-(b) RETURN a.id, b.id',
    'MATCH (a)-[:CALLS*0..2]->(b) RETURN a.id, b.id',
    'MATCH (a)-[:CALLS*2..3]->(b) RETURN a.id, b.id',
    'MATCH (a)-[:CALLS*1..3]->(b) WHERE a.file <> b.file RETURN a.id, b.id',
    'MATCH (a)-[r:CALLS*1..3]->(b) WHERE r.depth > 1 RETURN a.id, b.id',
  ])('counts what the walk finds, capped, for %s', async (text) => {
    for (const cap of [1, 2, 3, 1000]) {
      const { n, walked } = await counts(text, cap);
      expect(n, `cap ${cap}`).toBe(walked);
    }
  });

  it('stops at the one-hop pairs when they reach the cap: the walk from every symbol never runs', async () => {
    const text = 'MATCH (a)-[:CALLS*1..3]->(b) RETURN a.id';
    const a = analyze(text, parseQuery(text));
    const s = compileCount(a, projectId, new Map(), [], 1);
    const r = await DB.prepare(s.sql).bind(...s.params).all<{ n: number }>();
    expect(r.results[0].n).toBe(1);
    const symbols = (await DB.prepare('SELECT count(*) AS n FROM symbols WHERE project_id = ?1').bind(projectId).first<{ n: number }>())!.n;
    // Seeding the walk alone reads every symbol of the project.
    expect(r.meta.rows_read, `${r.meta.rows_read} rows read, ${symbols} symbols`).toBeLessThan(symbols);
  });
});
