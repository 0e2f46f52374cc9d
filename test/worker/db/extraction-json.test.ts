import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { encodeRefs, encodeSymbols, type StoredSymbol } from '../../../src/db/extraction-json';
import type { ExtractedReference } from '../../../src/extract/types';

const PROJECT = 'xjson-project-id';
const HASH = 'a'.repeat(64);

const refs: ExtractedReference[] = [
  { kind: 'import', name: './util', target: null, imported_names: ['helper', '*'], enclosing: null, line: 1 },
  { kind: 'call', name: 'obj.run', target: 'run', imported_names: null, enclosing: 'Main.start#Method', line: 7 },
  { kind: 'inherit', name: 'Base', target: 'Base', imported_names: null, enclosing: null, line: 3 },
];

async function seed(): Promise<void> {
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO extractions (hash, language, extractor_version, corpus, status, symbols_json, refs_json, created_at)
       VALUES (?1, 'typescript', 1, 'code', 'ok', '[]', ?2, 0) ON CONFLICT DO NOTHING`,
    ).bind(HASH, encodeRefs(refs)),
    env.DB.prepare(
      `INSERT INTO files (project_id, path, hash, size, language, corpus, status, symbol_count, extractor_version, indexed_at)
       VALUES (?1, 'src/main.ts', ?2, 10, 'typescript', 'code', 'indexed', 0, 1, 0) ON CONFLICT DO NOTHING`,
    ).bind(PROJECT, HASH),
  ]);
}

async function plan(sql: string, ...binds: unknown[]): Promise<string> {
  const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...binds).all<{ detail: string }>();
  return rows.results.map((r) => r.detail).join('\n');
}

describe('extraction output stored once', () => {
  it('reads back through the refs view every reference a file stored, with its path, language and enclosing symbol id', async () => {
    await seed();
    const rows = await env.DB.prepare('SELECT * FROM refs WHERE project_id = ?1 ORDER BY line').bind(PROJECT).all();
    expect(rows.results).toEqual([
      { project_id: PROJECT, file_path: 'src/main.ts', language: 'typescript', kind: 'import', name: './util', target: null, imported_names: '["helper","*"]', enclosing: null, line: 1 },
      { project_id: PROJECT, file_path: 'src/main.ts', language: 'typescript', kind: 'inherit', name: 'Base', target: 'Base', imported_names: null, enclosing: null, line: 3 },
      { project_id: PROJECT, file_path: 'src/main.ts', language: 'typescript', kind: 'call', name: 'obj.run', target: 'run', imported_names: null, enclosing: 'src/main.ts::Main.start#Method', line: 7 },
    ]);
  });

  it("reads a file's references through the files and extractions keys, never a scan of either", async () => {
    const byFile = await plan('SELECT kind, name, target, line FROM refs WHERE project_id = ?1 AND file_path IN (SELECT value FROM json_each(?2))', PROJECT, '["src/main.ts"]');
    const oneFile = await plan("SELECT kind, name FROM refs WHERE project_id = ?1 AND file_path = ?2 AND (kind = 'import' OR line BETWEEN 1 AND 9)", PROJECT, 'src/main.ts');
    for (const p of [byFile, oneFile]) {
      expect(p).toMatch(/SEARCH f USING INDEX sqlite_autoindex_files_1 \(project_id=\? AND path=\?\)/);
      expect(p).toMatch(/SEARCH e USING INDEX sqlite_autoindex_extractions_1 \(hash=\? AND language=\? AND extractor_version=\?\)/);
      expect(p).not.toMatch(/SCAN (f|e)\b/);
    }
  });

  it("looks references up by target within the project's files only, without the dropped refs_target index", async () => {
    await seed();
    const byTarget = await plan(
      "SELECT DISTINCT file_path FROM refs WHERE project_id = ?1 AND kind IN ('call', 'inherit') AND target IN (SELECT value FROM json_each(?2))",
      PROJECT,
      '["run"]',
    );
    expect(byTarget).toMatch(/SEARCH f USING INDEX sqlite_autoindex_files_1 \(project_id=\?\)/);
    expect(byTarget).toMatch(/SEARCH e USING INDEX sqlite_autoindex_extractions_1/);
    expect(byTarget).not.toMatch(/SCAN (f|e)\b/);
    const files = await env.DB.prepare(
      "SELECT DISTINCT file_path FROM refs WHERE project_id = ?1 AND kind IN ('call', 'inherit') AND target IN (SELECT value FROM json_each(?2))",
    )
      .bind(PROJECT, '["run", "Base", "absent"]')
      .all<{ file_path: string }>();
    expect(files.results).toEqual([{ file_path: 'src/main.ts' }]);
  });

  it('stores a symbol key only when it is not its qualified name and kind, and booleans as 0/1', () => {
    const base: StoredSymbol = {
      key: 'A.b#Method', name: 'b', qualified_name: 'A.b', kind: 'Method', signature: 'b()', docstring: null, parent: 'A',
      is_exported: true, is_test: false, start_line: 1, end_line: 2, start_byte: 0, end_byte: 9, extraction_confidence: 1, words: 'b',
    };
    const stored = JSON.parse(encodeSymbols([base, { ...base, key: 'A.b#Method~2', declaration: true }])) as unknown[][];
    expect(stored[0]).toEqual([null, 'b', 'A.b', 'Method', 'b()', null, 'A', 1, 0, 1, 2, 0, 9, 1, 'b', 0]);
    expect(stored[1][0]).toBe('A.b#Method~2');
    expect(stored[1][15]).toBe(1);
  });
});
