import { beforeAll, describe, expect, it } from 'vitest';
import { hotspots } from '../../../src/db/architecture';
import { callersOf, calleesOf, importersOf, scipCovers, uncalledSymbols, walk } from '../../../src/db/graph';
import { DB, EDGES, FILES, indexProject, seedEdges } from './support';
import { recording, type Captured } from '../recording-d1';

// An edge's ends are rows of edge_ends, found by (project, file, key) in edge_ends_at; the edges are
// found by their ends' ids in edge_rows_src and edge_rows_dst (migration 0025, src/db/edge-ends.ts).
// These hold that every graph read seeks an end and then the edges by its id (by a symbol's id cut
// into file and key, or by a file alone) and none scans the project's edges or ends.
const NO_SCAN = /SCAN (e|edges|r|edge_rows|ne|fe|edge_ends|s|symbols|f|files)\b|edge_ends_at \(project_id=\?\)/;
const BY_END = 'SEARCH edge_end_ USING COVERING INDEX edge_ends_at (project_id=? AND file=? AND key=?)';
const BY_FILE = 'SEARCH edge_end_ USING COVERING INDEX edge_ends_at (project_id=? AND file=?)';
const BY_SRC = 'SEARCH r USING INDEX edge_rows_src (src=?)';
const BY_DST = 'SEARCH r USING INDEX edge_rows_dst (dst=?)';
let project: { id: string; ids: Set<string> };

async function plansOf(seen: readonly Captured[]): Promise<string[][]> {
  const out: string[][] = [];
  for (const s of seen.filter((x) => /\b(edges|edge_rows)\b/.test(x.sql))) {
    const rows = await DB.prepare(`EXPLAIN QUERY PLAN ${s.sql}`)
      .bind(...s.args)
      .all<{ detail: string }>();
    out.push(rows.results.map((r) => r.detail));
  }
  return out;
}

beforeAll(async () => {
  project = await indexProject('graph-edge-plans', FILES);
  await seedEdges(project, EDGES);
});

describe('edge index plans', () => {
  it('walks and one-hop reads seek an end in edge_ends_at, then edge_rows_dst (inbound) or edge_rows_src (outbound) by its id', async () => {
    const { d1, seen } = recording();
    await walk(d1, project.id, ['src/core/db.ts::run#Function'], { direction: 'in', depth: 2 });
    await walk(d1, project.id, ['src/api/users.ts::handler#Function'], { direction: 'out', depth: 2 });
    await callersOf(d1, project.id, ['src/core/db.ts::query#Function']);
    await calleesOf(d1, project.id, ['src/api/users.ts::Users.list#Method']);
    const plans = await plansOf(seen);
    expect(plans.length).toBeGreaterThanOrEqual(4);
    const all = plans.flat();
    for (const step of [BY_END, BY_DST, BY_SRC]) expect(all, all.join(' | ')).toContain(step);
    expect(all.filter((d) => NO_SCAN.test(d)), all.join(' | ')).toEqual([]);
  });

  it('reads a walk of three levels both ways in one recursive statement: its step seeks each direction’s index, its rows come back by rowid in one branch', async () => {
    const { d1, seen } = recording();
    const r = await walk(d1, project.id, ['src/api/users.ts::Users.list#Method'], { direction: 'both', depth: 3, kinds: ['CALLS', 'IMPORTS'] });
    expect(r.perDepth.length).toBe(3);
    expect(seen.map((s) => s.sql.trimStart().slice(0, 14))).toEqual(['WITH RECURSIVE']);
    const [plan] = await plansOf(seen);
    // One level's SQL per direction, run once per step.
    for (const step of [BY_DST, BY_SRC]) expect(plan.filter((d) => d === step), plan.join(' | ')).toHaveLength(1);
    expect(plan.filter((d) => d === BY_END), plan.join(' | ')).toHaveLength(2);
    // The levels' rows of both directions read back by rowid in one branch (each end picked by the step's direction),
    // with their near and far ends by id, in one pass over the steps that also gives each frontier: the recursive
    // step and that pass are the only reads of `w`.
    expect(plan.filter((d) => d === 'SEARCH r USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN'), plan.join(' | ')).toHaveLength(1);
    expect(plan.filter((d) => d === 'SEARCH ne USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN'), plan.join(' | ')).toHaveLength(1);
    expect(plan.filter((d) => d === 'SCAN w'), plan.join(' | ')).toHaveLength(2);
    expect(plan.filter((d) => /^SEARCH (s|f) USING INDEX (symbols_project_id|sqlite_autoindex_files_1) .*LEFT-JOIN$/.test(d)), plan.join(' | ')).toHaveLength(2);
    expect(plan.filter((d) => NO_SCAN.test(d)), plan.join(' | ')).toEqual([]);
  });

  it('reads by file (importers, SCIP coverage) and by target symbol (dead code) through the same indexes', async () => {
    const { d1, seen } = recording();
    await importersOf(d1, project.id, ['src/core/db.ts']);
    await scipCovers(d1, project.id, 'src/core/db.ts');
    await uncalledSymbols(d1, project.id, { kinds: ['Function', 'Method'], minConfidence: 0.95, limit: 10 });
    const plans = await plansOf(seen);
    const all = plans.flat();
    for (const step of [BY_FILE, BY_DST, BY_SRC]) expect(all, all.join(' | ')).toContain(step);
    // Dead code goes over the project's candidates (by symbols_uncalled), each one's end sought once by its file and
    // key, then its inbound edges by the end's id.
    expect(all, all.join(' | ')).toContain('SEARCH en USING COVERING INDEX edge_ends_at (project_id=? AND file=? AND key=?) LEFT-JOIN');
    expect(all.filter((d) => NO_SCAN.test(d)), all.join(' | ')).toEqual([]);
  });

  it('dead code seeks its candidates in symbols_uncalled, in the order it answers in (no sort), for every kind and language asked', async () => {
    for (const opts of [{ kinds: ['Function', 'Method'] as const }, { kinds: ['Method'] as const }, { kinds: ['Function'] as const, language: 'typescript' }]) {
      const { d1, seen } = recording();
      await uncalledSymbols(d1, project.id, { ...opts, minConfidence: 0.95, limit: 10 });
      const all = (await plansOf(seen)).flat();
      expect(all, all.join(' | ')).toContain('SEARCH s USING INDEX symbols_uncalled (project_id=?)');
      expect(all.filter((d) => /TEMP B-TREE FOR ORDER BY|symbols_project_id/.test(d)), all.join(' | ')).toEqual([]);
    }
  });

  it('counts inbound calls per symbol for hotspots in one pass over the project’s edges: its ends, then their edges by id', async () => {
    const { d1, seen } = recording();
    await hotspots(d1, project.id, 5);
    const all = (await plansOf(seen)).flat();
    expect(all, all.join(' | ')).toContain('SEARCH s USING COVERING INDEX edge_ends_at (project_id=?)');
    expect(all, all.join(' | ')).toContain(BY_SRC);
    expect(all.filter((d) => /SCAN (r|edge_rows|s|edge_ends)\b/.test(d)), all.join(' | ')).toEqual([]);
  });
});
