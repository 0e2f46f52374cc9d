// The command as CI runs it: a child process, its stdout, stderr and exit code.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeServer, startFakeServer } from './fake-server';
import { cli } from './run-cli';
import { addToTree, makeTree, removeTrees } from './tree';

const KEY = 'ci-secret-key-7f3a9c';

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer({ key: KEY });
});
afterEach(() => server.close());
afterAll(removeTrees);

const sample = { 'src/app.ts': 'export function app() {}\n', 'src/util.ts': 'export function util() {}\n', 'node_modules/x/i.js': 'x', 'logo.png': Buffer.from([0x89, 0x50, 0, 0]) };

describe('pincher-edge push', () => {
  it('pushes, prints a text summary and exits 0', async () => {
    const root = await makeTree(sample);
    const run = await cli(['push', root, '--url', server.url, '--project', 'web'], { PINCHER_HTTP_KEY: KEY });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('pushed web');
    expect(run.stdout).toMatch(/2 indexed: 2 new, 0 changed, 0 unchanged, 0 deleted, 0 failed/);
    expect(run.stdout).toMatch(/skipped\s+2: blocked 1, binary 1/);
    expect(run.stderr).toContain('committing');
    expect(server.indexes.get('web')?.size).toBe(2);
  });

  it('prints one JSON summary on stdout with --json', async () => {
    const root = await makeTree(sample);
    await cli(['push', root, '--url', server.url, '--project', 'web', '--json'], { PINCHER_HTTP_KEY: KEY });
    await addToTree(root, { 'src/util.ts': 'export function util2() {}\n' });
    const run = await cli(['push', root, '--project', 'web', '--json', '--ref', 'main', '--commit', 'deadbeef'], { PINCHER_URL: server.url, PINCHER_HTTP_KEY: KEY });
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toEqual({
      ok: true,
      dry_run: false,
      url: server.url,
      project: 'web',
      ref: 'main',
      commit: 'deadbeef',
      upload_id: expect.any(String),
      files: { total: 2, new: 0, changed: 1, unchanged: 1, deleted: 0, skipped: 2, failed: 0 },
      skipped: { ignored: 0, blocked: 1, binary: 1, encoding: 0, too_large: 0, symlink: 0 },
      failures: [],
      symbols: { total: 2, extracted: 1 },
      sent: { files: 1, bytes: 27, batches: 1 },
      duration_ms: expect.any(Number),
      server_duration_ms: 7,
    });
  });

  it('sends nothing with --dry-run and says why each entry is skipped', async () => {
    const root = await makeTree({ ...sample, '.gitignore': 'secret.ts\n', 'secret.ts': 'x' });
    const run = await cli(['push', root, '--url', server.url, '--dry-run'], { PINCHER_HTTP_KEY: KEY });
    expect(run.code).toBe(0);
    expect(server.requests).toEqual([]);
    expect(run.stdout).toContain('+ src/app.ts');
    expect(run.stdout).toContain('- node_modules/ (blocked: folder)');
    expect(run.stdout).toContain('- logo.png (binary)');
    expect(run.stdout).toContain('- secret.ts (ignored: .gitignore)');

    const json = await cli(['push', root, '--dry-run', '--json']);
    expect(json.code).toBe(0);
    const summary = JSON.parse(json.stdout);
    expect(summary).toMatchObject({ ok: true, dry_run: true, url: null, files: { total: 3, skipped: 3 } });
    expect(summary.manifest.map((f: { path: string }) => f.path)).toEqual(['.gitignore', 'src/app.ts', 'src/util.ts']);
    expect(summary.skipped_paths).toContainEqual({ path: 'logo.png', reason: 'binary' });
  });

  it('exits 1 with the server message on push_in_progress', async () => {
    const root = await makeTree(sample);
    await fetch(`${server.url}/v1/projects/web/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ manifest: [] }),
    });
    const run = await cli(['push', root, '--url', server.url, '--project', 'web', '--json'], { PINCHER_HTTP_KEY: KEY });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('another push of web is in progress (upload 01UPLOAD0001): another upload of web is open');
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { step: 'open', status: 409, code: 'push_in_progress' }, upload_id: null });
  });

  it('--take-over supersedes the open upload of a killed push and pushes at once', async () => {
    const root = await makeTree(sample);
    const dead = await fetch(`${server.url}/v1/projects/web/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ manifest: [] }),
    }).then((r) => r.json() as Promise<{ upload_id: string }>);
    const run = await cli(['push', root, '--url', server.url, '--project', 'web', '--take-over', '--json'], { PINCHER_HTTP_KEY: KEY });
    expect(run.code).toBe(0);
    const opens = server.requests.filter((r) => r.route === 'open');
    expect(opens.at(-1)!.body).toMatchObject({ take_over: true });
    expect(server.superseded.has(dead.upload_id)).toBe(true);
  });

  it('takes over by default under CI, and --no-take-over refuses to', async () => {
    const root = await makeTree(sample);
    const openBusy = () =>
      fetch(`${server.url}/v1/projects/web/uploads`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify({ manifest: [] }) });
    await openBusy();
    const ci = await cli(['push', root, '--url', server.url, '--project', 'web', '--json'], { PINCHER_HTTP_KEY: KEY, CI: 'true' });
    expect(ci.code).toBe(0);
    expect(server.requests.filter((r) => r.route === 'open').at(-1)!.body).toMatchObject({ take_over: true });

    await openBusy();
    const refused = await cli(['push', root, '--url', server.url, '--project', 'web', '--no-take-over', '--json'], { PINCHER_HTTP_KEY: KEY, CI: 'true' });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'push_in_progress' });
    expect(server.requests.filter((r) => r.route === 'open').at(-1)!.body).not.toHaveProperty('take_over');

    const both = await cli(['push', root, '--url', server.url, '--take-over', '--no-take-over']);
    expect(both.code).toBe(2);
  });

  it('says who pushes: --by, else the CI actor, else nothing; a bad --by is a usage error', async () => {
    const root = await makeTree(sample);
    const lastOpen = () => server.requests.filter((r) => r.route === 'open').at(-1)!.body;
    expect((await cli(['push', root, '--url', server.url, '--project', 'web', '--by', 'ana', '--json'], { PINCHER_HTTP_KEY: KEY, GITHUB_ACTOR: 'octocat' })).code).toBe(0);
    expect(lastOpen()).toMatchObject({ pushed_by: 'ana' });
    expect((await cli(['push', root, '--url', server.url, '--project', 'web', '--json'], { PINCHER_HTTP_KEY: KEY, GITHUB_ACTOR: 'octocat' })).code).toBe(0);
    expect(lastOpen()).toMatchObject({ pushed_by: 'octocat' });
    expect((await cli(['push', root, '--url', server.url, '--project', 'web', '--json'], { PINCHER_HTTP_KEY: KEY, GITLAB_USER_LOGIN: 'gl-user' })).code).toBe(0);
    expect(lastOpen()).toMatchObject({ pushed_by: 'gl-user' });
    expect((await cli(['push', root, '--url', server.url, '--project', 'web', '--json'], { PINCHER_HTTP_KEY: KEY })).code).toBe(0);
    expect(lastOpen()).not.toHaveProperty('pushed_by');
    const bad = await cli(['push', root, '--url', server.url, '--project', 'web', '--by', 'x'.repeat(101)], { PINCHER_HTTP_KEY: KEY });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--by must be 1-100 printable characters');
  });

  it('says the key was refused without printing it', async () => {
    const root = await makeTree(sample);
    const wrong = 'wrong-key-value-123';
    const run = await cli(['push', root, '--url', server.url, '--key', wrong, '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/the server refused the key while opening the upload \(HTTP 401 unauthorized/);
    expect(run.stderr + run.stdout).not.toContain(wrong);
    expect(JSON.parse(run.stdout).error).toMatchObject({ status: 401, code: 'unauthorized' });

    const none = await cli(['push', root, '--url', server.url]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no key was given');
  });

  it('never prints the key even when the server echoes it', async () => {
    const root = await makeTree(sample);
    server.faults.push({ route: 'open', status: 400, times: 1, error: { code: 'bad', message: `you sent ${KEY}` } });
    const run = await cli(['push', root, '--url', server.url, '--json'], { PINCHER_HTTP_KEY: KEY });
    expect(run.code).toBe(1);
    expect(run.stderr + run.stdout).not.toContain(KEY);
    expect(run.stderr).toContain('you sent ***');
  });

  it('exits 1 naming the step, status and code, and abandons the upload', async () => {
    const root = await makeTree(sample);
    server.faults.push({ route: 'files', status: 422, times: 1, error: { code: 'hash_mismatch', message: 'content of src/app.ts does not match its hash', suggestion: 'push again' } });
    const run = await cli(['push', root, '--url', server.url, '--project', 'web'], { PINCHER_HTTP_KEY: KEY });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      'pincher-edge: sending files failed: HTTP 422 hash_mismatch: content of src/app.ts does not match its hash — push again; upload 01UPLOAD0001 abandoned, the previous index stays',
    );
    expect(server.requests.at(-1)).toMatchObject({ route: 'delete', method: 'DELETE' });
    expect(run.stdout).toBe('');
  });

  it('says which URL is unreachable', async () => {
    const root = await makeTree(sample);
    const url = server.url;
    await server.close();
    const run = await cli(['push', root, '--url', url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot reach ${url} (ECONNREFUSED)`);
    server = await startFakeServer();
  });

  it('defaults the project to the folder name', async () => {
    const root = await makeTree(sample, 'myrepo-');
    const run = await cli(['push', root, '--url', server.url, '--json'], { PINCHER_HTTP_KEY: KEY });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).project).toMatch(/^myrepo-/);
  });
});

describe('SCIP index with the push', () => {
  // The real index scip-typescript wrote for test/fixtures/scip/ts (stored as base64 there).
  const INDEX = Buffer.from(readFileSync(new URL('../../fixtures/scip/ts/index.scip.base64', import.meta.url), 'utf8'), 'base64');
  const commitRequest = () => server.requests.find((r) => r.route === 'commit');

  it('finds index.scip at the push root, sends it with the commit, says so, and leaves it out of the manifest', async () => {
    const root = await makeTree({ ...sample, 'index.scip': INDEX });
    const run = await cli(['push', root, '--url', server.url, '--project', 'web'], { PINCHER_HTTP_KEY: KEY });
    expect(run.code, run.stderr).toBe(0);
    expect(commitRequest()?.body).toEqual({ scip_bytes: INDEX.length });
    expect(run.stderr).toContain('found at the push root; --no-scip to skip it');
    expect(run.stdout).toMatch(/scip\s+.*index\.scip \(found at the push root; --no-scip to skip it\): 2 of 2 document\(s\) used, 5 exact edges/);
    const manifest = (server.requests.find((r) => r.route === 'open')?.body as { manifest: { path: string }[] }).manifest;
    expect(manifest.map((m) => m.path)).not.toContain('index.scip');
  });

  it('sends the index named by --scip and reports it in the JSON summary', async () => {
    const root = await makeTree(sample);
    const elsewhere = await makeTree({ 'out/app.scip': INDEX });
    const run = await cli(['push', root, '--url', server.url, '--project', 'web', '--json', '--scip', `${elsewhere}/out/app.scip`], { PINCHER_HTTP_KEY: KEY });
    expect(run.code, run.stderr).toBe(0);
    expect(commitRequest()?.body).toEqual({ scip_bytes: INDEX.length });
    expect(JSON.parse(run.stdout).scip).toMatchObject({ auto: false, files_covered: 2, edges: { CALLS: 3 } });
  });

  it('sends no index with --no-scip, and none when the push root has none', async () => {
    const root = await makeTree({ ...sample, 'index.scip': INDEX });
    const run = await cli(['push', root, '--url', server.url, '--project', 'web', '--no-scip', '--json'], { PINCHER_HTTP_KEY: KEY });
    expect(run.code, run.stderr).toBe(0);
    expect(commitRequest()?.body).toBeUndefined();
    expect(JSON.parse(run.stdout).scip).toBeUndefined();
    const plain = await makeTree(sample);
    server.requests.length = 0;
    expect((await cli(['push', plain, '--url', server.url, '--project', 'web2'], { PINCHER_HTTP_KEY: KEY })).code).toBe(0);
    expect(commitRequest()?.body).toBeUndefined();
  });

  it('exits 2 when --scip names no file, and exits 1 with the server refusal of a bad index', async () => {
    const root = await makeTree(sample);
    const missing = await cli(['push', root, '--url', server.url, '--scip', `${root}/nope.scip`], { PINCHER_HTTP_KEY: KEY });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--scip .*nope\.scip is not a file/);
    server.faults.push({ route: 'commit', times: 1, status: 422, error: { code: 'invalid_scip', message: 'the body is not a SCIP index', suggestion: 'send the index.scip file the indexer wrote; or push with --no-scip' } });
    await addToTree(root, { 'index.scip': Buffer.from('garbage') });
    const refused = await cli(['push', root, '--url', server.url, '--project', 'web'], { PINCHER_HTTP_KEY: KEY });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/invalid_scip.*--no-scip/);
  });
});

describe('--follow', () => {
  it('pushes anyway, saying why, when the server does not serve the event stream', async () => {
    const root = await makeTree({ 'a.ts': 'export const a = 1;\n' });
    const run = await cli(['push', root, '--url', server.url, '--project', 'web', '--follow', '--json'], { PINCHER_HTTP_KEY: KEY });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/--follow: cannot follow GET \/v1\/events \(no such route\); pushing without following/);
    expect(JSON.parse(run.stdout).project).toBe('web');
  });
});

describe('usage', () => {
  it.each([
    [['push', '--bogus'], /Unknown option '--bogus'/],
    [['push'], /no server URL: pass --url or set PINCHER_URL/],
    [['push', '--url', 'ftp://x'], /must be http/],
    [['push', '--url', 'not a url'], /is not a URL/],
    [['push', '--dry-run', '--concurrency', '0'], /--concurrency must be a whole number from 1 to 16/],
    [['push', '--dry-run', '--concurrency', '17'], /--concurrency/],
    [['push', '--dry-run', '--max-file-size', '3m'], /--max-file-size/],
    [['push', '--dry-run', '--max-file-size', 'big'], /--max-file-size/],
    [['push', '--dry-run', '--project', 'has space'], /--project must be/],
    [['push', '--dry-run', 'a', 'b'], /one folder/],
    [['push', '--dry-run', '/no/such/folder'], /is not a directory/],
    [['deploy'], /unknown command "deploy"/],
    [['push', '--url'], /argument missing/],
    [['push', '--dry-run', '--follow'], /--follow and --dry-run exclude each other/],
    [['push', '--dry-run', '--follow-timeout', '5'], /--follow-timeout needs --follow/],
    [['push', '--url', 'http://127.0.0.1:9', '--follow', '--follow-timeout', '0'], /--follow-timeout must be a whole number from 1 to 3600/],
  ])('exits 2 on %j', async (args, message) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });

  it('accepts sizes as bytes, k and m', async () => {
    const root = await makeTree({ 'a.txt': 'a'.repeat(600), 'b.txt': 'b\n'.repeat(400 * 1024) });
    const small = JSON.parse((await cli(['push', root, '--dry-run', '--json', '--max-file-size', '512'])).stdout);
    expect(small.skipped.too_large).toBe(2);
    const mid = JSON.parse((await cli(['push', root, '--dry-run', '--json', '--max-file-size', '512k'])).stdout);
    expect(mid.skipped.too_large).toBe(1);
    const large = JSON.parse((await cli(['push', root, '--dry-run', '--json', '--max-file-size', '2m'])).stdout);
    expect(large.skipped.too_large).toBe(0);
  });

  it('lists commands and push options in --help, and prints the version', async () => {
    const top = await cli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/Commands:\n\s+push \[dir\]/);
    const push = await cli(['push', '--help']);
    expect(push.code).toBe(0);
    for (const flag of ['--url', '--key', '--project', '--ref', '--commit', '--json', '--dry-run', '--concurrency', '--max-file-size']) {
      expect(push.stdout).toContain(flag);
    }
    for (const args of [['--version'], ['push', '--version']]) {
      const version = await cli(args);
      expect(version.code).toBe(0);
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });
});
