// `pincher-edge shards` and `pincher-edge move`: usage errors as a child process, and the text
// they print. The routes themselves are exercised against a real server in test/node/e2e/push.e2e.test.ts.
import { describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatMove, formatShards, formatStep, runCancelMove, runMove } from '../../../cli/admin-command.mjs';
import { cli } from './run-cli';

const URL_ARGS = ['--url', 'http://127.0.0.1:9'];

describe('pincher-edge shards and move: usage', () => {
  it.each([
    [['shards'], { PINCHER_ADMIN_KEY: 'k'.repeat(12) }, /no server URL/],
    [['shards', ...URL_ARGS], {}, /no admin key: set PINCHER_ADMIN_KEY/],
    [['shards', 'extra', ...URL_ARGS], { PINCHER_ADMIN_KEY: 'k'.repeat(12) }, /shards takes no arguments/],
    [['shards', '--shard', '1', ...URL_ARGS], { PINCHER_ADMIN_KEY: 'k'.repeat(12) }, /--shard belongs to move/],
    [['move', '--shard', '1', ...URL_ARGS], { PINCHER_ADMIN_KEY: 'k'.repeat(12) }, /move takes one project name/],
    [['move', 'web', ...URL_ARGS], { PINCHER_ADMIN_KEY: 'k'.repeat(12) }, /move needs --shard/],
    [['move', 'web', '--shard', '1', '--cancel', ...URL_ARGS], { PINCHER_ADMIN_KEY: 'k'.repeat(12) }, /--cancel takes no --shard/],
    [['shards', '--cancel', ...URL_ARGS], { PINCHER_ADMIN_KEY: 'k'.repeat(12) }, /--cancel belongs to move/],
    [['move', 'web', '--shard', 'one', ...URL_ARGS], { PINCHER_ADMIN_KEY: 'k'.repeat(12) }, /--shard must be a whole number/],
    [['move', '../etc', '--shard', '1', ...URL_ARGS], { PINCHER_ADMIN_KEY: 'k'.repeat(12) }, /project must be 1-100 characters/],
    [['move', 'web', '--shard', '1', '--url', 'ftp://x'], { PINCHER_ADMIN_KEY: 'k'.repeat(12) }, /--url must be http/],
  ])('%j exits 2 with a usage line', async (args, env, message) => {
    const run = await cli(args, env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain(`pincher-edge ${args[0]} --help`);
  });

  it('prints each command\'s help', async () => {
    expect((await cli(['move', '--help'])).stdout).toContain('Usage: pincher-edge move <project> --shard <n>');
    expect((await cli(['help', 'shards'])).stdout).toContain('Usage: pincher-edge shards');
    expect((await cli(['--help'])).stdout).toMatch(/shards\s+list the server's D1 shards/);
  });

  it('says the server cannot be reached, exit 1, without echoing the key', async () => {
    const key = 'admin-secret-9f8e7d';
    const run = await cli(['shards', '--url', 'http://127.0.0.1:9', '--admin-key', key]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/listing the shards failed: cannot reach http:\/\/127\.0\.0\.1:9/);
    expect(run.stderr + run.stdout).not.toContain(key);
  });
});

describe('pincher-edge shards and move: output', () => {
  it('prints the shards as an aligned table, then the moves in flight and the leftovers', () => {
    const text = formatShards({
      shards: [
        { shard: 0, binding: 'DB', bytes: 12_345_678, projects: 4, moves_in: ['api'], moves_out: ['web', 'old'], leftovers: { count: 3, projects: [{ project: 'api', project_id: 'A1', since: '2026-12-02T09:00:00.000Z' }] } },
        { shard: 1, binding: 'DB_SHARD_1', bytes: 1_000, projects: 1, moves_in: ['web', 'old'], moves_out: ['api'], leftovers: { count: 0, projects: [] } },
      ],
      moves: [
        { project: 'api', from: 1, to: 0, state: 'removing', table: null, rows_copied: 900, rows_total_estimate: 900, percent: 100, rows_removed: 1_500, steps: 4, started_at: '2026-12-02T09:58:00.000Z', last_step_at: '2026-12-02T10:00:00.000Z', heartbeat_at: null, abandoned: false, abandoned_after: '2026-12-02T10:10:00.000Z' },
        { project: 'old', from: 0, to: 1, state: 'copying', table: null, rows_copied: 0, rows_total_estimate: null, percent: null, rows_removed: 0, steps: 0, started_at: null, last_step_at: '2026-12-02T08:00:00.000Z', heartbeat_at: '2026-12-02T08:00:00.000Z', abandoned: true, abandoned_after: '2026-12-02T08:10:00.000Z' },
        { project: 'web', from: 0, to: 1, state: 'copying', table: 'symbols', rows_copied: 41_500, rows_total_estimate: 212_000, percent: 19, rows_removed: 0, steps: 7, started_at: '2026-12-02T09:59:00.000Z', last_step_at: '2026-12-02T10:01:00.000Z', heartbeat_at: '2026-12-02T10:01:00.000Z', abandoned: false, abandoned_after: '2026-12-02T10:11:00.000Z' },
      ],
    });
    expect(text.split('\n')).toEqual([
      'shard  binding     stored MB  projects  moving in  moving out  leftovers',
      '    0  DB               12.3         4          1           2          3',
      '    1  DB_SHARD_1        0.0         1          2           1          0',
      'moving api: shard 1 → 0, removing the old copy from shard 1 (1,500 rows removed); 4 steps, started 2026-12-02T09:58:00.000Z, last step 2026-12-02T10:00:00.000Z',
      'moving old: shard 0 → 1, copying (no step has written its cursor yet); 0 steps, last step 2026-12-02T08:00:00.000Z — abandoned (no step for 10 minutes): pincher-edge move old --shard 1 takes it over, pincher-edge move old --cancel ends it',
      'moving web: shard 0 → 1, copying symbols: 41,500 / ~212,000 rows (19 %); 7 steps, started 2026-12-02T09:59:00.000Z, last step 2026-12-02T10:01:00.000Z',
      "leftovers on shard 0: api (since 2026-12-02T09:00:00.000Z) and 2 more — removed by the move's next step or the garbage collection",
    ]);
  });

  it('summarises a move with its rows copied and removed', () => {
    expect(formatMove({ project: 'web', from: 0, to: 1, copied: { files: 10, symbols: 1200 }, removed: { files: 10, symbols: 1200 }, duration_ms: 2345 })).toBe(
      'pincher-edge: moved web from shard 0 to shard 1 in 2.3 s (1,210 rows copied, 1,210 removed from shard 0)',
    );
  });
});

/** A stand-in server answering each request with the next of `replies` (status, body), recording what it was asked. */
async function fakeServer(replies: [number, unknown][]) {
  const seen: { method: string; url: string; body: string; auth: string }[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, auth: req.headers.authorization ?? '' });
      const [status, reply] = replies[Math.min(seen.length - 1, replies.length - 1)];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function captured() {
  const text = { stdout: '', stderr: '' };
  const io = {
    stdout: { write: (s: string) => ((text.stdout += s), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (s: string) => ((text.stderr += s), true) } as unknown as NodeJS.WritableStream,
  };
  return { text, io };
}

const progress = (rows: number, steps: number, table: string | null, removed: Record<string, number> = {}) => ({
  copied: { files: rows },
  rows_copied: rows,
  rows_total_estimate: 400,
  table,
  removed,
  steps,
  queries: 12,
  query_budget: 400,
});
const MOVE_ID = 'f'.repeat(32);
const step = (state: string, rows: number, steps: number, table: string | null, removed?: Record<string, number>) => ({
  project: 'web',
  from: 0,
  to: 1,
  state,
  progress: progress(rows, steps, table, removed),
  move: MOVE_ID,
  next: { method: 'POST', path: '/v1/admin/projects/web/move', body: { shard: 1, move: MOVE_ID } },
  _meta: {},
});
const moved = { project: 'web', from: 0, to: 1, state: 'moved', progress: progress(400, 4, null, { files: 400 }), copied: { files: 400 }, removed: { files: 400 }, duration_ms: 4321, _meta: {} };

describe('pincher-edge move: the step loop', () => {
  it('calls the move route until the move is done, with a progress line per step', async () => {
    const server = await fakeServer([
      [200, step('copying', 100, 1, 'files')],
      [503, { error: { code: 'not_ready', message: 'busy' } }],
      [200, step('copying', 300, 2, 'symbols')],
      [200, step('removing', 400, 3, null, { files: 150 })],
      [200, moved],
    ]);
    try {
      const { text, io } = captured();
      const key = 'k'.repeat(16);
      const code = await runMove({ url: server.url, key, json: false, project: 'web', shard: 1 }, io);
      expect(code, text.stderr).toBe(0);
      // The first request carries an id of the CLI's own; every later one the body `next` gave (the retried 503 too).
      expect(server.seen.every((r) => r.method === 'POST' && r.url === '/v1/admin/projects/web/move')).toBe(true);
      const bodies = server.seen.map((r) => JSON.parse(r.body));
      expect(bodies[0]).toEqual({ shard: 1, move: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(bodies[0].move).not.toBe(MOVE_ID);
      expect(bodies.slice(1)).toEqual(Array(4).fill({ shard: 1, move: MOVE_ID }));
      expect(server.seen.every((r) => r.auth === `Bearer ${key}`)).toBe(true);
      const lines = text.stderr.trim().split('\n');
      expect(lines.slice(1)).toEqual([
        'pincher-edge: step 1: copying files: 100 / ~400 rows (25 %)',
        'pincher-edge: step 2: copying symbols: 300 / ~400 rows (75 %)',
        'pincher-edge: step 3: moved to shard 1; removing the old copy from shard 0 (150 rows removed)',
      ]);
      expect(text.stdout.trim()).toBe('pincher-edge: moved web from shard 0 to shard 1 in 4.3 s (400 rows copied, 400 removed from shard 0)');
    } finally {
      await server.close();
    }
  });

  it('reports the move done when another request stepping it finished it meanwhile', async () => {
    const elsewhere = { project: 'web', from: 0, to: 1, state: 'moved', progress: progress(300, 2, null), finished_by_another_step: true, _meta: {} };
    const server = await fakeServer([
      [200, step('copying', 100, 1, 'files')],
      [200, elsewhere],
    ]);
    try {
      const { text, io } = captured();
      expect(await runMove({ url: server.url, key: 'k'.repeat(16), json: false, project: 'web', shard: 1 }, io)).toBe(0);
      expect(text.stdout.trim()).toBe('pincher-edge: moved web from shard 0 to shard 1 (another request stepping the same move finished it)');
      expect(server.seen).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('a retried step that finds the move finished (its earlier answer lost) exits 0 with a line saying so', async () => {
    const again = { ...moved, move: MOVE_ID, already_moved: true };
    const server = await fakeServer([
      [200, step('copying', 100, 1, 'files')],
      [503, { error: { code: 'not_ready', message: 'busy' } }],
      [200, again],
    ]);
    try {
      const { text, io } = captured();
      expect(await runMove({ url: server.url, key: 'k'.repeat(16), json: false, project: 'web', shard: 1 }, io)).toBe(0);
      expect(text.stdout.trim()).toBe(
        'pincher-edge: moved web from shard 0 to shard 1: the move had finished before this request, whose earlier answer was lost (400 rows copied, 400 removed from shard 0, in 4.3 s)',
      );
      expect(server.seen.slice(1).map((r) => JSON.parse(r.body))).toEqual([
        { shard: 1, move: MOVE_ID },
        { shard: 1, move: MOVE_ID },
      ]);
    } finally {
      await server.close();
    }
  });

  it('prints only the final answer with --json, and exits 1 on a failed step with its suggestion', async () => {
    const ok = await fakeServer([
      [200, step('copying', 100, 1, 'files')],
      [200, moved],
    ]);
    try {
      const { text, io } = captured();
      expect(await runMove({ url: ok.url, key: 'k'.repeat(16), json: true, project: 'web', shard: 1 }, io)).toBe(0);
      expect(JSON.parse(text.stdout)).toMatchObject({ project: 'web', state: 'moved', copied: { files: 400 } });
      expect(JSON.parse(text.stdout)._meta).toBeUndefined();
    } finally {
      await ok.close();
    }
    const failing = await fakeServer([
      [200, step('copying', 100, 1, 'files')],
      [409, { error: { code: 'move_source_changed', message: "project 'web' changed on shard 0 while it was copied", suggestion: 'run the move again' } }],
    ]);
    try {
      const { text, io } = captured();
      expect(await runMove({ url: failing.url, key: 'k'.repeat(16), json: false, project: 'web', shard: 1 }, io)).toBe(1);
      expect(text.stderr).toContain('moving web failed: HTTP 409 move_source_changed: ');
      expect(text.stderr).toContain('— run the move again');
      expect(failing.seen).toHaveLength(2);
    } finally {
      await failing.close();
    }
  });

  it('gives up after a run of steps without progress', async () => {
    const server = await fakeServer([[200, step('copying', 100, 1, 'files')]]);
    try {
      const { text, io } = captured();
      expect(await runMove({ url: server.url, key: 'k'.repeat(16), json: false, project: 'web', shard: 1 }, io)).toBe(1);
      expect(text.stderr).toContain('made no progress');
      expect(text.stderr).toContain('pincher-edge move web --cancel');
    } finally {
      await server.close();
    }
  });

  const cancelled = { project: 'web', shard: 0, state: 'cancelled', was_moving_to: 1, removed: { files: 3 }, partial_copy_removed: true, _meta: {} };
  const listing = (moves: unknown[]) => ({ shards: [], moves, _meta: {} });

  it('cancels a move with DELETE', async () => {
    const server = await fakeServer([[200, listing([])], [200, cancelled]]);
    try {
      const { text, io } = captured();
      expect(await runCancelMove({ url: server.url, key: 'k'.repeat(16), json: false, project: 'web' }, io)).toBe(0);
      expect(server.seen.map((s) => [s.method, s.url])).toEqual([
        ['GET', '/v1/admin/shards'],
        ['DELETE', '/v1/admin/projects/web/move'],
      ]);
      expect(text.stdout.trim()).toBe('pincher-edge: cancelled the move of web to shard 1; it stays on shard 0 (its partial copy was removed)');
    } finally {
      await server.close();
    }
  });

  it('cancels only the move the listing shows: its id rides along', async () => {
    const id = 'a'.repeat(32);
    const moves = [
      { project: 'other', move: 'b'.repeat(32), from: 0, to: 1, state: 'copying' },
      { project: 'web', move: id, from: 0, to: 1, state: 'copying' },
    ];
    const server = await fakeServer([[200, listing(moves)], [200, cancelled]]);
    try {
      const { io } = captured();
      expect(await runCancelMove({ url: server.url, key: 'k'.repeat(16), json: false, project: 'web' }, io)).toBe(0);
      expect(server.seen[1]).toMatchObject({ method: 'DELETE', url: `/v1/admin/projects/web/move?move=${id}` });
    } finally {
      await server.close();
    }
  });

  it('reports a cancel the server refuses because another move began since the listing', async () => {
    const refused = { error: { code: 'move_not_found', message: 'move aaaa is not the move of web in progress', suggestion: 'GET /v1/admin/shards lists the moves in progress with their ids' } };
    const server = await fakeServer([[200, listing([{ project: 'web', move: 'a'.repeat(32), from: 0, to: 1, state: 'copying' }])], [404, refused]]);
    try {
      const { text, io } = captured();
      expect(await runCancelMove({ url: server.url, key: 'k'.repeat(16), json: false, project: 'web' }, io)).toBe(1);
      expect(text.stderr).toContain('move_not_found');
    } finally {
      await server.close();
    }
  });

  it('formats a step of the copy', () => {
    expect(formatStep(step('copying', 0, 1, 'files') as never)).toBe('pincher-edge: step 1: copying files: 0 / ~400 rows (0 %)');
  });
});
