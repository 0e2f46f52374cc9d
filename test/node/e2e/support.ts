// Helpers for the end-to-end suite: one real `wrangler dev` per test file, plain-fetch
// helpers for REST and the 2026-07-28 MCP revision, an official-SDK MCP client factory,
// and a recorder of every response so the suite can prove no secret ever leaks.
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ROOT, applyLocalMigrations, startDevServer } from '../../../scripts/dev-server.mjs';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const FULL_KEY = 'e2e-full-key';
export const READ_KEY = 'e2e-read-key';

/* ------------------------------------------------------------------ server */

export interface E2EServer {
  url: string;
  /** Process-group id of `wrangler dev` (its own group: the child was spawned detached). */
  pid: number;
  dir: string;
  logs: string[];
  stop(): Promise<void>;
}

/** What the migrated local databases depend on: every migration, wrangler.toml and wrangler's version. */
async function migrationsKey(): Promise<string> {
  const hash = createHash('sha256');
  const dir = path.join(ROOT, 'migrations');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  for (const file of files.sort()) hash.update(`${file}\0`).update(await readFile(path.join(dir, file))).update('\0');
  hash.update(await readFile(path.join(ROOT, 'wrangler.toml')));
  hash.update(JSON.parse(await readFile(path.join(ROOT, 'node_modules', 'wrangler', 'package.json'), 'utf8')).version as string);
  return hash.digest('hex').slice(0, 16);
}

/** Whether process `pid` (on this machine) still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A persist folder holding every D1 database of wrangler.toml with every migration applied by
 * `wrangler d1 migrations apply` (applyLocalMigrations), built once per set of migrations and
 * copied for each server: applying them costs two wrangler runs (tens of CPU seconds), a copy
 * a few milliseconds. Test files run in parallel processes, so the first one builds it under a
 * lock (a directory naming its process) and the others wait for it; a lock whose process is gone
 * is taken over. A template, once in place, is never replaced.
 */
async function migratedTemplate(): Promise<string> {
  const cache = path.join(ROOT, '.tmp', 'e2e-d1');
  const template = path.join(cache, await migrationsKey());
  const lock = `${template}.lock`;
  const owner = path.join(lock, 'pid');
  await mkdir(cache, { recursive: true });
  const deadline = Date.now() + 600_000;
  for (;;) {
    if (await stat(path.join(template, 'ready')).then(() => true, () => false)) return template;
    try {
      await mkdir(lock);
    } catch {
      // Another process builds it. Its lock names it (a lock without a name for 10 s lost its maker).
      const pid = Number(await readFile(owner, 'utf8').catch(() => ''));
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (pid > 0 ? !alive(pid) : age > 10_000) await rm(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`no migrated D1 template at ${template} after 600 s (lock ${lock})`);
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    await writeFile(owner, String(process.pid));
    const building = await mkdtemp(path.join(cache, 'building-'));
    try {
      applyLocalMigrations(building);
      await writeFile(path.join(building, 'ready'), new Date().toISOString());
      // Fails only when a template is already in place (a lock taken over from a live but slow builder).
      await rename(building, template).catch(() => undefined);
      await stat(path.join(template, 'ready'));
      return template;
    } finally {
      await rm(building, { recursive: true, force: true });
      await rm(lock, { recursive: true, force: true });
    }
  }
}

/**
 * mkdtemp, copy the migrated databases into it (every migration applied, see migratedTemplate),
 * start one `wrangler dev` persisting there.
 * `budgetMs` bounds migrations plus startup; keep it under the hook timeout (120 s) so a
 * slow start fails inside beforeAll instead of leaving a server nobody will stop.
 */
export async function startE2EServer(
  vars: Record<string, string>,
  budgetMs = 110_000,
  gc: { everyMinutes?: number; firstAfterMs?: number } = {},
  recycle: { rssMib?: number; requests?: number } = {},
): Promise<E2EServer> {
  const started = Date.now();
  const dir = await mkdtemp(path.join(tmpdir(), 'pincher-e2e-'));
  try {
    await cp(await migratedTemplate(), dir, { recursive: true, filter: (src) => path.basename(src) !== 'ready' });
    const timeoutMs = Math.max(15_000, budgetMs - (Date.now() - started));
    const server = (await startDevServer({ persistTo: dir, vars: { PINCHER_OUTPUT_CHECK: 'zod', ...vars }, timeoutMs, gc, recycle })) as Omit<E2EServer, 'dir'>;
    // Safety net: wrangler runs detached in its own group, so if this worker dies without
    // afterAll (killed, crashed), take the group down with it.
    const killGroup = () => {
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    process.once('exit', killGroup);
    const stop = async () => {
      try {
        await server.stop();
      } finally {
        process.off('exit', killGroup);
      }
    };
    return { ...server, stop, dir };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Whether any process is still in group `pgid` (zombies included: the kernel still lists them). */
export function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: something in the group exists but is not ours to signal.
    return true;
  }
}

export interface GroupMember {
  pid: number;
  state: string;
  comm: string;
}

/** Members of process group `pgid` from /proc (Linux), with their state letter. */
export async function groupMembers(pgid: number): Promise<GroupMember[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const out: GroupMember[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = await readFile(`/proc/${e}/stat`, 'utf8');
      // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const [state, , pgrp] = stat.slice(close + 2).split(' ');
      if (Number(pgrp) === pgid) out.push({ pid: Number(e), state, comm });
    } catch {
      /* exited while we looked */
    }
  }
  return out;
}

/**
 * Waits until group `pgid` is gone (`kill(-pgid, 0)` throws ESRCH). Returns the members
 * still listed after `timeoutMs` (empty when the group vanished). Children orphaned by
 * wrangler's exit are reaped by PID 1, which may take a moment; those are zombies (state
 * Z): already dead, only waiting to be reaped, so callers may tolerate them.
 */
export async function waitForGroupGone(pgid: number, timeoutMs = 15_000): Promise<GroupMember[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!groupExists(pgid)) return [];
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!groupExists(pgid)) return [];
  const members = await groupMembers(pgid);
  return members.length ? members : [{ pid: -1, state: '?', comm: `group ${pgid} still answers kill(0)` }];
}

/* ---------------------------------------------------------------- recorder */

export interface Seen {
  method: string;
  url: string;
  status: number;
  requestId: string | null;
  headers: string;
  body: string;
}

/** Every response any helper (or the SDK transport) received, for the leak check. */
export const seen: Seen[] = [];

/** `fetch` that records each response's status, headers and body before handing it back. */
export async function recordingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const res = await fetch(input, init);
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  const url = input instanceof Request ? input.url : String(input);
  const type = res.headers.get('content-type') ?? '';
  // An SSE stream would never end; this server answers JSON, so none is expected.
  const body = type.includes('text/event-stream') ? '<sse stream>' : await res.clone().text();
  seen.push({
    method,
    url,
    status: res.status,
    requestId: res.headers.get('x-request-id'),
    headers: JSON.stringify([...res.headers]),
    body,
  });
  return res;
}

/* ------------------------------------------------------------------- HTTP */

export interface Reply<T = Json> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: Json = {};
  try {
    body = text ? (JSON.parse(text) as Json) : {};
  } catch {
    /* not JSON: text carries it */
  }
  return { status: res.status, headers: res.headers, body, text };
}

export function bearer(key: string | undefined): Record<string, string> {
  return key === undefined ? {} : { authorization: `Bearer ${key}` };
}

/** Any request; `key` undefined sends no Authorization header. */
export async function http(base: string, route: string, opts: { method?: string; key?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Reply> {
  const hasBody = opts.body !== undefined;
  const res = await recordingFetch(`${base}${route}`, {
    method: opts.method ?? (hasBody ? 'POST' : 'GET'),
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...bearer(opts.key), ...(opts.headers ?? {}) },
    body: hasBody ? (typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)) : undefined,
  });
  return reply(res);
}

/** `POST /v1/tools/{tool}` with the arguments as the JSON body. */
export function rest(base: string, tool: string, args: Json = {}, key: string | undefined = FULL_KEY, headers: Record<string, string> = {}): Promise<Reply> {
  return http(base, `/v1/tools/${tool}`, { method: 'POST', key, headers, body: args });
}

export const MODERN_VERSION = '2026-07-28';
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
};

let rpcId = 0;

/**
 * One JSON-RPC request in the 2026-07-28 stateless revision: per-request `_meta` in
 * params, `MCP-Protocol-Version` and `Mcp-Method` headers, and `Mcp-Name` for
 * tools/call (taken from params.name unless `headers` overrides it). `key` defaults to
 * the full key; `null` sends no Authorization header.
 */
export async function modernRpc(
  base: string,
  method: string,
  params: Json = {},
  opts: { key?: string | null; headers?: Record<string, string>; query?: string } = {},
): Promise<Reply> {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  const res = await recordingFetch(`${base}/mcp${opts.query ?? ''}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      ...name,
      ...bearer(opts.key === undefined ? FULL_KEY : (opts.key ?? undefined)),
      ...(opts.headers ?? {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params: { ...params, _meta: { ...MODERN_META, ...(params._meta ?? {}) } } }),
  });
  return reply(res);
}

/* -------------------------------------------------------------- SDK client */

export interface SdkConnection {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

/** A connected official-SDK client (initialize done) over streamable HTTP. */
export async function connectSdk(base: string, key: string, opts: { query?: string; headers?: Record<string, string> } = {}): Promise<SdkConnection> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp${opts.query ?? ''}`), {
    requestInit: { headers: { Authorization: `Bearer ${key}`, ...(opts.headers ?? {}) } },
    fetch: recordingFetch,
  });
  const client = new Client({ name: 'pincher-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/* ------------------------------------------------------------------- misc */

/** `_meta` without the keys that differ per request or per surface. */
export function stableMeta(meta: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(meta ?? {})) {
    if (k === 'request_id' || k === 'latency_ms' || k.startsWith('io.modelcontextprotocol/')) continue;
    // Per transport: MCP counts every block the model receives (the notice too), REST its body.
    if (k === 'tokens_used' || k === 'tokens_saved' || k === 'tokens_saved_pct') continue;
    out[k] = v;
  }
  return out;
}

/** structuredContent without the MCP-only `notice` mirror. */
export function withoutNotice(structured: Json): Json {
  const { notice: _notice, ...rest } = structured ?? {};
  return rest;
}
