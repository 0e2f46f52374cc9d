// The soak's read mix: seeded, valid calls over the pushed corpus (scripts/battery/corpus.mjs)
// through the REST twin and MCP on both protocol revisions. scripts/soak.mjs and
// scripts/soak-heap.mjs drive it.

/** Tells a failed exchange from a good one: undefined when the call answered as it must. */
export function failed(res) {
  if (res.status !== 200) return `HTTP ${res.status}${res.error ? ` ${res.error}` : ''}`;
  if (res.json?.error) return `JSON-RPC ${res.json.error.code}`;
  if (res.json?.result?.isError) return 'tool error';
  return undefined;
}

/**
 * One call of the mix: every entry is a valid call that must answer 200 (or a JSON-RPC result).
 * @param {ReturnType<typeof import('./rng.mjs').createRng>} rng
 * @param {{ project: string, modules: number, headers: Record<string, string> }} opts
 */
export function mixCall(rng, { project, modules, headers }) {
  const i = rng.int(0, modules - 1);
  const fn = `handleRequest${i}`;
  const tsFile = `src/mod${i}.ts`;
  const pyFile = `py/store_${i}.py`;
  const id = `${tsFile}::${fn}#Function`;
  const calls = [
    ['search', { project, query: fn }],
    ['search', { project, query: 'handle*', limit: 10 }],
    ['symbol', { project, id }],
    ['symbols', { project, ids: [id, `${pyFile}::load_config_${i}#Function`] }],
    ['read', { project, path: rng.chance(0.5) ? tsFile : pyFile }],
    ['grep', { project, pattern: 'return', limit: 20 }],
    ['trace', { project, name: fn }],
    ['context', { project, name: fn }],
    ['ls', { project }],
    ['list', {}],
    ['why_empty', { code: 'query_too_narrow' }],
  ];
  const [tool, args] = rng.pick(calls);
  const surface = rng.weighted({ rest: 6, mcp2025: 2, mcp2026: 2 });
  if (surface === 'rest') return { label: tool, req: { method: 'POST', path: `/v1/tools/${tool}`, headers, body: JSON.stringify(args) } };
  const modern = surface === 'mcp2026';
  const params = { name: tool, arguments: args, ...(modern ? { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } : {}) };
  const h = { ...headers, 'mcp-protocol-version': modern ? '2026-07-28' : '2025-06-18', ...(modern ? { 'mcp-method': 'tools/call', 'mcp-name': tool } : {}) };
  return { label: `mcp:${tool}`, req: { method: 'POST', path: '/mcp', headers: h, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }) } };
}
