import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasSqlite, migratedFile, type MigratedFile } from './migration-support';

// Migration 0025 on a database populated in the previous layout: an edge's ends move to edge_ends (one row per
// project, file and key), the edges to edge_rows by their ends' ids, and `edges` becomes a view of the old
// columns. Every edge read through the view must equal what was stored before, with the same rowid.
let db: MigratedFile | null = null;
const sql = (text: string) => (db as MigratedFile).sql(text);

const EDGES_READ =
  'SELECT rowid, project_id, kind, provenance, confidence, kind_code, provenance_code, confidence_milli, src_file, src_key, dst_file, dst_key, name, line FROM edges ORDER BY rowid';

describe.skipIf(!hasSqlite)('migration 0025 on a populated database', () => {
  let before: any[] = [];
  beforeAll(() => {
    db = migratedFile();
    db.apply(24);
    // Two projects with the same paths and keys; a module-level source (src_key null), a whole-file import
    // (dst_key null), an edge whose target is nothing in the project (dst_file null), and a call to self.
    const rows = ['P1', 'P2'].flatMap((p, i) => [
      `('${p}', 'src/a.ts', 'src/b.ts', 'run', 3, 'main#Function', 'run#Function', 0, 3, ${950 - i})`,
      `('${p}', 'src/a.ts', 'src/b.ts', 'run', 7, 'main#Function', 'run#Function', 0, 3, 950)`,
      `('${p}', 'src/a.ts', 'src/b.ts', './b', 1, NULL, NULL, 1, 2, 1000)`,
      `('${p}', 'src/a.ts', NULL, 'lodash', 2, NULL, NULL, 1, 2, 1000)`,
      `('${p}', 'src/b.ts', 'src/b.ts', 'run', 9, 'run#Function', 'run#Function', 0, 0, 950)`,
      `('${p}', 'src/b.ts', 'src/a.ts', 'main', 12, 'run#Function', 'main#Function', 4, 7, 1000)`,
    ]);
    sql(`
      INSERT INTO projects (id, name, created_at) VALUES ('P1', 'p1', 0), ('P2', 'p2', 0);
      INSERT INTO edges (project_id, src_file, dst_file, name, line, src_key, dst_key, kind_code, provenance_code, confidence_milli) VALUES ${rows.join(',\n')};
      DELETE FROM edges WHERE line = 7 AND project_id = 'P2';
    `);
    before = sql(EDGES_READ);
    db.apply(25, 25);
  });
  afterAll(() => {
    db?.remove();
  });

  it('reads back every edge through the view as it was stored, with its rowid', () => {
    expect(before).toHaveLength(11);
    expect(sql(EDGES_READ)).toEqual(before);
  });

  it('stores each end once per project, and no path or key in an edge row', () => {
    expect(sql('SELECT project_id, file, key FROM edge_ends ORDER BY project_id, file, key')).toEqual(
      ['P1', 'P2'].flatMap((p) => [
        { project_id: p, file: 'src/a.ts', key: null },
        { project_id: p, file: 'src/a.ts', key: 'main#Function' },
        { project_id: p, file: 'src/b.ts', key: null },
        { project_id: p, file: 'src/b.ts', key: 'run#Function' },
      ]),
    );
    expect(sql("SELECT name FROM pragma_table_info('edge_rows') ORDER BY cid").map((r) => r.name)).toEqual(['rowid', 'src', 'dst', 'name', 'line', 'kind_code', 'provenance_code', 'confidence_milli']);
    expect(sql("SELECT count(*) AS n FROM edge_rows WHERE dst IS NULL")).toEqual([{ n: 2 }]);
    expect(sql("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('edge_ends', 'edge_rows') ORDER BY name").map((r) => r.name)).toEqual([
      'edge_ends_at',
      'edge_rows_dst',
      'edge_rows_src',
    ]);
  });

  it('takes an insert through the view (a project copy) with the ends it lacks, after the copied rowids', () => {
    const max = before[before.length - 1].rowid as number;
    sql(`INSERT INTO edges (project_id, src_file, src_key, dst_file, dst_key, name, line, kind_code, provenance_code, confidence_milli)
         VALUES ('P3', 'src/c.ts', 'c#Function', 'src/a.ts', 'main#Function', 'main', 4, 0, 3, 900),
                ('P3', 'src/c.ts', 'c#Function', 'src/a.ts', 'main#Function', 'main', 5, 0, 3, 900)`);
    expect(sql("SELECT rowid, kind, provenance, confidence, src_file, src_key, dst_file, dst_key FROM edges WHERE project_id = 'P3' ORDER BY rowid")).toEqual(
      [max + 1, max + 2].map((rowid) => ({ rowid, kind: 'CALLS', provenance: 'unique_name', confidence: 0.9, src_file: 'src/c.ts', src_key: 'c#Function', dst_file: 'src/a.ts', dst_key: 'main#Function' })),
    );
    expect(sql("SELECT count(*) AS n FROM edge_ends WHERE project_id = 'P3'")).toEqual([{ n: 2 }]);
  });

  it('removes an edge through the view (a project removal) from edge_rows', () => {
    sql("DELETE FROM edges WHERE project_id = 'P3' AND line = 4");
    expect(sql("SELECT line FROM edges WHERE project_id = 'P3'")).toEqual([{ line: 5 }]);
    expect(sql("SELECT count(*) AS n FROM edge_rows")).toEqual([{ n: 12 }]);
  });
});

// The copy goes a bounded number of edges per statement (D1 stops a statement after 30 s). With the bound cut to
// 2 edges, 40 edges take 20 of its pairs of statements; with the bound at 0 the edges are not all copied and the
// migration fails before the old table goes.
describe.skipIf(!hasSqlite)('migration 0025 copies the edges in bounded steps', () => {
  const text = readFileSync(path.resolve(__dirname, '../../../migrations/0025_edge_ends.sql'), 'utf8');
  const bounded = (n: number) => text.replaceAll('LIMIT 500000', `LIMIT ${n}`);
  const populated = (): MigratedFile => {
    const file = migratedFile();
    file.apply(24);
    const rows = Array.from({ length: 40 }, (_, i) => `('P${i % 3}', 'src/f${i % 7}.ts', 'src/g${i % 5}.ts', 'n${i}', ${i + 1}, 'k${i % 4}#Function', ${i % 6 ? `'t${i % 9}#Function'` : 'NULL'}, ${i % 5}, ${i % 8}, ${i * 10})`);
    file.sql(`INSERT INTO edges (project_id, src_file, dst_file, name, line, src_key, dst_key, kind_code, provenance_code, confidence_milli) VALUES ${rows.join(',\n')};`);
    return file;
  };

  it('copies every edge, each end once, in steps of 2', () => {
    const file = populated();
    try {
      const before = file.sql(EDGES_READ);
      expect(text.match(/LIMIT 500000/g)).toHaveLength(64);
      file.sql(bounded(2));
      expect(file.sql(EDGES_READ)).toEqual(before);
      expect(file.sql('SELECT count(*) AS n FROM (SELECT 1 FROM edge_ends GROUP BY project_id, file, key HAVING count(*) > 1)')).toEqual([{ n: 0 }]);
    } finally {
      file.remove();
    }
  });

  it('fails, the old table kept, when the steps do not reach the last edge', () => {
    const file = populated();
    try {
      // The CLI stops at the first error, as applying a migration does.
      expect(() => file.sql(`.bail on\n${bounded(0)}`)).toThrow(/NOT NULL constraint failed: edge_rows\.src/);
      expect(file.sql("SELECT type FROM sqlite_master WHERE name = 'edges'")).toEqual([{ type: 'table' }]);
      expect(file.sql('SELECT count(*) AS n FROM edges')).toEqual([{ n: 40 }]);
    } finally {
      file.remove();
    }
  });
});
