import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../invariants';
import { commit, fileRows, open, push, pySource, rows, scalar, sendFiles, sha256 } from './support';

const BLANK = '\n  \n\t\n';
const LIST = '[1, 2, 3]\n';

/** A Python package as real ones look: empty markers, blank stubs, the same bytes as code and as data. */
const TREE: Record<string, string> = {
  'pkg/__init__.py': '',
  'pkg/py.typed': '',
  'pkg/.gitkeep': '',
  'docs/empty.txt': '',
  'docs/empty.md': '',
  'data/empty.json': '',
  'pkg/blank.py': BLANK,
  'pkg/blank.pyi': BLANK,
  'docs/blank.md': BLANK,
  'notes/blank.txt': BLANK,
  'pkg/values.py': LIST,
  'data/values.json': LIST,
  'docs/values.md': LIST,
  'notes/values.txt': LIST,
  'pkg/core.py': pySource('cross-language core', 'core'),
};

const LANGUAGE: Record<string, string> = { py: 'python', pyi: 'python', json: 'json', md: 'markdown' };
const languageOf = (path: string) => LANGUAGE[path.split('.').pop() ?? ''] ?? 'none';

async function extractionCount(): Promise<number> {
  return scalar('SELECT count(*) AS n FROM extractions');
}

describe('identical bytes under paths of several languages', { timeout: 60_000 }, () => {
  it('a tree of empty, blank and byte-identical files across .py, .pyi, py.typed, .txt, .json and .md pushes and indexes every path', async () => {
    const o = await open('xl-tree', TREE);
    expect(o.status).toBe(201);
    // Each content is asked for once and travels once (under its first path), whatever the
    // number of languages it is needed as, as the CLI sends it.
    const once = new Map<string, string>();
    for (const path of Object.keys(TREE)) if (!once.has(TREE[path])) once.set(TREE[path], path);
    expect(o.body.missing).toHaveLength(once.size);
    const sent = await sendFiles('xl-tree', o.body.upload_id, Object.fromEntries([...once].map(([text, path]) => [path, text])));
    expect(sent.status).toBe(200);
    expect(sent.body.accepted).toBe(once.size);
    const c = await commit('xl-tree', o.body.upload_id);
    expect(c.status).toBe(200);
    expect(c.body.files).toMatchObject({ new: Object.keys(TREE).length, changed: 0, deleted: 0 });

    const files = await fileRows('xl-tree');
    expect(files.map((f) => f.path)).toEqual(Object.keys(TREE).sort());
    for (const f of files) {
      expect(f.language, f.path).toBe(languageOf(f.path));
      expect(f.hash).toBe(await sha256(TREE[f.path]));
      expect(f.size).toBe(new TextEncoder().encode(TREE[f.path]).length);
    }
    expect((await rows<{ id: string }>("SELECT s.id FROM symbols s JOIN projects p ON p.id = s.project_id WHERE p.name = 'xl-tree' AND s.file_path = 'pkg/core.py'")).map((s) => s.id)).toContain('pkg/core.py::core#Function');
    // One extraction per (content, language) the tree needs.
    for (const path of Object.keys(TREE)) {
      const n = await scalar('SELECT count(*) AS n FROM extractions WHERE hash = ?1 AND language = ?2', await sha256(TREE[path]), languageOf(path));
      expect(n, path).toBe(1);
    }
    const emptyHash = await sha256('');
    expect((await rows<{ language: string }>('SELECT language FROM extractions WHERE hash = ?1 ORDER BY language', emptyHash)).map((e) => e.language)).toEqual(
      ['json', 'markdown', 'none', 'python'],
    );
    expect(await checkInvariants()).toEqual([]);
  });

  it('a re-push of the same tree is incremental: nothing asked for, sent or extracted again', async () => {
    await push('xl-again', TREE);
    const extractions = await extractionCount();
    const blobs = await scalar('SELECT count(*) AS n FROM blobs');
    const stamps = await rows('SELECT hash, language, created_at FROM extractions ORDER BY hash, language');

    const again = await push('xl-again', TREE);
    expect(again.open.body.missing).toEqual([]);
    expect(again.open.body.plan).toEqual({ new: 0, changed: 0, unchanged: Object.keys(TREE).length, deleted: 0 });
    expect(again.sentCount).toBe(0);
    expect(again.commit?.status).toBe(200);
    expect(again.commit?.body._meta.empty_reason).toBe('incremental_no_change');
    expect(await extractionCount()).toBe(extractions);
    expect(await scalar('SELECT count(*) AS n FROM blobs')).toBe(blobs);
    expect(await rows('SELECT hash, language, created_at FROM extractions ORDER BY hash, language')).toEqual(stamps);

    // One file changes: only its content travels.
    const edited = { ...TREE, 'pkg/core.py': pySource('cross-language core v2', 'core') };
    const one = await push('xl-again', edited);
    expect(one.open.body.missing).toEqual([await sha256(edited['pkg/core.py'])]);
    expect(one.open.body.plan).toMatchObject({ changed: 1, unchanged: Object.keys(TREE).length - 1 });
    expect(one.sentCount).toBe(1);
    expect(one.commit?.status).toBe(200);
    expect(await extractionCount()).toBe(extractions + 1);
    expect(await checkInvariants()).toEqual([]);
  });

  it('content already held for one language is asked for again when a push needs it as another', async () => {
    const list = '[4, 5]\n';
    await push('xl-held-1', { 'a.py': list });
    const o = await open('xl-held-2', { 'a.py': list, 'b.json': list });
    expect(o.body.missing).toEqual([await sha256(list)]);
    // Sent under its Python path, it is extracted for JSON too.
    expect((await sendFiles('xl-held-2', o.body.upload_id, { 'a.py': list })).status).toBe(200);
    const c = await commit('xl-held-2', o.body.upload_id);
    expect(c.status).toBe(200);
    expect((await fileRows('xl-held-2')).map((f) => [f.path, f.language])).toEqual([['a.py', 'python'], ['b.json', 'json']]);
    expect(await checkInvariants()).toEqual([]);
  });

  it('the same content sent twice in one batch under two languages is stored once', async () => {
    const text = 'same words\n';
    const o = await open('xl-both', { 'a.md': text, 'b.txt': text });
    const s = await sendFiles('xl-both', o.body.upload_id, { 'a.md': text, 'b.txt': text });
    expect(s.status).toBe(200);
    expect(s.body.accepted).toBe(2);
    expect((await commit('xl-both', o.body.upload_id)).status).toBe(200);
    expect(await scalar('SELECT count(*) AS n FROM blobs WHERE hash = ?1', await sha256(text))).toBe(1);
    expect(await checkInvariants()).toEqual([]);
  });
});
