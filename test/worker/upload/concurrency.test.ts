import { describe, expect, it } from 'vitest';
import { UPLOAD_TTL_MS } from '../../../src/upload/service';
import { commit, env, open, push, pySource, rows, sendFiles, uploadRow } from './support';

const FILES = { 'svc/a.py': pySource('conc a', 'alpha') };

async function setExpiry(uploadId: string, at: number): Promise<void> {
  await env.DB.prepare('UPDATE uploads SET expires_at = ?2 WHERE id = ?1').bind(uploadId, at).run();
}

describe('one push per project at a time', () => {
  it('a second open while one is open is 409 push_in_progress naming the holder', async () => {
    const first = await open('conc-held', FILES);
    expect(first.status).toBe(201);
    const second = await open('conc-held', FILES);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('push_in_progress');
    expect(second.body.error.details.upload_id).toBe(first.body.upload_id);
    expect(second.body.error.details.expires_at).toBe(first.body.expires_at);
    // The refused open left no upload behind.
    expect(await rows("SELECT u.id FROM uploads u JOIN projects p ON p.id = u.project_id WHERE p.name = 'conc-held'")).toHaveLength(1);
  });

  it('the lock is released by commit: the next open succeeds', async () => {
    const first = await push('conc-release', FILES);
    expect(first.commit?.status).toBe(200);
    const next = await open('conc-release', FILES);
    expect(next.status).toBe(201);
  });

  it('an expired open upload no longer blocks, and is itself no longer usable', async () => {
    const stale = await open('conc-expired', FILES);
    expect(stale.status).toBe(201);
    await setExpiry(stale.body.upload_id, Date.now() - 1000);

    const fresh = await open('conc-expired', FILES);
    expect(fresh.status).toBe(201);
    expect(fresh.body.upload_id).not.toBe(stale.body.upload_id);
    expect((await uploadRow(stale.body.upload_id))!.status).toBe('expired');

    const late = await sendFiles('conc-expired', stale.body.upload_id, FILES);
    expect(late.status).toBe(404);
    expect(late.body.error.code).toBe('upload_not_found');
    expect(late.body.error.details.status).toBe('expired');

    await sendFiles('conc-expired', fresh.body.upload_id, FILES);
    expect((await commit('conc-expired', fresh.body.upload_id)).status).toBe(200);
  });

  it('an upload past its expiry is refused even before another push marks it expired', async () => {
    const o = await open('conc-idle', FILES);
    await setExpiry(o.body.upload_id, Date.now() - 1000);
    const c = await commit('conc-idle', o.body.upload_id);
    expect(c.status).toBe(404);
    expect(c.body.error.code).toBe('upload_not_found');
    expect(c.body.error.details.status).toBe('expired');
  });

  it('sending content counts as activity: it pushes the expiry 15 minutes out again', async () => {
    const o = await open('conc-touch', FILES);
    await setExpiry(o.body.upload_id, Date.now() + 5_000);
    const before = Date.now();
    expect((await sendFiles('conc-touch', o.body.upload_id, FILES)).status).toBe(200);
    const row = await uploadRow(o.body.upload_id);
    expect(row!.expires_at).toBeGreaterThanOrEqual(before + UPLOAD_TTL_MS);
  });

  it('two opens at once on a new project: exactly one 201 and one 409 naming the winner', async () => {
    const [a, b] = await Promise.all([open('conc-race', FILES), open('conc-race', FILES)]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([201, 409]);
    const winner = a.status === 201 ? a : b;
    const loser = a.status === 201 ? b : a;
    expect(loser.body.error.code).toBe('push_in_progress');
    expect(loser.body.error.details.upload_id).toBe(winner.body.upload_id);
    expect(await rows("SELECT id FROM projects WHERE name = 'conc-race'")).toHaveLength(1);
    expect(await rows("SELECT u.id FROM uploads u JOIN projects p ON p.id = u.project_id WHERE p.name = 'conc-race' AND u.status = 'open'")).toHaveLength(1);
  });

  it('many opens at once on an indexed project: exactly one wins', async () => {
    await push('conc-race-many', FILES);
    const answers = await Promise.all(Array.from({ length: 6 }, () => open('conc-race-many', FILES)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(5);
  });
});
