import { exports } from 'cloudflare:workers';

interface Fetcher {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}
export const SELF = (exports as unknown as { default: Fetcher }).default;

export const BASE = 'http://localhost';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function rest(tool: string, args: unknown = {}, headers: Record<string, string> = {}): Promise<{ status: number; body: Json; res: Response }> {
  const res = await SELF.fetch(`${BASE}/v1/tools/${tool}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof args === 'string' ? args : JSON.stringify(args),
  });
  return { status: res.status, body: (await res.json()) as Json, res };
}

const LEGACY_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

let rpcId = 0;

/** The JSON-RPC messages of an SSE body (`data:` lines of each event). */
export function sseMessages(text: string): Json[] {
  const out: Json[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    if (data) out.push(JSON.parse(data) as Json);
  }
  return out;
}

/** The JSON-RPC response among an SSE answer's messages (the notifications precede it). */
export function sseResponse(messages: Json[]): Json {
  return [...messages].reverse().find((m) => 'id' in m && ('result' in m || 'error' in m)) ?? {};
}

/** An MCP answer's body: the JSON, or for an SSE answer its JSON-RPC response. */
export function rpcBody(res: Response, text: string): Json {
  if (/^text\/event-stream/i.test(res.headers.get('content-type') ?? '')) return sseResponse(sseMessages(text));
  return text ? (JSON.parse(text) as Json) : {};
}

/** One JSON-RPC request over the 2025-era stateless transport. */
export async function mcp(method: string, params: Json = {}, opts: { query?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: Json; res: Response }> {
  const res = await SELF.fetch(`${BASE}/mcp${opts.query ?? ''}`, {
    method: 'POST',
    headers: { ...LEGACY_HEADERS, ...(opts.headers ?? {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const text = await res.text();
  return { status: res.status, body: rpcBody(res, text), res };
}

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One JSON-RPC request in the 2026-07-28 stateless revision (per-request _meta and routing headers). */
export async function mcpModern(method: string, params: Json = {}, headers: Record<string, string> = {}): Promise<{ status: number; body: Json; res: Response }> {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  const res = await SELF.fetch(`${BASE}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...name,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params: { ...params, _meta: { ...MODERN_META, ...(params._meta ?? {}) } } }),
  });
  const text = await res.text();
  return { status: res.status, body: rpcBody(res, text), res };
}

export async function callTool(name: string, args: Json = {}, opts: { query?: string; headers?: Record<string, string> } = {}) {
  return mcp('tools/call', { name, arguments: args }, opts);
}
