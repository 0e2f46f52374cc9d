import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../../src/tools/registry';
import { SCHEMA_VERSION } from '../../../src/version';
import {
  TRANSPORTS,
  checkSchema,
  contributedCases,
  deleteProjects,
  indexCodeProject,
  insertProjects,
  mcpPayload,
  mcpTool,
  metaKeys,
  restCall,
  rpc,
  send,
  withoutNotice,
  type Json,
  type Reply,
  type Transport,
} from './support';

const PROJECT = 'parity-proj';
const CODE = 'parity-code';

/**
 * Argument sets per tool. A tool missing here is still checked with `{}`, so a
 * new tool gets parity coverage on the day it is registered.
 */
const ARGS: Record<string, Json[]> = {
  why_empty: [{}, { code: 'stale_index', project: PROJECT }, { code: 'no_such_code' }],
  list: [{}, { limit: 2 }, { name_contains: 'zz-nothing' }, { limit: '1', offset: '0' }, { limt: 3 }, { limit: 0 }, { offset: 9999 }],
  health: [{}, { project: PROJECT }, { project: 'parity-unknown' }],
  search: [{ project: CODE, query: 'listen' }, { project: CODE, query: 'listen', kind: 'Class' }, { project: CODE, query: 'port', offset: 100 }, { query: 'x' }],
  symbol: [{ project: CODE, id: 'src/app.ts::listen#Function' }, { project: CODE, id: 'src/app.ts::Nope#Function' }],
  symbols: [{ project: CODE, ids: ['src/app.ts::listen#Function', 'src/app.ts::Nope#Function'] }, { project: CODE, ids: [] }],
  context: [{ project: CODE, name: 'Server.start' }, { project: CODE, name: 'Nope' }, { project: CODE, id: 'x', name: 'y' }],
  read: [{ project: CODE, path: 'src/app.ts' }, { project: CODE, path: 'src/app.ts', symbol: 'listen', map: true }, { project: CODE, path: 'nope.ts' }, { project: CODE, path: '../etc/passwd' }],
  grep: [{ project: CODE, pattern: 'port', context: 1 }, { project: CODE, pattern: 'zzzz' }, { project: CODE, pattern: '(a+)+' }],
  find: [{ project: CODE, pattern: '*.ts' }, { project: CODE, pattern: '*.zz' }],
  ls: [{ project: CODE }, { project: CODE, path: 'nope' }, { project: CODE, max_depth: 9 }],
  // Calls that answer the same twice in a row (the write tool must not make REST and MCP see different states).
  index: [
    {},
    { project: 'parity-unknown', force: true },
    { project: PROJECT, force: true },
    { project: 'parity-blocked', files: [{ path: 'yarn.lock', content: '# lock' }] },
    { project: PROJECT, force: true, files: [] },
  ],
};

for (const c of contributedCases(CODE)) Object.assign(ARGS, c.parity ?? {});

const NO_ARGS: Json[] = [{}];

function argsFor(tool: string): Json[] {
  return ARGS[tool] ?? NO_ARGS;
}

/** `_meta` values that legitimately differ between two calls. */
const VOLATILE = new Set(['request_id', 'latency_ms']);
/** Per-transport accounting: MCP counts every block the model receives (notice, plain-words line), REST its body. */
const PER_TRANSPORT = new Set(['tokens_used', 'tokens_saved', 'tokens_saved_pct']);

/** `_meta` without volatile values; typed diagnoses compare by code and severity (messages may carry timings). */
function stable(meta: Json): Json {
  const out = Object.fromEntries(
    Object.entries(meta).filter(([k]) => !VOLATILE.has(k) && !PER_TRANSPORT.has(k) && !k.startsWith('io.modelcontextprotocol/')),
  );
  if (out.diagnosis_v2) out.diagnosis_v2 = (out.diagnosis_v2 as Json[]).map((d) => ({ code: d.code, severity: d.severity }));
  return out;
}

interface Recorded {
  tool: string;
  args: Json;
  rest: Reply;
  mcp: Record<Transport, { result?: Json; rpcError?: Json }>;
}

/** Each call made once on REST and on both MCP transports, back to back; the tests read these. */
const RECORDED: Recorded[] = [];

function recorded(tool: string, args: Json): Recorded {
  const r = RECORDED.find((x) => x.tool === tool && x.args === args);
  if (!r) throw new Error(`no recorded call for ${tool} ${JSON.stringify(args)}`);
  return r;
}

function everyMcpResult(fn: (tool: string, args: Json, transport: Transport, result: Json) => void): void {
  expect(RECORDED.length).toBe(TOOLS.reduce((n, t) => n + argsFor(t.name).length, 0));
  for (const r of RECORDED) {
    for (const transport of TRANSPORTS) {
      const { result } = r.mcp[transport];
      expect(result, `${r.tool} ${JSON.stringify(r.args)} over ${transport}`).toBeDefined();
      fn(r.tool, r.args, transport, result as Json);
    }
  }
}

// Every tool × its argument sets × three transports, one call at a time: minutes on a loaded 2-core runner.
beforeAll(async () => {
  await insertProjects([
    { name: PROJECT, schemaVersionAtIndex: SCHEMA_VERSION },
    { name: 'parity-other', schemaVersionAtIndex: SCHEMA_VERSION },
    { name: 'parity-third', schemaVersionAtIndex: SCHEMA_VERSION },
  ]);
  await indexCodeProject(CODE);
  for (const tool of TOOLS) {
    for (const args of argsFor(tool.name)) {
      const rest = await restCall(tool.name, args);
      // The full toolset: on the core list, steps to unadvertised tools are routed through batch (reachable-steps tests).
      const m2025 = await mcpTool('2025', tool.name, args, { query: '?toolset=full' });
      const m2026 = await mcpTool('2026', tool.name, args, { query: '?toolset=full' });
      RECORDED.push({ tool: tool.name, args, rest, mcp: { '2025': m2025, '2026': m2026 } });
    }
  }
}, 300_000);
afterAll(async () => {
  await deleteProjects([PROJECT, 'parity-other', 'parity-third', CODE]);
});

describe('REST and MCP give the same answer for the same call', () => {
  for (const tool of TOOLS) {
    for (const args of argsFor(tool.name)) {
      for (const transport of TRANSPORTS) {
        it(`${tool.name} ${JSON.stringify(args)}: REST and MCP ${transport} agree on result and _meta`, () => {
          const { rest, mcp: byTransport } = recorded(tool.name, args);
          const { result: mcp, rpcError } = byTransport[transport];
          expect(mcp, `MCP answered with a JSON-RPC error: ${JSON.stringify(rpcError)}`).toBeDefined();
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
          // The same answer costs at least as much on MCP, where the model also reads the notice.
          expect(mcp._meta.tokens_used).toBeGreaterThanOrEqual(rest.body._meta.tokens_used);
        });
      }
    }
  }
});

describe('the MCP tool result shape', () => {
  it('puts the same JSON in content[0].text as in structuredContent', () => {
    let ok = 0;
    everyMcpResult((_tool, _args, _t, result) => {
      expect(result.content[0].type).toBe('text');
      if (result.isError) return;
      ok++;
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    });
    expect(ok).toBeGreaterThan(0);
  });

  it('gives isError results no structuredContent (it would fail the outputSchema) and the error JSON in content[0].text', () => {
    let errors = 0;
    everyMcpResult((_tool, _args, _t, result) => {
      if (!result.isError) return;
      errors++;
      expect(result).not.toHaveProperty('structuredContent');
      expect(Object.keys(JSON.parse(result.content[0].text)).filter((k) => k !== 'notice')).toEqual(['error']);
    });
    expect(errors).toBeGreaterThan(0);
  });

  it('mirrors empty_reason, diagnosis, next_steps and warnings into structuredContent.notice exactly when _meta has them', () => {
    everyMcpResult((_tool, _args, _t, result) => {
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

  it('adds a second plain-words text block to empty results, and only to them', () => {
    let empties = 0;
    everyMcpResult((_tool, _args, _t, result) => {
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
    await deleteProjects([PROJECT, 'parity-other', 'parity-third', CODE]);
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
  it('lists the same tools with the same parameters and result fields on GET /v1/tools and MCP tools/list?toolset=full', async () => {
    const rest = await send('/v1/tools');
    expect(rest.body.tools.map((t: Json) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const transport of TRANSPORTS) {
      const mcp = await rpc(transport, 'tools/list', {}, { query: '?toolset=full' });
      const tools = mcp.body.result.tools as Json[];
      expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
      for (const t of tools) {
        const twin = rest.body.tools.find((r: Json) => r.name === t.name);
        expect(t.description).toBe(twin.description);
        // MCP advertises the hints that say something (openWorldHint, always false, is in the REST twin only).
        const { title: _title, ...hints } = t.annotations as Json;
        expect(twin.annotations).toMatchObject(hints);
        // MCP may advertise a more compact schema (token budget), never other parameters or fields.
        expect(Object.keys(t.inputSchema.properties ?? {}).sort()).toEqual(Object.keys(twin.input_schema.properties ?? {}).sort());
        expect(t.inputSchema.required ?? []).toEqual(twin.input_schema.required ?? []);
        // tools/list advertises an open object with the required result fields; each field's schema is on GET /v1/tools and OpenAPI.
        expect(Object.keys(t.outputSchema).sort()).toEqual(twin.output_schema.required ? ['required', 'type'] : ['type']);
        expect(t.outputSchema.type).toBe('object');
        expect(t.outputSchema.required ?? []).toEqual(twin.output_schema.required ?? []);
      }
    }
  });

  it('gives structuredContent that satisfies the advertised outputSchema (clients validate it)', async () => {
    const advertised = new Map<string, Json>();
    for (const t of (await rpc('2025', 'tools/list', {}, { query: '?toolset=full' })).body.result.tools as Json[]) advertised.set(t.name, t.outputSchema);
    let checked = 0;
    everyMcpResult((tool, args, transport, result) => {
      if (result.isError) return;
      checked++;
      const schema = advertised.get(tool) as Json;
      expect(checkSchema(schema, result.structuredContent), `${tool} ${JSON.stringify(args)} over ${transport}`).toEqual([]);
    });
    expect(checked).toBeGreaterThan(0);
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
