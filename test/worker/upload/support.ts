import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import app from '../../../src/index';
import type { Env } from '../../../src/env';
import { BASE, rpcBody, SELF, type Json } from '../helpers';

export { env, type Json };

/** Keys configured when a test passes `key` (the pool itself runs open, without keys). */
export const FULL_KEY = 'full';
export const READ_KEY = 'read';

export interface Reply {
  status: number;
  body: Json;
}

export async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * One request into the Worker. Without `key` it goes through SELF (open
 * server); with `key` (a string, or null for "no Authorization header") it
 * calls the app with PINCHER_HTTP_KEY=full and PINCHER_READ_KEY=read.
 */
export async function request(method: string, path: string, body?: unknown, key?: string | null): Promise<Reply> {
  const init: RequestInit = { method };
  const headers: Record<string, string> = {};
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
  }
  if (key) headers.authorization = `Bearer ${key}`;
  init.headers = headers;
  let res: Response;
  if (key === undefined) {
    res = await SELF.fetch(`${BASE}${path}`, init);
  } else {
    const ctx = createExecutionContext();
    const merged = { ...env, PINCHER_HTTP_KEY: FULL_KEY, PINCHER_READ_KEY: READ_KEY } as unknown as Env;
    res = await app.fetch(new Request(`${BASE}${path}`, init), merged, ctx);
    await waitOnExecutionContext(ctx);
  }
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
}

export function post(path: string, body: unknown, key?: string | null): Promise<Reply> {
  return request('POST', path, body, key);
}

export interface ManifestItem {
  path: string;
  hash: string;
  size: number;
}

export async function manifestOf(files: Record<string, string>): Promise<ManifestItem[]> {
  return Promise.all(Object.entries(files).map(async ([path, content]) => ({ path, hash: await sha256(content), size: byteLength(content) })));
}

/** Step 1: open an upload with the manifest of `files`. */
export async function open(project: string, files: Record<string, string>, extra: Json = {}, key?: string | null): Promise<Reply> {
  return post(`/v1/projects/${project}/uploads`, { manifest: await manifestOf(files), ...extra }, key);
}

/** Step 2: send the given paths of `files` (content hashed here). */
export async function sendFiles(project: string, uploadId: string, files: Record<string, string>, key?: string | null): Promise<Reply> {
  const items = await Promise.all(Object.entries(files).map(async ([path, content]) => ({ path, hash: await sha256(content), content })));
  return post(`/v1/projects/${project}/uploads/${uploadId}/files`, { files: items }, key);
}

/** Step 3. */
export function commit(project: string, uploadId: string, key?: string | null): Promise<Reply> {
  return post(`/v1/projects/${project}/uploads/${uploadId}/commit`, {}, key);
}

/** The whole protocol: open, send what is missing, commit. Returns every step's answer. */
export async function push(project: string, files: Record<string, string>, extra: Json = {}, key?: string | null) {
  const manifest = await manifestOf(files);
  const opened = await post(`/v1/projects/${project}/uploads`, { manifest, ...extra }, key);
  if (opened.status !== 201) return { open: opened, sentCount: 0 };
  const missing = new Set<string>(opened.body.missing);
  const send = manifest.filter((m) => missing.has(m.hash)).map((m) => ({ path: m.path, hash: m.hash, content: files[m.path] }));
  let sent: Reply | undefined;
  if (send.length) sent = await post(`/v1/projects/${project}/uploads/${opened.body.upload_id}/files`, { files: send }, key);
  const committed = await post(`/v1/projects/${project}/uploads/${opened.body.upload_id}/commit`, {}, key);
  return { open: opened, sent, commit: committed, sentCount: send.length };
}

/** `POST /v1/tools/{tool}`. */
export function tool(name: string, args: unknown, key?: string | null): Promise<Reply> {
  return post(`/v1/tools/${name}`, args, key);
}

let rpcId = 5000;

/** `tools/call` over MCP (2025 stateless transport); answers the JSON-RPC envelope. */
export async function mcpCall(name: string, args: Json, key?: string | null): Promise<Reply> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  if (key) headers.authorization = `Bearer ${key}`;
  let res: Response;
  if (key === undefined) {
    res = await SELF.fetch(`${BASE}/mcp`, { method: 'POST', headers, body });
  } else {
    const ctx = createExecutionContext();
    const merged = { ...env, PINCHER_HTTP_KEY: FULL_KEY, PINCHER_READ_KEY: READ_KEY } as unknown as Env;
    res = await app.fetch(new Request(`${BASE}/mcp`, { method: 'POST', headers, body }), merged, ctx);
    await waitOnExecutionContext(ctx);
  }
  return { status: res.status, body: rpcBody(res, await res.text()) };
}

// ---- D1 state ----

export async function rows<T = Json>(sql: string, ...binds: unknown[]): Promise<T[]> {
  return (await env.DB.prepare(sql).bind(...binds).all<T>()).results;
}

export async function scalar(sql: string, ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql).bind(...binds).first<{ n: number }>();
  return row?.n ?? 0;
}

export interface ProjectState {
  id: string;
  name: string;
  indexed_at: number | null;
  ref: string | null;
  commit_sha: string | null;
  extractor_version: number | null;
  schema_version_at_index: number | null;
  file_count: number;
  symbol_count: number;
  generation: number;
}

export async function projectRow(name: string): Promise<ProjectState | null> {
  return env.DB.prepare('SELECT * FROM projects WHERE name = ?1').bind(name).first<ProjectState>();
}

/** Symbol ids of a project, sorted. */
export async function symbolIds(project: string): Promise<string[]> {
  const r = await rows<{ id: string }>('SELECT s.id FROM symbols s JOIN projects p ON p.id = s.project_id WHERE p.name = ?1 ORDER BY s.id', project);
  return r.map((x) => x.id);
}

/** `id → rowid` of a project's symbols: a rewritten row gets a new rowid. */
export async function symbolRowids(project: string): Promise<Map<string, number>> {
  const r = await rows<{ id: string; rowid: number }>(
    'SELECT s.id, s.rowid FROM symbols s JOIN projects p ON p.id = s.project_id WHERE p.name = ?1',
    project,
  );
  return new Map(r.map((x) => [x.id, x.rowid]));
}

export interface FileState {
  path: string;
  hash: string;
  size: number;
  language: string;
  corpus: string;
  status: string;
  reason: string | null;
  symbol_count: number;
  extractor_version: number;
}

export async function fileRows(project: string): Promise<FileState[]> {
  return rows<FileState>('SELECT f.* FROM files f JOIN projects p ON p.id = f.project_id WHERE p.name = ?1 ORDER BY f.path', project);
}

export async function refRows(project: string): Promise<Json[]> {
  return rows('SELECT r.* FROM refs r JOIN projects p ON p.id = r.project_id WHERE p.name = ?1 ORDER BY r.file_path, r.line, r.name', project);
}

/** Row counts of every table the push protocol writes. */
export async function tableCounts(): Promise<Record<string, number>> {
  const tables = ['projects', 'uploads', 'upload_files', 'blobs', 'extractions', 'files', 'symbols', 'refs'];
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = await scalar(`SELECT count(*) AS n FROM ${t}`);
  return out;
}

export async function uploadRow(id: string): Promise<Json | null> {
  return env.DB.prepare('SELECT * FROM uploads WHERE id = ?1').bind(id).first<Json>();
}

/** Small TypeScript and Python sources; `tag` makes the bytes (and so the hashes) unique to a test. */
export function tsSource(tag: string): string {
  return `// ${tag}\n/** Adds numbers. */\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport class Calc {\n  total = 0;\n  plus(n: number) {\n    this.total = add(this.total, n);\n  }\n}\n`;
}

export function pySource(tag: string, fn = 'greet'): string {
  return `# ${tag}\ndef ${fn}(name):\n    """Say hello."""\n    return "hi " + name\n`;
}
