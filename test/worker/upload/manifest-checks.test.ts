import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../invariants';
import { commit, fileRows, open, post, push, pySource, rows, sha256, tableCounts, tool, uploadRow } from './support';

describe('declared sizes are checked against the bytes', { timeout: 60_000 }, () => {
  it('a batch whose content is not the size the manifest declared is 422 size_mismatch and writes nothing', async () => {
    const text = pySource('size lie');
    const o = await post('/v1/projects/size-lie/uploads', { manifest: [{ path: 'a.py', hash: await sha256(text), size: 999_999_999_999 }] });
    expect(o.status).toBe(201);
    const before = await tableCounts();
    const s = await post(`/v1/projects/size-lie/uploads/${o.body.upload_id}/files`, { files: [{ path: 'a.py', hash: await sha256(text), content: text }] });
    expect(s.status).toBe(422);
    expect(s.body.error.code).toBe('size_mismatch');
    expect(s.body.error.suggestion).toMatch(/size/);
    expect(s.body.error.details).toMatchObject({ path: 'a.py', declared: 999_999_999_999, received: new TextEncoder().encode(text).length });
    expect(await tableCounts()).toEqual(before);
    // Nothing arrived, so the commit cannot happen either.
    expect((await commit('size-lie', o.body.upload_id)).body.error.code).toBe('upload_incomplete');
  });

  it('a manifest declaring a wrong size for content the server already holds is refused at open, and the lock is released', async () => {
    const text = pySource('size held');
    await push('size-held-a', { 'a.py': text });
    const o = await post('/v1/projects/size-held-b/uploads', { manifest: [{ path: 'b.py', hash: await sha256(text), size: 22 }] });
    expect(o.status).toBe(422);
    expect(o.body.error.code).toBe('size_mismatch');
    expect(o.body.error.details).toMatchObject({ path: 'b.py', declared: 22 });
    expect(await rows("SELECT u.status FROM uploads u JOIN projects p ON p.id = u.project_id WHERE p.name = 'size-held-b'")).toEqual([{ status: 'aborted' }]);
    const again = await push('size-held-b', { 'b.py': text });
    expect(again.commit?.status).toBe(200);
    expect((await fileRows('size-held-b'))[0].size).toBe(new TextEncoder().encode(text).length);
  });

  it('two paths with the same hash but different sizes are an invalid manifest', async () => {
    const text = pySource('size twins');
    const hash = await sha256(text);
    const o = await post('/v1/projects/size-twins/uploads', {
      manifest: [
        { path: 'a.py', hash, size: text.length },
        { path: 'b.py', hash, size: text.length + 1 },
      ],
    });
    expect(o.status).toBe(422);
    expect(o.body.error.code).toBe('invalid_manifest');
    expect(o.body.error.message).toMatch(/b\.py/);
  });
});

describe('paths differing only in letter case', { timeout: 60_000 }, () => {
  it('a manifest with two paths that differ only in case is refused before anything is written', async () => {
    const before = await tableCounts();
    const o = await open('case-clash', { 'src/Util.py': pySource('case 1'), 'src/util.py': pySource('case 2') });
    expect(o.status).toBe(422);
    expect(o.body.error.code).toBe('invalid_manifest');
    expect(o.body.error.suggestion).toMatch(/case-insensitive/);
    expect(o.body.error.details).toMatchObject({ path: 'src/util.py', conflicts_with: 'src/Util.py' });
    const after = await tableCounts();
    // Only the (not yet indexed) project row may appear; no upload, no manifest.
    expect({ ...after, projects: 0 }).toEqual({ ...before, projects: 0 });
  });

  it('folders differing only in case clash too', async () => {
    const o = await open('case-folders', { 'Src/a.py': pySource('f1'), 'src/b.py': pySource('f2'), 'src/a.py': pySource('f3') });
    expect(o.status).toBe(422);
    expect(o.body.error.code).toBe('invalid_manifest');
  });

  it('a merge (index tool) adding a path that differs only in case from a stored one is refused; the index stays', async () => {
    expect((await tool('index', { project: 'case-merge', files: [{ path: 'README.md', content: '# Title\n' }] })).status).toBe(200);
    const r = await tool('index', { project: 'case-merge', files: [{ path: 'Readme.md', content: '# Other\n' }] });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('invalid_manifest');
    expect(r.body.error.details).toMatchObject({ path: 'Readme.md', conflicts_with: 'README.md' });
    expect((await fileRows('case-merge')).map((f) => f.path)).toEqual(['README.md']);
    // Re-sending the stored path itself is fine.
    expect((await tool('index', { project: 'case-merge', files: [{ path: 'README.md', content: '# Title 2\n' }] })).status).toBe(200);
    expect(await checkInvariants()).toEqual([]);
  });

  it('a replace push may rename a file to another case: the old path goes, the new one comes', async () => {
    await push('case-rename', { 'Util.py': pySource('rename') });
    const r = await push('case-rename', { 'util.py': pySource('rename') });
    expect(r.commit?.status).toBe(200);
    expect((await fileRows('case-rename')).map((f) => f.path)).toEqual(['util.py']);
    expect((await uploadRow(r.open.body.upload_id))!.status).toBe('committed');
  });
});
