import { beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTOR_VERSION } from '../../../src/extract';
import { DB, EDGES, indexProject, query, rest, seedEdges, type Json } from './support';

const P = 'q-empty';

/** Runs every next step of a reply and checks each succeeds with no unknown parameter. */
async function runSteps(body: Json): Promise<Json[]> {
  const steps = (body._meta.next_steps ?? []) as Json[];
  const out: Json[] = [];
  for (const step of steps) {
    const r = await rest(step.tool, step.args);
    expect(r.status, `${step.tool} ${JSON.stringify(step.args)}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
    expect((r.body._meta.warnings_v2 ?? []).filter((w: Json) => w.code === 'unknown_arg')).toEqual([]);
    out.push(r.body);
  }
  return out;
}

async function empty(project: string | undefined, text: string, reason: string): Promise<Json> {
  const r = project === undefined ? await rest('query', { query: text }) : await query(project, text);
  expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200);
  expect(r.body.result.rows).toEqual([]);
  expect(r.body.result.row_count).toBe(0);
  expect(r.body._meta.empty_reason, r.body._meta.diagnosis).toBe(reason);
  expect(r.body._meta.diagnosis_v2.map((d: Json) => d.code)).toContain(reason);
  expect(r.body._meta.next_steps?.length, 'every empty result steers').toBeGreaterThan(0);
  return r.body;
}

beforeAll(async () => {
  await indexProject(P);
  await seedEdges(P, EDGES);
});

describe('no_project_indexed', () => {
  it('fires for an unknown project, keeping the columns, and steers to list', async () => {
    const body = await empty('q-no-such-project', 'MATCH (f:Function) RETURN f.name AS name', 'no_project_indexed');
    expect(body.result.columns).toEqual(['name']);
    expect(body._meta.next_steps).toEqual([{ tool: 'list', args: {}, why: expect.any(String) }]);
    await runSteps(body);
  });

  it('fires when no project is given', async () => {
    await empty(undefined, 'MATCH (f) RETURN f', 'no_project_indexed');
  });

  it('fires for an indexed project that holds no files', async () => {
    await DB.prepare("INSERT INTO projects (id, name, created_at, indexed_at, file_count, symbol_count) VALUES ('q-nofiles-id', 'q-nofiles', 1, 2, 0, 0)").run();
    const body = await empty('q-nofiles', 'MATCH (f) RETURN f', 'no_project_indexed');
    await runSteps(body);
  });
});

describe('query_too_narrow', () => {
  it('names the WHERE condition that excluded every match and steers to the query without it', async () => {
    const body = await empty(P, "MATCH (f:Function) WHERE f.name = 'query' AND f.line > 100 RETURN f.name", 'query_too_narrow');
    expect(body._meta.diagnosis).toContain('f.line > 100');
    const [first] = body._meta.next_steps;
    expect(first.args.query).toBe("MATCH (f:Function) WHERE f.name = 'query' RETURN f.name");
    const [rescued] = await runSteps(body);
    expect(rescued.result.rows).toEqual([['query']]);
  });

  it('says the conditions together excluded the matches when no single one did, and steers to the pattern alone', async () => {
    const body = await empty(P, 'MATCH (f:Function) WHERE f.line > 100 RETURN f.name', 'query_too_narrow');
    expect(body._meta.diagnosis).toContain('together');
    expect(body._meta.next_steps[0].args.query).toBe('MATCH (f:Function) RETURN f.name');
    const [rescued] = await runSteps(body);
    expect(rescued.result.row_count).toBe(9);
  });

  it('verifies the rescue of each condition, a regex included, with regex values that hold without the others', async () => {
    const body = await empty(P, "MATCH (f:Function) WHERE f.name =~ 'get.*' AND f.is_exported = false RETURN f.name", 'query_too_narrow');
    expect(body._meta.next_steps.map((s: Json) => s.args.query).sort()).toEqual([
      "MATCH (f:Function) WHERE f.is_exported = false RETURN f.name",
      "MATCH (f:Function) WHERE f.name =~ 'get.*' RETURN f.name",
    ]);
    const rescued = await runSteps(body);
    expect(rescued.map((r) => r.result.rows.map((x: string[]) => x[0]).sort())).toEqual(
      expect.arrayContaining([['execute', 'run'], ['getUserById', 'getUserByName']]),
    );
  });
});

describe('no_results_in_corpus', () => {
  it('fires when the pattern matches nothing, with a search step for a name and a kind histogram', async () => {
    const body = await empty(P, "MATCH (f:Function {name: 'getUserByMail'}) RETURN f", 'no_results_in_corpus');
    expect(body._meta.next_steps.map((s: Json) => s.tool)).toEqual(['search', 'query']);
    expect(body._meta.next_steps[0].args).toEqual({ project: P, query: 'getUserByMail' });
    const [, histogram] = await runSteps(body);
    expect(histogram.result.columns).toEqual(['kind', 'symbols']);
    expect(histogram.result.rows[0]).toEqual(['Function', 9]);
  });

  it('fires for a kind the project does not have', async () => {
    const body = await empty(P, 'MATCH (t:Trait) RETURN t.name', 'no_results_in_corpus');
    await runSteps(body);
  });

  it('fires for a relationship the resolved graph does not hold, steering to an edge histogram', async () => {
    const body = await empty(P, 'MATCH (a:Class)-[:CALLS]->(b) RETURN a', 'no_results_in_corpus');
    const [histogram] = await runSteps(body);
    expect(histogram.result.rows).toEqual([['CALLS', 8], ['IMPLEMENTS', 1]]);
  });
});

describe('cap_dropped_all', () => {
  it('fires when SKIP passes the last row, steering to the first page', async () => {
    const body = await empty(P, 'MATCH (f:Function) RETURN f.name ORDER BY f.name SKIP 50', 'cap_dropped_all');
    expect(body._meta.next_steps[0].args.query).toBe('MATCH (f:Function) RETURN f.name ORDER BY f.name');
    const [page] = await runSteps(body);
    expect(page.result.row_count).toBe(9);
  });

  it('fires on LIMIT 0', async () => {
    const body = await empty(P, 'MATCH (f:Function) RETURN f.name LIMIT 0', 'cap_dropped_all');
    const [page] = await runSteps(body);
    expect(page.result.row_count).toBe(9);
  });
});

describe('graph coverage', () => {
  it('answers same_file_only for a pattern starting in a language resolved within files only (Ruby)', async () => {
    const body = await empty(P, "MATCH (a {language: 'ruby'})-[:CALLS]->(b {name: 'caller_one'}) RETURN a.name", 'same_file_only');
    expect(body._meta.diagnosis).toContain('ruby');
    const [lookup] = await runSteps(body);
    expect(lookup.result.row_count).toBe(2);
  });

  it('answers cross_file_unavailable for a pattern starting in a language with no edges (YAML)', async () => {
    const body = await empty(P, 'MATCH (s:Setting)-[:CALLS]->(b) RETURN b', 'cross_file_unavailable');
    expect(body._meta.diagnosis).toContain('yaml');
    const [lookup] = await runSteps(body);
    expect(lookup.result.rows).toEqual([['config/app.yaml::server#Setting', 'config/app.yaml', 1]]);
  });
});

describe('stale_index', () => {
  it('fires for a relationship pattern while the graph lags the index, with a graph_pending warning', async () => {
    const name = 'q-pending';
    const id = await indexProject(name);
    await DB.batch([
      DB.prepare('DELETE FROM edges WHERE project_id = ?1').bind(id),
      DB.prepare('UPDATE projects SET graph_generation = generation - 1 WHERE id = ?1').bind(id),
    ]);
    const body = await empty(name, 'MATCH (a)-[:CALLS]->(b) RETURN a.name', 'stale_index');
    expect(body._meta.warnings_v2.map((w: Json) => w.code)).toEqual(['graph_pending']);
    expect(body._meta.next_steps.map((s: Json) => s.tool)).toEqual(['index', 'health']);
    const walk = await query(name, "MATCH (a)-[:CALLS*1..3]->(b:Function) WHERE a.name = 'getUserById' RETURN DISTINCT b.name LIMIT 100");
    expect(walk.status, JSON.stringify(walk.body).slice(0, 400)).toBe(200);
    expect(walk.body._meta.empty_reason, JSON.stringify(walk.body).slice(0, 600)).toBe('stale_index');
    await runSteps(body);
    // Symbol-only queries do not read the graph: no warning.
    const plain = await query(name, 'MATCH (f:Function) RETURN count(*)');
    expect(plain.body._meta).not.toHaveProperty('warnings_v2');
  });

  it('fires when nothing matches and the index was built by an older extractor', async () => {
    const name = 'q-old-extractor';
    const id = await indexProject(name, { 'src/a.ts': 'export function alpha(): number { return 1; }\n' });
    await DB.prepare('UPDATE projects SET extractor_version = ?2 WHERE id = ?1').bind(id, EXTRACTOR_VERSION - 1).run();
    const body = await empty(name, "MATCH (f {name: 'beta'}) RETURN f", 'stale_index');
    expect(body._meta.diagnosis).toContain(`extractor ${EXTRACTOR_VERSION - 1}`);
  });
});

describe('extractor_emitted_nothing', () => {
  it('fires for a project whose files gave no symbols', async () => {
    const name = 'q-no-symbols';
    await indexProject(name, { 'notes.txt': 'plain notes\n' });
    const body = await empty(name, 'MATCH (f) RETURN f', 'extractor_emitted_nothing');
    expect(body._meta.next_steps).toEqual([{ tool: 'health', args: { project: name }, why: expect.any(String) }]);
    await runSteps(body);
  });
});
