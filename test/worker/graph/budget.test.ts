import { describe, expect, it } from 'vitest';
import { mcp, type Json } from '../helpers';

const tokens = (v: unknown) => Math.ceil(JSON.stringify(v).length / 4);

/** DESIGN §5: trace is a core tool; its entry (description, input and advertised output schema) has 250 tokens of the core list. */
describe('trace in the core tools/list', () => {
  it('is advertised in the core list within 250 tokens (description, input and output schema)', async () => {
    const { body } = await mcp('tools/list', {});
    const trace = (body.result.tools as Json[]).find((t) => t.name === 'trace');
    expect(trace).toBeDefined();
    const size = tokens(trace!.description) + tokens(trace!.inputSchema) + tokens(trace!.outputSchema);
    expect(size).toBeLessThanOrEqual(250);
  });
});
