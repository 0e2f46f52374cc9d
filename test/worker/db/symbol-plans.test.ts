import { beforeAll, describe, expect, it } from 'vitest';
import { filesWithTests, symbolsOverlapping } from '../../../src/db/composites';
import { commitStatements } from '../../../src/db/index-store';
import { committedPathsStatement, planResolution, planResolutionStatements, resolveCommitted } from '../../../src/db/resolution';
import { scipTargets } from '../../../src/db/scip';
import { fileSymbolColumns, fileSymbols, fileWithSymbols, likelyFileSymbols, nestedSymbols, SIBLING_COLUMNS } from '../../../src/db/source';
import { namePick } from '../../../src/db/name-pick';
import { EXTRACTOR_VERSION } from '../../../src/extract';
import { INDEX_SCHEMA_VERSION, SCHEMA_VERSION } from '../../../src/version';
import { DB, FILES, indexProject, rest } from '../graph/support';
import { recording, type Captured } from '../recording-d1';

// Migration 0015 dropped the symbols index on (project_id, file_path): a file's symbols are one range of
// symbols_project_id, since every id starts with `{file_path}::` (src/db/symbol-range.ts). These hold that every
// statement that sought symbols by file through the dropped index now seeks that range, and none scans the table.
let project: { id: string; ids: Set<string> };

/** The query plan of each recorded statement that reads the symbols table (not its FTS index or the extractions' JSON). */
async function symbolPlans(seen: readonly Captured[]): Promise<{ sql: string; plan: string[] }[]> {
  const out: { sql: string; plan: string[] }[] = [];
  for (const s of seen.filter((x) => /\bsymbols\b(?!_)/.test(x.sql))) {
    const rows = await DB.prepare(`EXPLAIN QUERY PLAN ${s.sql}`)
      .bind(...s.args)
      .all<{ detail: string }>();
    out.push({ sql: s.sql.replace(/\s+/g, ' ').trim(), plan: rows.results.map((r) => r.detail) });
  }
  return out;
}

/** A scan of the symbols table (`s` or by name; json_each aliased `s` is a virtual table). */
const TABLE_SCAN = /^SCAN (s|symbols)\b(?! VIRTUAL TABLE)/;
const RANGE = /SEARCH (\w+) USING INDEX symbols_project_id \(project_id=\? AND id>\? AND id<\?\)/;

/** Every plan seeks the id range and none scans the symbols table or uses an index on file_path; at least `least` plans. */
function expectRangeSeeks(plans: { sql: string; plan: string[] }[], least: number): void {
  expect(plans.length, plans.map((p) => p.sql.slice(0, 200)).join('\n')).toBeGreaterThanOrEqual(least);
  for (const p of plans) {
    const text = `${p.sql.slice(0, 300)}\n  ${p.plan.join('\n  ')}`;
    expect(p.plan.some((d) => RANGE.test(d)), text).toBe(true);
    expect(p.plan.filter((d) => TABLE_SCAN.test(d) || /symbols_file/.test(d)), text).toEqual([]);
  }
}

/** Pushes the project again with function `name` added to src/core/db.ts; the committed upload. */
async function pushWithFunction(name: string): Promise<{ id: string }> {
  const changed = { ...FILES, 'src/core/db.ts': `${FILES['src/core/db.ts']}\nexport function ${name}(): number {\n  return 3;\n}\n` };
  const r = await rest('index', { project: 'db-symbol-plans', files: Object.entries(changed).map(([path, content]) => ({ path, content })) });
  expect(r.status).toBe(200);
  const upload = await DB.prepare("SELECT id FROM uploads WHERE project_id = ?1 AND status = 'committed' ORDER BY created_at DESC LIMIT 1")
    .bind(project.id)
    .first<{ id: string }>();
  if (!upload) throw new Error('no committed upload');
  return upload;
}

beforeAll(async () => {
  project = await indexProject('db-symbol-plans', FILES);
});

describe('symbols by file seek the id index', () => {
  it('reads a file’s symbols, its nested symbols and line overlaps through one id range per file', async () => {
    const { d1, seen } = recording();
    const rows = await fileSymbols(d1, project.id, 'src/core/db.ts');
    expect(rows.map((r) => r.id)).toEqual(['src/core/db.ts::query#Function', 'src/core/db.ts::run#Function', 'src/core/db.ts::orphan#Function', 'src/core/db.ts::main#Function']);
    // The file's outline rides as a JSON column of its row: the symbols fileSymbols reads, in the same order, each with
    // the fields read needs and no other.
    for (const path of ['src/api/users.ts', 'src/core/db.ts']) {
      const { file, symbols } = await fileWithSymbols(d1, project.id, path, true);
      expect(file?.path).toBe(path);
      const full = await fileSymbols(DB, project.id, path);
      expect(full.length).toBeGreaterThan(0);
      expect(symbols).toStrictEqual(
        full.map(({ id, file_path, name, qualified_name, kind, start_line, end_line, start_byte, end_byte }) => ({ id, file_path, name, qualified_name, kind, start_line, end_line, start_byte, end_byte })),
      );
    }
    expect((await fileWithSymbols(d1, project.id, 'src/api/users.ts', true)).symbols?.length).toBe(4);
    expect(await fileWithSymbols(d1, project.id, 'src/api/absent.ts', true)).toEqual({ file: null, symbols: [] });
    const nested = await nestedSymbols(d1, project.id, [{ id: 'src/api/users.ts::Users#Class', file_path: 'src/api/users.ts', start_byte: 0, end_byte: 10_000 }], 10);
    expect(nested.map((n) => n.id)).toEqual(['src/api/users.ts::Users.list#Method', 'src/api/users.ts::Users.get#Method', 'src/api/users.ts::handler#Function']);
    const overlap = await symbolsOverlapping(d1, project.id, [{ k: 'a', path: 'src/core/db.ts', start: 2, end: 2 }]);
    expect(overlap.map((o) => o.id)).toEqual(['src/core/db.ts::query#Function']);
    expect((await filesWithTests(d1, project.id, ['src/core/db.ts', 'test/users.test.ts'])).has('src/core/db.ts')).toBe(false);
    expectRangeSeeks(await symbolPlans(seen), 5);
  });

  it('reads a file’s siblings (neighborhood by id) through its id range, with only the columns neighborhood shows', async () => {
    const { d1, seen } = recording();
    for (const path of ['src/api/users.ts', 'src/core/db.ts']) {
      const full = await fileSymbols(DB, project.id, path);
      expect(full.length).toBeGreaterThan(0);
      expect(await fileSymbolColumns(d1, project.id, path, SIBLING_COLUMNS)).toStrictEqual(
        full.map(({ id, name, kind, parent, signature, start_line, end_line, start_byte, end_byte }) => ({ id, name, kind, parent, signature, start_line, end_line, start_byte, end_byte })),
      );
    }
    expect(await fileSymbolColumns(d1, project.id, 'src/api/absent.ts', SIBLING_COLUMNS)).toEqual([]);
    expectRangeSeeks(await symbolPlans(seen), 3);
  });

  it('reads the symbols of the files most likely to define a name (neighborhood by name) through one id range per file', async () => {
    const { d1, seen } = recording();
    const rows = await likelyFileSymbols(d1, project.id, [namePick('query'), namePick('Users')], 3);
    expect([...new Set(rows.map((r) => r.file_path))].sort()).toEqual(['src/api/users.ts', 'src/core/db.ts']);
    const full = await fileSymbols(DB, project.id, 'src/core/db.ts');
    expect(rows.filter((r) => r.file_path === 'src/core/db.ts')).toStrictEqual(
      full.map(({ id, name, kind, parent, signature, start_line, end_line, start_byte, end_byte, file_path, file_size }) => ({ id, name, kind, parent, signature, start_line, end_line, start_byte, end_byte, file_path, file_size })),
    );
    expectRangeSeeks(await symbolPlans(seen), 1);
  });

  it('reads the symbols of a list of files (resolution, SCIP targets) through one id range per file', async () => {
    const { d1, seen } = recording();
    const { symbols } = await scipTargets(d1, project.id, ['src/core/db.ts', 'src/fan/hub.ts', 'src/core/db.ts'], []);
    expect(symbols.map((s) => (s as { id: string }).id).sort()).toEqual([
      'src/core/db.ts::main#Function',
      'src/core/db.ts::orphan#Function',
      'src/core/db.ts::query#Function',
      'src/core/db.ts::run#Function',
      'src/fan/hub.ts::hub#Function',
    ]);
    const row = await DB.prepare('SELECT generation FROM projects WHERE id = ?1').bind(project.id).first<{ generation: number }>();
    const plan = { projectId: project.id, incoming: ['src/api/users.ts', 'src/fan/callers.ts'], deleted: [], added: [], oldSymbols: new Map(), full: false };
    const result = await resolveCommitted(d1, plan, row!.generation, await committedPathsStatement(DB, project.id).all());
    expect(result.edges).toBeGreaterThan(0);
    // scipTargets' symbols, and resolution's symbols (and their signatures) of the refs' files and of the files they import;
    // symbols by name seek symbols_name.
    const plans = await symbolPlans(seen);
    const byName = plans.filter((p) => /\bname IN\b/.test(p.sql));
    for (const p of byName) expect(p.plan.some((d) => /USING INDEX symbols_name/.test(d)), p.plan.join(' | ')).toBe(true);
    expectRangeSeeks(
      plans.filter((p) => !byName.includes(p)),
      3,
    );
  });

  it('reads the replaced files’ old symbols before a push, and drops and rebuilds them in the commit batch, by id range', async () => {
    const upload = await pushWithFunction('extra');
    const { d1, seen } = recording();
    const [changes, generations] = await d1.batch(planResolutionStatements(d1, upload.id));
    const plan = await planResolution(d1, project.id, [changes, generations]);
    expect(plan.full).toBe(false);
    expect([...plan.oldSymbols.keys()]).toEqual(['src/core/db.ts']);
    // The commit's statements, planned as they would run (they are not run here).
    commitStatements(d1, { projectId: project.id, uploadId: upload.id, extractorVersion: EXTRACTOR_VERSION, schemaVersion: SCHEMA_VERSION, ref: null, commitSha: null, now: Date.now() });
    const plans = await symbolPlans(seen);
    // The old symbols' signatures; the held extractions' JSON rebuilt from a holder's rows; the delete of the changed files' rows.
    const byFile = plans.filter((p) => /file_path/.test(p.sql) && !/\bINSERT INTO\b/.test(p.sql) && !/^UPDATE symbol_names/.test(p.sql));
    // Each name's best symbol (name-best.ts), worked out by the name index for the names the commit cleared.
    const best = plans.filter((p) => /^UPDATE symbol_names/.test(p.sql));
    expect(best).toHaveLength(1);
    expect(best[0].plan.some((d) => /SEARCH s USING INDEX symbols_name \(project_id=\? AND name=\?\)/.test(d)), best[0].plan.join(' | ')).toBe(true);
    expect(byFile.map((p) => p.sql.slice(0, 30))).toEqual(['SELECT file_path, id || char(9', 'UPDATE extractions SET symbols', 'DELETE FROM symbols WHERE rowi']);
    expectRangeSeeks(byFile, 3);
    // The rest (the insert from extractions, the project's counts) read no symbols by file.
    for (const p of plans.filter((x) => !byFile.includes(x))) expect(p.plan.filter((d) => TABLE_SCAN.test(d)), p.sql).toEqual([]);
  });

  it('rebuilds the whole graph after a push only for a project indexed under a schema older than INDEX_SCHEMA_VERSION', async () => {
    const upload = await pushWithFunction('another');
    const cases: [number | null, boolean][] = [
      [SCHEMA_VERSION, false],
      [INDEX_SCHEMA_VERSION, false],
      [INDEX_SCHEMA_VERSION - 1, true],
      [null, true],
    ];
    try {
      for (const [version, full] of cases) {
        await DB.prepare('UPDATE projects SET schema_version_at_index = ?2 WHERE id = ?1').bind(project.id, version).run();
        const plan = await planResolution(DB, project.id, await DB.batch(planResolutionStatements(DB, upload.id)) as [D1Result, D1Result]);
        expect(plan.full, `indexed under schema ${version}`).toBe(full);
        // An incremental pass knows the replaced file's old symbols; a full one reads every file anyway.
        expect([...plan.oldSymbols.keys()]).toEqual(full ? [] : ['src/core/db.ts']);
      }
    } finally {
      await DB.prepare('UPDATE projects SET schema_version_at_index = ?2 WHERE id = ?1').bind(project.id, SCHEMA_VERSION).run();
    }
  });
});
