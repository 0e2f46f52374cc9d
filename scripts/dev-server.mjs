// Starts the Worker locally (scripts/local-server.mjs: a front proxy and a supervisor
// around `wrangler dev`) with an embedded D1, in its own process group so that
// stopping it never orphans wrangler or workerd.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WRANGLER = path.join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');

export const QUIET_ENV = {
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_LOG: 'warn',
  NO_UPDATE_NOTIFIER: '1',
};

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The D1 bindings of `root`'s wrangler.toml: `DB` (the primary) and every shard `DB_SHARD_<n>` (src/db/shards.ts). */
export function shardBindings(root = ROOT) {
  const toml = readFileSync(path.join(root, 'wrangler.toml'), 'utf8');
  return [...toml.matchAll(/^binding\s*=\s*"(DB(?:_SHARD_[1-9]\d*)?)"/gm)].map((m) => m[1]);
}

/**
 * Applies every migration in migrations/ to each D1 database of wrangler.toml
 * (the primary and every shard), locally under `persistTo` or, with `remote`, to
 * the deployed databases. `root`: the checkout whose migrations and wrangler.toml
 * count (another one's, to measure it against this one).
 */
export function applyLocalMigrations(persistTo, { remote = false, root = ROOT } = {}) {
  const out = [];
  for (const binding of shardBindings(root)) {
    const args = [WRANGLER, 'd1', 'migrations', 'apply', binding, remote ? '--remote' : '--local'];
    if (persistTo && !remote) args.push('--persist-to', persistTo);
    const res = spawnSync(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...QUIET_ENV, CI: 'true' },
      encoding: 'utf8',
      stdio: remote ? 'inherit' : 'pipe',
    });
    if (res.status !== 0) {
      throw new Error(`applying D1 migrations to ${binding} failed:\n${res.stdout}\n${res.stderr}`);
    }
    out.push(res.stdout ?? '');
  }
  return out.join('');
}

/**
 * Starts the local server on 127.0.0.1:port with the given vars and waits until
 * /v1/health answers. Returns { url, port, stop, logs, pid }.
 *
 * The server is scripts/local-server.mjs: a front proxy (bounded keep-alive with a
 * `Keep-Alive: timeout=` hint) and a supervisor that runs `wrangler dev` on a private
 * port, reaches it on fresh connections, and restarts it if it dies or hangs. It runs
 * in its own process group (`pid`), which `stop` ends. `PINCHER_RATE_LIMIT` is `off`
 * unless `vars` sets it: local runs measure the server, not the per-key limiter.
 * `PINCHER_ACCESS_LOG` is `off` too: wrangler prints warnings only, and a line per request
 * would pile up in `logs` over a long run.
 *
 * `gc` sets how often the supervisor runs the Worker's Cron Trigger (garbage collection):
 * `everyMinutes` (default 30, 0 = never) and `firstAfterMs` (default 60 s).
 * `recycle` sets when the supervisor replaces the Worker's runtime without refusing a request:
 * `rssMib` (its anonymous memory; default PINCHER_RECYCLE_RSS_MIB or 384, 0 = never) and
 * `requests` (default PINCHER_RECYCLE_REQUESTS or 0 = never).
 *
 * @param {{ port?: number, persistTo?: string, vars?: Record<string, string>, timeoutMs?: number, inherit?: boolean, gc?: { everyMinutes?: number, firstAfterMs?: number }, recycle?: { rssMib?: number, requests?: number } }} [options]
 */
export async function startDevServer(options = {}) {
  // A port found free can be taken by another process before the server binds it (tests start servers in parallel):
  // when this function chose the port and the server could not bind it, it starts again on another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce({ ...options, port: options.port ?? (await freePort()) });
    } catch (err) {
      const taken = err instanceof Error && /EADDRINUSE/.test(err.message);
      if (options.port !== undefined || !taken || attempt >= 3) throw err;
    }
  }
}

/** startDevServer on one port. @param {Parameters<typeof startDevServer>[0] & { port: number }} options */
async function startOnce({ port, persistTo, vars = {}, timeoutMs = 90_000, inherit = false, gc = {}, recycle = {} }) {
  const config = {
    port,
    root: ROOT,
    persistTo,
    vars: { PINCHER_RATE_LIMIT: 'off', PINCHER_ACCESS_LOG: 'off', ...vars },
    gcEveryMinutes: gc.everyMinutes,
    gcFirstAfterMs: gc.firstAfterMs,
    recycle,
  };
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'local-server.mjs'), JSON.stringify(config)], {
    cwd: ROOT,
    env: { ...process.env, ...QUIET_ENV },
    detached: true,
    stdio: inherit ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
  });
  const logs = [];
  if (!inherit) {
    child.stdout.on('data', (d) => logs.push(String(d)));
    child.stderr.on('data', (d) => logs.push(String(d)));
  }
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise((resolve) => {
      if (exited) return resolve();
      child.once('exit', () => resolve());
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return resolve();
      }
      setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 8_000).unref();
    });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the local server exited before it was ready:\n${logs.join('').slice(-4000)}`);
    try {
      const res = await fetch(`${url}/v1/health`);
      if (res.ok) return { url, port, stop, logs, pid: child.pid };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`the local server did not answer /v1/health within ${timeoutMs} ms:\n${logs.join('').slice(-4000)}`);
}
