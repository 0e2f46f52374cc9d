import { beforeAll, describe, expect, it } from 'vitest';
import { rest, mcp } from '../helpers';
import { checkSchema, send, type Json } from '../contract/support';
import { push } from '../upload/support';
import { scheduledGc } from '../../../src/upload/gc';
import { MOVE_STALE_MS } from '../../../src/db/project-shard';
import { cancelProjectMove, moveStep, type CancelAnswer, type MoveStepAnswer } from '../../../src/shards/move';
import { admin, cursor, dump, env, MANY, movingTo, placedOn, pushed, SHARDS, stepUntilMoved, storedOn, TINY } from './support';

/**
 * Interleavings of a move's steps with a cancel and with each other, on two
 * real local databases: a rival request is slipped in at the exact statement
 * where the two can cross, and the project must end fully readable on exactly
 * one shard, the catalog consistent, and each request answering as documented.
 */

let doc: Json;
beforeAll(async () => {
  doc = (await send('/v1/openapi.json')).body;
});

/** `db` running `hook` once, just before the first statement (after `skip` others) whose SQL matches `match` is sent (alone or in a batch). */
function hooked(db: D1Database, match: RegExp, hook: () => Promise<void>, skip = 0): D1Database {
  let fired = false;
  let seen = 0;
  const sqlOf = new WeakMap<object, string>();
  const fire = async (sql: string) => {
    if (fired || !match.test(sql) || seen++ < skip) return;
    fired = true;
    await hook();
  };
  const wrap = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    sqlOf.set(stmt, sql);
    const methods = stmt as unknown as Record<string, (...a: unknown[]) => unknown>;
    for (const m of ['first', 'all', 'run', 'raw']) {
      const call = methods[m].bind(stmt);
      methods[m] = async (...a: unknown[]) => (await fire(sql), call(...a));
    }
    const bind = stmt.bind.bind(stmt);
    methods.bind = (...a: unknown[]) => wrap(bind(...a), sql);
    return stmt;
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'prepare') return (sql: string) => wrap(target.prepare(sql), sql);
      if (key === 'batch')
        return async (stmts: D1PreparedStatement[]) => {
          for (const s of stmts) await fire(sqlOf.get(s) ?? '');
          return target.batch(stmts);
        };
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** The test env with shard `shard`'s database running `hook` before the first statement matching `match`. */
function envHooked(shard: number, match: RegExp, hook: () => Promise<void>): never {
  return { ...(env as object), [shard === 0 ? 'DB' : `DB_SHARD_${shard}`]: hooked(SHARDS[shard], match, hook) } as never;
}

/** `db` counting in `sent` every statement it sends (a batch's one by one). */
function counted(db: D1Database, sent: { n: number }): D1Database {
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const methods = stmt as unknown as Record<string, (...a: unknown[]) => unknown>;
    for (const m of ['first', 'all', 'run', 'raw']) {
      const call = methods[m].bind(stmt);
      methods[m] = (...a: unknown[]) => (sent.n++, call(...a));
    }
    const bind = stmt.bind.bind(stmt);
    methods.bind = (...a: unknown[]) => wrap(bind(...a));
    return stmt;
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'prepare') return (sql: string) => wrap(target.prepare(sql));
      if (key === 'batch') return (stmts: D1PreparedStatement[]) => ((sent.n += stmts.length), target.batch(stmts));
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** The test env with every shard's statements counted in `sent` (shard `hook.shard`'s database first wrapped by `hook.wrap`). */
function envCounted(sent: { n: number }, hook?: { shard: number; wrap: (db: D1Database) => D1Database }): never {
  const db = (shard: number) => counted(hook?.shard === shard ? hook.wrap(SHARDS[shard]) : SHARDS[shard], sent);
  return { ...(env as object), DB: db(0), DB_SHARD_1: db(1) } as never;
}

/** The catalog's flip (finishMove), its cancel (cancelMove), a move's start and heartbeat (beginMove, touchMove), a cursor's read, the old copy's mark and the move's end (its record kept as the finished move's). */
const SQL = {
  flip: /^UPDATE project_shards SET shard = /,
  cancel: /^UPDATE project_shards SET moving_to = NULL, move_heartbeat_at = NULL, move_id = NULL WHERE name = \?1 AND moving_to = /,
  begin: /^UPDATE project_shards SET move_id = CASE/,
  touch: /^UPDATE project_shards SET move_heartbeat_at = /,
  cursorRead: /^SELECT \* FROM project_moves WHERE name = /,
  markOld: /^INSERT OR IGNORE INTO shard_leftovers \(project_id, name, since\) SELECT \?1, \?2, \?4 WHERE NOT EXISTS/,
  forget: /^UPDATE project_moves SET phase = 'moved'/,
  leftoverOfMove: /^INSERT OR IGNORE INTO shard_leftovers \(project_id, name, since\) SELECT project_id, name/,
};

async function rejection(p: Promise<unknown>): Promise<{ code?: string; suggestion?: string; message?: string }> {
  return p.then(
    (v) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(v).slice(0, 300)}`);
    },
    (e: { code?: string; suggestion?: string; message?: string }) => e,
  );
}

/**
 * The project lives on shard `on` alone, the catalog says so and holds no move, no cursor or
 * leftover of it remains, its rows are exactly `before`, and every read surface answers from it.
 */
async function wholeOn(name: string, on: number, before: Record<string, Record<string, unknown>[]>): Promise<void> {
  expect(await placedOn(name)).toBe(on);
  expect(await movingTo(name)).toBeNull();
  expect(await storedOn(on, name)).toBe(1);
  expect(await storedOn(1 - on, name)).toBe(0);
  expect(await dump(on, name)).toEqual(before);
  const id = (before.projects[0] as { id: string }).id;
  const other = (await dump(1 - on, name)) as Record<string, unknown[]>;
  expect(Object.values(other).every((rows) => rows.length === 0)).toBe(true);
  const stray = await SHARDS[1 - on].prepare('SELECT (SELECT count(*) FROM files WHERE project_id = ?1) + (SELECT count(*) FROM symbols WHERE project_id = ?1) AS n').bind(id).first<{ n: number }>();
  expect(stray?.n).toBe(0);
  expect(await cursor(0, name)).toBeNull();
  expect(await cursor(1, name)).toBeNull();
  for (const shard of [0, 1]) expect(await SHARDS[shard].prepare('SELECT count(*) AS n FROM shard_leftovers WHERE name = ?1 OR project_id = ?2').bind(name, id).first<{ n: number }>()).toEqual({ n: 0 });
  const moves = (await admin('GET', '/shards')).body.moves.filter((m: { project: string }) => m.project === name);
  expect(moves).toEqual([]);
  // Every read surface, REST and MCP.
  const search = await rest('search', { project: name, query: 'helper3' });
  expect(search.status).toBe(200);
  expect(JSON.stringify(search.body)).toContain('helper3');
  const read = await rest('read', { project: name, path: 'src/m3.ts' });
  expect(read.status).toBe(200);
  expect(JSON.stringify(read.body)).toContain('return helper3(x) + 3');
  const grep = await rest('grep', { project: name, pattern: 'helper7' });
  expect(JSON.stringify(grep.body)).toContain('src/m7.ts');
  const find = await rest('find', { project: name, pattern: '**/*.ts' });
  expect(JSON.stringify(find.body)).toContain('src/m11.ts');
  const ls = await rest('ls', { project: name });
  expect(JSON.stringify(ls.body)).toContain('src');
  const symbol = await rest('symbol', { project: name, id: 'src/m5.ts::Box5#Class' });
  expect(symbol.status).toBe(200);
  expect(symbol.body._meta.empty_reason).toBeUndefined();
  const listed = (await rest('list', {})).body.result.projects.filter((p: { name: string }) => p.name === name);
  expect(listed).toHaveLength(1);
  const viaMcp = await mcp('tools/call', { name: 'search', arguments: { project: name, query: 'helper3' } });
  expect(viaMcp.body.result.isError ?? false).toBe(false);
  expect(JSON.stringify(viaMcp.body.result)).toContain('helper3');
}

/** Pushes MANY as `name` and answers its shard, the other one and its rows. */
async function setUp(name: string): Promise<{ from: number; to: number; before: Record<string, Record<string, unknown>[]> }> {
  await pushed(name, MANY);
  const from = (await placedOn(name)) as number;
  return { from, to: 1 - from, before: await dump(from, name) };
}

/** Steps the move of `name` with a tiny budget until its catalog flipped (the old copy still being removed). */
async function stepUntilFlipped(name: string, to: number): Promise<MoveStepAnswer> {
  for (let i = 0; i < 300; i++) {
    const a = await moveStep(env as never, name, to, { queries: TINY });
    if (a.state !== 'copying') return a;
  }
  throw new Error('the move did not flip in 300 steps');
}

describe('a cancel racing the flip', () => {
  it('the flip and the whole move land between the cancel reading the catalog and ending the move there: the cancel answers 404 move_not_found and removes nothing', async () => {
    const { from, to, before } = await setUp('cancel-late');
    for (let i = 0; i < 2; i++) expect((await moveStep(env as never, 'cancel-late', to, { queries: TINY })).state).toBe('copying');
    let rival: MoveStepAnswer | undefined;
    const e = await rejection(
      cancelProjectMove(
        envHooked(0, SQL.cancel, async () => {
          rival = await moveStep(env as never, 'cancel-late', to);
        }),
        'cancel-late',
      ),
    );
    expect(rival).toMatchObject({ state: 'moved', from, to });
    expect(e.code).toBe('move_not_found');
    expect(e.suggestion).toBeTruthy();
    await wholeOn('cancel-late', to, before);
    // Cancelling again answers the same, and pushes go to the new shard.
    const again = await admin('DELETE', '/projects/cancel-late/move');
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('move_not_found');
    expect((await push('cancel-late', MANY)).commit?.status).toBe(200);
    expect(await storedOn(from, 'cancel-late')).toBe(0);
  }, 120_000);

  it('the flip lands between the cancel reading the catalog and reading the cursor: the cancel answers 404 move_not_found and the move finishes intact', async () => {
    const { from, to, before } = await setUp('cancel-mid');
    expect((await moveStep(env as never, 'cancel-mid', to, { queries: TINY })).state).toBe('copying');
    let flipped: MoveStepAnswer | undefined;
    const e = await rejection(
      cancelProjectMove(
        envHooked(to, SQL.cursorRead, async () => {
          // The catalog flips; the old copy is still being removed when the cancel goes on.
          flipped = await stepUntilFlipped('cancel-mid', to);
        }),
        'cancel-mid',
      ),
    );
    expect(flipped).toMatchObject({ state: 'removing', from, to });
    expect(e.code).toBe('move_not_found');
    expect(e.suggestion).toBeTruthy();
    expect(await placedOn('cancel-mid')).toBe(to);
    expect(await movingTo('cancel-mid')).toBeNull();
    expect(await dump(to, 'cancel-mid')).toEqual(before);
    const answers = await stepUntilMoved('cancel-mid', to, TINY);
    expect(answers[answers.length - 1]).toMatchObject({ state: 'moved', from, to });
    await wholeOn('cancel-mid', to, before);
  }, 180_000);

  it('a cancel between a step reading a page and writing it: the cancel wins, the step answers 409 project_moving and writes nothing', async () => {
    const { from, to, before } = await setUp('cancel-page');
    expect((await moveStep(env as never, 'cancel-page', to, { queries: TINY })).state).toBe('copying');
    let cancelled: CancelAnswer | undefined;
    const e = await rejection(
      moveStep(env as never, 'cancel-page', to, {
        queries: TINY,
        beforeWrite: async () => {
          cancelled ??= await cancelProjectMove(env as never, 'cancel-page');
        },
      }),
    );
    expect(cancelled).toMatchObject({ state: 'cancelled', shard: from, was_moving_to: to, partial_copy_removed: true });
    expect(e.code).toBe('project_moving');
    expect(e.suggestion).toBeTruthy();
    await wholeOn('cancel-page', from, before);
    expect((await push('cancel-page', MANY)).commit?.status).toBe(200);
  }, 120_000);

  it('a cancel once the copy is complete, before the project row and the flip: the step answers 409 project_moving and the project stays', async () => {
    const { from, to, before } = await setUp('cancel-full');
    let cancelled: CancelAnswer | undefined;
    const e = await rejection(
      moveStep(env as never, 'cancel-full', to, {
        beforeFlip: async () => {
          cancelled = await cancelProjectMove(env as never, 'cancel-full');
        },
      }),
    );
    expect(cancelled).toMatchObject({ state: 'cancelled', shard: from, was_moving_to: to, partial_copy_removed: true });
    expect(e.code).toBe('project_moving');
    await wholeOn('cancel-full', from, before);
  }, 120_000);

  it('a cancel between the project row copied and the flip: the catalog refuses the flip, the step answers 409 project_moving and the copy on the target goes', async () => {
    const { from, to, before } = await setUp('cancel-flip');
    let cancelled: CancelAnswer | undefined;
    const e = await rejection(
      moveStep(
        envHooked(0, SQL.flip, async () => {
          // The target holds the whole copy, its projects row included.
          expect(await storedOn(to, 'cancel-flip')).toBe(1);
          cancelled = await cancelProjectMove(env as never, 'cancel-flip');
        }),
        'cancel-flip',
        to,
      ),
    );
    expect(cancelled).toMatchObject({ state: 'cancelled', shard: from, was_moving_to: to, partial_copy_removed: true });
    expect(e.code).toBe('project_moving');
    await wholeOn('cancel-flip', from, before);
  }, 120_000);

  it('a cancel between the flip and the old copy marked for removal: the cancel answers 404 move_not_found, the step finishes the move', async () => {
    const { from, to, before } = await setUp('cancel-after');
    let refused: { code?: string; suggestion?: string } | undefined;
    const done = await moveStep(
      envHooked(from, SQL.markOld, async () => {
        refused = await rejection(cancelProjectMove(env as never, 'cancel-after'));
      }),
      'cancel-after',
      to,
    );
    expect(refused).toMatchObject({ code: 'move_not_found' });
    expect(refused?.suggestion).toBeTruthy();
    expect(done).toMatchObject({ state: 'moved', from, to });
    await wholeOn('cancel-after', to, before);
  }, 120_000);
});

describe('a new move racing the end of a cancelled one', () => {
  it('a move begun between the cancel ending the move in the catalog and dropping its cursor keeps its cursor and copy, and finishes intact', async () => {
    const { from, to, before } = await setUp('cancel-then-move');
    for (let i = 0; i < 30 && !(await moveStep(env as never, 'cancel-then-move', to, { queries: TINY })).progress.copied.symbols; i++);
    let again: MoveStepAnswer | undefined;
    let held: unknown;
    const cancelled = await cancelProjectMove(
      envHooked(to, /^INSERT OR IGNORE INTO shard_leftovers \(project_id, name, since\) SELECT project_id, name/, async () => {
        // The catalog let go of the cancelled move: a new move to the same shard begins and copies pages.
        for (let i = 0; i < 30 && !again?.progress.copied.symbols; i++) again = await moveStep(env as never, 'cancel-then-move', to, { queries: TINY });
        held = await cursor(to, 'cancel-then-move');
      }),
      'cancel-then-move',
    );
    expect(cancelled).toMatchObject({ state: 'cancelled', shard: from, was_moving_to: to });
    expect(again?.state).toBe('copying');
    expect(held).not.toBeNull();
    // The new move's cursor and pages are still there, and it goes on from them.
    expect(await cursor(to, 'cancel-then-move')).toEqual(held);
    expect(await movingTo('cancel-then-move')).toBe(to);
    const answers = await stepUntilMoved('cancel-then-move', to, TINY);
    expect(answers[0].progress.rows_copied).toBeGreaterThanOrEqual((again as MoveStepAnswer).progress.rows_copied);
    expect(answers[answers.length - 1]).toMatchObject({ state: 'moved', from, to, move: again?.move });
    await wholeOn('cancel-then-move', to, before);
  }, 180_000);
});

describe('a step that loses to a rival finishing the whole move', () => {
  /** The moved answer a step gives when another step finished the move meanwhile, checked against the OpenAPI schema. */
  function expectFinishedElsewhere(a: MoveStepAnswer, from: number, to: number): void {
    expect(a).toMatchObject({ state: 'moved', from, to, finished_by_another_step: true, progress: { table: null } });
    expect(a.next).toBeUndefined();
    expect(a.progress.queries).toBeLessThanOrEqual(a.progress.query_budget);
    const schema = doc.paths['/v1/admin/projects/{project}/move'].post.responses['200'].content['application/json'].schema;
    expect(schema.properties.finished_by_another_step).toBeTruthy();
    expect(checkSchema({ ...schema, required: schema.required.filter((r: string) => r !== '_meta') }, a, doc)).toEqual([]);
  }

  it('between reading a page and writing it', async () => {
    const { from, to, before } = await setUp('lost-page');
    expect((await moveStep(env as never, 'lost-page', to, { queries: TINY })).state).toBe('copying');
    let rival: MoveStepAnswer | undefined;
    const a = await moveStep(env as never, 'lost-page', to, {
      queries: 60,
      beforeWrite: async () => {
        rival ??= await moveStep(env as never, 'lost-page', to);
      },
    });
    expect(rival).toMatchObject({ state: 'moved', progress: { steps: 2 } });
    expectFinishedElsewhere(a, from, to);
    await wholeOn('lost-page', to, before);
  }, 120_000);

  it('between the copy complete and the flip', async () => {
    const { from, to, before } = await setUp('lost-flip');
    let rival: MoveStepAnswer | undefined;
    const a = await moveStep(env as never, 'lost-flip', to, {
      beforeFlip: async () => {
        rival = await moveStep(env as never, 'lost-flip', to);
      },
    });
    expect(rival).toMatchObject({ state: 'moved' });
    expectFinishedElsewhere(a, from, to);
    await wholeOn('lost-flip', to, before);
  }, 120_000);

  it('between a first step reading the catalog and marking the move there', async () => {
    const { from, to, before } = await setUp('lost-begin');
    let rival: MoveStepAnswer | undefined;
    const a = await moveStep(
      envHooked(0, SQL.begin, async () => {
        rival = await moveStep(env as never, 'lost-begin', to);
      }),
      'lost-begin',
      to,
    );
    expect(rival).toMatchObject({ state: 'moved', progress: { steps: 1 } });
    expectFinishedElsewhere(a, from, to);
    await wholeOn('lost-begin', to, before);
  }, 120_000);

  it('between a resumed step reading the catalog and renewing its heartbeat', async () => {
    const { from, to, before } = await setUp('lost-touch');
    expect((await moveStep(env as never, 'lost-touch', to, { queries: TINY })).state).toBe('copying');
    const a = await moveStep(
      envHooked(0, SQL.touch, async () => {
        expect((await moveStep(env as never, 'lost-touch', to)).state).toBe('moved');
      }),
      'lost-touch',
      to,
    );
    expectFinishedElsewhere(a, from, to);
    expect(a.progress.steps).toBe(1);
    await wholeOn('lost-touch', to, before);
  }, 120_000);

  it('between removing the last of the old copy and ending the move', async () => {
    const { from, to, before } = await setUp('lost-removal');
    expect((await stepUntilFlipped('lost-removal', to)).state).toBe('removing');
    const a = await moveStep(
      envHooked(to, SQL.forget, async () => {
        expect((await moveStep(env as never, 'lost-removal', to)).state).toBe('moved');
      }),
      'lost-removal',
      to,
      { queries: TINY },
    );
    expectFinishedElsewhere(a, from, to);
    await wholeOn('lost-removal', to, before);
  }, 180_000);
});

describe('a step restarting a move whose copy another step completed', () => {
  it('a step coming in between the project row copied and the flip joins the complete copy instead of removing it', async () => {
    const { from, to, before } = await setUp('rejoin');
    let second: MoveStepAnswer | undefined;
    const first = await moveStep(
      envHooked(0, SQL.flip, async () => {
        // The copy is complete, the project row in; another step of the move (a retry) arrives before the flip.
        expect(await storedOn(to, 'rejoin')).toBe(1);
        second = await moveStep(env as never, 'rejoin', to, { queries: TINY });
      }),
      'rejoin',
      to,
    );
    // It went on from the complete copy rather than starting afresh.
    expect(second?.progress.copied).toMatchObject({ projects: 1, files: Object.keys(MANY).length });
    expect(['removing', 'moved']).toContain(first.state);
    if (await cursor(to, 'rejoin')) await stepUntilMoved('rejoin', to, TINY);
    await wholeOn('rejoin', to, before);
  }, 120_000);

  it('a first step that read the catalog before the move began and marks it after the copy completed joins the copy', async () => {
    const { from, to, before } = await setUp('rejoin-first');
    let release: () => void = () => {};
    const flipMay = new Promise<void>((r) => (release = r));
    let atFlip: () => void = () => {};
    const copied = new Promise<void>((r) => (atFlip = r));
    let first: Promise<MoveStepAnswer> | undefined;
    // The second step reads the catalog (no move yet); before it marks the move, the first step copies everything and stops short of the flip.
    const second = await moveStep(
      envHooked(0, SQL.begin, async () => {
        first = moveStep(
          envHooked(0, SQL.flip, async () => {
            atFlip();
            await flipMay;
          }),
          'rejoin-first',
          to,
        );
        await copied;
      }),
      'rejoin-first',
      to,
      { queries: TINY },
    );
    release();
    const firstDone = await (first as Promise<MoveStepAnswer>);
    expect(second.progress.copied).toMatchObject({ projects: 1, files: Object.keys(MANY).length });
    expect(['removing', 'moved']).toContain(firstDone.state);
    if (await cursor(to, 'rejoin-first')) await stepUntilMoved('rejoin-first', to, TINY);
    await wholeOn('rejoin-first', to, before);
  }, 120_000);
});

describe('the garbage collection racing a move on the same shard', () => {
  it('a partial copy listed again while the collection ends an old listing of the project keeps its listing and is removed', async () => {
    const { from, to } = await setUp('gc-race');
    // An aborted copy leaves a listed partial copy on the target.
    for (let i = 0; i < 30 && !(await moveStep(env as never, 'gc-race', to, { queries: TINY })).progress.copied.symbols; i++);
    await SHARDS[from].prepare('UPDATE projects SET generation = generation + 1 WHERE name = ?1').bind('gc-race').run();
    expect((await rejection(moveStep(env as never, 'gc-race', to, { queries: TINY }))).code).toBe('move_source_changed');
    const before = await dump(from, 'gc-race');
    const id = (before.projects[0] as { id: string }).id;
    const rowsOnTarget = async () =>
      (await SHARDS[to].prepare('SELECT (SELECT count(*) FROM files WHERE project_id = ?1) + (SELECT count(*) FROM symbols WHERE project_id = ?1) AS n').bind(id).first<{ n: number }>())?.n ?? 0;
    const listedOnTarget = async () => (await SHARDS[to].prepare('SELECT count(*) AS n FROM shard_leftovers WHERE project_id = ?1').bind(id).first<{ n: number }>())?.n ?? 0;
    expect(await listedOnTarget()).toBe(1);

    // The collection removes that copy and is about to drop its listing; meanwhile a new move copies
    // pages and is cancelled, listing its partial copy again; the collection's last write lands
    // between the cancel listing the copy and the cancel reading the list.
    let gcAtLast: () => void = () => {};
    const gcReady = new Promise<void>((r) => (gcAtLast = r));
    let gcGo: () => void = () => {};
    const gcMay = new Promise<void>((r) => (gcGo = r));
    const gc = scheduledGc(
      envHooked(to, /^DELETE FROM shard_leftovers WHERE project_id = /, async () => {
        gcAtLast();
        await gcMay;
      }),
      Date.now(),
    );
    await gcReady;
    expect(await rowsOnTarget()).toBe(0);
    for (let i = 0; i < 30 && !(await moveStep(env as never, 'gc-race', to, { queries: TINY })).progress.copied.symbols; i++);
    expect(await rowsOnTarget()).toBeGreaterThan(0);
    const cancelled = await cancelProjectMove(
      envHooked(to, /^SELECT project_id FROM shard_leftovers WHERE project_id = /, async () => {
        gcGo();
        await gc;
      }),
      'gc-race',
    );
    expect(cancelled).toMatchObject({ state: 'cancelled', shard: from, was_moving_to: to });
    // What this cancel did not remove stays listed, and the next collection removes it.
    if (!cancelled.partial_copy_removed || (await rowsOnTarget()) > 0) expect(await listedOnTarget()).toBe(1);
    await scheduledGc(env as never, Date.now());
    expect(await rowsOnTarget()).toBe(0);
    expect(await listedOnTarget()).toBe(0);
    await wholeOn('gc-race', from, before);
  }, 180_000);
});

describe('a late step of a finished move racing a move back', () => {
  it('a step marking the old copy after a move back into that shard began copying leaves the new copy alone', async () => {
    const { from, to, before } = await setUp('back');
    // The step that flips dies before it marks the old copy for removal.
    const died = await rejection(
      moveStep(
        envHooked(from, SQL.markOld, async () => {
          throw new Error('the step died after the flip');
        }),
        'back',
        to,
      ),
    );
    expect(died.message).toBe('the step died after the flip');
    expect(await placedOn('back')).toBe(to);
    // A retry of that move reads the catalog and its cursor; before it marks the old copy, a move back begins and copies pages into the old shard.
    let back: MoveStepAnswer | undefined;
    const late = await moveStep(
      envHooked(from, SQL.markOld, async () => {
        for (let i = 0; i < 30 && !back?.progress.copied.symbols; i++) back = await moveStep(env as never, 'back', from, { queries: TINY });
      }),
      'back',
      to,
    );
    expect(back?.state).toBe('copying');
    expect(back?.progress.copied.symbols).toBeGreaterThan(0);
    expect(late.state).toBe('moved');
    const answers = await stepUntilMoved('back', from, TINY);
    expect(answers[answers.length - 1]).toMatchObject({ state: 'moved', from: to, to: from });
    await wholeOn('back', from, before);
  }, 180_000);
});

describe('a step dying after the flip, before the old copy went', () => {
  /** Moves `name` to `to` in one step that dies just before it marks the old copy for removal: the catalog flipped, the cursor is left. */
  async function dieAfterFlip(name: string, to: number): Promise<void> {
    const died = await rejection(
      moveStep(
        envHooked(1 - to, SQL.markOld, async () => {
          throw new Error('the step died after the flip');
        }),
        name,
        to,
      ),
    );
    expect(died.message).toBe('the step died after the flip');
    expect(await placedOn(name)).toBe(to);
    expect(await cursor(to, name)).not.toBeNull();
  }

  const movesOf = async (name: string) => (await admin('GET', '/shards')).body.moves.filter((m: { project: string }) => m.project === name);

  /** A cursor of `name` on `to` that is no move in flight: once no step wrote it for 10 minutes, the collection drops it. */
  async function droppedOnceStale(name: string, to: number): Promise<void> {
    expect(await movesOf(name)).toEqual([]);
    await SHARDS[to].prepare('UPDATE project_moves SET updated_at = ?2 WHERE name = ?1').bind(name, Date.now() - MOVE_STALE_MS - 1_000).run();
    const report = await scheduledGc(env as never, Date.now());
    expect(report.moves.dropped).toBeGreaterThanOrEqual(1);
  }

  it('the garbage collection settles it once no step came for 10 minutes: the old copy goes, the cursor ends, and a retry with the move id answers moved', async () => {
    const { from, to, before } = await setUp('died-gc');
    await dieAfterFlip('died-gc', to);
    const id = ((await SHARDS[to].prepare('SELECT move_id FROM project_moves WHERE name = ?1').bind('died-gc').first<{ move_id: string }>()) as { move_id: string }).move_id;
    expect(await storedOn(from, 'died-gc')).toBe(1);
    // Listed as the move still removing the old copy; a collection before 10 minutes leaves it to its steps.
    expect(await movesOf('died-gc')).toMatchObject([{ from, to, state: 'removing', abandoned: false }]);
    await scheduledGc(env as never, Date.now());
    expect(await cursor(to, 'died-gc')).not.toBeNull();
    expect(await storedOn(from, 'died-gc')).toBe(1);
    // No step for 10 minutes: listed as abandoned, and the collection finishes it.
    await SHARDS[to].prepare('UPDATE project_moves SET updated_at = ?2 WHERE name = ?1').bind('died-gc', Date.now() - MOVE_STALE_MS - 1_000).run();
    expect(await movesOf('died-gc')).toMatchObject([{ from, to, state: 'removing', abandoned: true }]);
    const report = await scheduledGc(env as never, Date.now());
    expect(report.moves.settled).toBeGreaterThanOrEqual(1);
    await wholeOn('died-gc', to, before);
    const again = await moveStep(env as never, 'died-gc', to, { move: id });
    expect(again).toMatchObject({ state: 'moved', from, to, move: id, already_moved: true, removed: { projects: 1 } });
  }, 180_000);

  it('the first step of the next move out of that shard settles it: the old copy is listed for removal and the cursor ends before the new move can flip', async () => {
    const { from, to, before } = await setUp('died-next');
    await dieAfterFlip('died-next', to);
    // The next move takes the project back, in small steps; its first step settles the one that died.
    const first = await moveStep(env as never, 'died-next', from, { queries: TINY });
    expect(first.state).toBe('copying');
    expect(await cursor(to, 'died-next')).toBeNull();
    expect(await movesOf('died-next')).toMatchObject([{ from: to, to: from, state: 'copying' }]);
    const answers = await stepUntilMoved('died-next', from, TINY);
    expect(answers[answers.length - 1]).toMatchObject({ state: 'moved', from: to, to: from });
    await wholeOn('died-next', from, before);
  }, 180_000);

  it('a first step at the smallest budget that sends a move id and settles the move that died stays within its budget, and the move goes on from the next step', async () => {
    const { from, to, before } = await setUp('died-budget');
    await dieAfterFlip('died-budget', to);
    const id = 'b'.repeat(32);
    const sent = { n: 0 };
    const first = await moveStep(envCounted(sent), 'died-budget', from, { queries: TINY, move: id });
    expect(sent.n, JSON.stringify(first.progress)).toBeLessThanOrEqual(TINY);
    expect(first.progress.queries).toBe(sent.n);
    expect(first).toMatchObject({ state: 'copying', move: id, from: to, to: from, next: { body: { shard: from, move: id } } });
    // Settled: the cursor of the move that died is its finished record, the old copy listed for removal.
    expect(await cursor(to, 'died-budget')).toBeNull();
    expect(await movingTo('died-budget')).toBe(from);
    // The client follows `next`: its move id starts the cursor and carries the move to its end.
    let last = first;
    for (let i = 0; i < 200 && last.state !== 'moved'; i++) {
      last = await moveStep(env as never, 'died-budget', from, { queries: TINY, move: last.next?.body.move });
      expect(last.progress.queries).toBeLessThanOrEqual(TINY);
    }
    expect(last).toMatchObject({ state: 'moved', move: id, from: to, to: from });
    await wholeOn('died-budget', from, before);
  }, 180_000);

  it('a move whose first step settled the move that died and wrote no cursor yet is listed with its id, and a cancel naming that id ends it', async () => {
    const { from, to, before } = await setUp('died-cancel-id');
    await dieAfterFlip('died-cancel-id', to);
    const id = 'd'.repeat(32);
    const first = await moveStep(env as never, 'died-cancel-id', from, { queries: TINY, move: id });
    expect(first).toMatchObject({ state: 'copying', move: id, from: to, to: from });
    expect(await cursor(from, 'died-cancel-id')).toBeNull();
    expect(await movesOf('died-cancel-id')).toMatchObject([{ move: id, from: to, to: from, state: 'copying' }]);
    // Another id is not that move's; the listed one ends it.
    expect(await rejection(cancelProjectMove(env as never, 'died-cancel-id', { move: 'e'.repeat(32) }))).toMatchObject({ code: 'move_not_found' });
    expect(await movingTo('died-cancel-id')).toBe(from);
    const cancelled = await admin('DELETE', `/projects/died-cancel-id/move?move=${id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ state: 'cancelled', shard: to, was_moving_to: from });
    expect(await movingTo('died-cancel-id')).toBeNull();
    // The old copy the settling listed goes with the collection; the project stays where the move that died put it.
    await scheduledGc(env as never, Date.now());
    await wholeOn('died-cancel-id', to, before);
  }, 180_000);

  it('a cursor of a flipped move whose project the catalog no longer places on its shard is no move in flight, and the collection drops it without touching the live copy', async () => {
    const { from, to, before } = await setUp('died-moved-on');
    await dieAfterFlip('died-moved-on', to);
    // The project went back to its old shard by a move that did not settle the cursor (as before it did).
    await SHARDS[0].prepare('UPDATE project_shards SET shard = ?2 WHERE name = ?1').bind('died-moved-on', from).run();
    await droppedOnceStale('died-moved-on', to);
    await wholeOn('died-moved-on', from, before);
  }, 180_000);

  it('a cancel that dies between ending the move in the catalog and dropping its cursor: the collection drops the cursor and removes the partial copy', async () => {
    const { from, to, before } = await setUp('died-cancel');
    for (let i = 0; i < 30 && !(await moveStep(env as never, 'died-cancel', to, { queries: TINY })).progress.copied.symbols; i++);
    const died = await rejection(
      cancelProjectMove(
        envHooked(to, /^INSERT OR IGNORE INTO shard_leftovers \(project_id, name, since\) SELECT project_id, name/, async () => {
          throw new Error('the cancel died');
        }),
        'died-cancel',
      ),
    );
    expect(died.message).toBe('the cancel died');
    expect(await movingTo('died-cancel')).toBeNull();
    expect(await cursor(to, 'died-cancel')).not.toBeNull();
    // No move in flight; after 10 minutes the collection drops the cursor and removes what the target holds.
    await droppedOnceStale('died-cancel', to);
    await wholeOn('died-cancel', from, before);
  }, 180_000);

  it('a late step of the move that died, marking the old copy after a move back finished, leaves the live copy alone', async () => {
    const { from, to, before } = await setUp('died-late');
    await dieAfterFlip('died-late', to);
    // A retry of the move that died reads the catalog and its cursor; before it marks the old copy, a whole move back runs.
    let back: MoveStepAnswer | undefined;
    const late = await moveStep(
      envHooked(from, SQL.markOld, async () => {
        back = await moveStep(env as never, 'died-late', from);
      }),
      'died-late',
      to,
    );
    expect(back).toMatchObject({ state: 'moved', from: to, to: from });
    expect(late).toMatchObject({ state: 'moved', from, to });
    await wholeOn('died-late', from, before);
  }, 180_000);
});

describe('a cancel racing a move begun since', () => {
  /** Cancels the move of `name` in progress and begins a new one to `to` that copies pages: its last answer. */
  async function cancelAndMoveAgain(name: string, to: number): Promise<MoveStepAnswer | undefined> {
    expect(await cancelProjectMove(env as never, name)).toMatchObject({ state: 'cancelled' });
    let again: MoveStepAnswer | undefined;
    for (let i = 0; i < 30 && !again?.progress.copied.symbols; i++) again = await moveStep(env as never, name, to, { queries: TINY });
    expect(again?.state).toBe('copying');
    return again;
  }

  /** A step of the move of `name` to `to` that finds, at the catalog statement `match`, its move cancelled and a new one begun: its rejection, and the new move's last answer. */
  async function stepMeetingNewMove(name: string, to: number, match: RegExp, opts: { queries?: number } = {}) {
    let again: MoveStepAnswer | undefined;
    const e = await rejection(
      moveStep(
        envHooked(0, match, async () => {
          again = await cancelAndMoveAgain(name, to);
        }),
        name,
        to,
        opts,
      ),
    );
    return { e, again };
  }

  /** The new move `again` holds the catalog and finishes from where it is: `name` ends whole on `to`. */
  async function newMoveFinishes(name: string, from: number, to: number, again: MoveStepAnswer | undefined, before: Record<string, Record<string, unknown>[]>): Promise<MoveStepAnswer[]> {
    expect(await movingTo(name)).toBe(to);
    const answers = await stepUntilMoved(name, to, TINY);
    expect(answers[answers.length - 1]).toMatchObject({ state: 'moved', from, to, move: again?.move });
    await wholeOn(name, to, before);
    return answers;
  }

  for (const named of [true, false]) {
    it(`a cancel ${named ? 'naming its move' : 'without a move id'} whose move another request ended, a new move begun before its catalog write: 404 move_not_found, and the new move keeps the catalog, its cursor and pages`, async () => {
      const name = named ? 'cancel-named' : 'cancel-unnamed';
      const { from, to, before } = await setUp(name);
      let first: MoveStepAnswer | undefined;
      for (let i = 0; i < 30 && !first?.progress.copied.symbols; i++) first = await moveStep(env as never, name, to, { queries: TINY });
      const id = first?.move as string;
      let again: MoveStepAnswer | undefined;
      let held: unknown;
      const refused = await rejection(
        cancelProjectMove(
          envHooked(0, SQL.cancel, async () => {
            // Another request cancels the move this cancel read; a new move to the same shard begins and copies pages.
            again = await cancelAndMoveAgain(name, to);
            held = await cursor(to, name);
          }),
          name,
          named ? { move: id } : {},
        ),
      );
      expect(refused).toMatchObject({ code: 'move_not_found' });
      expect(refused.suggestion).toBeTruthy();
      expect(again?.move).not.toBe(id);
      // The new move is untouched: its cursor is where it left it, and it finishes from there.
      expect(held).not.toBeNull();
      expect(await cursor(to, name)).toEqual(held);
      const answers = await newMoveFinishes(name, from, to, again, before);
      expect(answers[0].progress.rows_copied).toBeGreaterThanOrEqual((again as MoveStepAnswer).progress.rows_copied);
    }, 180_000);
  }

  it('a step aborting on a source change, whose move another request ended and replaced before its catalog write: the step answers 409 project_moving and the new move keeps the catalog and finishes intact', async () => {
    const { from, to } = await setUp('abort-after-new');
    for (let i = 0; i < 30 && !(await moveStep(env as never, 'abort-after-new', to, { queries: TINY })).progress.copied.symbols; i++);
    await SHARDS[from].prepare('UPDATE projects SET generation = generation + 1 WHERE name = ?1').bind('abort-after-new').run();
    const before = await dump(from, 'abort-after-new');
    const { e, again } = await stepMeetingNewMove('abort-after-new', to, SQL.cancel, { queries: TINY });
    expect(e.code).toBe('project_moving');
    await newMoveFinishes('abort-after-new', from, to, again, before);
  }, 180_000);

  it('a step of a cancelled move reaching its flip after a new move to the same shard began: the catalog refuses the flip, the step answers 409 project_moving and the new move finishes intact', async () => {
    const { from, to, before } = await setUp('flip-after-new');
    // The whole copy is in when the move is cancelled and a new one to the same shard begins.
    const { e, again } = await stepMeetingNewMove('flip-after-new', to, SQL.flip);
    expect(e.code).toBe('project_moving');
    expect(await placedOn('flip-after-new')).toBe(from);
    await newMoveFinishes('flip-after-new', from, to, again, before);
  }, 180_000);
});

/** A promise and the function that resolves it. */
function signal(): { fire: () => void; fired: Promise<void> } {
  let fire: () => void = () => {};
  const fired = new Promise<void>((r) => (fire = r));
  return { fire, fired };
}

describe('a first step whose cursor start loses to a rival step of the same move', () => {
  /** A first step at the smallest budget, with move id `id`, counting every statement it sends; `rival` runs at the start of its cursor (`skip` as in hooked). */
  async function firstStepRacing(name: string, to: number, id: string, match: RegExp, rival: () => Promise<void>, second?: () => Promise<void>): Promise<{ a: MoveStepAnswer; sent: number }> {
    const sent = { n: 0 };
    // `second` runs at the record read that follows the start (in the same batch, or after it): the inner wrapper fires after the outer one.
    const wrap = (db: D1Database) => hooked(second ? hooked(db, SQL.cursorRead, second, 1) : db, match, rival);
    const a = await moveStep(envCounted(sent, { shard: to, wrap }), name, to, { queries: TINY, move: id });
    return { a, sent: sent.n };
  }

  it('a rival that moves the whole project before the start: the step stays within its budget, answers moved (finished by another step) and leaves the new copy alone', async () => {
    const { from, to, before } = await setUp('start-lost-whole');
    let rival: MoveStepAnswer | undefined;
    const { a, sent } = await firstStepRacing('start-lost-whole', to, 'c'.repeat(32), SQL.leftoverOfMove, async () => {
      rival = await moveStep(env as never, 'start-lost-whole', to);
    });
    expect(rival).toMatchObject({ state: 'moved', from, to, move: 'c'.repeat(32) });
    expect(sent, JSON.stringify(a.progress)).toBeLessThanOrEqual(TINY);
    expect(a.progress.queries).toBe(sent);
    expect(a).toMatchObject({ state: 'moved', from, to, finished_by_another_step: true });
    await wholeOn('start-lost-whole', to, before);
  }, 180_000);

  it('a rival that completes the copy (the project row in) before the start and flips and finishes right after it: the step stays within its budget and answers moved', async () => {
    const { from, to, before } = await setUp('start-lost-flip');
    const copied = signal();
    const flipMay = signal();
    let rival: Promise<MoveStepAnswer> | undefined;
    const { a, sent } = await firstStepRacing(
      'start-lost-flip',
      to,
      'f'.repeat(32),
      SQL.leftoverOfMove,
      async () => {
        // The rival copies everything, the project row included, and waits at its flip.
        rival = moveStep(
          envHooked(0, SQL.flip, async () => {
            copied.fire();
            await flipMay.fired;
          }),
          'start-lost-flip',
          to,
        );
        await copied.fired;
      },
      async () => {
        flipMay.fire();
        await rival;
      },
    );
    expect(await rival).toMatchObject({ state: 'moved', from, to });
    expect(sent, JSON.stringify(a.progress)).toBeLessThanOrEqual(TINY);
    expect(a.progress.queries).toBe(sent);
    expect(a).toMatchObject({ state: 'moved', from, to, finished_by_another_step: true });
    await wholeOn('start-lost-flip', to, before);
  }, 180_000);
});
