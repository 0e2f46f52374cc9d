import { env as poolEnv } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext, type D1Migration } from 'cloudflare:test';
import app from '../../../src/index';
import type { Env } from '../../../src/env';
import { EXTRACTOR_VERSION } from '../../../src/extract';
import { BASE, MODERN_META, SELF, sseMessages, sseResponse, type Json } from '../helpers';

export { BASE, type Json };

/** The pool's bindings (real local D1, PINCHER_ALLOW_OPEN=1, no keys), typed as the Worker sees them. */
export const env = poolEnv as unknown as Env & { TEST_MIGRATIONS: D1Migration[] };

/** A ULID: 26 Crockford base-32 characters, first one 0–7. */
export const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, `{}` when the body is empty or not JSON; for an SSE answer, its final JSON-RPC response. */
  body: Json;
  /** For an SSE answer (MCP), every JSON-RPC message it carried, in order; notifications precede the response. */
  messages?: Json[];
}

export type EnvOverrides = { [K in keyof Env]?: Env[K] | undefined };

async function toReply(res: Response): Promise<Reply> {
  const text = await res.text();
  if (/^text\/event-stream/i.test(res.headers.get('content-type') ?? '')) {
    const messages = sseMessages(text);
    const body = sseResponse(messages);
    return { status: res.status, headers: res.headers, text, body, messages };
  }
  let body: Json = {};
  try {
    body = text ? (JSON.parse(text) as Json) : {};
  } catch {
    body = {};
  }
  return { status: res.status, headers: res.headers, text, body };
}

/**
 * One request into the Worker. Without `overrides` it goes through SELF (the
 * pool's env: PINCHER_ALLOW_OPEN=1, no keys); with them it calls the Hono app
 * with the real bindings plus the overrides and waits for `waitUntil` work
 * (the call log) before returning.
 */
export async function send(path: string, init: RequestInit = {}, overrides?: EnvOverrides, base = BASE): Promise<Reply> {
  if (!overrides) return toReply(await SELF.fetch(`${base}${path}`, init));
  const ctx = createExecutionContext();
  const merged = { ...env, ...overrides } as unknown as Env;
  const res = await app.fetch(new Request(`${base}${path}`, init), merged, ctx);
  const reply = await toReply(res);
  await waitOnExecutionContext(ctx);
  return reply;
}

export interface CallOpts {
  headers?: Record<string, string>;
  env?: EnvOverrides;
  /** Query string for the URL, e.g. `?project=web`. */
  query?: string;
}

/** `POST /v1/tools/{tool}`; a string `args` is sent verbatim as the body. */
export function restCall(tool: string, args: unknown = {}, opts: CallOpts = {}): Promise<Reply> {
  return send(
    `/v1/tools/${tool}${opts.query ?? ''}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(opts.headers ?? {}) },
      body: typeof args === 'string' ? args : JSON.stringify(args),
    },
    opts.env,
  );
}

export type Transport = '2025' | '2026';
export const TRANSPORTS: readonly Transport[] = ['2025', '2026'];

let rpcId = 1000;

/** One JSON-RPC request to `POST /mcp` over the 2025-era or the 2026-07-28 stateless transport. */
export function rpc(transport: Transport, method: string, params: Json = {}, opts: CallOpts = {}): Promise<Reply> {
  const base: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  let body: Json;
  if (transport === '2025') {
    base['mcp-protocol-version'] = '2025-06-18';
    body = { jsonrpc: '2.0', id: ++rpcId, method, params };
  } else {
    base['mcp-protocol-version'] = '2026-07-28';
    base['mcp-method'] = method;
    if (typeof params.name === 'string') base['mcp-name'] = params.name;
    body = { jsonrpc: '2.0', id: ++rpcId, method, params: { ...params, _meta: { ...MODERN_META, ...(params._meta ?? {}) } } };
  }
  return send(`/mcp${opts.query ?? ''}`, { method: 'POST', headers: { ...base, ...(opts.headers ?? {}) }, body: JSON.stringify(body) }, opts.env);
}

/** `tools/call` over MCP; resolves to the JSON-RPC `result` (a CallToolResult) plus the raw reply. */
export async function mcpTool(transport: Transport, name: string, args: Json = {}, opts: CallOpts = {}) {
  const reply = await rpc(transport, 'tools/call', { name, arguments: args }, opts);
  return { reply, result: reply.body.result as Json | undefined, rpcError: reply.body.error as Json | undefined };
}

/** `_meta` keys, sorted, without the SDK's own `io.modelcontextprotocol/*` keys. */
export function metaKeys(meta: Json | undefined): string[] {
  return Object.keys(meta ?? {})
    .filter((k) => !k.startsWith('io.modelcontextprotocol/'))
    .sort();
}

/** The default token heuristic, recomputed independently of src/: ceil(chars / 4) of the JSON text. */
export function charTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}

/** `structuredContent` without the model-facing `notice` mirror. */
export function withoutNotice(structured: Json): Json {
  const { notice: _notice, ...rest } = structured;
  return rest;
}

export interface ProjectSeed {
  name: string;
  indexedAt?: number | null;
  schemaVersionAtIndex?: number | null;
  extractorVersion?: number | null;
  files?: number;
  symbols?: number;
}

/** Inserts project rows straight into D1 (as a committed push would leave them); returns their ids. */
export async function insertProjects(seeds: ProjectSeed[]): Promise<string[]> {
  const ids = seeds.map((s, i) => `test-${s.name}-${Date.now().toString(36)}-${i}`);
  await env.DB.batch(
    seeds.map((s, i) =>
      env.DB.prepare(
        `INSERT INTO projects (id, name, created_at, indexed_at, ref, commit_sha, extractor_version, schema_version_at_index, file_count, symbol_count)
         VALUES (?1, ?2, ?3, ?4, 'refs/heads/main', 'abc1234', ?5, ?6, ?7, ?8)`,
      ).bind(
        ids[i],
        s.name,
        1_700_000_000_000,
        s.indexedAt === undefined ? 1_700_000_100_000 : s.indexedAt,
        s.extractorVersion === undefined ? EXTRACTOR_VERSION : s.extractorVersion,
        s.schemaVersionAtIndex === undefined ? null : s.schemaVersionAtIndex,
        s.files ?? 3,
        s.symbols ?? 12,
      ),
    ),
  );
  return ids;
}

export async function deleteProjects(names: string[]): Promise<void> {
  if (!names.length) return;
  await env.DB.prepare(`DELETE FROM projects WHERE name IN (${names.map((_, i) => `?${i + 1}`).join(',')})`)
    .bind(...names)
    .run();
}

/** Replaces `obj[key]` for the duration of `fn`, restoring it afterwards whatever happens. */
export async function patched<T extends object, K extends keyof T, R>(obj: T, key: K, value: T[K], fn: () => Promise<R>): Promise<R> {
  const original = obj[key];
  obj[key] = value;
  try {
    return await fn();
  } finally {
    obj[key] = original;
  }
}


/** The `_meta` field names of the public contract (DESIGN §3), written out independently of src/. */
export const CONTRACT_FIELDS = [
  'request_id',
  'client_request_id',
  'tokens_used',
  'tokens_saved',
  'tokens_saved_pct',
  'baseline_method',
  'savings_scope',
  'complexity_tier',
  'latency_ms',
  'empty_reason',
  'diagnosis',
  'diagnosis_v2',
  'next_steps',
  'warnings',
  'warnings_v2',
  'capabilities',
  'binary_drift_warning',
  'schema_version',
  'schema_version_at_index',
  'project_id',
  'project_name',
  'session_id',
] as const;

export type Surface = 'rest' | 'mcp-2025' | 'mcp-2026';
export const SURFACES: readonly Surface[] = ['rest', 'mcp-2025', 'mcp-2026'];

export interface SurfaceCall {
  reply: Reply;
  meta: Json;
  /** What the caller receives as the payload: REST `result` or `{error}`; MCP structuredContent without `notice`. */
  payload: Json;
  isError: boolean;
}

/** Calls a tool on one surface and normalises where its envelope and payload live. */
export async function callOn(surface: Surface, tool: string, args: Json = {}, opts: CallOpts = {}): Promise<SurfaceCall> {
  if (surface === 'rest') {
    const reply = await restCall(tool, args, opts);
    const isError = 'error' in reply.body;
    return { reply, meta: reply.body._meta, payload: isError ? { error: reply.body.error } : reply.body.result, isError };
  }
  const { reply, result, rpcError } = await mcpTool(surface === 'mcp-2025' ? '2025' : '2026', tool, args, opts);
  if (!result) throw new Error(`${surface} ${tool}: JSON-RPC error ${JSON.stringify(rpcError)}`);
  return { reply, meta: result._meta, payload: withoutNotice(mcpPayload(result)), isError: result.isError === true };
}

/**
 * The JSON object an MCP tool result carries: `structuredContent` on success;
 * on an isError result (which has no structuredContent, since clients check it
 * against the outputSchema) the `{error, notice?}` JSON in content[0].text.
 */
export function mcpPayload(result: Json): Json {
  return result.structuredContent ?? (JSON.parse(result.content[0].text) as Json);
}

/** A tiny real source tree for the code tools: one TypeScript file with a class, a method and a function, and a README. */
export const CODE_FILES = [
  {
    path: 'src/app.ts',
    content:
      'export class Server {\n  start(port: number): void {\n    listen(port);\n  }\n}\n\nexport function listen(port: number): number {\n  return port + 1;\n}\n',
  },
  { path: 'README.md', content: '# Golden\n\nSome docs.\n' },
];

/** Indexes CODE_FILES into `project` through the real index tool (REST, full access). */
export async function indexCodeProject(project: string): Promise<void> {
  const reply = await restCall('index', { project, files: CODE_FILES });
  if (reply.status !== 200) throw new Error(`indexing ${project} failed: ${reply.text.slice(0, 300)}`);
}

/** Resolves a local `#/a/b` reference inside `root`; undefined when it does not resolve. */
export function resolveRef(root: Json, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) node = (node as Json | undefined)?.[part];
  return node as Json | undefined;
}

/**
 * A small JSON Schema checker for the keywords our generated schemas use
 * (type, properties, required, additionalProperties, items, enum, const,
 * anyOf/oneOf/allOf, minimum/maximum, local $ref): enough to hold real
 * responses to their documented shapes. Returns the problems, each with its path.
 */
export function checkSchema(schema: Json, value: unknown, root: Json = schema, path = '$'): string[] {
  if (schema.$ref) {
    const target = resolveRef(root, schema.$ref);
    return target ? checkSchema(target, value, root, path) : [`${path}: unresolved $ref ${schema.$ref}`];
  }
  const errs: string[] = [];
  const sub = (s: Json, v: unknown, p: string) => checkSchema(s, v, root, p);
  if (schema.allOf) for (const s of schema.allOf) errs.push(...sub(s, value, path));
  if (schema.anyOf && !schema.anyOf.some((s: Json) => sub(s, value, path).length === 0)) errs.push(`${path}: matches no anyOf branch`);
  if (schema.oneOf && schema.oneOf.filter((s: Json) => sub(s, value, path).length === 0).length !== 1) errs.push(`${path}: matches not exactly one oneOf branch`);
  if (schema.enum && !schema.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value))) errs.push(`${path}: ${JSON.stringify(value)} not in enum`);
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) errs.push(`${path}: not the const`);
  if (schema.type) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
    if (!types.some((t) => t === actual || (t === 'number' && actual === 'integer'))) return [...errs, `${path}: expected ${types.join('|')}, got ${actual}`];
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) errs.push(`${path}: below minimum`);
    if (schema.maximum !== undefined && value > schema.maximum) errs.push(`${path}: above maximum`);
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errs.push(...sub(schema.items, v, `${path}[${i}]`)));
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Json;
    for (const key of schema.required ?? []) if (!(key in obj)) errs.push(`${path}: missing required ${key}`);
    const props = (schema.properties ?? {}) as Json;
    for (const [key, v] of Object.entries(obj)) {
      if (props[key]) errs.push(...sub(props[key], v, `${path}.${key}`));
      else if (schema.additionalProperties === false) errs.push(`${path}: unexpected property ${key}`);
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') errs.push(...sub(schema.additionalProperties, v, `${path}.${key}`));
    }
  }
  return errs;
}

/** One golden `_meta` key-set case (envelope-golden.test.ts). */
export interface GoldenCase {
  label: string;
  args: Json;
  keys: string[];
  /** The call resolves a project: project_id/project_name appear on these calls and on no other. */
  scoped?: true;
}

/** A call whose next_steps must all execute (next-steps.test.ts). */
export interface StepSource {
  label: string;
  tool: string;
  args: Json;
  /** This call must emit at least one step (so the battery cannot silently go quiet). */
  mustSteer?: boolean;
}

/**
 * Contract cases contributed per tool family by `cases/*.cases.ts`, each a
 * function of the name of the project indexed from CODE_FILES, so the golden,
 * parity and next-step suites cover every registered tool.
 */
export interface ContractCases {
  golden?: Record<string, GoldenCase[]>;
  parity?: Record<string, Json[]>;
  steps?: StepSource[];
}

const caseModules = import.meta.glob<{ cases: (code: string) => ContractCases }>('./cases/*.cases.ts', { eager: true });

/** Every contributed case set, instantiated for the project `code`. */
export function contributedCases(code: string): ContractCases[] {
  return Object.values(caseModules).map((m) => m.cases(code));
}
