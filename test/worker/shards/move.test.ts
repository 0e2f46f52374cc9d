import { describe, expect, it } from 'vitest';
import { rest } from '../helpers';
import { commit, open, push, request, sendFiles } from '../upload/support';
import { cancelProjectMove, moveStep, type MoveStepAnswer } from '../../../src/shards/move';
import { MOVE_STALE_MS } from '../../../src/db/project-shard';
import { scheduledGc } from '../../../src/upload/gc';
import { admin, cursor, dump, env, expectMovedIntact, idOf, leftovers, MANY, missingContent, movingTo, placedOn, pushed, SHARDS, stepUntilMoved, storedOn, tableAt, TINY, type Cursor } from './support';

const SOURCE = {
  'src/server.ts': 'export class Server {\n  start(port: number) {\n    return listen(port);\n  }\n}\nexport function listen(port: number) {\n  return port;\n}\n',
  'src/main.ts': "import { Server } from './server';\nexport function main() {\n  return new Server().start(8080);\n}\n",
};

async function counts(shard: number, name: string, projectId?: string): Promise<Record<string, number>> {
  const db = SHARDS[shard];
  const id = projectId ?? (await db.prepare('SELECT id FROM projects WHERE name = ?1').bind(name).first<{ id: string }>())?.id ?? '';
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
    const id = await idOf(from, 'mover');
    expect(before.symbols).toBeGreaterThan(0);
    const report = await moveStep(env as never, 'mover', to, {
      beforeFlip: async () => {
        // The copy is complete on the target (all but the project row, written at the flip), and the old shard still answers.
        expect(await counts(to, 'mover', id)).toEqual(before);
        expect(await storedOn(to, 'mover')).toBe(0);
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
    // A small project moves in one request.
    expect(report).toMatchObject({ project: 'mover', from, to, state: 'moved', progress: { steps: 1 } });
    expect(report.next).toBeUndefined();
    expect(report.progress.queries).toBeLessThanOrEqual(report.progress.query_budget);
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
    expect(moved.body).toMatchObject({ project: 'routed', from, to: 1 - from, state: 'moved' });
    expect(moved.body.copied.files).toBe(2);
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
      moveStep(env as never, 'changing', 1 - from, {
        beforeFlip: async () => {
          // A commit sneaking past the catalog check: the generation changes on the old shard.
          await SHARDS[from].prepare('UPDATE projects SET generation = generation + 1 WHERE name = ?1').bind('changing').run();
        },
      }),
    ).rejects.toMatchObject({ code: 'move_source_changed' });
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

  it('a move forced into many steps by a tiny budget copies the same rows, reads stay on the old shard until the flip and pushes are refused between steps', async () => {
    await pushed('stepped', MANY);
    await pushed('one-step', MANY);
    const from = (await placedOn('stepped')) as number;
    const to = 1 - from;
    const before = await dump(from, 'stepped');
    const oneFrom = (await placedOn('one-step')) as number;
    const oneBefore = await dump(oneFrom, 'one-step');
    expect(before.symbols.length).toBeGreaterThan(30);
    let flippedAt = -1;
    const answers = await stepUntilMoved('stepped', to, TINY, async (a, i) => {
      expect(a.progress.queries, `step ${i}: ${JSON.stringify(a)}`).toBeLessThanOrEqual(TINY);
      expect(a.next).toEqual({ method: 'POST', path: '/v1/admin/projects/stepped/move', body: { shard: to, move: a.move } });
      expect(a.move).toMatch(/^[0-9a-f]{32}$/);
      const search = JSON.stringify((await rest('search', { project: 'stepped', query: 'helper3' })).body);
      expect(search).toContain('helper3');
      if (a.state === 'copying') {
        expect(await placedOn('stepped')).toBe(from);
        expect(a.progress.rows_copied).toBeLessThanOrEqual(a.progress.rows_total_estimate);
        if (i % 8 === 1) {
          const during = await push('stepped', { ...MANY, 'src/new.ts': 'export const n = 1;\n' });
          expect(during.open.status).toBe(409);
          expect(during.open.body.error.code).toBe('project_moving');
        }
      } else {
        // After the flip the new shard answers while the old copy goes.
        if (flippedAt < 0) flippedAt = i;
        expect(a.state).toBe('removing');
        expect(await placedOn('stepped')).toBe(to);
      }
    });
    expect(answers.length).toBeGreaterThan(5);
    expect(flippedAt).toBeGreaterThan(0);
    const copied = answers.map((a) => a.progress.rows_copied);
    expect(copied).toEqual([...copied].sort((a, b) => a - b));
    const last = answers[answers.length - 1];
    expect(last).toMatchObject({ state: 'moved', from, to, progress: { steps: answers.length } });
    expect(last.copied?.symbols).toBe(before.symbols.length);
    expect(await placedOn('stepped')).toBe(to);
    expect(await dump(to, 'stepped')).toEqual(before);
    expect(await storedOn(from, 'stepped')).toBe(0);
    expect((await counts(from, 'stepped')).symbols).toBe(0);
    expect(await missingContent(to, 'stepped')).toBe(0);
    // The same project moved in one request gives the same rows.
    const one = await moveStep(env as never, 'one-step', 1 - oneFrom);
    expect(one).toMatchObject({ state: 'moved', progress: { steps: 1 } });
    expect(await dump(1 - oneFrom, 'one-step')).toEqual(oneBefore);
    expect(Object.fromEntries(Object.entries(await dump(1 - oneFrom, 'one-step')).map(([t, r]) => [t, r.length]))).toEqual(
      Object.fromEntries(Object.entries(before).map(([t, r]) => [t, r.length])),
    );
    const read = await rest('read', { project: 'stepped', path: 'src/m3.ts' });
    expect(JSON.stringify(read.body)).toContain('helper3');
    await pushed('stepped', { ...MANY, 'src/new.ts': 'export const fresh = 1;\n' });
    expect((await counts(to, 'stepped')).files).toBe(Object.keys(MANY).length + 1);
  }, 180_000);

  it('a source change between steps aborts the move with a typed error, and the partial copy is removed', async () => {
    await pushed('drift', MANY);
    const from = (await placedOn('drift')) as number;
    const to = 1 - from;
    for (let i = 0; i < 3; i++) expect((await moveStep(env as never, 'drift', to, { queries: TINY })).state).toBe('copying');
    expect((await counts(to, 'drift', await idOf(from, 'drift'))).files).toBeGreaterThan(0);
    await SHARDS[from].prepare('UPDATE projects SET generation = generation + 1 WHERE name = ?1').bind('drift').run();
    const failed = await admin('POST', '/projects/drift/move', { shard: to });
    expect(failed.status).toBe(409);
    expect(failed.body.error.code).toBe('move_source_changed');
    expect(failed.body.error.suggestion).toBeTruthy();
    expect(await placedOn('drift')).toBe(from);
    expect(await movingTo('drift')).toBeNull();
    expect(await counts(to, 'drift', await idOf(from, 'drift'))).toEqual({ files: 0, symbols: 0, edges: 0, fts: 0 });
    expect(await leftovers(to)).toBe(0);
    expect((await push('drift', MANY)).commit?.status).toBe(200);
  });

  it('the garbage collection finishes removing a partial copy the aborting step left listed', async () => {
    await pushed('aborted', MANY);
    const from = (await placedOn('aborted')) as number;
    const to = 1 - from;
    // Step until symbols are being copied: the partial copy holds files, contents, extractions and some symbols.
    for (let i = 0; i < 30 && !(await moveStep(env as never, 'aborted', to, { queries: TINY })).progress.copied.symbols; i++);
    await SHARDS[from].prepare('UPDATE projects SET generation = generation + 1 WHERE name = ?1').bind('aborted').run();
    // A tiny budget cannot remove the partial copy in the aborting step.
    await expect(moveStep(env as never, 'aborted', to, { queries: TINY })).rejects.toMatchObject({ code: 'move_source_changed', details: { partial_copy_removed: false } });
    expect(await leftovers(to)).toBe(1);
    const id = await idOf(from, 'aborted');
    expect((await SHARDS[to].prepare('SELECT count(*) AS n FROM shard_leftovers WHERE project_id = ?1').bind(id).first<{ n: number }>())?.n).toBe(1);
    await scheduledGc(env as never, Date.now());
    expect(await leftovers(to)).toBe(0);
    expect(await counts(to, 'aborted', id)).toEqual({ files: 0, symbols: 0, edges: 0, fts: 0 });
    // The project itself never left its shard.
    expect((await counts(from, 'aborted')).files).toBe(Object.keys(MANY).length);
  });

  it('an abandoned move is taken over from its cursor by the next step', async () => {
    await pushed('orphan', MANY);
    const from = (await placedOn('orphan')) as number;
    const to = 1 - from;
    const before = await dump(from, 'orphan');
    const first = await moveStep(env as never, 'orphan', to, { queries: TINY });
    const second = await moveStep(env as never, 'orphan', to, { queries: TINY });
    expect(second.progress.rows_copied).toBeGreaterThan(first.progress.rows_copied);
    // Nobody steps it for MOVE_STALE_MS: pushes are accepted again, and the next step takes over.
    await SHARDS[0].prepare('UPDATE project_shards SET move_heartbeat_at = ?2 WHERE name = ?1').bind('orphan', Date.now() - MOVE_STALE_MS - 1).run();
    const shards = await admin('GET', '/shards');
    expect(shards.body.moves.filter((m: { project: string }) => m.project === 'orphan')).toMatchObject([{ project: 'orphan', from, to, state: 'copying', abandoned: true, steps: 2 }]);
    const answers = await stepUntilMoved('orphan', to, 400);
    expect(answers[answers.length - 1]).toMatchObject({ state: 'moved', progress: { steps: 3 } });
    expect(await dump(to, 'orphan')).toEqual(before);
    expect(await storedOn(from, 'orphan')).toBe(0);
  });

  it('cancels a move: pushes are accepted at once and the partial copy is removed', async () => {
    await pushed('cancelled', MANY);
    const from = (await placedOn('cancelled')) as number;
    const to = 1 - from;
    const id = await idOf(from, 'cancelled');
    for (let i = 0; i < 3; i++) await moveStep(env as never, 'cancelled', to, { queries: TINY });
    expect((await counts(to, 'cancelled', id)).files).toBeGreaterThan(0);
    const r = await admin('DELETE', '/projects/cancelled/move');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ project: 'cancelled', shard: from, state: 'cancelled', was_moving_to: to, partial_copy_removed: true });
    expect(await movingTo('cancelled')).toBeNull();
    expect(await counts(to, 'cancelled', id)).toEqual({ files: 0, symbols: 0, edges: 0, fts: 0 });
    expect((await push('cancelled', MANY)).commit?.status).toBe(200);
    const again = await admin('DELETE', '/projects/cancelled/move');
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('move_not_found');
    expect(again.body.error.suggestion).toBeTruthy();
    const direct = await cancelProjectMove(env as never, 'cancelled').catch((e: { code: string }) => e.code);
    expect(direct).toBe('move_not_found');
    const noKey = await admin('DELETE', '/projects/cancelled/move', undefined, 'full');
    expect(noKey.status).toBe(403);
  });

  it('a cancel naming its move ends only that move: another id answers move_not_found and leaves the move going, a bad id is invalid_params', async () => {
    await pushed('cancel-id', MANY);
    const from = (await placedOn('cancel-id')) as number;
    const to = 1 - from;
    const first = await moveStep(env as never, 'cancel-id', to, { queries: TINY });
    const current = first.move as string;
    expect(current).toMatch(/^[0-9a-f]{32}$/);
    const listed = (await admin('GET', '/shards')).body.moves.find((m: { project: string }) => m.project === 'cancel-id');
    expect(listed).toMatchObject({ move: current, from, to, state: 'copying' });
    const other = 'c'.repeat(32);
    const wrong = await admin('DELETE', `/projects/cancel-id/move?move=${other}`);
    expect(wrong.status).toBe(404);
    expect(wrong.body.error).toMatchObject({ code: 'move_not_found', details: { shard: to, move: current } });
    expect(wrong.body.error.suggestion).toContain('GET /v1/admin/shards');
    expect(await movingTo('cancel-id')).toBe(to);
    expect(await cursor(to, 'cancel-id')).not.toBeNull();
    const bad = await admin('DELETE', '/projects/cancel-id/move?move=XYZ');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_params');
    expect(bad.body.error.suggestion).toBeTruthy();
    expect(await movingTo('cancel-id')).toBe(to);
    const r = await admin('DELETE', `/projects/cancel-id/move?move=${current}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ project: 'cancel-id', shard: from, state: 'cancelled', was_moving_to: to });
    expect(await movingTo('cancel-id')).toBeNull();
    expect(await cursor(to, 'cancel-id')).toBeNull();
  });
});

describe('steps of one move racing each other', () => {
  it('a step whose page lost the race to a concurrent step reads the cursor again and goes on from it, writing no row twice', async () => {
    await pushed('racer', MANY);
    const from = (await placedOn('racer')) as number;
    const to = 1 - from;
    const before = await dump(from, 'racer');
    const first = await moveStep(env as never, 'racer', to, { queries: TINY });
    const start = (await cursor(to, 'racer')) as Cursor;
    const pages: { table: string; after_rowid: number; rows: number }[] = [];
    let rival: MoveStepAnswer | undefined;
    let rivalLeft: Cursor | null = null;
    const step = await moveStep(env as never, 'racer', to, {
      queries: 60,
      beforeWrite: async (page) => {
        pages.push(page);
        if (rival) return;
        // Between this step's read of its first page and its write, another step of the same move copies from the same cursor.
        rival = await moveStep(env as never, 'racer', to, { queries: TINY });
        rivalLeft = await cursor(to, 'racer');
      },
    });
    const rivalDone = rival as unknown as MoveStepAnswer;
    const rivalCursor = rivalLeft as unknown as Cursor;
    expect(rivalDone.state).toBe('copying');
    expect(rivalDone.progress.rows_copied).toBeGreaterThan(first.progress.rows_copied);
    // The first page was read at the cursor the step began from; the next one where the rival left it.
    expect(pages[0]).toMatchObject({ table: tableAt(start.table_index), after_rowid: start.after_rowid });
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[1]).toMatchObject({ table: tableAt(rivalCursor.table_index), after_rowid: rivalCursor.after_rowid });
    expect(rivalCursor).not.toEqual(start);
    // The answer is the cursor's true progress, within the step's budget.
    const now = (await cursor(to, 'racer')) as Cursor;
    expect(step.state).toBe('copying');
    expect(step.progress.rows_copied).toBe(Object.values(now.copied).reduce((a, n) => a + n, 0));
    expect(step.progress.copied).toEqual(now.copied);
    expect(step.progress.rows_copied).toBeGreaterThan(rivalDone.progress.rows_copied);
    expect(step.progress.steps).toBe(3);
    expect(step.progress.queries).toBeLessThanOrEqual(60);
    await stepUntilMoved('racer', to, TINY);
    await expectMovedIntact('racer', from, to, before);
  }, 120_000);

  it('steps that each lose a page to a rival keep to their query budget, and the move copies every row once', async () => {
    await pushed('contested', MANY);
    const from = (await placedOn('contested')) as number;
    const to = 1 - from;
    const before = await dump(from, 'contested');
    const answers: MoveStepAnswer[] = [];
    let races = 0;
    for (let i = 0; i < 200; i++) {
      let raced = false;
      const a = await moveStep(env as never, 'contested', to, {
        queries: TINY,
        beforeWrite: async () => {
          if (raced) return;
          raced = true;
          races++;
          const r = await moveStep(env as never, 'contested', to, { queries: TINY });
          expect(r.progress.queries).toBeLessThanOrEqual(TINY);
          if (r.state === 'moved') throw new Error('the rival finished the move');
        },
      });
      answers.push(a);
      expect(a.progress.queries, `step ${i}: ${JSON.stringify(a.progress)}`).toBeLessThanOrEqual(TINY);
      expect(a.progress.query_budget).toBe(TINY);
      if (a.state === 'copying') {
        const now = (await cursor(to, 'contested')) as Cursor;
        expect(a.progress.copied).toEqual(now.copied);
      }
      if (a.state === 'moved') break;
    }
    expect(races).toBeGreaterThan(3);
    expect(answers[answers.length - 1].state).toBe('moved');
    const copied = answers.map((a) => a.progress.rows_copied);
    expect(copied).toEqual([...copied].sort((a, b) => a - b));
    expect(await placedOn('contested')).toBe(to);
    await expectMovedIntact('contested', from, to, before);
  }, 180_000);

  it('a step whose flip a concurrent step made first helps remove the old copy instead of aborting the move', async () => {
    await pushed('flipper', MANY);
    const from = (await placedOn('flipper')) as number;
    const to = 1 - from;
    const before = await dump(from, 'flipper');
    let rival: MoveStepAnswer | undefined;
    const step = await moveStep(env as never, 'flipper', to, {
      beforeFlip: async () => {
        // The copy is complete; another step of the move copies the project row, flips the catalog and starts removing the old copy.
        rival = await moveStep(env as never, 'flipper', to, { queries: TINY });
      },
    });
    expect(rival).toMatchObject({ state: 'removing', from, to });
    expect(['removing', 'moved']).toContain(step.state);
    expect(step.progress.queries).toBeLessThanOrEqual(step.progress.query_budget);
    if (step.state === 'removing') await stepUntilMoved('flipper', to, TINY);
    expect(await placedOn('flipper')).toBe(to);
    await expectMovedIntact('flipper', from, to, before);
    expect(await leftovers(to)).toBe(0);
    expect((await counts(from, 'flipper', (before.projects[0] as { id: string }).id)).files).toBe(0);
    const read = await rest('read', { project: 'flipper', path: 'src/m3.ts' });
    expect(JSON.stringify(read.body)).toContain('helper3');
  }, 120_000);
});
