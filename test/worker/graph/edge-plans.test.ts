import { beforeAll, describe, expect, it } from 'vitest';
import { hotspots } from '../../../src/db/architecture';
import { callersOf, calleesOf, importersOf, scipCovers, uncalledSymbols, walk } from '../../../src/db/graph';
import { DB, EDGES, FILES, indexProject, seedEdges } from './support';
import { recording, type Captured } from '../recording-d1';

// The edges table keeps two indexes, one per end: (project, src_file, src_key) and
// (project, dst_file, dst_key). These hold that every graph read seeks one of them (by a
// symbol's id cut into file and key, or by a file alone) and none scans the project's edges.
let project: { id: string; ids: Set<string> };

async function plansOf(seen: readonly Captured[]): Promise<string[][]> {
  const out: string[][] = [];
  for (const s of seen.filter((x) => /\bedges\b/.test(x.sql))) {
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
  it('walks and one-hop reads seek edges_dst (inbound) and edges_src (outbound) by file and key', async () => {
    const { d1, seen } = recording();
    await walk(d1, project.id, ['src/core/db.ts::run#Function'], { direction: 'in', depth: 2 });
    await walk(d1, project.id, ['src/api/users.ts::handler#Function'], { direction: 'out', depth: 2 });
    await callersOf(d1, project.id, ['src/core/db.ts::query#Function']);
    await calleesOf(d1, project.id, ['src/api/users.ts::Users.list#Method']);
    const plans = await plansOf(seen);
    expect(plans.length).toBeGreaterThanOrEqual(4);
    const all = plans.flat();
    expect(all, all.join(' | ')).toContain('SEARCH e USING INDEX edges_dst (project_id=? AND dst_file=? AND dst_key=?)');
    expect(all, all.join(' | ')).toContain('SEARCH e USING INDEX edges_src (project_id=? AND src_file=? AND src_key=?)');
    expect(all.filter((d) => /SCAN e\b/.test(d)), all.join(' | ')).toEqual([]);
  });

  it('reads a walk of three levels both ways in one recursive statement: its step seeks each direction’s index, its rows come back by rowid in one branch', async () => {
    const { d1, seen } = recording();
    const r = await walk(d1, project.id, ['src/api/users.ts::Users.list#Method'], { direction: 'both', depth: 3, kinds: ['CALLS', 'IMPORTS'] });
    expect(r.perDepth.length).toBe(3);
    expect(seen.map((s) => s.sql.trimStart().slice(0, 14))).toEqual(['WITH RECURSIVE']);
    const [plan] = await plansOf(seen);
    // One level's SQL per direction, run once per step.
    for (const index of ['edges_dst (project_id=? AND dst_file=? AND dst_key=?)', 'edges_src (project_id=? AND src_file=? AND src_key=?)']) {
      expect(plan.filter((d) => d === `SEARCH e USING INDEX ${index}`), plan.join(' | ')).toHaveLength(1);
    }
    // The levels' rows of both directions read back by rowid in one branch (each end picked by the step's direction).
    expect(plan.filter((d) => d === 'SEARCH e USING INTEGER PRIMARY KEY (rowid=?)'), plan.join(' | ')).toHaveLength(1);
    expect(plan.filter((d) => /^SEARCH (s|f) USING INDEX (symbols_project_id|sqlite_autoindex_files_1) .*LEFT-JOIN$/.test(d)), plan.join(' | ')).toHaveLength(2);
    expect(plan.filter((d) => /SCAN (e|edges|s|symbols|f|files)\b/.test(d)), plan.join(' | ')).toEqual([]);
  });

  it('reads by file (importers, SCIP coverage) and by target symbol (dead code) through the same two indexes', async () => {
    const { d1, seen } = recording();
    await importersOf(d1, project.id, ['src/core/db.ts']);
    await scipCovers(d1, project.id, 'src/core/db.ts');
    await uncalledSymbols(d1, project.id, { kinds: ['Function', 'Method'], minConfidence: 0.95, limit: 10 });
    const plans = await plansOf(seen);
    const all = plans.flat();
    expect(all, all.join(' | ')).toContain('SEARCH e USING INDEX edges_dst (project_id=? AND dst_file=?)');
    expect(all.some((d) => /SEARCH edges USING (COVERING )?INDEX edges_src \(project_id=\? AND src_file=\?\)/.test(d)), all.join(' | ')).toBe(true);
    expect(all.some((d) => /SEARCH e USING (COVERING )?INDEX edges_dst \(project_id=\? AND dst_file=\? AND dst_key=\?\)/.test(d)), all.join(' | ')).toBe(true);
    expect(all.filter((d) => /SCAN (e|edges)\b/.test(d)), all.join(' | ')).toEqual([]);
  });

  it('counts inbound calls per symbol for hotspots in one pass over the project’s edges, by the dst index', async () => {
    const { d1, seen } = recording();
    await hotspots(d1, project.id, 5);
    const all = (await plansOf(seen)).flat();
    expect(all.some((d) => /edges_(src|dst)/.test(d)), all.join(' | ')).toBe(true);
  });
});
