// The server a battery run talks to: a fresh local server (scripts/local-server.mjs via
// startDevServer, keyed, in a temp folder) or an existing one (--url/--key), plus the
// closed error-code list and the server's memory read from /proc.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, applyLocalMigrations, startDevServer } from '../dev-server.mjs';

export const FULL_KEY = 'battery-full-key-0f3a9c';
export const READ_KEY = 'battery-read-key-7b21d4';

/**
 * @param {{ url?: string, key?: string, readKey?: string }} opts
 * @returns {Promise<{ url: string, key: string, readKey?: string, pid?: number, stop: () => Promise<void> }>}
 */
export async function useServer(opts = {}) {
  if (opts.url) return { url: opts.url.replace(/\/$/, ''), key: opts.key ?? '', readKey: opts.readKey, stop: async () => {} };
  const dir = await mkdtemp(path.join(tmpdir(), 'pincher-battery-'));
  applyLocalMigrations(dir);
  const server = await startDevServer({ persistTo: dir, vars: { PINCHER_HTTP_KEY: FULL_KEY, PINCHER_READ_KEY: READ_KEY }, timeoutMs: 240_000 });
  return {
    url: server.url,
    key: FULL_KEY,
    readKey: READ_KEY,
    pid: server.pid,
    logs: server.logs,
    dir,
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The closed list of public error codes, read from src/errors.ts (so the check never drifts). */
export async function closedErrorCodes() {
  const text = await readFile(path.join(ROOT, 'src', 'errors.ts'), 'utf8');
  const block = text.slice(text.indexOf('ERROR_CODES = {'), text.indexOf('} as const'));
  return new Set([...block.matchAll(/^\s*([a-z_]+):\s*\d{3},/gm)].map((m) => m[1]));
}

/**
 * wrangler dev runs two workerd processes: the Worker itself (with its D1), whose entry socket
 * takes any free port, and wrangler's own proxy worker on the port wrangler was given.
 */
function workerdRole(cmd) {
  if (!cmd.some((c) => c.includes('workerd'))) return undefined;
  return cmd.some((c) => c.startsWith('--inspector-addr') || /^--socket-addr=entry=.*:0$/.test(c)) ? 'workerd' : 'workerd-proxy';
}

/**
 * Resident memory of every process in group `pgid` (the local server: supervisor,
 * wrangler, workerd), in MiB, by command name; `anon_by_process` counts only anonymous
 * pages (heaps: what a leak grows), without file-backed pages such as a memory-mapped
 * database file, which the kernel reclaims under pressure. Linux /proc only.
 */
export async function groupMemory(pgid) {
  const byComm = {};
  const anonByComm = {};
  let total = 0;
  for (const e of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = await readFile(`/proc/${e}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const status = await readFile(`/proc/${e}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const anonKb = Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const cmd = (await readFile(`/proc/${e}/cmdline`, 'utf8')).split('\0');
      const name = workerdRole(cmd) ?? (cmd.some((c) => c.includes('local-server')) ? 'supervisor' : cmd.some((c) => c.includes('wrangler')) ? 'wrangler' : stat.slice(stat.indexOf('(') + 1, close));
      const mib = kb / 1024;
      byComm[name] = Math.round(((byComm[name] ?? 0) + mib) * 10) / 10;
      anonByComm[name] = Math.round(((anonByComm[name] ?? 0) + anonKb / 1024) * 10) / 10;
      total += mib;
    } catch {
      /* exited while we looked */
    }
  }
  return { total_mib: Math.round(total * 10) / 10, by_process: byComm, anon_by_process: anonByComm };
}
