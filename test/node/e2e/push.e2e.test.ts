// The push pipeline end to end: the real CLI (a child process, as CI runs it) against one real
// `wrangler dev`. Real Python packages carry empty and byte-identical files in several
// languages; CI jobs get cancelled and killed mid-upload.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli';
import { makeTree, removeTrees } from '../cli/tree';
import { type E2EServer, FULL_KEY, rest, startE2EServer } from './support';

const BIN = fileURLToPath(new URL('../../../cli/bin.mjs', import.meta.url));
let server: E2EServer;
const ADMIN_KEY = 'e2e-admin-key-0123';

// A loaded machine can take minutes to start wrangler; a free one takes seconds.
beforeAll(async () => {
  server = await startE2EServer({ PINCHER_HTTP_KEY: FULL_KEY, PINCHER_ADMIN_KEY: ADMIN_KEY }, 280_000);
}, 300_000);

afterAll(async () => {
  await removeTrees();
  if (!server) return;
  try {
    await server.stop();
  } finally {
    await rm(server.dir, { recursive: true, force: true });
  }
});

function push(root: string, project: string, env: Record<string, string> = {}, extra: string[] = []) {
  return cli(['push', root, '--url', server.url, '--project', project, '--json', ...extra], { PINCHER_HTTP_KEY: FULL_KEY, ...env });
}

const PACKAGE = {
  'pkg/__init__.py': '',
  'pkg/py.typed': '',
  'pkg/sub/__init__.py': '',
  'pkg/.gitkeep': '',
  'docs/empty.md': '',
  'data/empty.json': '',
  'pkg/blank.py': '\n\n',
  'pkg/blank.pyi': '\n\n',
  'notes/blank.txt': '\n\n',
  'pkg/values.py': '[1, 2]\n',
  'data/values.json': '[1, 2]\n',
  'docs/values.md': '[1, 2]\n',
  'pkg/core.py': 'def core(x):\n    return x\n',
};

describe('the CLI against a real server', { timeout: 480_000 }, () => {
  it('shards lists both local databases and move takes a project to the other one and back, answering throughout', async () => {
    const root = await makeTree({ 'src/mover.ts': 'export function moveMe(x: number) {\n  return x + 1;\n}\n' });
    expect((await push(root, 'e2e-mover')).code).toBe(0);
    const admin = (args: string[], key: string | null = ADMIN_KEY) => cli([...args, '--url', server.url], key === null ? {} : { PINCHER_ADMIN_KEY: key });

    const listed = await admin(['shards', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const shards = JSON.parse(listed.stdout).shards as { shard: number; binding: string; projects: number }[];
    expect(shards.map((s) => [s.shard, s.binding])).toEqual([[0, 'DB'], [1, 'DB_SHARD_1']]);
    const table = await admin(['shards']);
    expect(table.stdout.split('\n')[0]).toMatch(/^shard\s+binding\s+stored MB\s+projects\s+moving in\s+moving out\s+leftovers$/);

    // Wherever placement put it, move it to the other shard, then back.
    let move = await admin(['move', 'e2e-mover', '--shard', '1', '--json']);
    const from = move.code === 0 ? 0 : 1;
    if (move.code !== 0) {
      expect(move.stderr).toContain('already_on_shard');
      move = await admin(['move', 'e2e-mover', '--shard', '0', '--json']);
    }
    expect(move.code, move.stderr).toBe(0);
    expect(JSON.parse(move.stdout)).toMatchObject({ project: 'e2e-mover', from, to: 1 - from });
    const found = async () => (await rest(server.url, 'search', { query: 'moveMe', project: 'e2e-mover' })).body.result.results.map((r: { name: string }) => r.name);
    expect(await found()).toContain('moveMe');

    const back = await admin(['move', 'e2e-mover', '--shard', String(from)]);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(new RegExp(`moved e2e-mover from shard ${1 - from} to shard ${from} in [0-9.]+ s \\([0-9,]+ rows copied`));
    expect(await found()).toContain('moveMe');

    // Refusals: a wrong key (never echoed), an unknown shard, and no key at all.
    const wrong = await admin(['shards'], 'not-the-admin-key');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/HTTP 40[13]/);
    expect(wrong.stderr + wrong.stdout).not.toContain('not-the-admin-key');
    const unknown = await admin(['move', 'e2e-mover', '--shard', '7']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown_shard');
    const none = await admin(['shards'], null);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('PINCHER_ADMIN_KEY');
  });

  it('pushes a package of empty and byte-identical files across languages, and a re-push sends nothing', async () => {
    const root = await makeTree(PACKAGE);
    const first = await push(root, 'e2e-xl');
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout);
    expect(summary.files).toMatchObject({ total: Object.keys(PACKAGE).length, new: Object.keys(PACKAGE).length, failed: 0 });
    // Four distinct contents travel, once each.
    expect(summary.sent.files).toBe(4);

    const again = await push(root, 'e2e-xl');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ files: { unchanged: Object.keys(PACKAGE).length, new: 0, changed: 0 }, sent: { files: 0 } });
  });

  it('push --follow prints the push\'s lifecycle from GET /v1/events, in order, until its graph is resolved', async () => {
    const root = await makeTree({ 'src/a.ts': 'export function a() {\n  return b();\n}\nexport function b() {\n  return 1;\n}\n', 'src/c.py': 'def c():\n    return 2\n' });
    const run = await push(root, 'e2e-follow', {}, ['--follow', '--follow-timeout', '60']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('pincher-edge: event '));
    expect(lines.map((l) => l.replace(/^pincher-edge: event \d+ (\w[\w ]*?):.*$/, '$1'))).toEqual(['opened', 'received', 'committed', 'graph resolved']);
    expect(lines[0]).toContain('2 files, 2 to send');
    expect(lines[2]).toMatch(/committed: generation \d+, \d+ symbols \(2 new/);
    const ids = lines.map((l) => Number(/event (\d+)/.exec(l)?.[1]));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(run.stderr).toContain('following events of e2e-follow');
    // --json keeps stdout to the one summary.
    expect(JSON.parse(run.stdout).project).toBe('e2e-follow');
  });

  it('the CLI installed by npx from the server\'s own /v1/cli.tgz, in an empty folder, pushes', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'pincher-npx-'));
    const cache = await mkdtemp(path.join(tmpdir(), 'pincher-npm-cache-'));
    try {
      const root = await makeTree({ 'src/served.ts': 'export function served(): number {\n  return 1;\n}\n' });
      const npx = path.join(path.dirname(process.execPath), 'npx');
      const run = spawnSync(npx, ['--yes', `${server.url}/v1/cli.tgz`, 'push', root, '--url', server.url, '--project', 'e2e-served-cli', '--json'], {
        cwd: empty,
        encoding: 'utf8',
        timeout: 240_000,
        // A private npm cache: nothing installed earlier on this machine can stand in for the served tarball.
        env: { ...process.env, PINCHER_HTTP_KEY: FULL_KEY, npm_config_cache: cache, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
      });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ project: 'e2e-served-cli', files: { new: 1, failed: 0 } });
      expect(await readdir(empty)).toEqual([]);
    } finally {
      await rm(empty, { recursive: true, force: true });
      await rm(cache, { recursive: true, force: true });
    }
  });

  it('a push SIGKILLed mid-upload does not lock the project: the next CI push takes over at once, 10 kills out of 10', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 150; i++) tree[`src/m${i}.ts`] = `export function f${i}(a: number): number {\n  return a + ${i};\n}\n`.repeat(20);
    let killed = 0;
    for (let kill = 0; kill < 10; kill++) {
      for (const path of Object.keys(tree)) tree[path] = `// round ${kill}\n${tree[path].replace(/^\/\/ round \d+\n/, '')}`;
      const root = await makeTree(tree);
      const child = spawn(process.execPath, [BIN, 'push', root, '--url', server.url, '--project', 'e2e-kill', '--json'], {
        env: { PATH: process.env.PATH, PINCHER_HTTP_KEY: FULL_KEY },
        stdio: 'ignore',
      });
      // Kills spread from the open request to the last batches.
      await new Promise((r) => setTimeout(r, 300 + (kill % 5) * 400 + (kill >= 5 ? 200 : 0)));
      // The push may already have ended (fast machine): only wait for an exit still to come.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
        killed++;
      }
      const started = Date.now();
      const next = await push(root, 'e2e-kill', { CI: 'true' });
      expect(next.code, next.stderr).toBe(0);
      expect(JSON.parse(next.stdout).files).toMatchObject({ total: 150, failed: 0 });
      // At once: no wait for the killed upload to expire (UPLOAD_STALE_MS is 150 s).
      expect(Date.now() - started).toBeLessThan(120_000);
    }
    console.log(`push-fault: ${killed} of 10 pushes were killed mid-upload; every next push succeeded`);
  });
});
