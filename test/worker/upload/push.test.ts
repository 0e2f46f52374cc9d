import { describe, expect, it } from 'vitest';
import { EXTRACTOR_VERSION } from '../../../src/extract';
import { SCHEMA_VERSION } from '../../../src/version';
import {
  fileRows,
  projectRow,
  push,
  pySource,
  refRows,
  rows,
  sha256,
  symbolIds,
  symbolRowids,
  tsSource,
} from './support';

const README = '# Title\n\n## Usage\ntext\n';

describe('a first push', () => {
  it('makes files, symbols and references visible at commit, with path::qualified#Kind ids', async () => {
    const files = { 'src/calc.ts': tsSource('first'), 'lib/greet.py': pySource('first'), 'README.md': README };
    const r = await push('push-first', files, { ref: 'main', commit: 'abc123' });
    expect(r.open.status).toBe(201);
    expect(r.open.body.plan).toEqual({ new: 3, changed: 0, unchanged: 0, deleted: 0 });
    expect(r.sent?.status).toBe(200);
    expect(r.sent?.body.accepted).toBe(3);
    expect(r.commit?.status).toBe(200);

    const ids = await symbolIds('push-first');
    expect(ids).toEqual(
      expect.arrayContaining([
        'src/calc.ts::add#Function',
        'src/calc.ts::Calc#Class',
        'src/calc.ts::Calc.plus#Method',
        'lib/greet.py::greet#Function',
        'README.md::Title#Section',
      ]),
    );
    for (const id of ids) expect(id).toMatch(/^[^:]+::.+#[A-Z][a-z]+(~\d+)?$/);

    const add = (await rows('SELECT * FROM symbols WHERE id = ?1', 'src/calc.ts::add#Function'))[0];
    expect(add).toMatchObject({ name: 'add', qualified_name: 'add', kind: 'Function', language: 'typescript', corpus: 'code', start_line: 3, end_line: 5 });
    expect(add.docstring).toContain('Adds numbers');

    const files_ = await fileRows('push-first');
    expect(files_.map((f) => [f.path, f.status, f.language])).toEqual([
      ['README.md', 'indexed', 'markdown'],
      ['lib/greet.py', 'indexed', 'python'],
      ['src/calc.ts', 'indexed', 'typescript'],
    ]);
    const calcFile = files_.find((f) => f.path === 'src/calc.ts')!;
    expect(calcFile.hash).toBe(await sha256(files['src/calc.ts']));
    expect(calcFile.symbol_count).toBe(ids.filter((id) => id.startsWith('src/calc.ts::')).length);

    const refs = await refRows('push-first');
    expect(refs).toEqual(
      expect.arrayContaining([expect.objectContaining({ file_path: 'src/calc.ts', kind: 'call', target: 'add', enclosing: 'src/calc.ts::Calc.plus#Method' })]),
    );

    const p = await projectRow('push-first');
    expect(p).toMatchObject({
      file_count: 3,
      symbol_count: ids.length,
      schema_version_at_index: SCHEMA_VERSION,
      extractor_version: EXTRACTOR_VERSION,
      generation: 1,
      ref: 'main',
      commit_sha: 'abc123',
    });
    expect(p!.indexed_at).not.toBeNull();
    expect(r.commit?.body).toMatchObject({
      project: 'push-first',
      ref: 'main',
      commit: 'abc123',
      files: { new: 3, changed: 0, unchanged: 0, deleted: 0, skipped: 0, failed: 0 },
      symbols: ids.length,
    });
    expect(r.commit?.body._meta.empty_reason).toBeUndefined();
    expect(r.commit?.body._meta.schema_version_at_index).toBe(SCHEMA_VERSION);
  });

  it('feeds symbols_fts: a symbol is found by its name and by a camelCase word of it', async () => {
    const src = `# fts\ndef parseHttpRequest(raw):\n    return raw\n\ndef unrelated():\n    pass\n`;
    const r = await push('push-fts', { 'app/http.py': src });
    expect(r.commit?.status).toBe(200);
    const search = async (match: string) =>
      (
        await rows<{ id: string }>(
          `SELECT s.id FROM symbols_fts JOIN symbols s ON s.rowid = symbols_fts.rowid JOIN projects p ON p.id = s.project_id
           WHERE symbols_fts MATCH ?1 AND p.name = 'push-fts' ORDER BY s.id`,
          match,
        )
      ).map((x) => x.id);
    expect(await search('name:parseHttpRequest')).toEqual(['app/http.py::parseHttpRequest#Function']);
    expect(await search('words:http')).toEqual(['app/http.py::parseHttpRequest#Function']);
    expect(await search('words:request')).toEqual(['app/http.py::parseHttpRequest#Function']);
    const [sym] = await rows<{ words: string }>("SELECT words FROM symbols WHERE id = 'app/http.py::parseHttpRequest#Function'");
    expect(sym.words.split(' ')).toEqual(expect.arrayContaining(['parse', 'http', 'request']));
  });
});

describe('a re-push', () => {
  it('with nothing changed sends nothing, plans all unchanged and commits with incremental_no_change', async () => {
    const files = { 'src/calc.ts': tsSource('again'), 'lib/greet.py': pySource('again') };
    await push('push-again', files);
    const before = await symbolRowids('push-again');
    const gen = (await projectRow('push-again'))!.generation;

    const r = await push('push-again', files);
    expect(r.open.status).toBe(201);
    expect(r.open.body.missing).toEqual([]);
    expect(r.open.body.plan).toEqual({ new: 0, changed: 0, unchanged: 2, deleted: 0 });
    expect(r.sentCount).toBe(0);
    expect(r.commit?.status).toBe(200);
    expect(r.commit?.body._meta.empty_reason).toBe('incremental_no_change');
    expect(r.commit?.body._meta.diagnosis).toMatch(/unchanged/);
    expect(r.commit?.body.files).toMatchObject({ new: 0, changed: 0, unchanged: 2, deleted: 0 });
    // Unchanged files keep their very rows.
    expect(await symbolRowids('push-again')).toEqual(before);
    expect((await projectRow('push-again'))!.generation).toBe(gen + 1);
  });

  it('with one file changed asks only for that hash and replaces only that file\'s symbols', async () => {
    const v1 = { 'src/calc.ts': tsSource('one-change'), 'lib/greet.py': pySource('one-change', 'salute'), 'README.md': README };
    await push('push-one', v1);
    const before = await symbolRowids('push-one');

    const newPy = pySource('one-change v2', 'welcome');
    const v2 = { ...v1, 'lib/greet.py': newPy };
    const r = await push('push-one', v2);
    expect(r.open.body.plan).toEqual({ new: 0, changed: 1, unchanged: 2, deleted: 0 });
    expect(r.open.body.missing).toEqual([await sha256(newPy)]);
    expect(r.sentCount).toBe(1);
    expect(r.commit?.status).toBe(200);
    expect(r.commit?.body._meta.empty_reason).toBeUndefined();

    const after = await symbolRowids('push-one');
    expect(after.has('lib/greet.py::welcome#Function')).toBe(true);
    expect(after.has('lib/greet.py::salute#Function')).toBe(false);
    for (const [id, rowid] of before) {
      if (!id.startsWith('lib/greet.py::')) expect(after.get(id), id).toBe(rowid);
    }
    // The search index follows: the replaced symbol is gone from symbols_fts, its successor is in.
    const fts = async (term: string) =>
      rows(
        `SELECT s.id FROM symbols_fts JOIN symbols s ON s.rowid = symbols_fts.rowid JOIN projects p ON p.id = s.project_id
         WHERE symbols_fts MATCH ?1 AND p.name = 'push-one'`,
        term,
      );
    expect(await fts('name:salute')).toEqual([]);
    // Not even a stale entry left in the FTS index itself (no join to hide it).
    expect(await rows("SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH 'name:salute'")).toEqual([]);
    expect(await fts('name:welcome')).toEqual([{ id: 'lib/greet.py::welcome#Function' }]);
    expect(await fts('name:add')).toEqual([{ id: 'src/calc.ts::add#Function' }]);
    const py = (await fileRows('push-one')).find((f) => f.path === 'lib/greet.py')!;
    expect(py.hash).toBe(await sha256(newPy));
    expect((await projectRow('push-one'))!.generation).toBe(2);
    expect((await projectRow('push-one'))!.symbol_count).toBe(after.size);
  });

  it('deletes at commit a file absent from the manifest: its files, symbols and refs rows are gone', async () => {
    const v1 = { 'src/calc.ts': tsSource('delete'), 'lib/greet.py': pySource('delete') };
    await push('push-delete', v1);
    expect((await refRows('push-delete')).some((r) => r.file_path === 'src/calc.ts')).toBe(true);

    const r = await push('push-delete', { 'lib/greet.py': v1['lib/greet.py'] });
    expect(r.open.body.plan).toEqual({ new: 0, changed: 0, unchanged: 1, deleted: 1 });
    expect(r.commit?.status).toBe(200);
    expect(r.commit?.body.files.deleted).toBe(1);
    expect(r.commit?.body._meta.empty_reason).toBeUndefined();

    expect((await fileRows('push-delete')).map((f) => f.path)).toEqual(['lib/greet.py']);
    expect((await symbolIds('push-delete')).filter((id) => id.startsWith('src/calc.ts'))).toEqual([]);
    expect((await refRows('push-delete')).filter((x) => x.file_path === 'src/calc.ts')).toEqual([]);
    expect(await symbolIds('push-delete')).toEqual(['lib/greet.py::greet#Function']);
    expect(await projectRow('push-delete')).toMatchObject({ file_count: 1, symbol_count: 1 });
  });

  it("with mode 'merge' keeps the files it does not list", async () => {
    const v1 = { 'src/calc.ts': tsSource('merge'), 'lib/greet.py': pySource('merge') };
    await push('push-merge', v1);
    const r = await push('push-merge', { 'lib/extra.py': pySource('merge extra', 'extra') }, { mode: 'merge' });
    expect(r.open.body.plan).toEqual({ new: 1, changed: 0, unchanged: 0, deleted: 0 });
    expect(r.commit?.status).toBe(200);
    expect((await fileRows('push-merge')).map((f) => f.path)).toEqual(['lib/extra.py', 'lib/greet.py', 'src/calc.ts']);
    expect(await symbolIds('push-merge')).toEqual(expect.arrayContaining(['src/calc.ts::add#Function', 'lib/greet.py::greet#Function', 'lib/extra.py::extra#Function']));
    expect((await projectRow('push-merge'))!.file_count).toBe(3);
  });

  it('refuses an unknown mode with invalid_params', async () => {
    const r = await push('push-mode', { 'a.py': pySource('mode') }, { mode: 'append' });
    expect(r.open.status).toBe(400);
    expect(r.open.body.error.code).toBe('invalid_params');
    expect(await projectRow('push-mode')).toBeNull();
  });
});
