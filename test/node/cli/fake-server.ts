// A test double of the Worker's upload routes (docs/indexing.md), served by node:http on
// 127.0.0.1. It keeps content-addressed storage, one index per project and open uploads, so a
// second push really finds what the first one stored; faults can be injected per route.
import { createHash } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = 'open' | 'files' | 'commit' | 'get' | 'delete';

export interface RecordedRequest {
  route: Route | 'unknown';
  method: string;
  path: string;
  bytes: number;
  body: unknown;
  authorization: string | undefined;
}

export interface Fault {
  route: Route;
  /** How many matching requests it answers before it is used up. */
  times: number;
  /** HTTP status to answer, or 'drop' to cut the connection without an answer. */
  status: number | 'drop';
  error?: { code: string; message: string; suggestion?: string; details?: Record<string, unknown> };
  headers?: Record<string, string>;
}

interface Upload {
  id: string;
  project: string;
  ref?: string;
  commit?: string;
  manifest: Map<string, string>;
  missing: Set<string>;
  plan: { new: number; changed: number; unchanged: number; deleted: number };
  skipped: number;
  failed: number;
  expiresAt: number;
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** hash → content, shared by every project. */
  contents: Map<string, string>;
  /** project → (path → hash). */
  indexes: Map<string, Map<string, string>>;
  uploads: Map<string, Upload>;
  /** Ids of uploads a take-over replaced. */
  superseded: Set<string>;
  faults: Fault[];
  /** Highest number of files requests seen in flight at once. */
  maxFilesInFlight: number;
  /** Delay before answering a files request. */
  filesDelayMs: number;
  /**
   * When set, files requests are held until this many are in flight at once (at most
   * 10 s), then every request is answered: how many a client keeps in flight is observed
   * whatever the machine's speed.
   */
  filesGate: number;
  close(): Promise<void>;
}

const MAX_BODY = 4 * 1024 * 1024;
const UPLOAD_TTL_MS = 15 * 60 * 1000;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly suggestion?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export async function startFakeServer(keys: { key?: string; readKey?: string } = {}): Promise<FakeServer> {
  let nextId = 1;
  let filesInFlight = 0;
  /** Set once `filesGate` requests were in flight together. */
  let gateOpened = false;
  const state: Omit<FakeServer, 'url' | 'close'> = {
    requests: [],
    contents: new Map(),
    indexes: new Map(),
    uploads: new Map(),
    superseded: new Set(),
    faults: [],
    maxFilesInFlight: 0,
    filesDelayMs: 0,
    filesGate: 0,
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const raw = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const match = /^\/v1\/projects\/([^/]+)\/uploads(?:\/([^/]+)(?:\/(files|commit))?)?$/.exec(path);
    const route = routeOf(req.method ?? '', match);
    let body: unknown;
    const scip = route === 'commit' && req.headers['content-type'] === 'application/x-scip' ? raw : undefined;
    try {
      body = scip ? { scip_bytes: scip.length } : raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {
      body = Symbol.for('invalid');
    }
    state.requests.push({ route, method: req.method ?? '', path, bytes: raw.length, body, authorization: req.headers.authorization });

    if (route === 'files') {
      filesInFlight++;
      state.maxFilesInFlight = Math.max(state.maxFilesInFlight, filesInFlight);
      for (const heldUntil = Date.now() + 10_000; state.filesGate > 0 && !gateOpened && Date.now() < heldUntil; await new Promise((r) => setTimeout(r, 5))) {
        if (filesInFlight >= state.filesGate) gateOpened = true;
      }
      await new Promise((r) => setTimeout(r, state.filesDelayMs));
      filesInFlight--;
    }
    const fault = state.faults.find((f) => f.route === route && f.times > 0);
    if (fault) {
      fault.times--;
      if (fault.status === 'drop') {
        req.socket.destroy();
        return;
      }
      const error = fault.error ?? { code: 'internal_error', message: 'injected fault' };
      send(res, fault.status, { error }, fault.headers);
      return;
    }

    try {
      authorize(req.headers.authorization);
      if (route === 'unknown' || !match) throw new HttpError(404, 'not_found', 'no such route');
      if (body === Symbol.for('invalid')) throw new HttpError(400, 'invalid_json', 'body is not JSON');
      const project = decodeURIComponent(match[1]);
      if (!/^[A-Za-z0-9._-]{1,100}$/.test(project)) throw new HttpError(400, 'invalid_project', 'bad project name');
      if (route === 'open') return send(res, 201, open(project, body));
      const upload = state.uploads.get(decodeURIComponent(match[2]));
      if (upload?.project === project && state.superseded.has(upload.id)) {
        throw new HttpError(409, 'upload_superseded', `upload '${upload.id}' was taken over by a newer push`, 'push again if this tree is the one to index', { status: 'superseded' });
      }
      if (!upload || upload.project !== project || upload.expiresAt < Date.now()) {
        throw new HttpError(404, 'upload_not_found', 'unknown or expired upload');
      }
      upload.expiresAt = Date.now() + UPLOAD_TTL_MS;
      if (route === 'files') {
        if (raw.length > MAX_BODY) throw new HttpError(413, 'body_too_large', 'body over 4 MiB');
        return send(res, 200, files(upload, body));
      }
      if (route === 'commit') return send(res, 200, commit(upload, scip));
      if (route === 'delete') {
        state.uploads.delete(upload.id);
        return send(res, 200, { upload_id: upload.id, state: 'abandoned' });
      }
      return send(res, 200, { upload_id: upload.id, project, state: 'open', missing: [...upload.missing] });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const { status, code, message, suggestion, details } = error;
      send(res, status, { error: { code, message, suggestion, ...(details && { details }) } });
    }
  }

  function authorize(header: string | undefined) {
    if (!keys.key) return;
    const given = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
    if (given === keys.key) return;
    if (keys.readKey && given === keys.readKey) {
      throw new HttpError(403, 'insufficient_scope', 'this key is read-only', 'use PINCHER_HTTP_KEY for uploads');
    }
    throw new HttpError(401, 'unauthorized', 'missing or invalid bearer key', 'send Authorization: Bearer <PINCHER_HTTP_KEY>');
  }

  function open(project: string, body: unknown) {
    const { ref, commit, manifest, take_over: takeOver } = (body ?? {}) as { ref?: string; commit?: string; manifest?: unknown; take_over?: boolean };
    if (!Array.isArray(manifest) || manifest.length > 100_000) throw new HttpError(400, 'invalid_manifest', 'manifest must be an array of at most 100,000 entries');
    const entries = new Map<string, string>();
    for (const item of manifest as { path?: unknown; hash?: unknown; size?: unknown }[]) {
      if (typeof item?.path !== 'string' || !validPath(item.path)) throw new HttpError(400, 'invalid_path', `bad path ${String(item?.path)}`);
      if (typeof item.hash !== 'string' || !/^[0-9a-f]{64}$/.test(item.hash)) throw new HttpError(400, 'invalid_hash', `bad hash for ${item.path}`);
      if (typeof item.size !== 'number') throw new HttpError(400, 'invalid_manifest', `no size for ${item.path}`);
      entries.set(item.path, item.hash);
    }
    let busy = [...state.uploads.values()].find((u) => u.project === project && u.expiresAt >= Date.now() && !state.superseded.has(u.id));
    let superseded: string | undefined;
    if (busy && takeOver === true) {
      state.superseded.add(busy.id);
      superseded = busy.id;
      busy = undefined;
    }
    if (busy) {
      throw new HttpError(409, 'push_in_progress', `another upload of ${project} is open`, 'wait for it to finish or expire (15 minutes)', { upload_id: busy.id });
    }
    const current = state.indexes.get(project) ?? new Map<string, string>();
    const plan = { new: 0, changed: 0, unchanged: 0, deleted: 0 };
    for (const [path, hash] of entries) {
      const before = current.get(path);
      if (before === undefined) plan.new++;
      else if (before === hash) plan.unchanged++;
      else plan.changed++;
    }
    for (const path of current.keys()) if (!entries.has(path)) plan.deleted++;
    const missing = new Set([...entries.values()].filter((hash) => !state.contents.has(hash)));
    const id = `01UPLOAD${String(nextId++).padStart(4, '0')}`;
    const upload: Upload = { id, project, ref, commit, manifest: entries, missing, plan, skipped: 0, failed: 0, expiresAt: Date.now() + UPLOAD_TTL_MS };
    state.uploads.set(id, upload);
    return { upload_id: id, project, expires_at: new Date(upload.expiresAt).toISOString(), missing: [...missing], plan, ...(superseded && { superseded }) };
  }

  function files(upload: Upload, body: unknown) {
    const items = (body as { files?: unknown })?.files;
    if (!Array.isArray(items)) throw new HttpError(400, 'invalid_body', 'files must be an array');
    for (const item of items as { path?: unknown; hash?: unknown; content?: unknown }[]) {
      if (typeof item?.path !== 'string' || upload.manifest.get(item.path) !== item.hash) {
        throw new HttpError(422, 'not_in_manifest', `${String(item?.path)} is not in the manifest with that hash`);
      }
      if (typeof item.content !== 'string' || sha256(item.content) !== item.hash) {
        throw new HttpError(422, 'hash_mismatch', `content of ${item.path} does not match its hash`, undefined, { path: item.path });
      }
    }
    const skipped: { path: string; reason: string }[] = [];
    const failures: { path: string; reason: string }[] = [];
    let symbols = 0;
    for (const { path, hash, content } of items as { path: string; hash: string; content: string }[]) {
      state.contents.set(hash, content);
      upload.missing.delete(hash);
      if (content.includes('\0')) {
        skipped.push({ path, reason: 'binary' });
        upload.skipped++;
      } else if (path.endsWith('.broken')) {
        failures.push({ path, reason: 'parse_error' });
        upload.failed++;
      } else {
        symbols += content.match(/\bfunction\b/g)?.length ?? 0;
      }
    }
    return { accepted: items.length - skipped.length, skipped, symbols, failures };
  }

  /** `scip`: an index sent as the body; answered with a fixed account of it. */
  function commit(upload: Upload, scip?: Buffer) {
    const missing = [...upload.missing].filter((hash) => !state.contents.has(hash));
    if (missing.length) throw new HttpError(409, 'upload_incomplete', `${missing.length} contents still missing`, 'send them, then commit', { missing });
    state.indexes.set(upload.project, upload.manifest);
    state.uploads.delete(upload.id);
    let symbols = 0;
    for (const hash of upload.manifest.values()) symbols += state.contents.get(hash)?.match(/\bfunction\b/g)?.length ?? 0;
    return {
      project: upload.project,
      ref: upload.ref,
      commit: upload.commit,
      files: { ...upload.plan, skipped: upload.skipped, failed: upload.failed },
      symbols,
      ...(scip && { scip: { tool: 'scip-typescript', documents: 2, files_covered: 2, skipped: {}, edges: { CALLS: 3, REFERENCES: 2 } } }),
      duration_ms: 7,
    };
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => send(res, 500, { error: { code: 'internal_error', message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

function routeOf(method: string, match: RegExpExecArray | null): Route | 'unknown' {
  if (!match) return 'unknown';
  const [, , id, action] = match;
  if (!id) return method === 'POST' ? 'open' : 'unknown';
  if (action === 'files') return method === 'POST' ? 'files' : 'unknown';
  if (action === 'commit') return method === 'POST' ? 'commit' : 'unknown';
  if (method === 'GET') return 'get';
  if (method === 'DELETE') return 'delete';
  return 'unknown';
}

function validPath(path: string) {
  return (
    path.length > 0 &&
    Buffer.byteLength(path) <= 1024 &&
    !path.startsWith('/') &&
    !path.includes('\0') &&
    !path.includes('\\') &&
    !path.split('/').some((segment) => segment === '.' || segment === '..' || segment === '')
  );
}

function send(res: ServerResponse, status: number, payload: object, headers: Record<string, string> = {}) {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ ...payload, _meta: { server: 'fake' } }));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
