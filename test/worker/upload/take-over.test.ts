import { describe, expect, it } from 'vitest';
import { UPLOAD_STALE_MS } from '../../../src/upload/service';
import { checkInvariants } from '../invariants';
import { commit, env, open, post, projectRow, push, pySource, sendFiles, symbolIds, uploadRow } from './support';

const V1 = { 'svc/a.py': pySource('take v1 a', 'alpha'), 'svc/b.py': pySource('take v1 b', 'beta') };
const V2 = { 'svc/a.py': pySource('take v2 a', 'alpha'), 'svc/c.py': pySource('take v2 c', 'gamma') };

/** Ages an upload's heartbeat as if its client died `ms` ago. */
async function silence(uploadId: string, ms: number): Promise<void> {
  await env.DB.prepare('UPDATE uploads SET updated_at = ?2 WHERE id = ?1').bind(uploadId, Date.now() - ms).run();
}

/** A project indexed at V1, and what readers see of it. */
async function indexed(project: string): Promise<string[]> {
  const first = await push(project, V1);
  expect(first.commit?.status).toBe(200);
  return symbolIds(project);
}

/** A push of V2 that dies after `phase`: answers the dead upload's id. */
async function killedAt(project: string, phase: 'open' | 'batch' | 'commit-planned'): Promise<string> {
  const o = await open(project, V2);
  expect(o.status).toBe(201);
  if (phase !== 'open') expect((await sendFiles(project, o.body.upload_id, { 'svc/a.py': V2['svc/a.py'] })).status).toBe(200);
  if (phase === 'commit-planned') expect((await sendFiles(project, o.body.upload_id, { 'svc/c.py': V2['svc/c.py'] })).status).toBe(200);
  return o.body.upload_id;
}

describe('a killed push does not lock its project', { timeout: 60_000 }, () => {
  for (const phase of ['open', 'batch', 'commit-planned'] as const) {
    it(`killed after ${phase}: the old index stays readable, a take-over push succeeds at once with the right counts`, async () => {
      const project = `kill-${phase}`;
      const v1 = await indexed(project);
      const dead = await killedAt(project, phase);
      expect(await symbolIds(project)).toEqual(v1);

      // Without take-over, a live-looking upload still holds the lock…
      const refused = await open(project, V2);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('push_in_progress');
      expect(refused.body.error.suggestion).toMatch(/take.over/);
      expect(refused.body.error.details.upload_id).toBe(dead);

      // …and with it, the next push takes the project over at once.
      const next = await push(project, V2, { take_over: true });
      expect(next.open.status).toBe(201);
      expect(next.open.body.superseded).toBe(dead);
      expect(next.commit?.status).toBe(200);
      expect((await uploadRow(dead))!.status).toBe('superseded');
      expect(await symbolIds(project)).toEqual(['svc/a.py::alpha#Function', 'svc/c.py::gamma#Function']);
      expect(await projectRow(project)).toMatchObject({ file_count: 2, symbol_count: 2, generation: 2 });

      // The dead upload, should its client come back, gets a clear typed error.
      const late = await commit(project, dead);
      expect(late.status).toBe(409);
      expect(late.body.error.code).toBe('upload_superseded');
      expect(late.body.error.suggestion).toBeTruthy();
      expect(await projectRow(project)).toMatchObject({ generation: 2 });
      expect(await checkInvariants()).toEqual([]);
    });
  }

  it('an upload whose heartbeat is older than the stale window is superseded by the next push without asking', async () => {
    await indexed('kill-stale');
    const dead = await killedAt('kill-stale', 'batch');
    await silence(dead, UPLOAD_STALE_MS + 1000);
    const next = await push('kill-stale', V2);
    expect(next.open.status).toBe(201);
    expect(next.open.body.superseded).toBe(dead);
    expect(next.commit?.status).toBe(200);
    const late = await sendFiles('kill-stale', dead, { 'svc/a.py': V2['svc/a.py'] });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('upload_superseded');
    expect(late.body.error.details).toMatchObject({ status: 'superseded' });
    expect(await checkInvariants()).toEqual([]);
  });

  it('every request of an upload renews its heartbeat, so a live push is not taken for dead', async () => {
    await indexed('kill-live');
    const o = await open('kill-live', V2);
    await silence(o.body.upload_id, UPLOAD_STALE_MS - 5_000);
    const before = Date.now();
    expect((await sendFiles('kill-live', o.body.upload_id, { 'svc/a.py': V2['svc/a.py'] })).status).toBe(200);
    expect((await uploadRow(o.body.upload_id))!.updated_at).toBeGreaterThanOrEqual(before);
    expect((await open('kill-live', V2)).status).toBe(409);
  });

  it('take_over must be a boolean', async () => {
    const r = await post('/v1/projects/kill-bad/uploads', { manifest: [], take_over: 'yes' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_params');
  });
});

describe('concurrent pushes never both commit', { timeout: 60_000 }, () => {
  it('the superseded push and its successor commit at the same moment: exactly one applies', async () => {
    await indexed('race-commit');
    const a = await open('race-commit', V2);
    await sendFiles('race-commit', a.body.upload_id, { 'svc/a.py': V2['svc/a.py'], 'svc/c.py': V2['svc/c.py'] });
    const v3 = { ...V2, 'svc/d.py': pySource('race d', 'delta') };
    const b = await open('race-commit', v3, { take_over: true });
    expect(b.status).toBe(201);
    await sendFiles('race-commit', b.body.upload_id, { 'svc/d.py': v3['svc/d.py'] });
    const [ca, cb] = await Promise.all([commit('race-commit', a.body.upload_id), commit('race-commit', b.body.upload_id)]);
    expect(ca.status).toBe(409);
    expect(ca.body.error.code).toBe('upload_superseded');
    expect(cb.status).toBe(200);
    expect(await projectRow('race-commit')).toMatchObject({ generation: 2, file_count: 3, symbol_count: 3 });
    expect(await checkInvariants()).toEqual([]);
  });

  it('many take-over pushes at once: at most one upload stays open and exactly one commit applies per survivor', async () => {
    await indexed('race-many');
    const opens = await Promise.all(Array.from({ length: 5 }, () => open('race-many', V2, { take_over: true })));
    const opened = opens.filter((o) => o.status === 201);
    expect(opened.length).toBeGreaterThanOrEqual(1);
    for (const o of opens.filter((x) => x.status !== 201)) expect(o.body.error.code).toBe('push_in_progress');
    const commits = await Promise.all(
      opened.map(async (o) => {
        await sendFiles('race-many', o.body.upload_id, { 'svc/a.py': V2['svc/a.py'], 'svc/c.py': V2['svc/c.py'] }).catch(() => null);
        return commit('race-many', o.body.upload_id);
      }),
    );
    expect(commits.filter((c) => c.status === 200)).toHaveLength(1);
    for (const c of commits.filter((x) => x.status !== 200)) expect(c.body.error.code).toBe('upload_superseded');
    expect(await projectRow('race-many')).toMatchObject({ generation: 2, file_count: 2, symbol_count: 2 });
    expect(await checkInvariants()).toEqual([]);
  });

  it('a commit that already applied is not undone by a later take-over', async () => {
    await indexed('race-after');
    const a = await push('race-after', V2);
    expect(a.commit?.status).toBe(200);
    const b = await open('race-after', V1, { take_over: true });
    expect(b.status).toBe(201);
    expect(b.body.superseded).toBeUndefined();
    expect((await uploadRow(a.open.body.upload_id))!.status).toBe('committed');
  });
});
