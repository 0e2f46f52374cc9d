import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasSqlite, migratedFile, type MigratedFile } from './migration-support';

// Migration 0013 on a database populated in the previous layout: edge ends become file + key,
// symbol ids become computed from their rows, references get the shorter layout. Every answer
// read back (edge ids, symbol ids, search rows, the refs view) must equal what was stored before.
let db: MigratedFile | null = null;
const sql = (text: string) => (db as MigratedFile).sql(text);

const OLD_REFS = JSON.stringify([
  ['import', './util', null, ['helper', '*'], null, 1],
  ['call', 'run', 'run', null, 'Main.start#Method', 7],
  ['call', 'obj.go', 'go', null, 'Main.start#Method', 8],
  ['inherit', 'Base', 'Base', null, null, 3],
  ['call', 'free', null, null, null, 9],
]);

describe.skipIf(!hasSqlite)('migration 0013 on a populated database', () => {
  let refsBefore: any[] = [];
  beforeAll(() => {
    db = migratedFile();
    db.apply(12);
    sql(`
      INSERT INTO projects (id, name, created_at) VALUES ('P1', 'p', 0);
      INSERT INTO extractions (hash, language, extractor_version, corpus, status, symbols_json, refs_json, created_at)
        VALUES ('h1', 'typescript', 1, 'code', 'ok', '', '${OLD_REFS}', 0);
      INSERT INTO files (project_id, path, hash, size, language, corpus, status, symbol_count, extractor_version, indexed_at)
        VALUES ('P1', 'src/main.ts', 'h1', 10, 'typescript', 'code', 'indexed', 3, 1, 0);
      INSERT INTO symbols (project_id, id, file_path, name, qualified_name, kind, signature, language, corpus, is_exported, is_test,
                           start_line, end_line, start_byte, end_byte, confidence, words)
        VALUES ('P1', 'src/main.ts::Main.start#Method', 'src/main.ts', 'start', 'Main.start', 'Method', 'start()', 'typescript', 'code', 1, 0, 1, 2, 0, 5, 1, 'start'),
               ('P1', 'src/main.ts::run#Function', 'src/main.ts', 'run', 'run', 'Function', 'run()', 'typescript', 'code', 1, 0, 3, 4, 6, 9, 1, 'run'),
               ('P1', 'src/main.ts::run#Function~2', 'src/main.ts', 'run', 'run', 'Function', 'run()', 'typescript', 'code', 1, 0, 5, 6, 10, 12, 1, 'run');
      INSERT INTO edges (project_id, kind, src_id, src_file, dst_id, dst_file, name, line, confidence, provenance)
        VALUES ('P1', 'CALLS', 'src/main.ts::Main.start#Method', 'src/main.ts', 'src/main.ts::run#Function~2', 'src/main.ts', 'run', 7, 0.95, 'same_file'),
               ('P1', 'IMPORTS', NULL, 'src/main.ts', NULL, 'src/util.ts', './util', 1, 1, 'module');
    `);
    refsBefore = sql('SELECT * FROM refs ORDER BY line');
    db.apply(13, 13);
  });
  afterAll(() => {
    db?.remove();
  });

  it('keeps every edge, each end read back as the id it stored', () => {
    expect(sql("SELECT kind, src_file || '::' || src_key AS src_id, src_file, dst_file || '::' || dst_key AS dst_id, dst_file FROM edges ORDER BY line")).toEqual([
      { kind: 'IMPORTS', src_id: null, src_file: 'src/main.ts', dst_id: null, dst_file: 'src/util.ts' },
      { kind: 'CALLS', src_id: 'src/main.ts::Main.start#Method', src_file: 'src/main.ts', dst_id: 'src/main.ts::run#Function~2', dst_file: 'src/main.ts' },
    ]);
  });

  it('computes the same symbol ids, keeping a key only for the ids that are not qualified_name#kind', () => {
    expect(sql('SELECT id, key FROM symbols ORDER BY rowid')).toEqual([
      { id: 'src/main.ts::Main.start#Method', key: null },
      { id: 'src/main.ts::run#Function', key: null },
      { id: 'src/main.ts::run#Function~2', key: 'run#Function~2' },
    ]);
    expect(sql("SELECT count(*) AS n FROM symbols WHERE project_id = 'P1' AND id = 'src/main.ts::run#Function~2'")).toEqual([{ n: 1 }]);
    expect(sql("SELECT s.id FROM symbols_fts JOIN symbols s ON s.rowid = symbols_fts.rowid WHERE symbols_fts MATCH 'start'")).toEqual([{ id: 'src/main.ts::Main.start#Method' }]);
  });

  it('reads the same references through the refs view from their shorter stored form', () => {
    expect(sql('SELECT * FROM refs ORDER BY line')).toEqual(refsBefore);
    expect(refsBefore).toHaveLength(5);
    const stored = sql('SELECT refs_json FROM extractions')[0].refs_json as string;
    expect(stored.length).toBeLessThan(OLD_REFS.length);
  });
});
