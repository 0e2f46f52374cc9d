#!/usr/bin/env node
// `npm run fuzz -- --requests N [--seed S] [--concurrency C] [--url U --key K --read-key R]`
//
// Seeded fuzz of every tool (REST twin and MCP tools/call, both MCP revisions), the other
// MCP methods, the upload API and the auth surface, against a real local server
// (`wrangler dev` behind scripts/local-server.mjs, keyed). Fails (exit 1) on any 5xx, any
// transport failure, any error that is not typed (`{error: {code, message}}` with `_meta`),
// any code outside the closed list in src/errors.ts, any MCP -32603, and any partial write:
// the pushed base project must be unchanged, and every project that exists must have been
// created by a request that was answered 2xx. Writes a JSON report under .tmp/fuzz/.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './dev-server.mjs';
import { pushCorpus, writeCorpus } from './battery/corpus.mjs';
import { RPC_METHODS, badBody, fileItem, manifestFor, rpcParams, toolArgs, uploadFiles } from './battery/generate.mjs';
import { exchange } from './battery/http.mjs';
import { createRng } from './battery/rng.mjs';
import { closedErrorCodes, useServer } from './battery/server.mjs';

const { values: opt } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '13' },
    concurrency: { type: 'string', default: '4' },
    url: { type: 'string' },
    key: { type: 'string' },
    'read-key': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (opt.help) {
  console.log('npm run fuzz -- --requests N [--seed S] [--concurrency C] [--url U --key FULL --read-key READ]');
  process.exit(0);
}

const TOTAL = Number(opt.requests);
const SEED = Number(opt.seed);
const BASE_PROJECT = 'fuzz-base';
const JSONRPC_OK = new Set([-32700, -32600, -32601, -32602, -32001, -32000]);

const codes = await closedErrorCodes();
const server = await useServer({ url: opt.url, key: opt.key, readKey: opt['read-key'] });
// Whatever fails below, the server started here must not outlive the run.
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, async (err) => {
    console.error(err);
    await server.stop();
    process.exit(2);
  });
}
const base = server.url;
const auth = (key) => (key ? { authorization: `Bearer ${key}` } : {});
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const findings = { '5xx': [], transport: [], untyped: [], unknown_code: [], internal_rpc: [], partial_write: [] };
const counts = { requests: 0, by_kind: {}, by_status: {}, typed_errors: {}, missing_suggestion: 0 };
/** Projects a 2xx write created or replaced, with the file count that write promised (null: unknown). */
const written = new Map();

function note(kind, req, res, why) {
  const list = findings[kind];
  if (list.length < 20) list.push({ why, request: { method: req.method, path: req.path, body: String(req.body ?? '').slice(0, 300) }, status: res.status, body: res.text.slice(0, 300), error: res.error });
  else list.push(null);
}

/** The typed-error check every non-2xx answer must pass. */
function checkError(req, res) {
  const err = res.json?.error;
  if (!err || typeof err.code !== 'string' || typeof err.message !== 'string') return note('untyped', req, res, 'error answer without {error: {code, message}}');
  if (!codes.has(err.code)) return note('unknown_code', req, res, `code ${err.code} is not in src/errors.ts`);
  if (!res.json._meta || typeof res.json._meta !== 'object') return note('untyped', req, res, 'error answer without _meta');
  counts.typed_errors[err.code] = (counts.typed_errors[err.code] ?? 0) + 1;
  if (!err.suggestion) counts.missing_suggestion++;
}

/** A JSON-RPC answer: -32603 is a failure; a tool error must carry a closed-list code. */
function checkRpc(req, res) {
  const msg = res.json;
  if (res.status === 202 && !res.text) return;
  const replies = Array.isArray(msg) ? msg : [msg];
  for (const r of replies) {
    if (!r || typeof r !== 'object') return note('untyped', req, res, 'MCP answer is not JSON-RPC');
    if (r.error) {
      if (r.error.code === -32603) note('internal_rpc', req, res, `-32603: ${String(r.error.message).slice(0, 120)}`);
      else if (!JSONRPC_OK.has(r.error.code) && !(r.error.code <= -32000 && r.error.code >= -32099)) note('untyped', req, res, `JSON-RPC code ${r.error.code}`);
      continue;
    }
    if (r.result?.isError) {
      let payload;
      try {
        payload = JSON.parse(r.result.content?.[0]?.text ?? '');
      } catch {
        payload = undefined;
      }
      const code = payload?.error?.code;
      if (!code) note('untyped', req, res, 'isError tool result without a typed error');
      else if (!codes.has(code)) note('unknown_code', req, res, `tool error code ${code}`);
      else counts.typed_errors[code] = (counts.typed_errors[code] ?? 0) + 1;
    }
  }
}

async function send(kind, req, { rpc = false } = {}) {
  const res = await exchange(base, req);
  counts.requests++;
  counts.by_kind[kind] = (counts.by_kind[kind] ?? 0) + 1;
  counts.by_status[res.status] = (counts.by_status[res.status] ?? 0) + 1;
  if (res.status === 0) note('transport', req, res, `transport: ${res.error}`);
  else if (res.status >= 500) note('5xx', req, res, `HTTP ${res.status}`);
  // On /mcp the SDK answers protocol faults as JSON-RPC errors, with a 4xx status.
  else if ((rpc || req.path.startsWith('/mcp')) && (res.json?.jsonrpc || Array.isArray(res.json))) checkRpc(req, res);
  else if (res.status >= 400) checkError(req, res);
  return res;
}

/* ------------------------------------------------------------------ setup */

console.log(`fuzz: seed ${SEED}, ${TOTAL} requests, concurrency ${opt.concurrency}, server ${base}`);
const corpusDir = await writeCorpus(20);
await pushCorpus({ url: base, key: server.key, project: BASE_PROJECT, dir: corpusDir, commit: 'c0ffee' });
const toolsRes = await exchange(base, { path: '/v1/tools', headers: auth(server.key) });
const tools = toolsRes.json?.tools ?? [];
if (!tools.length) throw new Error(`GET /v1/tools answered ${toolsRes.status}: ${toolsRes.text.slice(0, 200)}`);
const writeTools = new Set(tools.filter((t) => t.annotations?.readOnlyHint === false).map((t) => t.name));

/** Every project the server lists (paged). */
async function baseSnapshot() {
  const all = [];
  for (let offset = 0; ; offset += 200) {
    const res = await exchange(base, { method: 'POST', path: '/v1/tools/list', headers: { ...JSON_HEADERS, ...auth(server.key) }, body: JSON.stringify({ limit: 200, offset }) });
    const page = res.json?.result;
    if (!page) throw new Error(`list answered ${res.status}: ${res.text.slice(0, 200)}`);
    all.push(...page.projects);
    if (!page.has_more) return all;
  }
}
const before = (await baseSnapshot()).find((p) => p.name === BASE_PROJECT);
if (!before) throw new Error('the base project was not pushed');
written.set(BASE_PROJECT, before.files);

/* -------------------------------------------------------------- generators */

let rpcId = 0;
function rpcRequest(rng, revision, method, params, key) {
  const headers = { ...JSON_HEADERS, ...auth(key) };
  let body;
  if (revision === '2026') {
    headers['mcp-protocol-version'] = '2026-07-28';
    headers['mcp-method'] = method;
    if (typeof params?.name === 'string') headers['mcp-name'] = params.name;
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    body = { jsonrpc: '2.0', id: ++rpcId, method, params: params && typeof params === 'object' && !Array.isArray(params) ? { ...params, _meta: meta } : params };
  } else {
    headers['mcp-protocol-version'] = rng.pick(['2025-06-18', '2025-03-26', '2025-11-25']);
    body = { jsonrpc: '2.0', id: ++rpcId, method, params };
  }
  if (method.startsWith('notifications/')) delete body.id;
  const m = rng.int(0, 19);
  if (m === 0) body = [body, { ...body, id: ++rpcId }];
  else if (m === 1) delete body.jsonrpc;
  else if (m === 2) body.id = { nested: true };
  else if (m === 3) return { method: 'POST', path: '/mcp', headers, body: badBody(rng) };
  return { method: 'POST', path: `/mcp${rng.chance(0.1) ? '?toolset=full&project=' + BASE_PROJECT : ''}`, headers, body: JSON.stringify(body) };
}

/** Project a write may target: never the base project (its index must stay as pushed). */
function writeTarget(rng) {
  return `fz-${rng.int(0, 39)}`;
}

async function restTool(rng) {
  const tool = rng.chance(0.03) ? { name: rng.pick(['nope', '..', 'list%00', 'a'.repeat(300)]), input_schema: {} } : rng.pick(tools);
  const isWrite = writeTools.has(tool.name);
  const project = isWrite ? writeTarget(rng) : rng.chance(0.85) ? BASE_PROJECT : rng.pick(['missing-project', '', '../x', 'a'.repeat(200)]);
  const args = toolArgs(rng, tool, project);
  const headers = { 'content-type': 'application/json', ...auth(server.key) };
  let req = { method: 'POST', path: `/v1/tools/${encodeURIComponent(tool.name)}`, headers, body: JSON.stringify(args) };
  const m = rng.int(0, 29);
  if (m === 0) req.body = badBody(rng);
  else if (m === 1) req.headers = { ...headers, 'content-type': rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) };
  else if (m === 2) req.method = rng.pick(['GET', 'PUT', 'DELETE', 'PATCH']);
  else if (m === 3) req.body = JSON.stringify({ ...args, pad: 'p'.repeat(1024 * 1024 + 10) });
  else if (m === 4 && rng.chance(0.3)) req = { ...req, body: 'x'.repeat(1024 * 1024 + 4096), chunked: true };
  else if (m === 5) req.headers = { ...headers, 'x-request-id': rng.pick(['', 'é', 'a'.repeat(300), 'ok-id']) };
  else if (m === 6) req.path += rng.pick(['?project=' + BASE_PROJECT, '?x=%ZZ', '/extra']);
  const res = await send('rest_tool', req);
  if (isWrite && res.status >= 200 && res.status < 300 && req.method === 'POST' && typeof args.project === 'string') written.set(args.project, null);
}

async function mcpCall(rng) {
  const revision = rng.chance(0.5) ? '2025' : '2026';
  const method = rng.pick(RPC_METHODS);
  const params = rpcParams(rng, method, tools, BASE_PROJECT);
  // Write tools over MCP target fuzz projects only.
  if (method === 'tools/call' && params && typeof params === 'object' && writeTools.has(params.name) && params.arguments && typeof params.arguments === 'object') {
    params.arguments.project = writeTarget(rng);
  }
  const req = rpcRequest(rng, revision, method, params, server.key);
  const res = await send('mcp', req, { rpc: true });
  const result = res.json?.result;
  if (res.status === 200 && result && !result.isError && method === 'tools/call' && writeTools.has(params.name)) written.set(params.arguments.project, null);
}

async function upload(rng) {
  const project = rng.chance(0.95) ? writeTarget(rng) : rng.pick(['bad name!', '..', 'a'.repeat(150), '%2e%2e']);
  const root = `/v1/projects/${encodeURIComponent(project)}/uploads`;
  const headers = { 'content-type': 'application/json', ...auth(server.key) };
  const files = uploadFiles(rng);
  const { manifest, valid } = manifestFor(rng, files);
  const opened = await send('upload', { method: 'POST', path: root, headers, body: JSON.stringify({ ref: 'main', commit: `f${rng.int(0, 1e6)}`, manifest }) });
  const id = opened.json?.upload_id;
  // Opening an upload registers the project (listed, not yet indexed) until a commit fills it.
  if (opened.status === 201 && !written.has(project)) written.set(project, null);
  if (opened.status !== 201 || !id) {
    if (rng.chance(0.3)) await send('upload', { method: rng.pick(['POST', 'DELETE', 'GET']), path: `${root}/${rng.pick(['01J000000000000000000000XX', 'x', '..'])}${rng.pick(['', '/files', '/commit'])}`, headers, body: '{}' });
    return;
  }
  const missing = new Set(opened.json.missing ?? []);
  const items = Object.entries(files).map(([p, c]) => fileItem(p, c));
  const r = rng.int(0, 9);
  let batch = items.filter((f) => missing.has(f.hash));
  if (r === 0) batch = batch.map((f, i) => (i === 0 ? { ...f, content: f.content + ' ' } : f));
  else if (r === 1) batch = [...batch, fileItem('src/not_in_manifest.ts', 'export const x = 1;\n')];
  else if (r === 2) batch = [{ path: '../x', hash: 'zz', content: 1 }];
  if (batch.length) await send('upload', { method: 'POST', path: `${root}/${id}/files`, headers, body: JSON.stringify({ files: batch }) });
  if (rng.chance(0.15)) {
    await send('upload', { method: 'DELETE', path: `${root}/${id}`, headers: auth(server.key) });
    return;
  }
  if (rng.chance(0.1)) {
    // Read key on the commit: must be refused and change nothing.
    await send('upload', { method: 'POST', path: `${root}/${id}/commit`, headers: { ...headers, ...auth(server.readKey) }, body: '' });
  }
  const committed = await send('upload', { method: 'POST', path: `${root}/${id}/commit`, headers, body: '' });
  if (committed.status === 200) written.set(project, valid && r >= 3 ? manifest.length : null);
  else await send('upload', { method: 'DELETE', path: `${root}/${id}`, headers: auth(server.key) });
}

async function authProbe(rng) {
  const key = rng.pick([undefined, 'wrong', server.readKey, `${server.key}x`, server.key.slice(0, -1)]);
  const m = rng.int(0, 3);
  if (m === 0) await send('auth', { method: 'POST', path: '/v1/tools/index', headers: { 'content-type': 'application/json', ...auth(key) }, body: JSON.stringify({ project: writeTarget(rng), files: [{ path: 'a.ts', content: 'export const a = 1;' }] }) });
  else if (m === 1) await send('auth', rpcRequest(rng, rng.chance(0.5) ? '2025' : '2026', 'tools/call', { name: 'index', arguments: { project: writeTarget(rng), files: [{ path: 'a.ts', content: 'export const a = 1;' }] } }, key), { rpc: true });
  else if (m === 2) await send('auth', { method: 'POST', path: `/v1/projects/${writeTarget(rng)}/uploads`, headers: { 'content-type': 'application/json', ...auth(key) }, body: JSON.stringify({ manifest: [] }) });
  else await send('auth', { method: 'GET', path: '/v1/capabilities', headers: { ...auth(key), origin: rng.pick(['https://evil.example', 'null', 'http://localhost:3000']) } });
}

async function misc(rng) {
  const route = rng.pick(['/v1/health', '/v1/ready', '/v1/openapi.json', '/v1/capabilities', '/v1/metrics', '/v1/tools', '/', '/nope', '/v1/projects', '/mcp', '/v1/tools/search', '/%2e%2e/%2e%2e/etc/passwd', '/v1//tools']);
  const method = rng.pick(['GET', 'GET', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PUT']);
  const req = { method, path: route, headers: { ...auth(server.key), ...(rng.chance(0.2) ? { host: rng.pick(['evil.example', 'localhost:1']) } : {}) } };
  if (method === 'HEAD') {
    const res = await exchange(base, req);
    counts.requests++;
    counts.by_kind.misc = (counts.by_kind.misc ?? 0) + 1;
    if (res.status >= 500 || res.status === 0) note(res.status ? '5xx' : 'transport', req, res, `HEAD ${res.status}`);
    return;
  }
  await send('misc', req);
}

const KINDS = { restTool: 40, mcpCall: 30, upload: 15, authProbe: 8, misc: 7 };
const RUN = { restTool, mcpCall, upload, authProbe, misc };

/* -------------------------------------------------------------------- run */

const started = Date.now();
let nextIndex = 0;
let lastReport = Date.now();
async function worker(w) {
  const rng = createRng(SEED * 1000 + w);
  while (counts.requests < TOTAL) {
    nextIndex++;
    await RUN[rng.weighted(KINDS)](rng);
    if (Date.now() - lastReport > 15_000) {
      lastReport = Date.now();
      const bad = Object.values(findings).reduce((s, l) => s + l.length, 0);
      console.log(`  ${counts.requests}/${TOTAL} requests, ${Math.round(counts.requests / ((Date.now() - started) / 1000))} req/s, ${bad} findings`);
    }
  }
}
await Promise.all(Array.from({ length: Number(opt.concurrency) }, (_, w) => worker(w)));

/* ------------------------------------------------------- partial writes */

const after = await baseSnapshot();
const baseAfter = after.find((p) => p.name === BASE_PROJECT);
if (!baseAfter || baseAfter.files !== before.files || baseAfter.symbols !== before.symbols || baseAfter.commit !== before.commit || baseAfter.indexed_at !== before.indexed_at) {
  findings.partial_write.push({ why: 'the base project changed', before, after: baseAfter ?? null });
}
for (const p of after) {
  if (!written.has(p.name)) findings.partial_write.push({ why: `project ${p.name} exists but no write to it was answered 2xx`, project: p });
  else {
    const expected = written.get(p.name);
    if (typeof expected === 'number' && p.name !== BASE_PROJECT && p.files !== expected) {
      // A later write may have been refused after a valid commit: the count must still be one we committed.
      findings.partial_write.push({ why: `project ${p.name} holds ${p.files} files, its last 2xx commit promised ${expected}`, project: p });
    }
  }
}

const seconds = (Date.now() - started) / 1000;
const summary = {
  seed: SEED,
  requests: counts.requests,
  seconds: Math.round(seconds),
  req_per_s: Math.round(counts.requests / seconds),
  findings: Object.fromEntries(Object.entries(findings).map(([k, v]) => [k, v.length])),
  by_kind: counts.by_kind,
  by_status: counts.by_status,
  typed_errors: counts.typed_errors,
  errors_without_suggestion: counts.missing_suggestion,
  projects_after: after.length,
};
const out = path.join(ROOT, '.tmp', 'fuzz', `fuzz-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, JSON.stringify({ summary, samples: findings }, null, 2));
await server.stop();
await rm(corpusDir, { recursive: true, force: true });

console.log(JSON.stringify(summary, null, 2));
for (const [kind, list] of Object.entries(findings)) for (const f of list.filter(Boolean).slice(0, 3)) console.log(`${kind}: ${JSON.stringify(f).slice(0, 600)}`);
console.log(`report: ${path.relative(ROOT, out)}`);
const failed = Object.values(findings).reduce((s, l) => s + l.length, 0);
console.log(failed ? `FAIL: ${failed} findings` : 'PASS: 0 5xx, 0 untyped errors, 0 codes outside the closed list, 0 partial writes');
process.exit(failed ? 1 : 0);
