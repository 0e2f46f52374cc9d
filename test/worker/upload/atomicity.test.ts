import { describe, expect, it } from 'vitest';
import { commit, fileRows, open, projectRow, push, pySource, request, sendFiles, sha256, symbolIds, symbolRowids, uploadRow } from './support';

/** Two versions of a small tree; `tag` keeps each test's bytes (and hashes) its own. */
const v1 = (tag: string) => ({ 'app/main.py': pySource(`${tag} v1`, 'start'), 'app/util.py': pySource(`${tag} util`, 'helper') });
const v2 = (tag: string) => ({ 'app/main.py': pySource(`${tag} v2`, 'launch'), 'app/new.py': pySource(`${tag} new`, 'fresh') });

describe('the visible index changes only at commit', () => {
  it('an opened upload with its content sent but not committed leaves readers on the previous index', async () => {
    const [V1, V2] = [v1('readers'), v2('readers')];
    await push('atom-readers', V1);
    const before = await symbolRowids('atom-readers');
    const filesBefore = await fileRows('atom-readers');
    const projectBefore = await projectRow('atom-readers');

    const o = await open('atom-readers', V2);
    expect(o.status).toBe(201);
    expect(o.body.plan).toEqual({ new: 1, changed: 1, unchanged: 0, deleted: 1 });
    const s = await sendFiles('atom-readers', o.body.upload_id, V2);
    expect(s.status).toBe(200);
    expect(s.body.symbols).toBe(2);

    expect(await symbolRowids('atom-readers')).toEqual(before);
    expect(await fileRows('atom-readers')).toEqual(filesBefore);
    expect(await projectRow('atom-readers')).toEqual(projectBefore);

    const c = await commit('atom-readers', o.body.upload_id);
    expect(c.status).toBe(200);
    expect(await symbolIds('atom-readers')).toEqual(['app/main.py::launch#Function', 'app/new.py::fresh#Function']);
    expect((await projectRow('atom-readers'))!.generation).toBe(projectBefore!.generation + 1);
  });

  it('DELETE abandons the upload: status aborted, previous index intact, and a new push then works', async () => {
    const [V1, V2] = [v1('abort'), v2('abort')];
    await push('atom-abort', V1);
    const before = await symbolRowids('atom-abort');
    const gen = (await projectRow('atom-abort'))!.generation;

    const o = await open('atom-abort', V2);
    await sendFiles('atom-abort', o.body.upload_id, V2);
    const d = await request('DELETE', `/v1/projects/atom-abort/uploads/${o.body.upload_id}`);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ upload_id: o.body.upload_id, status: 'aborted' });
    expect((await uploadRow(o.body.upload_id))!.status).toBe('aborted');
    const state = await request('GET', `/v1/projects/atom-abort/uploads/${o.body.upload_id}`);
    expect(state.status).toBe(200);
    expect(state.body.status).toBe('aborted');

    expect(await symbolRowids('atom-abort')).toEqual(before);
    expect((await projectRow('atom-abort'))!.generation).toBe(gen);

    // The aborted upload can no longer be used.
    const late = await commit('atom-abort', o.body.upload_id);
    expect(late.status).toBe(404);
    expect(late.body.error.code).toBe('upload_not_found');

    // The lock is released: a fresh push runs end to end (the content sent before is re-used).
    const again = await push('atom-abort', V2);
    expect(again.open.status).toBe(201);
    expect(again.open.body.missing).toEqual([]);
    expect(again.commit?.status).toBe(200);
    expect(await symbolIds('atom-abort')).toEqual(['app/main.py::launch#Function', 'app/new.py::fresh#Function']);
  });

  it('commit with content still missing is 409 upload_incomplete naming it, and changes nothing', async () => {
    const [V1, V2] = [v1('incomplete'), v2('incomplete')];
    await push('atom-incomplete', V1);
    const before = await symbolRowids('atom-incomplete');
    const projectBefore = await projectRow('atom-incomplete');

    const o = await open('atom-incomplete', V2);
    expect(o.body.missing).toHaveLength(2);
    // Send one of the two.
    await sendFiles('atom-incomplete', o.body.upload_id, { 'app/new.py': V2['app/new.py'] });
    const c = await commit('atom-incomplete', o.body.upload_id);
    expect(c.status).toBe(409);
    expect(c.body.error.code).toBe('upload_incomplete');
    expect(c.body.error.details.missing).toEqual([{ path: 'app/main.py', hash: await sha256(V2['app/main.py']) }]);
    expect(c.body.error.details.missing_count).toBe(1);

    expect(await symbolRowids('atom-incomplete')).toEqual(before);
    expect(await projectRow('atom-incomplete')).toEqual(projectBefore);
    expect((await uploadRow(o.body.upload_id))!.status).toBe('open');

    // Still open: sending the rest and committing again succeeds.
    await sendFiles('atom-incomplete', o.body.upload_id, { 'app/main.py': V2['app/main.py'] });
    const c2 = await commit('atom-incomplete', o.body.upload_id);
    expect(c2.status).toBe(200);
    expect(await symbolIds('atom-incomplete')).toEqual(['app/main.py::launch#Function', 'app/new.py::fresh#Function']);
  });

  it('a second commit of the same upload is 404 upload_not_found: it is no longer open', async () => {
    const V1 = v1('twice');
    const o = await open('atom-twice', V1);
    await sendFiles('atom-twice', o.body.upload_id, V1);
    const first = await commit('atom-twice', o.body.upload_id);
    expect(first.status).toBe(200);
    const gen = (await projectRow('atom-twice'))!.generation;

    const second = await commit('atom-twice', o.body.upload_id);
    expect(second.status).toBe(404);
    expect(second.body.error.code).toBe('upload_not_found');
    expect(second.body.error.details).toMatchObject({ status: 'committed' });
    expect((await projectRow('atom-twice'))!.generation).toBe(gen);
    expect((await uploadRow(o.body.upload_id))!.status).toBe('committed');
  });

  it('commits fired at once (a client retrying): exactly one applies, the others are 404 and change nothing', async () => {
    await push('atom-race', { 'app/main.py': pySource('race v0', 'start') });
    const gen = (await projectRow('atom-race'))!.generation;
    // The race is timing-dependent: several rounds, alternating a changed-only push and one that adds a file.
    const ROUNDS = 10;
    for (let round = 1; round <= ROUNDS; round++) {
      const files: Record<string, string> = { 'app/main.py': pySource(`race v${round}`, `run${round}`) };
      if (round % 2 === 0) files[`app/new${round}.py`] = pySource(`race new ${round}`, `fresh${round}`);
      const o = await open('atom-race', files, { mode: 'merge' });
      await sendFiles('atom-race', o.body.upload_id, files);
      const answers = await Promise.all([1, 2, 3].map(() => commit('atom-race', o.body.upload_id)));
      expect(answers.map((a) => a.status).sort(), `round ${round}: ${JSON.stringify(answers.map((a) => a.body.error?.code ?? 'ok'))}`).toEqual([200, 404, 404]);
      for (const a of answers.filter((x) => x.status !== 200)) expect(a.body.error.code).toBe('upload_not_found');
      expect((await projectRow('atom-race'))!.generation, `round ${round}`).toBe(gen + round);
    }
    const ids = await symbolIds('atom-race');
    expect(ids).toContain(`app/main.py::run${ROUNDS}#Function`);
    expect(ids).toHaveLength(1 + ROUNDS / 2);
  }, 60_000);
});
