import { describe, expect, it } from 'vitest';
import { rest } from '../helpers';
import { commit, open, push, request, sendFiles } from '../upload/support';
import { moveProject } from '../../../src/shards/move';
import { admin, env, placedOn, pushed, SHARDS, storedOn } from './support';

const SOURCE = {
  'src/server.ts': 'export class Server {\n  start(port: number) {\n    return listen(port);\n  }\n}\nexport function listen(port: number) {\n  return port;\n}\n',
  'src/main.ts': "import { Server } from './server';\nexport function main() {\n  return new Server().start(8080);\n}\n",
};

async function counts(shard: number, name: string): Promise<Record<string, number>> {
  const db = SHARDS[shard];
  const id = (await db.prepare('SELECT id FROM projects WHERE name = ?1').bind(name).first<{ id: string }>())?.id ?? '';
  const n = async (sql: string) => (await db.prepare(sql).bind(id).first<{ n: number }>())?.n ?? 0;
  return {
    files: await n('SELECT count(*) AS n FROM files WHERE project_id = ?1'),
    symbols: await n('SELECT count(*) AS n FROM symbols WHERE project_id = ?1'),
    edges: await n('SELECT count(*) AS n FROM edges WHERE project_id = ?1'),
    fts: await n('SELECT count(*) AS n FROM symbols_fts WHERE rowid IN (SELECT rowid FROM symbols WHERE project_id = ?1)'),
  };
}

describe('moving a project between shards', () => {
  it('copies the index, keeps the old copy readable and pushes refused until the flip, then serves from the new shard and removes the old copy', async () => {
    await pushed('mover', SOURCE);
    const from = (await placedOn('mover')) as number;
    const to = 1 - from;
    const before = await counts(from, 'mover');
    expect(before.symbols).toBeGreaterThan(0);
    const report = await moveProject(env as never, 'mover', to, {
      beforeFlip: async () => {
        // The copy is complete on the target, and the old shard still answers.
        expect(await counts(to, 'mover')).toEqual(before);
        expect(await placedOn('mover')).toBe(from);
        const read = await rest('search', { project: 'mover', query: 'listen' });
        expect(JSON.stringify(read.body)).toContain('listen');
        const listed = (await rest('list', {})).body.result.projects.filter((p: { name: string }) => p.name === 'mover');
        expect(listed).toHaveLength(1);
        // A push during the move is refused with a typed error and a suggestion.
        const during = await push('mover', { ...SOURCE, 'src/new.ts': 'export const n = 1;\n' });
        expect(during.open.status).toBe(409);
        expect(during.open.body.error.code).toBe('project_moving');
        expect(during.open.body.error.suggestion).toBeTruthy();
      },
    });
    expect(report).toMatchObject({ project: 'mover', from, to });
    expect(await placedOn('mover')).toBe(to);
    expect(await storedOn(from, 'mover')).toBe(0);
    expect((await counts(from, 'mover')).files).toBe(0);
    expect(await counts(to, 'mover')).toEqual(before);
    const after = await rest('search', { project: 'mover', query: 'listen' });
    expect(JSON.stringify(after.body)).toContain('listen');
    const read = await rest('read', { project: 'mover', path: 'src/server.ts' });
    expect(JSON.stringify(read.body)).toContain('class Server');
    // Pushes go to the new shard again.
    await pushed('mover', { ...SOURCE, 'src/new.ts': 'export const fresh = 1;\n' });
    expect(await storedOn(from, 'mover')).toBe(0);
    expect((await counts(to, 'mover')).files).toBe(3);
  });

  it('moves through the admin route and lists the shards with their bytes', async () => {
    await pushed('routed', SOURCE);
    const from = (await placedOn('routed')) as number;
    const moved = await admin('POST', '/projects/routed/move', { shard: 1 - from });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ project: 'routed', from, to: 1 - from });
    expect(await placedOn('routed')).toBe(1 - from);
    const shards = await admin('GET', '/shards');
    expect(shards.status).toBe(200);
    expect(shards.body.shards.map((s: { shard: number }) => s.shard)).toEqual([0, 1]);
    expect(shards.body.shards.every((s: { bytes: number }) => s.bytes > 0)).toBe(true);
    expect(shards.body.moves).toEqual([]);
  });

  it('refuses a move that changed under the copy and leaves the project where it was', async () => {
    await pushed('changing', SOURCE);
    const from = (await placedOn('changing')) as number;
    await expect(
      moveProject(env as never, 'changing', 1 - from, {
        beforeFlip: async () => {
          // A commit sneaking past the catalog check: the generation changes on the old shard.
          await SHARDS[from].prepare('UPDATE projects SET generation = generation + 1 WHERE name = ?1').bind('changing').run();
        },
      }),
    ).rejects.toMatchObject({ code: 'push_in_progress' });
    expect(await placedOn('changing')).toBe(from);
    expect(await storedOn(1 - from, 'changing')).toBe(0);
    expect((await push('changing', SOURCE)).open.status).toBe(201);
  });

  it('answers bad moves with typed errors and suggestions', async () => {
    await pushed('stay', SOURCE);
    const here = (await placedOn('stay')) as number;
    const cases: [unknown, string, number][] = [
      [{ shard: 7 }, 'unknown_shard', 404],
      [{ shard: here }, 'already_on_shard', 409],
      [{ shard: 'one' }, 'invalid_params', 400],
    ];
    for (const [body, code, status] of cases) {
      const r = await admin('POST', '/projects/stay/move', body);
      expect(r.status, code).toBe(status);
      expect(r.body.error.code).toBe(code);
      expect(r.body.error.suggestion).toBeTruthy();
    }
    const unknown = await admin('POST', '/projects/nobody/move', { shard: 1 });
    expect(unknown.body.error.code).toBe('project_not_found');
    expect(unknown.body.error.suggestion).toBeTruthy();
    const noKey = await admin('POST', '/projects/stay/move', { shard: 1 - here }, 'full');
    expect(noKey.status).toBe(403);
    expect(noKey.body.error.code).toBe('insufficient_scope');
    const open = await request('POST', '/v1/admin/projects/stay/move', { shard: 1 - here });
    expect(open.status).toBe(403);
    expect(await placedOn('stay')).toBe(here);
  });

  it('refuses the commit of a push opened before a move began, and lets it be abandoned', async () => {
    await pushed('late-commit', SOURCE);
    const files = { 'src/late.ts': 'export const late = 1;\n' };
    const opened = await open('late-commit', files, { mode: 'merge' });
    expect(opened.status).toBe(201);
    await sendFiles('late-commit', opened.body.upload_id, files);
    // A move starts after the upload opened (the catalog says so on the primary).
    await SHARDS[0].prepare('UPDATE project_shards SET moving_to = 1 - shard, move_heartbeat_at = ?2 WHERE name = ?1').bind('late-commit', Date.now()).run();
    const refused = await commit('late-commit', opened.body.upload_id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('project_moving');
    expect(refused.body.error.suggestion).toBeTruthy();
    const abandoned = await request('DELETE', `/v1/projects/late-commit/uploads/${opened.body.upload_id}`);
    expect(abandoned.status).toBe(200);
    await SHARDS[0].prepare('UPDATE project_shards SET moving_to = NULL, move_heartbeat_at = NULL WHERE name = ?1').bind('late-commit').run();
    const search = await rest('search', { project: 'late-commit', query: 'late' });
    expect(JSON.stringify(search.body)).not.toContain('src/late.ts');
  });

  it('refuses to move a project while a push to it is open', async () => {
    await pushed('busy', SOURCE);
    const from = (await placedOn('busy')) as number;
    const manifest = [{ path: 'src/x.ts', hash: 'a'.repeat(64), size: 3 }];
    const opened = await request('POST', '/v1/projects/busy/uploads', { manifest, mode: 'merge' });
    expect(opened.status).toBe(201);
    const r = await admin('POST', '/projects/busy/move', { shard: 1 - from });
    expect(r.body.error.code).toBe('push_in_progress');
    expect(await placedOn('busy')).toBe(from);
    // The refused move left nothing behind: the push still commits on its shard.
    expect((await SHARDS[0].prepare('SELECT moving_to FROM project_shards WHERE name = ?1').bind('busy').first<{ moving_to: number | null }>())?.moving_to).toBeNull();
  });
});
