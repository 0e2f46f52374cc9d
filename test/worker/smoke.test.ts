import { describe, expect, it } from 'vitest';
import { BASE, SELF, callTool, mcp, mcpModern, rest } from './helpers';

describe('smoke', () => {
  it('serves all surfaces', async () => {
    const h = await SELF.fetch(`${BASE}/v1/health`);
    console.log(h.status, h.headers.get('x-request-id'), await h.text());
    console.log(JSON.stringify((await rest('why_empty', { code: 'cap_dropped_all' })).body).slice(0, 600));
    console.log(JSON.stringify((await rest('list', { limit: '5', bogus: 1 })).body).slice(0, 900));
    console.log(JSON.stringify((await mcp('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } })).body));
    console.log(JSON.stringify((await mcp('tools/list')).body).slice(0, 800));
    console.log(JSON.stringify((await callTool('list')).body).slice(0, 1500));
    console.log(JSON.stringify((await mcpModern('tools/call', { name: 'why_empty', arguments: { code: 'nope' } })).body).slice(0, 1500));
    console.log(JSON.stringify((await mcpModern('server/discover', {})).body).slice(0, 1500));
    expect(1).toBe(1);
  });
});
