import { describe, expect, it } from 'vitest';
import { inputJsonSchema } from '../../../src/tools/describe';
import { findTool, TOOLS } from '../../../src/tools/registry';
import { rpc, TRANSPORTS, type Json } from './support';

/** The core `tools/list` result a client receives, in chars/4 (what `npm run bench` reports as `tokens`). */
const CORE_BUDGET = 2500;
/** Per advertised core tool, on average: the budget holds as core tools are added. */
const PER_TOOL_BUDGET = 260;

const tokens = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);

async function listed(transport: (typeof TRANSPORTS)[number], query = ''): Promise<Json> {
  const reply = await rpc(transport, 'tools/list', {}, { query });
  expect(reply.status).toBe(200);
  return reply.body.result as Json;
}

describe('tools/list token budget', () => {
  for (const transport of TRANSPORTS) {
    it(`keeps the core list within ${CORE_BUDGET} tokens and ${PER_TOOL_BUDGET} per tool over the ${transport} transport`, async () => {
      const result = await listed(transport);
      const tools = result.tools as Json[];
      expect(tools.map((t) => t.name)).toEqual(TOOLS.filter((t) => t.toolset === 'core').map((t) => t.name));
      expect(tokens(result)).toBeLessThanOrEqual(CORE_BUDGET);
      const perTool = tools.reduce((sum, t) => sum + tokens(t), 0) / tools.length;
      expect(perTool).toBeLessThanOrEqual(PER_TOOL_BUDGET);
    });

    it(`lists every registered tool with ?toolset=full over the ${transport} transport`, async () => {
      const tools = (await listed(transport, '?toolset=full')).tools as Json[];
      expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    });
  }

  it('says, for every core tool with a native equivalent, when to call it instead of grep or read', async () => {
    // The phrase that tells a model when the tool beats the native sequence of its baseline (docs/envelope.md).
    const WHEN: Record<string, string> = {
      search: 'before grep',
      grep: 'for non-symbol text',
      symbol: 'instead of its file',
      symbols: 'many ids at once',
      context: 'in one call',
      read: '(a definition: symbol)',
      trace: 'instead of grep',
      batch: 'up to 12 read-tool calls',
      list: 'indexed projects',
    };
    const tools = (await listed('2025')).tools as Json[];
    for (const t of tools) {
      if (findTool(t.name)?.baseline === 'none') continue;
      expect(WHEN[t.name], `${t.name} has a native equivalent: name when it wins`).toBeDefined();
      expect(String(t.description).toLowerCase(), t.name).toContain(WHEN[t.name].toLowerCase());
    }
  });

  it('describes the project parameter in every advertised tool that takes it', async () => {
    const tools = (await listed('2025', '?toolset=full')).tools as Json[];
    const taking = tools.filter((t) => t.inputSchema.properties?.project);
    expect(taking.length).toBeGreaterThan(10);
    for (const t of taking) expect(String(t.inputSchema.properties.project.description ?? ''), t.name).toMatch(/project/i);
  });

  it('leaves a bound or default out of an advertised parameter only when its description states it', async () => {
    const words: Record<number, RegExp> = { 0: /non-negative|\b0\b/, 1: /positive|non-empty|at least one|\b1\b/ };
    let dropped = 0;
    for (const t of (await listed('2025', '?toolset=full')).tools as Json[]) {
      const full = inputJsonSchema(findTool(t.name)!).properties as Record<string, Json> | undefined;
      for (const [param, schema] of Object.entries(full ?? {})) {
        const advertised = t.inputSchema.properties[param] as Json;
        const text = String(advertised.description ?? '').toLowerCase();
        for (const key of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'default']) {
          if (!(key in schema) || key in advertised) continue;
          if (Math.abs(Number(schema[key])) === Number.MAX_SAFE_INTEGER) continue; // z.number().int() limits, never advertised
          dropped++;
          const value = schema[key];
          const label = `${t.name}.${param} ${key}=${JSON.stringify(value)}: "${text}"`;
          if (key === 'default') expect(text, label).toMatch(new RegExp(`default:? ${value === '' ? "''" : String(value).toLowerCase()}|${value} \\(default\\)`));
          else if (typeof value === 'number' && words[value]) expect(text, label).toMatch(words[value]);
          else expect(text, label).toMatch(new RegExp(`(^|[^0-9])${value}($|[^0-9])`));
        }
      }
    }
    expect(dropped).toBeGreaterThan(0);
  });
});
