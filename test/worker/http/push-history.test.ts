import { afterAll, describe, expect, it } from 'vitest';
import { deleteProjects, restCall, send } from '../contract/support';

const PROJECT = 'history-web';
const file = (body: string) => [{ path: 'src/a.ts', content: `export function a() {\n  return ${body};\n}\n` }];

afterAll(async () => {
  await deleteProjects([PROJECT]);
});

describe('GET /v1/projects/{project}/uploads', () => {
  it('lists the pushes newest first with outcome, duration and what changed', async () => {
    expect((await restCall('index', { project: PROJECT, files: file('1') })).status).toBe(200);
    expect((await restCall('index', { project: PROJECT, files: [...file('2'), { path: 'src/b.ts', content: 'export const b = 1;\n' }] })).status).toBe(200);
    const reply = await send(`/v1/projects/${PROJECT}/uploads`);
    expect(reply.status).toBe(200);
    expect(reply.body.project).toBe(PROJECT);
    const [latest, first] = reply.body.uploads;
    expect(reply.body.uploads).toHaveLength(2);
    expect(latest).toMatchObject({ status: 'committed', files: 2, ended_at: expect.any(String) });
    expect(latest.changes).toMatchObject({ new: 1, changed: 1, deleted: 0 });
    expect(first.changes).toMatchObject({ new: 1, changed: 0 });
    expect(latest.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(latest.started_at)).toBeGreaterThanOrEqual(Date.parse(first.started_at));
    expect(reply.body._meta.request_id).toBeTruthy();
  });

  it('shows an open push as open, without an end or duration, and honours limit', async () => {
    const opened = await send(`/v1/projects/${PROJECT}/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ manifest: [], ref: 'feature' }),
    });
    expect(opened.status).toBe(201);
    const reply = await send(`/v1/projects/${PROJECT}/uploads?limit=1`);
    expect(reply.body.uploads).toEqual([expect.objectContaining({ upload_id: opened.body.upload_id, status: 'open', ref: 'feature', ended_at: null, duration_ms: null })]);
    await send(`/v1/projects/${PROJECT}/uploads/${opened.body.upload_id}`, { method: 'DELETE' });
    expect((await send(`/v1/projects/${PROJECT}/uploads?limit=1`)).body.uploads[0].status).toBe('aborted');
  });

  it('answers project_not_found, invalid_project_name and invalid_params as typed errors', async () => {
    expect((await send('/v1/projects/history-missing/uploads')).body.error).toMatchObject({ code: 'project_not_found' });
    expect((await send('/v1/projects/history-missing/uploads')).status).toBe(404);
    expect((await send('/v1/projects/bad%20name/uploads')).status).toBe(422);
    const bad = await send(`/v1/projects/${PROJECT}/uploads?limit=0`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_params');
  });

  it('needs a key when keys are configured, and a read key is enough', async () => {
    const keys = { PINCHER_HTTP_KEY: 'history-full', PINCHER_READ_KEY: 'history-read', PINCHER_ALLOW_OPEN: undefined };
    expect((await send(`/v1/projects/${PROJECT}/uploads`, {}, keys)).status).toBe(401);
    const read = await send(`/v1/projects/${PROJECT}/uploads`, { headers: { authorization: 'Bearer history-read' } }, keys);
    expect(read.status).toBe(200);
  });
});
