import { describe, expect, it } from 'vitest';
import {
  FULL_KEY,
  READ_KEY,
  commit,
  mcpCall,
  open,
  projectRow,
  push,
  pySource,
  request,
  sendFiles,
  symbolIds,
  tableCounts,
  tool,
  uploadRow,
} from './support';

const FILES = { 'svc/a.py': pySource('auth a', 'alpha') };

describe('write routes need the full-access key', () => {
  it('the read-only key gets 403 insufficient_scope on open, files, commit and delete, and nothing changes', async () => {
    // An upload opened with the full key, so files/commit/delete have a real target.
    const o = await open('auth-read', FILES, {}, FULL_KEY);
    expect(o.status).toBe(201);
    const id = o.body.upload_id as string;
    const before = await tableCounts();

    const answers = [
      await open('auth-read-other', FILES, {}, READ_KEY),
      await sendFiles('auth-read', id, FILES, READ_KEY),
      await commit('auth-read', id, READ_KEY),
      await request('DELETE', `/v1/projects/auth-read/uploads/${id}`, undefined, READ_KEY),
    ];
    for (const r of answers) {
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('insufficient_scope');
    }
    expect(await tableCounts()).toEqual(before);
    expect((await uploadRow(id))!.status).toBe('open');
    expect(await projectRow('auth-read-other')).toBeNull();

    // Reading the upload's state is allowed.
    const state = await request('GET', `/v1/projects/auth-read/uploads/${id}`, undefined, READ_KEY);
    expect(state.status).toBe(200);
    expect(state.body.status).toBe('open');
  });

  it('the read-only key gets 403 insufficient_scope from the index tool, over REST and MCP', async () => {
    const args = { project: 'auth-tool-read', files: [{ path: 'a.py', content: pySource('auth tool read') }] };
    const before = await tableCounts();
    const rest = await tool('index', args, READ_KEY);
    expect(rest.status).toBe(403);
    expect(rest.body.error.code).toBe('insufficient_scope');

    const rpc = await mcpCall('index', args, READ_KEY);
    expect(rpc.status).toBe(200);
    expect(rpc.body.result.isError).toBe(true);
    expect(JSON.parse(rpc.body.result.content[0].text).error.code).toBe('insufficient_scope');

    const force = await tool('index', { project: 'auth-tool-read', force: true }, READ_KEY);
    expect(force.status).toBe(403);
    expect(force.body.error.code).toBe('insufficient_scope');

    // Call-log rows aside, nothing was written.
    const after = await tableCounts();
    expect(after).toEqual(before);
    expect(await projectRow('auth-tool-read')).toBeNull();
  });

  it('the full key runs the whole protocol and the index tool', async () => {
    const r = await push('auth-full', FILES, {}, FULL_KEY);
    expect(r.open.status).toBe(201);
    expect(r.sent?.status).toBe(200);
    expect(r.commit?.status).toBe(200);
    expect(await symbolIds('auth-full')).toEqual(['svc/a.py::alpha#Function']);

    const o = await open('auth-full', { 'svc/b.py': pySource('auth b', 'beta') }, { mode: 'merge' }, FULL_KEY);
    const d = await request('DELETE', `/v1/projects/auth-full/uploads/${o.body.upload_id}`, undefined, FULL_KEY);
    expect(d.status).toBe(200);
    expect(d.body.status).toBe('aborted');

    const t = await tool('index', { project: 'auth-full-tool', files: [{ path: 'a.py', content: pySource('auth full tool', 'gamma') }] }, FULL_KEY);
    expect(t.status).toBe(200);
    expect(t.body.result.done).toBe(true);
    expect(await symbolIds('auth-full-tool')).toEqual(['a.py::gamma#Function']);

    const m = await mcpCall('index', { project: 'auth-full-mcp', files: [{ path: 'a.py', content: pySource('auth full mcp', 'delta') }] }, FULL_KEY);
    expect(m.body.result.isError).toBeUndefined();
    expect(await symbolIds('auth-full-mcp')).toEqual(['a.py::delta#Function']);
  });

  it('no key (or a wrong one) is 401 unauthorized on every upload route and the index tool', async () => {
    const o = await open('auth-none', FILES, {}, FULL_KEY);
    const id = o.body.upload_id as string;
    const before = await tableCounts();
    for (const key of [null, 'wrong-key']) {
      const answers = [
        await open('auth-none-other', FILES, {}, key),
        await sendFiles('auth-none', id, FILES, key),
        await commit('auth-none', id, key),
        await request('GET', `/v1/projects/auth-none/uploads/${id}`, undefined, key),
        await request('DELETE', `/v1/projects/auth-none/uploads/${id}`, undefined, key),
        await tool('index', { project: 'auth-none-other', force: true }, key),
      ];
      for (const r of answers) {
        expect(r.status).toBe(401);
        expect(r.body.error.code).toBe('unauthorized');
      }
    }
    expect(await tableCounts()).toEqual(before);
    expect((await uploadRow(id))!.status).toBe('open');
  });
});
