import { beforeAll, describe, expect, it } from 'vitest';
import { checkSchema, send, type Json } from '../contract/support';
import { moveStep, type MoveStepAnswer } from '../../../src/shards/move';
import { shardsStatus, type MoveStatus } from '../../../src/shards/status';
import { MOVE_STALE_MS } from '../../../src/db/project-shard';
import { scheduledGc } from '../../../src/upload/gc';
import { admin, env, MANY, placedOn, pushed, SHARDS, TINY } from './support';

let doc: Json;
beforeAll(async () => {
  doc = (await send('/v1/openapi.json')).body;
});

/** GET /v1/admin/shards, checked against its OpenAPI schema. */
async function listed(): Promise<{ shards: Json[]; moves: MoveStatus[] }> {
  const r = await admin('GET', '/shards');
  expect(r.status).toBe(200);
  const schema = doc.paths['/v1/admin/shards'].get.responses['200'].content['application/json'].schema;
  expect(checkSchema(schema, r.body, doc)).toEqual([]);
  return r.body as never;
}

const moveOf = (answer: { moves: MoveStatus[] }, project: string) => answer.moves.find((m) => m.project === project);

describe('GET /v1/admin/shards: the moves in flight and the leftovers per shard', () => {
  it('lists every shard with no move and no leftover on fresh databases', async () => {
    const body = await listed();
    expect(body.shards.map((s) => s.shard)).toEqual([0, 1]);
    for (const s of body.shards) expect(s).toMatchObject({ moves_in: [], moves_out: [], leftovers: { count: 0, projects: [] } });
    expect(body.moves).toEqual([]);
  });

  it('shows a move copying with its progress, then abandoned, then removing with the old copy as a leftover, then gone', async () => {
    await pushed('watched', MANY);
    const from = (await placedOn('watched')) as number;
    const to = 1 - from;
    await moveStep(env as never, 'watched', to, { queries: TINY });
    const second = await moveStep(env as never, 'watched', to, { queries: TINY });
    expect(second.state).toBe('copying');

    let body = await listed();
    const copying = moveOf(body, 'watched') as MoveStatus;
    expect(copying).toMatchObject({
      from,
      to,
      state: 'copying',
      rows_copied: second.progress.rows_copied,
      rows_total_estimate: second.progress.rows_total_estimate,
      steps: 2,
      abandoned: false,
    });
    expect(copying.table).toBe(second.progress.table);
    expect(copying.percent).toBe(Math.floor((100 * second.progress.rows_copied) / second.progress.rows_total_estimate));
    for (const at of [copying.started_at, copying.last_step_at, copying.heartbeat_at]) expect(Date.now() - Date.parse(at as string)).toBeLessThan(60_000);
    expect(Date.parse(copying.abandoned_after as string)).toBe(Date.parse(copying.heartbeat_at as string) + MOVE_STALE_MS);
    expect(Date.parse(copying.last_step_at as string)).toBeGreaterThanOrEqual(Date.parse(copying.heartbeat_at as string));
    expect(body.shards[from]).toMatchObject({ moves_out: ['watched'], moves_in: [] });
    expect(body.shards[to]).toMatchObject({ moves_in: ['watched'], moves_out: [] });

    // No step for MOVE_STALE_MS: listed as abandoned (the next step takes it over).
    const old = Date.now() - MOVE_STALE_MS - 1_000;
    await SHARDS[0].prepare('UPDATE project_shards SET move_heartbeat_at = ?2 WHERE name = ?1').bind('watched', old).run();
    await SHARDS[to].prepare('UPDATE project_moves SET updated_at = ?2 WHERE name = ?1').bind('watched', old).run();
    body = await listed();
    expect(moveOf(body, 'watched')).toMatchObject({ state: 'copying', abandoned: true, last_step_at: new Date(old).toISOString() });
    expect(Date.parse(moveOf(body, 'watched')?.abandoned_after as string)).toBeLessThan(Date.now());

    // Stepped on until the catalog flips: removing, the old copy a leftover of the old shard.
    let a: MoveStepAnswer = second;
    for (let i = 0; i < 200 && a.state === 'copying'; i++) a = await moveStep(env as never, 'watched', to, { queries: TINY });
    expect(a.state).toBe('removing');
    body = await listed();
    const removed = Object.values(a.progress.removed).reduce((x, n) => x + n, 0);
    expect(moveOf(body, 'watched')).toMatchObject({ from, to, state: 'removing', table: null, percent: 100, rows_removed: removed, steps: a.progress.steps, heartbeat_at: null, abandoned: false });
    expect(body.shards[from]).toMatchObject({ moves_out: ['watched'], leftovers: { count: 1, projects: [{ project: 'watched' }] } });
    expect(body.shards[to]).toMatchObject({ moves_in: ['watched'], projects: 1 });

    // The move is left there: the garbage collection removes the old copy; the cursor still lists the move until a step ends it.
    await scheduledGc(env as never, Date.now());
    body = await listed();
    expect(body.shards[from]).toMatchObject({ leftovers: { count: 0, projects: [] } });
    const last = await moveStep(env as never, 'watched', to, { queries: TINY });
    expect(last.state).toBe('moved');
    body = await listed();
    expect(moveOf(body, 'watched')).toBeUndefined();
    expect(body.shards.every((s) => s.moves_in.length === 0 && s.moves_out.length === 0)).toBe(true);
  }, 180_000);

  it('reads every shard in one round trip each', async () => {
    let trips = 0;
    const counted = (db: D1Database): D1Database =>
      new Proxy(db, {
        get(target, key) {
          if (key === 'batch') return (stmts: D1PreparedStatement[]) => (trips++, target.batch(stmts));
          if (key === 'prepare')
            return (sql: string) => {
              const stmt = target.prepare(sql) as unknown as Record<string, (...a: unknown[]) => unknown>;
              for (const m of ['first', 'all', 'run', 'raw']) {
                const call = stmt[m].bind(stmt);
                stmt[m] = (...a: unknown[]) => (trips++, call(...a));
              }
              return stmt;
            };
          const v = Reflect.get(target, key, target);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    const status = await shardsStatus({ ...(env as object), DB: counted(SHARDS[0]), DB_SHARD_1: counted(SHARDS[1]) } as never);
    expect(status.shards).toHaveLength(2);
    expect(trips).toBe(2);
  });

  it('refuses the listing without the admin key, with a typed error and a suggestion', async () => {
    const cases: [string | null, number, string][] = [
      ['full', 403, 'insufficient_scope'],
      [null, 401, 'unauthorized'],
    ];
    for (const [key, status, code] of cases) {
      const r = await admin('GET', '/shards', undefined, key);
      expect(r.status, String(key)).toBe(status);
      expect(r.body.error.code).toBe(code);
      expect(r.body.error.suggestion).toBeTruthy();
    }
    const unconfigured = await send('/v1/admin/shards', {}, { PINCHER_ADMIN_KEY: undefined });
    expect(unconfigured.status).toBe(403);
    expect(unconfigured.body.error.code).toBe('auth_not_configured');
    expect(unconfigured.body.error.suggestion).toBeTruthy();
  });
});
