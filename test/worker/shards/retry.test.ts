import { beforeAll, describe, expect, it } from 'vitest';
import { checkSchema, send, type Json } from '../contract/support';
import { moveStep } from '../../../src/shards/move';
import { admin, dump, env, MANY, placedOn, pushed, SHARDS, stepUntilMoved, storedOn, TINY } from './support';

/**
 * A client retrying a step of a move after the move finished (the answer of
 * its last step lost) sends the move's id and is answered `moved` again; a
 * new request to the shard the project is on (no id, or an id of no move
 * that finished there) is refused with 409 already_on_shard.
 */

let doc: Json;
beforeAll(async () => {
  doc = (await send('/v1/openapi.json')).body;
});

const hex = (c: string) => c.repeat(32);

/** The moved answer of the route, checked against the OpenAPI schema of the move route. */
function expectSchema(body: Json): void {
  const schema = doc.paths['/v1/admin/projects/{project}/move'].post.responses['200'].content['application/json'].schema;
  expect(checkSchema(schema, body, doc)).toEqual([]);
}

describe('retrying a step of a move that finished', () => {
  it('a retry of a one-step move carrying the id the client chose is answered moved again, idempotently; a new request to that shard is 409 already_on_shard', async () => {
    await pushed('retry-one', MANY);
    const from = (await placedOn('retry-one')) as number;
    const to = 1 - from;
    const before = await dump(from, 'retry-one');
    const id = hex('a');
    const first = await admin('POST', '/projects/retry-one/move', { shard: to, move: id });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ project: 'retry-one', move: id, from, to, state: 'moved' });
    expect(first.body.next).toBeUndefined();
    expect(first.body.already_moved).toBeUndefined();
    expectSchema(first.body);

    for (let i = 0; i < 2; i++) {
      const again = await admin('POST', '/projects/retry-one/move', { shard: to, move: id });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ project: 'retry-one', move: id, from, to, state: 'moved', already_moved: true, copied: first.body.copied, removed: first.body.removed });
      expect(again.body.next).toBeUndefined();
      expect(again.body.duration_ms).toBeGreaterThanOrEqual(0);
      expectSchema(again.body);
    }
    // Nothing moved again: the project is on the target alone, as it was.
    expect(await placedOn('retry-one')).toBe(to);
    expect(await storedOn(from, 'retry-one')).toBe(0);
    expect(await dump(to, 'retry-one')).toEqual(before);

    // A new request (no id, or an id of no move that finished there) keeps the typed error, with a suggestion naming the id.
    for (const body of [{ shard: to }, { shard: to, move: hex('b') }]) {
      const r = await admin('POST', '/projects/retry-one/move', body);
      expect(r.status, JSON.stringify(body)).toBe(409);
      expect(r.body.error.code).toBe('already_on_shard');
      expect(r.body.error.suggestion).toContain('move');
    }
  }, 120_000);

  it('the answers of a move in steps carry its id in `next`; a retry of the step that finished it, with that id, is answered moved', async () => {
    await pushed('retry-steps', MANY);
    const from = (await placedOn('retry-steps')) as number;
    const to = 1 - from;
    const answers = await stepUntilMoved('retry-steps', to, TINY);
    expect(answers.length).toBeGreaterThan(2);
    const id = answers[0].move as string;
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    for (const a of answers.slice(0, -1)) expect(a.next).toMatchObject({ method: 'POST', body: { shard: to, move: id } });
    const last = answers[answers.length - 1];
    expect(last).toMatchObject({ state: 'moved', move: id });
    const again = await moveStep(env as never, 'retry-steps', to, { move: id });
    expect(again).toMatchObject({ state: 'moved', move: id, from, to, already_moved: true, copied: last.copied, removed: last.removed });
    expect(again.next).toBeUndefined();
    expect(again.progress.queries).toBeLessThanOrEqual(2);
  }, 180_000);

  it('a retry carrying the id of a move that finished before the project moved on is answered moved and starts no move back', async () => {
    await pushed('retry-moved-on', MANY);
    const from = (await placedOn('retry-moved-on')) as number;
    const to = 1 - from;
    const id = hex('c');
    expect((await moveStep(env as never, 'retry-moved-on', to, { move: id })).state).toBe('moved');
    // Moved back by another request: the retry of the first move must not move it again.
    expect((await moveStep(env as never, 'retry-moved-on', from)).state).toBe('moved');
    const before = await dump(from, 'retry-moved-on');
    const again = await moveStep(env as never, 'retry-moved-on', to, { move: id });
    expect(again).toMatchObject({ state: 'moved', move: id, from, to, already_moved: true });
    expect(await placedOn('retry-moved-on')).toBe(from);
    expect(await dump(from, 'retry-moved-on')).toEqual(before);
    expect(await storedOn(to, 'retry-moved-on')).toBe(0);
  }, 120_000);

  it('refuses a malformed move id, and an id another project’s move on that shard holds, with typed errors and suggestions', async () => {
    await pushed('retry-bad', MANY);
    const from = (await placedOn('retry-bad')) as number;
    const to = 1 - from;
    for (const move of ['short', hex('A'), 12, hex('g')]) {
      const r = await admin('POST', '/projects/retry-bad/move', { shard: to, move });
      expect(r.status, String(move)).toBe(400);
      expect(r.body.error.code).toBe('invalid_params');
      expect(r.body.error.suggestion).toBeTruthy();
    }
    await pushed('retry-bad-2', MANY);
    if ((await placedOn('retry-bad-2')) === to) expect((await moveStep(env as never, 'retry-bad-2', from)).state).toBe('moved');
    // Another project's move into the same shard took the id first.
    const id = hex('d');
    expect((await moveStep(env as never, 'retry-bad-2', to, { move: id })).state).toBe('moved');
    const r = await admin('POST', '/projects/retry-bad/move', { shard: to, move: id });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_params');
    expect(r.body.error.suggestion).toContain('new id');
    expect(await placedOn('retry-bad')).toBe(from);
    expect((await SHARDS[0].prepare('SELECT moving_to FROM project_shards WHERE name = ?1').bind('retry-bad').first<{ moving_to: number | null }>())?.moving_to).toBeNull();
  }, 120_000);
});

