import { describe, expect, it } from 'vitest';
import { rpc, TRANSPORTS, type Json } from '../contract/support';

/** Requests whose params the MCP schema rejects; each must answer -32602, never -32603. */
const BAD_PARAMS: { method: string; params: Json; names: RegExp; only?: '2025' | '2026' }[] = [
  { method: 'initialize', params: {}, names: /protocolVersion|capabilities|clientInfo/, only: '2025' },
  { method: 'tools/list', params: { cursor: 1 }, names: /cursor/ },
  { method: 'prompts/get', params: {}, names: /name/ },
  { method: 'prompts/list', params: { cursor: { page: 2 } }, names: /cursor/ },
  { method: 'tools/call', params: { arguments: {} }, names: /name/ },
];

describe('MCP params the protocol schema rejects', () => {
  for (const transport of TRANSPORTS) {
    for (const probe of BAD_PARAMS.filter((p) => !p.only || p.only === transport)) {
      it(`answers ${probe.method} ${JSON.stringify(probe.params)} with -32602 and a clean message (${transport})`, async () => {
        const reply = await rpc(transport, probe.method, probe.params);
        const error = reply.body.error as Json | undefined;
        expect(error, JSON.stringify(reply.body)).toBeTruthy();
        expect(error!.code).toBe(-32602);
        expect(error!.message).toMatch(new RegExp(`^invalid params for ${probe.method.replace('/', '\\/')}: `));
        expect(error!.message).toMatch(probe.names);
        // No raw validator dump: no JSON brackets, no zod issue codes, one line.
        expect(error!.message).not.toMatch(/[[{]|"code"|invalid_type|\n/);
        expect(error!.message.length).toBeLessThan(400);
      });
    }
  }

  it('still serves the same methods with valid params', async () => {
    for (const transport of TRANSPORTS) {
      expect((await rpc(transport, 'tools/list', {})).body.result?.tools?.length).toBeGreaterThan(0);
      expect((await rpc(transport, 'prompts/list', {})).body.result?.prompts).toBeInstanceOf(Array);
    }
    const init = await rpc('2025', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    expect(init.body.result?.serverInfo?.name).toBe('pincher-edge');
  });

  it('keeps an unknown prompt name a -32602 with the typed error in data', async () => {
    for (const transport of TRANSPORTS) {
      const reply = await rpc(transport, 'prompts/get', { name: 'no-such-prompt' });
      expect(reply.body.error?.code).toBe(-32602);
    }
  });
});
