import { describe, expect, it } from 'vitest';
import { commit, fileRows, open, projectRow, push, pySource, rows, scalar, sendFiles, sha256, symbolIds, tsSource } from './support';

describe('content is stored once and shared', () => {
  it('a second project with the same bytes sends nothing and still gets its own symbol rows', async () => {
    const files = { 'src/calc.ts': tsSource('shared'), 'lib/greet.py': pySource('shared') };
    const first = await push('ca-one', files);
    expect(first.sentCount).toBe(2);
    const blobsBefore = await scalar('SELECT count(*) AS n FROM blobs');
    const extractionsBefore = await scalar('SELECT count(*) AS n FROM extractions');

    // Other paths too: content is keyed by hash (and language), not by path or project.
    const second = await push('ca-two', { 'pkg/calc.ts': files['src/calc.ts'], 'pkg/greet.py': files['lib/greet.py'] });
    expect(second.open.status).toBe(201);
    expect(second.open.body.missing).toEqual([]);
    expect(second.open.body.plan).toEqual({ new: 2, changed: 0, unchanged: 0, deleted: 0 });
    expect(second.sentCount).toBe(0);
    expect(second.commit?.status).toBe(200);
    expect(second.commit?.body.files).toMatchObject({ new: 2 });
    expect(second.commit?.body._meta.empty_reason).toBeUndefined();

    expect(await scalar('SELECT count(*) AS n FROM blobs')).toBe(blobsBefore);
    expect(await scalar('SELECT count(*) AS n FROM extractions')).toBe(extractionsBefore);

    const one = await symbolIds('ca-one');
    const two = await symbolIds('ca-two');
    expect(two).toEqual(one.map((id) => id.replace('src/', 'pkg/').replace('lib/', 'pkg/')).sort());
    const p2 = await projectRow('ca-two');
    expect(await scalar('SELECT count(*) AS n FROM symbols WHERE project_id = ?1', p2!.id)).toBe(one.length);
    expect(p2).toMatchObject({ file_count: 2, symbol_count: one.length, generation: 1 });
  });

  it('the two projects stay independent: deleting a file in one leaves the other intact', async () => {
    const files = { 'a.py': pySource('indep a', 'alpha'), 'b.py': pySource('indep b', 'beta') };
    await push('ca-indep-1', files);
    await push('ca-indep-2', files);
    await push('ca-indep-1', { 'a.py': files['a.py'] });
    expect(await symbolIds('ca-indep-1')).toEqual(['a.py::alpha#Function']);
    expect(await symbolIds('ca-indep-2')).toEqual(['a.py::alpha#Function', 'b.py::beta#Function']);
    // The shared content itself stays stored for whoever else uses it.
    expect(await scalar('SELECT count(*) AS n FROM blobs WHERE hash = ?1', await sha256(files['b.py']))).toBe(1);
  });

  it('a push of another ref of the same project with the same bytes sends nothing', async () => {
    const files = { 'src/calc.ts': tsSource('refs') };
    await push('ca-ref', files, { ref: 'main' });
    const r = await push('ca-ref', files, { ref: 'feature/x', commit: 'def456' });
    expect(r.open.body.missing).toEqual([]);
    expect(r.sentCount).toBe(0);
    expect(r.commit?.status).toBe(200);
    expect(await projectRow('ca-ref')).toMatchObject({ ref: 'feature/x', commit_sha: 'def456' });
    expect(await symbolIds('ca-ref')).toContain('src/calc.ts::Calc.plus#Method');
  });

  it('identical files under two paths in one push: the hash is asked for once, sent once, and both paths are indexed', async () => {
    const text = pySource('twin', 'twin');
    const hash = await sha256(text);
    const o = await open('ca-twins', { 'a/util.py': text, 'b/util.py': text });
    expect(o.status).toBe(201);
    expect(o.body.missing).toEqual([hash]);
    expect(o.body.plan).toEqual({ new: 2, changed: 0, unchanged: 0, deleted: 0 });

    const s = await sendFiles('ca-twins', o.body.upload_id, { 'a/util.py': text });
    expect(s.status).toBe(200);
    const c = await commit('ca-twins', o.body.upload_id);
    expect(c.status).toBe(200);
    expect(c.body.files).toMatchObject({ new: 2 });

    expect(await symbolIds('ca-twins')).toEqual(['a/util.py::twin#Function', 'b/util.py::twin#Function']);
    expect((await fileRows('ca-twins')).map((f) => [f.path, f.hash, f.status])).toEqual([
      ['a/util.py', hash, 'indexed'],
      ['b/util.py', hash, 'indexed'],
    ]);
    expect(await rows('SELECT hash FROM blobs WHERE hash = ?1', hash)).toHaveLength(1);
  });
});

describe('symbols are stored once: as rows once committed', () => {
  const symbolRows = (project: string) =>
    rows<Record<string, unknown>>(
      `SELECT substr(s.id, length(s.file_path) + 3) AS key, s.name, s.qualified_name, s.kind, s.signature, s.docstring, s.parent, s.is_exported,
              s.is_test, s.start_line, s.end_line, s.start_byte, s.end_byte, s.confidence, s.words, s.declaration
       FROM symbols s JOIN projects p ON p.id = s.project_id WHERE p.name = ?1 ORDER BY key`,
      project,
    );

  it("keeps no second copy of a committed file's symbols in its extraction", async () => {
    const files = { 'src/held.ts': tsSource('held once') };
    await push('ca-held', files);
    expect(await scalar("SELECT count(*) AS n FROM extractions WHERE hash = ?1 AND symbols_json = ''", await sha256(files['src/held.ts']))).toBe(1);
    expect((await symbolIds('ca-held')).length).toBeGreaterThan(0);
  });

  it('a file renamed in one push keeps every symbol field, rebuilt from the rows of the path it left', async () => {
    const content = tsSource('renamed');
    await push('ca-rename', { 'src/old.ts': content });
    const before = await symbolRows('ca-rename');
    const r = await push('ca-rename', { 'src/new.ts': content });
    expect(r.sentCount).toBe(0);
    expect(r.commit?.status).toBe(200);
    const ids = await symbolIds('ca-rename');
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id.startsWith('src/new.ts::'))).toBe(true);
    expect(await symbolRows('ca-rename')).toEqual(before);
  });

  it('content whose last holder a push deletes gets its symbols back when it returns', async () => {
    const content = pySource('returns', 'comeback');
    await push('ca-return', { 'a.py': content, 'b.py': pySource('stays', 'stay') });
    await push('ca-return', { 'b.py': pySource('stays', 'stay') });
    const back = await push('ca-return', { 'a.py': content, 'b.py': pySource('stays', 'stay') });
    expect(back.sentCount).toBe(0);
    expect(await symbolIds('ca-return')).toEqual(['a.py::comeback#Function', 'b.py::stay#Function']);
  });
});
