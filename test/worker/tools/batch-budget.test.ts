import { describe, expect, it } from 'vitest';
import { mcp, type Json } from '../helpers';

const tokens = (v: unknown) => Math.ceil(JSON.stringify(v).length / 4);

describe('batch in the core tools/list', () => {
  it('keeps its description, input schema and shallow output schema within 250 tokens, its whole entry within the 260 per-tool share', async () => {
    const { body } = await mcp('tools/list', {});
    const tools = body.result.tools as Json[];
    const batch = tools.find((t) => t.name === 'batch');
    expect(batch).toBeDefined();
    expect(tokens(batch?.description) + tokens(batch?.inputSchema) + tokens(batch?.outputSchema)).toBeLessThanOrEqual(250);
    expect(tokens(batch)).toBeLessThanOrEqual(260);
  });
});
