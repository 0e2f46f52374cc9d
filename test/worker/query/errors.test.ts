import { beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../helpers';
import { EDGES, indexProject, query, rest, seedEdges, type Json } from './support';

const P = 'q-errors';

beforeAll(async () => {
  await indexProject(P);
  await seedEdges(P, EDGES);
});

async function rejected(text: string, extra: Json = {}): Promise<Json> {
  const r = await query(P, text, extra);
  expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(400);
  expect(r.body.error.code).toBe('invalid_params');
  expect(r.body.error.suggestion).toBeTruthy();
  return r.body;
}

describe('syntax errors', () => {
  it('are invalid_params with line, column, offset and a caret excerpt, mirrored in diagnosis_v2', async () => {
    const text = "MATCH (a:Function)\nWHERE a.name = 'x'\nRETRUN a.name";
    const body = await rejected(text);
    expect(body.error.message).toContain('line 3, column 1');
    expect(body.error.message).toContain('did you mean RETURN');
    expect(body.error.details.position).toEqual({ offset: text.indexOf('RETRUN'), line: 3, column: 1 });
    expect(body.error.details.excerpt).toBe('RETRUN a.name\n^');
    expect(body.error.details.stage).toBe('syntax');
    expect(body.error.details.issues).toEqual([{ param: 'query', message: expect.stringContaining('expected RETURN') }]);
    const [diag] = body._meta.diagnosis_v2;
    expect(diag).toMatchObject({ code: 'cypher_parse_error', severity: 'error', data: { position: body.error.details.position, excerpt: body.error.details.excerpt } });
    expect(body._meta).not.toHaveProperty('empty_reason');
  });

  it('reach MCP clients as isError results carrying the same details', async () => {
    const { body } = await callTool('query', { project: P, query: 'MATCH (a RETURN a' });
    expect(body.result.isError).toBe(true);
    const err = JSON.parse(body.result.content[0].text).error;
    expect(err.code).toBe('invalid_params');
    expect(err.details.position).toEqual({ offset: 9, line: 1, column: 10 });
    expect(body.result._meta.diagnosis_v2[0].code).toBe('cypher_parse_error');
  });

  const cases: [string, string, RegExp][] = [
    ['an unclosed string', "MATCH (a) WHERE a.name = 'x RETURN a", /unterminated string/],
    ['a write clause', 'CREATE (a:Function) RETURN a', /read-only: CREATE/],
    ['WITH', 'MATCH (a) WITH a RETURN a', /WITH is not supported/],
    ['two patterns', 'MATCH (a), (b) RETURN a', /one pattern per query/],
    ['a chain of relationships', 'MATCH (a)-[:CALLS]->(b)-[:CALLS]->(c) RETURN a', /one relationship per pattern/],
    ['an undirected relationship', 'MATCH (a)-[:CALLS]-(b) RETURN a', /need a direction/],
    ['a parameter', 'MATCH (a) WHERE a.name = $name RETURN a', /parameters/],
    ['chained comparisons', 'MATCH (a) WHERE 1 < a.line < 5 RETURN a', /chained comparisons/],
    ['two kinds on one node', 'MATCH (a:Function:Method) RETURN a', /one kind/],
    ['SKIP after LIMIT', 'MATCH (a) RETURN a LIMIT 1 SKIP 1', /SKIP goes before LIMIT/],
  ];
  for (const [label, text, message] of cases) {
    it(`rejects ${label} with its position`, async () => {
      const body = await rejected(text);
      expect(body.error.message).toMatch(message);
      expect(body.error.details.position.line).toBe(1);
      expect(body.error.details.excerpt).toContain('^');
    });
  }
});

describe('semantic errors', () => {
  const cases: [string, string, RegExp, string][] = [
    ['an unknown variable, with a did-you-mean', 'MATCH (fn:Function) RETURN f.name', /f is not defined.*did you mean fn/, 'f.name'],
    ['a type mismatch', "MATCH (a) WHERE a.line = '3' RETURN a", /cannot compare a number with a string/, "a.line = '3'"],
    ['an aggregate in WHERE', 'MATCH (a) WHERE count(*) > 1 RETURN a', /not allowed in WHERE/, 'count(*)'],
    ['a regex that is not a literal', 'MATCH (a) WHERE a.name =~ a.file RETURN a', /must be a string literal/, 'a.file'],
    ['an invalid regex', "MATCH (a) WHERE a.name =~ '(' RETURN a", /not a valid regular expression/, "'('"],
    ['a regex on a number', "MATCH (a) WHERE a.line =~ '1.*' RETURN a", /expected a string before =~/, 'a.line'],
    ['an unknown function', 'MATCH (a) RETURN cnt(*)', /unknown function cnt/, 'cnt'],
    ['ORDER BY outside the returned columns after an aggregate', 'MATCH (a) RETURN a.kind, count(*) ORDER BY a.name', /ORDER BY can only use returned columns/, 'a.name'],
    ['a duplicate column', 'MATCH (a) RETURN a.name, a.name', /appears twice/, 'a.name'],
  ];
  for (const [label, text, message, at] of cases) {
    it(`rejects ${label}, pointing at it`, async () => {
      const body = await rejected(text);
      expect(body.error.message).toMatch(message);
      expect(body.error.details.stage).toBe('semantic');
      const offset = body.error.details.position.offset;
      expect(text.slice(offset, offset + at.length)).toBe(at);
    });
  }

  it('refuses regexes that could backtrack catastrophically, naming the rule', async () => {
    const body = await rejected("MATCH (a) WHERE a.name =~ '(a+)+b' RETURN a");
    expect(body.error.details.rule).toBe('nested_quantifier');
    const stacked = await rejected("MATCH (a) WHERE a.name =~ 'a\\\\w*b\\\\w*c' RETURN a");
    expect(stacked.error.details.rule).toBe('stacked_quantifiers');
  });
});

describe('limits', () => {
  it('rejects a variable-length depth above 10', async () => {
    const body = await rejected('MATCH (a)-[:CALLS*1..11]->(b) RETURN a');
    expect(body.error.message).toContain('at most 10');
    expect(body.error.details.max_depth).toBe(10);
    expect((await query(P, 'MATCH (a)-[:CALLS*1..10]->(b) RETURN count(*)')).status).toBe(200);
  });

  it('rejects a query over 4000 characters and an empty one', async () => {
    const long = `MATCH (a) WHERE a.name = '${'x'.repeat(4000)}' RETURN a`;
    const r = await query(P, long);
    expect(r.status).toBe(400);
    expect(r.body.error.details.issues[0].param).toBe('query');
    expect((await query(P, '')).status).toBe(400);
  });

  it('bounds max_rows to 1–10000 and accepts base-10 strings', async () => {
    expect((await query(P, 'MATCH (a) RETURN a', { max_rows: 0 })).status).toBe(400);
    expect((await query(P, 'MATCH (a) RETURN a', { max_rows: 10_001 })).status).toBe(400);
    const ok = await query(P, 'MATCH (a) RETURN a.id', { max_rows: '3' });
    expect(ok.status).toBe(200);
    expect(ok.body.result.row_count).toBe(3);
  });

  it('truncates at max_rows and pages to the end by following next_steps alone', async () => {
    const seen: string[] = [];
    let step: Json | undefined = { tool: 'query', args: { project: P, query: 'MATCH (s) RETURN s.id ORDER BY s.id', max_rows: 5 } };
    let pages = 0;
    while (step && pages < 10) {
      const r = await rest(step.tool, step.args);
      expect(r.status).toBe(200);
      seen.push(...(r.body.result.rows as string[][]).map((row) => row[0]));
      pages++;
      expect(r.body.result.truncated).toBe(pages < 4);
      step = (r.body._meta.next_steps as Json[] | undefined)?.[0];
    }
    expect(pages).toBe(4);
    expect(seen).toHaveLength(16);
    expect(new Set(seen).size).toBe(16);
    expect(seen).toEqual([...seen].sort());
  });

  it('keeps a LIMIT above max_rows across pages', async () => {
    const r = await query(P, 'MATCH (s) RETURN s.id ORDER BY s.id LIMIT 7', { max_rows: 5 });
    expect(r.body.result.truncated).toBe(true);
    const next = r.body._meta.next_steps[0];
    expect(next.args.query).toBe('MATCH (s) RETURN s.id ORDER BY s.id SKIP 5 LIMIT 2');
    expect(next.args.max_rows).toBe(5);
    const page = await rest(next.tool, next.args);
    expect(page.body.result.row_count).toBe(2);
    expect(page.body.result.truncated).toBe(false);
    // A LIMIT within max_rows never truncates.
    const within = await query(P, 'MATCH (s) RETURN s.id LIMIT 5', { max_rows: 5 });
    expect(within.body.result.truncated).toBe(false);
    expect(within.body._meta).not.toHaveProperty('next_steps');
  });
});

describe('lints', () => {
  it('warns on a near-miss label with a did-you-mean and steers to the corrected query', async () => {
    const r = await query(P, "MATCH (f:Functon) WHERE f.name = 'query' RETURN f.name");
    expect(r.status).toBe(200);
    expect(r.body.result.rows).toEqual([]);
    const [w] = r.body._meta.warnings_v2;
    expect(w).toMatchObject({ code: 'unknown_label', severity: 'warning', data: { label: 'Functon', did_you_mean: 'Function' } });
    const [fix] = r.body._meta.next_steps;
    expect(fix.args.query).toBe("MATCH (f:Function) WHERE f.name = 'query' RETURN f.name");
    const fixed = await rest(fix.tool, fix.args);
    expect(fixed.body.result.rows).toEqual([['query']]);
    expect(fixed.body._meta).not.toHaveProperty('warnings_v2');
  });

  it('warns on a near-miss relationship type (CALL → CALLS) and an unknown property (nme → name)', async () => {
    const r = await query(P, "MATCH (a)-[:CALL]->(b) WHERE b.nme = 'query' RETURN a.name");
    const codes = r.body._meta.warnings_v2.map((w: Json) => [w.code, w.data.did_you_mean]);
    expect(codes).toEqual([
      ['unknown_relationship_type', 'CALLS'],
      ['unknown_property', 'name'],
    ]);
    const fixed = await rest('query', r.body._meta.next_steps[0].args);
    expect(fixed.body.result.rows.map((x: string[]) => x[0]).sort()).toEqual(['getUserById', 'getUserByName']);
  });

  it('warns that a comparison with null never holds', async () => {
    const r = await query(P, 'MATCH (a) WHERE a.docstring = null RETURN a.name');
    expect(r.body._meta.warnings_v2.map((w: Json) => w.code)).toEqual(['null_comparison']);
    expect(r.body.result.rows).toEqual([]);
  });

  it('shows warnings to the model through notice.warnings on MCP', async () => {
    const { body } = await callTool('query', { project: P, query: 'MATCH (a:Klass) RETURN a.name' });
    expect(body.result.structuredContent.notice.warnings[0]).toMatch(/^unknown_label: :Klass is not a symbol kind.*did you mean :Class/);
  });
});
