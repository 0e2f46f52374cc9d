import { exports } from 'cloudflare:workers';
import { it, expect } from 'vitest';
const SELF = (exports as any).default;
it('health', async () => {
  const r = await SELF.fetch('http://x/v1/health');
  expect(await r.json()).toMatchObject({ ok: true });
});
it('mcp legacy', async () => {
  const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  let r = await SELF.fetch('http://x/mcp', { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) });
  console.log(r.status, r.headers.get('content-type'), await r.text());
  r = await SELF.fetch('http://x/mcp', { method: 'POST', headers: { ...h, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { a: 'hi' } } }) });
  console.log(r.status, await r.text());
  r = await SELF.fetch('http://x/mcp', { method: 'POST', headers: { ...h, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }) });
  console.log(r.status, await r.text());
  r = await SELF.fetch('http://x/mcp', { method: 'POST', headers: { ...h, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { a: 'yo' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }) });
  console.log(r.status, await r.text());
});
