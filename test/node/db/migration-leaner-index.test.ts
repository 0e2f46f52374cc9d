import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_KINDS, EDGE_PROVENANCES } from '../../../src/db/edge-columns';
import { hasSqlite, migratedFile, type MigratedFile } from './migration-support';

// Migration 0015 on a database populated in the previous layout: the symbols index on (project_id, file_path)
// goes, an edge's kind, provenance and confidence become codes and thousandths behind generated columns of the
// same names, and a symbol keeps its parent only where the qualified name does not imply it. Every row read back
// must equal what was stored before.
let db: MigratedFile | null = null;
const sql = (text: string) => (db as MigratedFile).sql(text);

const EDGES_READ = 'SELECT rowid, project_id, kind, src_file, src_key, dst_file, dst_key, name, line, confidence, provenance FROM edges ORDER BY rowid';
const SYMBOLS_READ = 'SELECT rowid, id, file_path, name, qualified_name, kind, parent, confidence FROM symbols ORDER BY rowid';

describe.skipIf(!hasSqlite)('migration 0015 on a populated database', () => {
  let edgesBefore: any[] = [];
  let symbolsBefore: any[] = [];
  beforeAll(() => {
    db = migratedFile();
    db.apply(14);
    // Every kind and provenance, confidences of one to three decimals.
    const confidences = [1, 0.95, 0.9, 0.85, 0.7, 0.3, 0.25, 0.167, 0.024, 0.001];
    const rows = EDGE_KINDS.flatMap((kind, k) =>
      EDGE_PROVENANCES.map((provenance, p) => {
        const c = confidences[(k * EDGE_PROVENANCES.length + p) % confidences.length];
        const dst = kind === 'IMPORTS' ? 'NULL' : `'f${p}#Function'`;
        return `('P1', '${kind}', 'src/a.ts', 'a#Function', 'src/b.ts', ${dst}, 'f${p}', ${k * 10 + p + 1}, ${c}, '${provenance}')`;
      }),
    );
    sql(`
      INSERT INTO projects (id, name, created_at) VALUES ('P1', 'p', 0);
      INSERT INTO edges (project_id, kind, src_file, src_key, dst_file, dst_key, name, line, confidence, provenance) VALUES ${rows.join(',\n')};
      INSERT INTO edges (project_id, kind, src_file, src_key, dst_file, dst_key, name, line, confidence, provenance)
        VALUES ('P1', 'CALLS', 'src/a.ts', NULL, 'src/b.ts', 'x#Function', 'x', 99, 0.5, 'guessed');
      INSERT INTO symbols (project_id, key, file_path, name, qualified_name, kind, signature, parent, language, corpus, is_exported, is_test,
                           start_line, end_line, start_byte, end_byte, confidence, words)
        VALUES ('P1', NULL, 'src/a.ts', 'a', 'a', 'Function', 'a()', NULL, 'typescript', 'code', 1, 0, 1, 2, 0, 5, 1, 'a'),
               ('P1', NULL, 'src/a.ts', 'get', 'Users.get', 'Method', 'get()', 'Users', 'typescript', 'code', 1, 0, 3, 4, 6, 9, 1, 'get users'),
               ('P1', NULL, 'src/a.ts', 'f', 'outer.inner.f', 'Function', 'f()', 'outer.inner', 'python', 'code', 0, 0, 5, 6, 10, 12, 0.8, 'f outer inner'),
               ('P1', NULL, 'src/a.ts', 'new', 'Vec::new', 'Method', 'fn new()', 'Vec', 'rust', 'code', 1, 0, 7, 8, 13, 20, 1, 'new vec'),
               ('P1', NULL, 'src/a.ts', 'loose', 'Mod.loose', 'Function', 'loose()', NULL, 'typescript', 'code', 1, 0, 9, 9, 21, 25, 1, 'loose mod'),
               ('P1', NULL, 'src/a.ts', 'odd', 'A.odd', 'Function', 'odd()', 'B', 'typescript', 'code', 1, 0, 10, 10, 26, 30, 1, 'odd');
    `);
    edgesBefore = sql(EDGES_READ);
    symbolsBefore = sql(SYMBOLS_READ);
    db.apply(15, 15);
  });
  afterAll(() => {
    db?.remove();
  });

  it('reads back every edge as it was stored, its kind, provenance and confidence from the codes', () => {
    const known = edgesBefore.filter((e) => e.provenance !== 'guessed');
    expect(known).toHaveLength(EDGE_KINDS.length * EDGE_PROVENANCES.length);
    expect(sql(EDGES_READ)).toEqual(known);
    expect(sql('SELECT DISTINCT typeof(kind_code) AS k, typeof(provenance_code) AS p, typeof(confidence_milli) AS c FROM edges')).toEqual([{ k: 'integer', p: 'integer', c: 'integer' }]);
  });

  it('leaves out an edge whose provenance has no code (never written)', () => {
    expect(sql("SELECT count(*) AS n FROM edges WHERE line = 99")).toEqual([{ n: 0 }]);
  });

  it('reads back every symbol’s parent, stored only where the qualified name does not imply it', () => {
    expect(sql(SYMBOLS_READ)).toEqual(symbolsBefore);
    expect(sql('SELECT name, parent_raw FROM symbols ORDER BY rowid')).toEqual([
      { name: 'a', parent_raw: null },
      { name: 'get', parent_raw: null },
      { name: 'f', parent_raw: null },
      { name: 'new', parent_raw: 'Vec' },
      { name: 'loose', parent_raw: '' },
      { name: 'odd', parent_raw: 'B' },
    ]);
  });

  it('keeps the id index and drops the file index; new edges get rowids after the copied ones', () => {
    expect(sql("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('symbols', 'edges') ORDER BY name").map((r) => r.name)).toEqual([
      'edges_dst',
      'edges_src',
      'symbols_name',
      'symbols_project_id',
    ]);
    const max = edgesBefore.filter((e) => e.provenance !== 'guessed').pop().rowid as number;
    sql("INSERT INTO edges (project_id, src_file, name, line, kind_code, provenance_code, confidence_milli) VALUES ('P1', 'src/c.ts', 'c', 1, 0, 0, 950)");
    expect(sql("SELECT rowid, kind, provenance, confidence FROM edges WHERE src_file = 'src/c.ts'")).toEqual([{ rowid: max + 1, kind: 'CALLS', provenance: 'same_file', confidence: 0.95 }]);
  });
});
