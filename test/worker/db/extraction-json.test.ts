import { env as poolEnv } from 'cloudflare:workers';
import type { D1Migration } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { decodeRefs, encodeRefs, encodeSymbols, type StoredSymbol } from '../../../src/db/extraction-json';
import type { ExtractedReference } from '../../../src/extract/types';

const env = poolEnv as typeof poolEnv & { TEST_MIGRATIONS: D1Migration[] };
const PROJECT = 'xjson-project-id';
const HASH = 'a'.repeat(64);

const refs: ExtractedReference[] = [
  { kind: 'import', name: './util', target: null, imported_names: ['helper', '*'], enclosing: null, line: 1 },
  { kind: 'call', name: 'obj.run', target: 'run', imported_names: null, enclosing: 'Main.start#Method', line: 7 },
  { kind: 'inherit', name: 'Base', target: 'Base', imported_names: null, enclosing: null, line: 3 },
];

/** Stores `refsJson` as the extraction of one file of `project`. */
async function store(project: string, path: string, hash: string, language: string, refsJson: string): Promise<void> {
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO extractions (hash, language, extractor_version, corpus, status, symbols_json, refs_json, created_at)
       VALUES (?1, ?2, 1, 'code', 'ok', '[]', ?3, 0) ON CONFLICT DO NOTHING`,
    ).bind(hash, language, refsJson),
    env.DB.prepare(
      `INSERT INTO files (project_id, path, hash, size, language, corpus, status, symbol_count, extractor_version, indexed_at)
       VALUES (?1, ?2, ?3, 10, ?4, 'code', 'indexed', 0, 1, 0) ON CONFLICT DO NOTHING`,
    ).bind(project, path, hash, language),
  ]);
}

const seed = () => store(PROJECT, 'src/main.ts', HASH, 'typescript', encodeRefs(refs));

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

  it('stores references in runs of one enclosing symbol, the enclosing key once per run, in extraction order', () => {
    const stored = JSON.parse(
      encodeRefs([
        { kind: 'import', name: './util', target: null, imported_names: ['helper'], enclosing: null, line: 1 },
        { kind: 'call', name: 'a.run', target: 'run', imported_names: null, enclosing: 'F#Function', line: 4 },
        { kind: 'call', name: 'go', target: 'go', imported_names: null, enclosing: 'F#Function', line: 5 },
        { kind: 'call', name: 'x', target: 'y', imported_names: null, enclosing: 'G#Function', line: 9 },
        { kind: 'call', name: 'late', target: null, imported_names: null, enclosing: 'F#Function', line: 12 },
      ]),
    );
    expect(stored).toEqual([
      [null, [1, 1, './util', null, ['helper']]],
      ['F#Function', [0, 4, 'a.run', -2], [0, 5, 'go', 1]],
      ['G#Function', [0, 9, 'x', 'y']],
      ['F#Function', [0, 12, 'late']],
    ]);
    expect(encodeRefs([])).toBe('[]');
  });

  it('reads back through the refs view each run, each target cut from its name by characters, not UTF-16 units', async () => {
    const project = 'xjson-runs-project';
    const hash = 'b'.repeat(64);
    const refs: ExtractedReference[] = [
      { kind: 'call', name: '𝒳.ünï.Möve', target: 'Möve', imported_names: null, enclosing: 'Übung.run#Method', line: 3 },
      { kind: 'call', name: 'émoji😀.go', target: 'go', imported_names: null, enclosing: 'Übung.run#Method', line: 4 },
      { kind: 'call', name: 'same', target: 'same', imported_names: null, enclosing: null, line: 6 },
      { kind: 'call', name: 'obj.', target: '', imported_names: null, enclosing: null, line: 7 },
      { kind: 'inherit', name: 'Base', target: 'OtherBase', imported_names: null, enclosing: 'K#Class', line: 8 },
      { kind: 'import', name: './m', target: null, imported_names: ['*'], enclosing: 'K#Class', line: 9 },
    ];
    await store(project, 'src/ü.ts', hash, 'typescript', encodeRefs(refs));
    const rows = await env.DB.prepare('SELECT kind, name, target, imported_names, enclosing, line FROM refs WHERE project_id = ?1').bind(project).all();
    expect(rows.results).toEqual(
      refs.map((r) => ({
        kind: r.kind,
        name: r.name,
        target: r.target,
        imported_names: r.imported_names ? JSON.stringify(r.imported_names) : null,
        enclosing: r.enclosing ? `src/ü.ts::${r.enclosing}` : null,
        line: r.line,
      })),
    );
  });

  it('reads references stored one per item, as written before migration 0024, the same as runs of the same references', async () => {
    // The layout before migration 0024: [kind, line, name, target (1: the name), enclosing, imported_names], trailing nulls left out.
    const before = JSON.stringify([
      [1, 1, './util', null, null, ['helper', '*']],
      [0, 7, 'obj.run', 'run', 'Main.start#Method'],
      [0, 8, 'go', 1, 'Main.start#Method'],
      [2, 3, 'Base', 1],
      [0, 9, 'free'],
      [0, 10, '𝒳.ünï', 'ünï', 'Main.stop#Method'],
      [0, 11, 'a.b', 'zb', 'Main.start#Method'],
    ]);
    await store('xjson-old-layout', 'm.py', 'c'.repeat(64), 'python', before);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0024_'));
    if (!migration) throw new Error('migration 0024 is missing');
    // Applied again on top of the migrated schema: it only replaces the view, and rewrites no stored row.
    for (const q of migration.queries) await env.DB.prepare(q).run();
    const read = async (project: string) =>
      (await env.DB.prepare('SELECT kind, name, target, imported_names, enclosing, line FROM refs WHERE project_id = ?1').bind(project).all()).results;
    const E = (k: string | null) => (k === null ? null : `m.py::${k}`);
    const expected = [
      { kind: 'import', name: './util', target: null, imported_names: '["helper","*"]', enclosing: null, line: 1 },
      { kind: 'call', name: 'obj.run', target: 'run', imported_names: null, enclosing: E('Main.start#Method'), line: 7 },
      { kind: 'call', name: 'go', target: 'go', imported_names: null, enclosing: E('Main.start#Method'), line: 8 },
      { kind: 'inherit', name: 'Base', target: 'Base', imported_names: null, enclosing: null, line: 3 },
      { kind: 'call', name: 'free', target: null, imported_names: null, enclosing: null, line: 9 },
      { kind: 'call', name: '𝒳.ünï', target: 'ünï', imported_names: null, enclosing: E('Main.stop#Method'), line: 10 },
      { kind: 'call', name: 'a.b', target: 'zb', imported_names: null, enclosing: E('Main.start#Method'), line: 11 },
    ];
    expect(await read('xjson-old-layout')).toEqual(expected);
    expect((await env.DB.prepare('SELECT refs_json FROM extractions WHERE hash = ?1').bind('c'.repeat(64)).first<{ refs_json: string }>())?.refs_json).toBe(before);
    // The same references written by today's encoder: runs, shorter, read back the same.
    const asExtracted: ExtractedReference[] = expected.map((r) => ({
      kind: r.kind as ExtractedReference['kind'],
      name: r.name,
      target: r.target,
      imported_names: r.imported_names === null ? null : JSON.parse(r.imported_names),
      enclosing: r.enclosing === null ? null : r.enclosing.slice('m.py::'.length),
      line: r.line,
    }));
    const runs = encodeRefs(asExtracted);
    expect(runs.length).toBeLessThan(before.length);
    await store('xjson-new-layout', 'm.py', 'd'.repeat(64), 'python', runs);
    expect(await read('xjson-new-layout')).toEqual(expected);
  });

  it('decodes a file\'s stored references in code exactly as the refs view reads them, in its order, both layouts', async () => {
    const runs = encodeRefs([
      { kind: 'import', name: './util', target: null, imported_names: ['helper', '*'], enclosing: null, line: 1 },
      { kind: 'call', name: '𝒳.ünï.Möve', target: 'Möve', imported_names: null, enclosing: 'Übung.run#Method', line: 3 },
      { kind: 'call', name: 'émoji😀.go', target: 'go', imported_names: null, enclosing: 'Übung.run#Method', line: 4 },
      { kind: 'call', name: 'same', target: 'same', imported_names: null, enclosing: null, line: 6 },
      { kind: 'call', name: 'obj.', target: '', imported_names: null, enclosing: null, line: 7 },
      { kind: 'inherit', name: 'Base', target: 'OtherBase', imported_names: null, enclosing: 'K#Class', line: 8 },
      { kind: 'import', name: './m', target: null, imported_names: [], enclosing: 'K#Class', line: 9 },
      { kind: 'call', name: 'late', target: null, imported_names: null, enclosing: 'Übung.run#Method', line: 12 },
    ]);
    // The layout before migration 0024, one item per reference, and the two layouts in one file.
    const before = JSON.stringify([
      [1, 1, './util', null, null, ['helper', '*']],
      [0, 8, 'go', 1, 'Main.start#Method'],
      [2, 3, 'Base', 1],
      [0, 9, 'free'],
      [0, 10, '𝒳.ünï', 'ünï', 'Main.stop#Method'],
      [0, 11, 'a.b', -2, 'Main.start#Method'],
    ]);
    const mixed = JSON.stringify([...JSON.parse(before).slice(0, 2), ...JSON.parse(runs).slice(0, 2)]);
    const cases: [string, string][] = [
      ['runs.ts', runs],
      ['before.py', before],
      ['mixed.py', mixed],
      ['none.ts', '[]'],
    ];
    const project = 'xjson-decode-project';
    for (const [i, [path, json]] of cases.entries()) await store(project, path, String(i).repeat(64), path.endsWith('.py') ? 'python' : 'typescript', json);
    for (const [path, json] of cases) {
      const view = await env.DB.prepare('SELECT kind, name, target, imported_names, enclosing, line FROM refs WHERE project_id = ?1 AND file_path = ?2')
        .bind(project, path)
        .all();
      const decoded = decodeRefs(json).map((r) => ({
        kind: r.kind,
        name: r.name,
        target: r.target,
        imported_names: r.importedNames === null ? null : JSON.stringify(r.importedNames),
        enclosing: r.enclosingKey === null ? null : `${path}::${r.enclosingKey}`,
        line: r.line,
      }));
      expect(decoded, path).toEqual(view.results);
    }
    expect(decodeRefs(mixed)).toHaveLength(2 + 1 + 2);
  });

  it('decodes malformed stored text as no references, and skips items that are not references', () => {
    for (const bad of ['', '{', '{"a":1}', '"text"', '[1, "x", null]', '[[]]']) expect(decodeRefs(bad), bad).toEqual([]);
    expect(decodeRefs('[["F#Function", "not a ref", [0, 2, "go", 1]]]')).toEqual([
      { kind: 'call', name: 'go', target: 'go', importedNames: null, enclosingKey: 'F#Function', line: 2 },
    ]);
  });
});
