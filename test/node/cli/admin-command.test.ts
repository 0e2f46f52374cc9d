// `pincher-edge shards` and `pincher-edge move`: usage errors as a child process, and the text
// they print. The routes themselves are exercised against a real server in test/node/e2e/push.e2e.test.ts.
import { describe, expect, it } from 'vitest';
import { formatMove, formatShards } from '../../../cli/admin-command.mjs';
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
  it('prints the shards as an aligned table, then moves in progress', () => {
    const text = formatShards({
      shards: [
        { shard: 0, binding: 'DB', bytes: 12_345_678, projects: 4 },
        { shard: 1, binding: 'DB_SHARD_1', bytes: 1_000, projects: 0 },
      ],
      moves: [{ project: 'web', from: 0, to: 1, heartbeat_at: '2026-12-02T10:00:00.000Z' }],
    });
    expect(text.split('\n')).toEqual([
      'shard  binding     stored MB  projects',
      '    0  DB               12.3         4',
      '    1  DB_SHARD_1        0.0         0',
      'moving: web from shard 0 to shard 1 (last heartbeat 2026-12-02T10:00:00.000Z)',
    ]);
  });

  it('summarises a move with its rows copied and removed', () => {
    expect(formatMove({ project: 'web', from: 0, to: 1, copied: { files: 10, symbols: 1200 }, removed: { files: 10, symbols: 1200 }, duration_ms: 2345 })).toBe(
      'pincher-edge: moved web from shard 0 to shard 1 in 2.3 s (1,210 rows copied, 1,210 removed from shard 0)',
    );
  });
});
