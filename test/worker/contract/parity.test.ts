import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../../src/tools/registry';
import { SCHEMA_VERSION } from '../../../src/version';
import {
  TRANSPORTS,
  deleteProjects,
  insertProjects,
  mcpPayload,
  mcpTool,
  metaKeys,
  restCall,
  rpc,
  send,
  withoutNotice,
  type Json,
  type Transport,
} from './support';

const PROJECT = 'parity-proj';

/**
 * Argument sets per tool. A tool missing here is still checked with `{}`, so a
 * new tool gets parity coverage on the day it is registered.
 */
const ARGS: Record<string, Json[]> = {
  why_empty: [{}, { code: 'stale_index', project: PROJECT }, { code: 'no_such_code' }],
  list: [{}, { limit: 2 }, { name_contains: 'zz-nothing' }, { limit: '1', offset: '0' }, { limt: 3 }, { limit: 0 }, { offset: 9999 }],
  health: [{}, { project: PROJECT }, { project: 'parity-unknown' }],
  // Calls that answer the same twice in a row (the write tool must not make REST and MCP see different states).
  index: [
    {},
    { project: 'parity-unknown', force: true },
    { project: PROJECT, force: true },
    { project: 'parity-blocked', files: [{ path: 'yarn.lock', content: '# lock' }] },
    { project: PROJECT, force: true, files: [] },
  ],
};

/** `_meta` values that legitimately differ between two calls. */
const VOLATILE = new Set(['request_id', 'latency_ms']);

function stable(meta: Json): Json {
  return Object.fromEntries(Object.entries(meta).filter(([k]) => !VOLATILE.has(k) && !k.startsWith('io.modelcontextprotocol/')));
}

beforeAll(async () => {
  await insertProjects([
    { name: PROJECT, schemaVersionAtIndex: SCHEMA_VERSION },
    { name: 'parity-other', schemaVersionAtIndex: SCHEMA_VERSION },
    { name: 'parity-third', schemaVersionAtIndex: SCHEMA_VERSION },
  ]);
});
afterAll(async () => {
  await deleteProjects([PROJECT, 'parity-other', 'parity-third']);
});

describe('REST and MCP give the same answer for the same call', () => {
  for (const tool of TOOLS) {
    for (const args of ARGS[tool.name] ?? [{}]) {
      for (const transport of TRANSPORTS) {
        it(`${tool.name} ${JSON.stringify(args)}: REST and MCP ${transport} agree on result and _meta`, async () => {
          const rest = await restCall(tool.name, args);
          const { result: mcp } = await mcpTool(transport, tool.name, args);
          expect(mcp, 'MCP answered with a JSON-RPC error').toBeDefined();
          if (!mcp) return;

          if (rest.status === 200) {
            expect(mcp.isError).toBeUndefined();
            expect(withoutNotice(mcp.structuredContent)).toEqual(rest.body.result);
          } else {
            expect(mcp.isError).toBe(true);
            expect(mcpPayload(mcp).error).toEqual(rest.body.error);
          }
          expect(metaKeys(mcp._meta)).toEqual(metaKeys(rest.body._meta));
          expect(stable(mcp._meta)).toEqual(stable(rest.body._meta));
        });
      }
    }
  }
});

describe('the MCP tool result shape', () => {
  async function everyCall(fn: (tool: string, args: Json, transport: Transport, result: Json) => void): Promise<void> {
    for (const tool of TOOLS) {
      for (const args of ARGS[tool.name] ?? [{}]) {
        for (const transport of TRANSPORTS) {
          const { result } = await mcpTool(transport, tool.name, args);
          expect(result).toBeDefined();
          fn(tool.name, args, transport, result as Json);
        }
      }
    }
  }

  it('puts the same JSON in content[0].text as in structuredContent', async () => {
    let ok = 0;
    await everyCall((_tool, _args, _t, result) => {
      expect(result.content[0].type).toBe('text');
      if (result.isError) return;
      ok++;
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    });
    expect(ok).toBeGreaterThan(0);
  });

  it('gives isError results no structuredContent (it would fail the outputSchema) and the error JSON in content[0].text', async () => {
    let errors = 0;
    await everyCall((_tool, _args, _t, result) => {
      if (!result.isError) return;
      errors++;
      expect(result).not.toHaveProperty('structuredContent');
      expect(Object.keys(JSON.parse(result.content[0].text)).filter((k) => k !== 'notice')).toEqual(['error']);
    });
    expect(errors).toBeGreaterThan(0);
  });

  it('mirrors empty_reason, diagnosis, next_steps and warnings into structuredContent.notice exactly when _meta has them', async () => {
    await everyCall((_tool, _args, _t, result) => {
      const meta = result._meta as Json;
      const expected: Json = {};
      if (meta.empty_reason) expected.empty_reason = meta.empty_reason;
      if (meta.diagnosis) expected.diagnosis = meta.diagnosis;
      if (meta.next_steps?.length) expected.next_steps = meta.next_steps;
      if (meta.warnings?.length) expected.warnings = meta.warnings;
      const payload = mcpPayload(result);
      if (Object.keys(expected).length) expect(payload.notice).toEqual(expected);
      else expect(payload).not.toHaveProperty('notice');
    });
  });

  it('adds a second plain-words text block to empty results, and only to them', async () => {
    let empties = 0;
    await everyCall((_tool, _args, _t, result) => {
      const empty = !result.isError && Boolean(result._meta.empty_reason);
      expect(result.content).toHaveLength(empty ? 2 : 1);
      if (!empty) return;
      empties++;
      const words = result.content[1];
      expect(words.type).toBe('text');
      expect(words.text).toContain(result._meta.empty_reason);
      expect(words.text).toContain(result._meta.diagnosis);
      expect(() => JSON.parse(words.text)).toThrow();
    });
    expect(empties).toBeGreaterThan(0);
  });

  it('gives an empty list (no project indexed) a notice with empty_reason and diagnosis, and names the next step in plain words', async () => {
    await deleteProjects([PROJECT, 'parity-other', 'parity-third']);
    try {
      for (const transport of TRANSPORTS) {
        const { result } = await mcpTool(transport, 'list', {});
        const notice = result?.structuredContent.notice;
        expect(notice.empty_reason).toBe('no_project_indexed');
        expect(typeof notice.diagnosis).toBe('string');
        expect(notice.diagnosis.length).toBeGreaterThan(10);
        if (notice.next_steps) for (const s of notice.next_steps) expect(s.args).toBeTypeOf('object');
        expect(result?.content[1].text).toMatch(/^Empty result \(no_project_indexed\): /);
      }
      // An empty result with a next step spells that step out in the plain-words block.
      const { result } = await mcpTool('2025', 'health', { project: 'parity-unknown' });
      expect(result?.content[1].text).toContain('Next: call list with {}');
    } finally {
      await insertProjects([
        { name: PROJECT, schemaVersionAtIndex: SCHEMA_VERSION },
        { name: 'parity-other', schemaVersionAtIndex: SCHEMA_VERSION },
        { name: 'parity-third', schemaVersionAtIndex: SCHEMA_VERSION },
      ]);
    }
  });

  it('marks failures isError with error {code, message, suggestion} and the same error on REST with a non-200 status', async () => {
    const failures: [string, Json][] = [
      ['why_empty', { code: 'no_such_code' }],
      ['list', { limit: 0 }],
      ['list', '"not an object"' as unknown as Json],
    ];
    for (const [tool, args] of failures) {
      const rest = await restCall(tool, args);
      expect(rest.status).toBeGreaterThanOrEqual(400);
      for (const transport of TRANSPORTS) {
        if (typeof args !== 'object') continue; // MCP refuses non-object arguments at the protocol level (bad-input.test.ts)
        const { result } = await mcpTool(transport, tool, args);
        expect(result?.isError).toBe(true);
        const err = mcpPayload(result as Json).error;
        expect(typeof err.code).toBe('string');
        expect(typeof err.message).toBe('string');
        expect(typeof err.suggestion).toBe('string');
        expect(err).toEqual(rest.body.error);
      }
      expect(Object.keys(rest.body).sort()).toEqual(['_meta', 'error']);
      expect(typeof rest.body.error.suggestion).toBe('string');
    }
  });
});

describe('one registry behind both surfaces', () => {
  it('lists the same tools with the same schemas on GET /v1/tools and MCP tools/list?toolset=full', async () => {
    const rest = await send('/v1/tools');
    for (const transport of TRANSPORTS) {
      const mcp = await rpc(transport, 'tools/list', {}, { query: '?toolset=full' });
      const tools = mcp.body.result.tools as Json[];
      expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
      expect(rest.body.tools.map((t: Json) => t.name)).toEqual(TOOLS.map((t) => t.name));
      for (const t of tools) {
        const twin = rest.body.tools.find((r: Json) => r.name === t.name);
        expect(t.inputSchema).toEqual(twin.input_schema);
        expect(t.description).toBe(twin.description);
        expect(t.annotations).toMatchObject(twin.annotations);
        // MCP's outputSchema is REST's plus the optional model-facing notice.
        expect(t.outputSchema.properties).toMatchObject(twin.output_schema.properties);
        expect(t.outputSchema.properties).toHaveProperty('notice');
      }
    }
  });

  it('advertises only core tools by default, and every advertised tool is callable', async () => {
    for (const transport of TRANSPORTS) {
      const mcp = await rpc(transport, 'tools/list', {});
      const names = (mcp.body.result.tools as Json[]).map((t) => t.name);
      expect(names).toEqual(TOOLS.filter((t) => t.toolset === 'core').map((t) => t.name));
    }
    const header = await rpc('2025', 'tools/list', {}, { headers: { 'x-pincher-toolset': 'full' } });
    expect(header.body.result.tools).toHaveLength(TOOLS.length);
  });

  it('keeps full-toolset tools callable even when only the core list is advertised', async () => {
    for (const tool of TOOLS.filter((t) => t.toolset !== 'core')) {
      const { result, rpcError } = await mcpTool('2025', tool.name, {});
      expect(rpcError, `${tool.name} was refused as a protocol error`).toBeUndefined();
      expect(result?._meta.complexity_tier).toBe(tool.tier);
      if (result?.isError) expect(mcpPayload(result).error.code).not.toBe('unknown_tool');
    }
  });
});
