import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS, findTool } from '../../../src/tools/registry';
import { SCHEMA_VERSION } from '../../../src/version';
import {
  CONTRACT_FIELDS,
  SURFACES,
  ULID,
  callOn,
  charTokens,
  contributedCases,
  deleteProjects,
  indexCodeProject,
  insertProjects,
  metaKeys,
  patched,
  restCall,
  rpc,
  send,
  type Json,
  type Reply,
  type Surface,
  type SurfaceCall,
  type GoldenCase,
} from './support';

/**
 * Golden `_meta` key sets, per tool and per situation. Written out by hand on
 * purpose: adding, dropping or renaming a key on any tool must show up here.
 */
const PROJECT = 'golden-proj';
/** A project with real source, indexed through the index tool before the golden calls. */
const CODE = 'golden-code';

const GOLDEN: Record<string, GoldenCase[]> = {
  search: [
    {
      label: 'a query with hits',
      args: { project: CODE, query: 'listen' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
    {
      label: 'a kind filter that excludes every hit',
      args: { project: CODE, query: 'listen', kind: 'Class' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
    {
      label: 'no project given',
      args: { query: 'listen' },
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps', 'capabilities', 'schema_version',
      ],
    },
  ],
  symbol: [
    {
      label: 'a known id',
      args: { project: CODE, id: 'src/app.ts::listen#Function' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
    {
      label: 'an id that resolves to nothing',
      args: { project: CODE, id: 'src/app.ts::Nope#Function' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
  ],
  symbols: [
    {
      label: 'known ids',
      args: { project: CODE, ids: ['src/app.ts::listen#Function', 'src/app.ts::Server#Class'] },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
    {
      label: 'one known and one unknown id',
      args: { project: CODE, ids: ['src/app.ts::listen#Function', 'src/app.ts::Nope#Function'] },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'next_steps', 'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
  ],
  context: [
    {
      label: 'a method by qualified name',
      args: { project: CODE, name: 'Server.start' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
    {
      label: 'a name that resolves to nothing',
      args: { project: CODE, name: 'Nope' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
  ],
  read: [
    {
      label: 'a whole small file',
      args: { project: CODE, path: 'src/app.ts' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
    {
      label: 'a path that is not indexed',
      args: { project: CODE, path: 'src/nope.ts' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
  ],
  grep: [
    {
      label: 'a pattern with matches (scan statistics in diagnosis_v2)',
      args: { project: CODE, pattern: 'port' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'diagnosis_v2', 'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
    {
      label: 'a pattern with no match',
      args: { project: CODE, pattern: 'zzzz' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
  ],
  find: [
    {
      label: 'a glob with matches',
      args: { project: CODE, pattern: '*.ts' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
    {
      label: 'a glob that excludes every file',
      args: { project: CODE, pattern: '*.zz' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
  ],
  ls: [
    {
      label: 'the project root',
      args: { project: CODE },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
    {
      label: 'a folder that does not exist',
      args: { project: CODE, path: 'nope' },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
  ],
  why_empty: [
    {
      label: 'the whole catalog',
      args: {},
      keys: ['request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms', 'capabilities', 'schema_version'],
    },
    {
      label: 'one code that has recovery steps',
      args: { code: 'no_project_indexed' },
      keys: ['request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms', 'next_steps', 'capabilities', 'schema_version'],
    },
    {
      label: 'an unknown code (typed error)',
      args: { code: 'no_such_reason' },
      keys: ['request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms', 'capabilities', 'schema_version'],
    },
  ],
  list: [
    {
      // Named, so the page holds this file's project whatever other files stored in the shared database (past a
      // page of projects, list would add a next step).
      label: 'projects present',
      args: { name_contains: PROJECT },
      keys: ['request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms', 'capabilities', 'schema_version'],
    },
    {
      label: 'a name filter that matches nothing',
      args: { name_contains: 'zz-matches-nothing' },
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps', 'capabilities', 'schema_version',
      ],
    },
    {
      label: 'an unknown parameter',
      args: { limt: 5, name_contains: PROJECT },
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'warnings', 'warnings_v2', 'capabilities', 'schema_version',
      ],
    },
    {
      label: 'an out-of-range parameter (typed error)',
      args: { limit: 0 },
      keys: ['request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms', 'capabilities', 'schema_version'],
    },
  ],
  health: [
    {
      // More indexed projects than one page (CROWD): projects_truncated and a next-page step, whatever else is stored.
      label: 'server-wide, a page of a crowded server',
      args: {},
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'next_steps', 'warnings', 'warnings_v2', 'capabilities', 'schema_version',
      ],
    },
    {
      label: 'scoped to an indexed project',
      args: { project: PROJECT },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
    {
      label: 'scoped to an unknown project',
      args: { project: 'golden-no-such-project' },
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps', 'capabilities', 'schema_version',
      ],
    },
  ],
  index: [
    {
      label: 'no project argument (typed error)',
      args: {},
      keys: ['request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms', 'capabilities', 'schema_version'],
    },
    {
      label: 're-extract a project that was never indexed',
      args: { project: 'golden-no-such-project', force: true },
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps', 'capabilities', 'schema_version',
      ],
    },
    {
      label: 're-extract an indexed project with nothing stored',
      args: { project: PROJECT, force: true },
      scoped: true,
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name',
      ],
    },
    {
      label: 'only blocked files',
      args: { project: 'golden-blocked', files: [{ path: 'package-lock.json', content: '{}' }] },
      keys: [
        'request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms',
        'empty_reason', 'diagnosis', 'diagnosis_v2', 'capabilities', 'schema_version',
      ],
    },
  ],
};
for (const c of contributedCases(CODE)) Object.assign(GOLDEN, c.golden ?? {});


let projectId = '';

interface Recorded {
  tool: string;
  label: string;
  surface: Surface;
  call: SurfaceCall;
}

/** Every golden call on every surface, made once; the tests below read these replies. */
const RECORDED: Recorded[] = [];

function recorded(tool: string, label: string, surface: Surface): SurfaceCall {
  const r = RECORDED.find((x) => x.tool === tool && x.label === label && x.surface === surface);
  if (!r) throw new Error(`no recorded call for ${tool} (${label}) over ${surface}`);
  return r.call;
}

/** Enough indexed projects that server-wide health answers a page of them. */
const CROWD = Array.from({ length: 11 }, (_, i) => `golden-crowd-${i}`);

beforeAll(async () => {
  [projectId] = await insertProjects([{ name: PROJECT, schemaVersionAtIndex: SCHEMA_VERSION }]);
  await insertProjects(CROWD.map((name) => ({ name })));
  await indexCodeProject(CODE);
  for (const [tool, cases] of Object.entries(GOLDEN)) {
    for (const c of cases) {
      for (const surface of SURFACES) RECORDED.push({ tool, label: c.label, surface, call: await callOn(surface, tool, c.args) });
    }
  }
}, 120_000);

afterAll(async () => {
  await deleteProjects([PROJECT, CODE, ...CROWD]);
});

describe('golden _meta key sets', () => {
  it('has a golden for every registered tool and none for tools that do not exist', () => {
    expect(Object.keys(GOLDEN).sort()).toEqual(TOOLS.map((t) => t.name).sort());
  });

  it('uses only field names from the contract', () => {
    for (const cases of Object.values(GOLDEN)) {
      for (const c of cases) for (const k of c.keys) expect(CONTRACT_FIELDS).toContain(k);
    }
  });

  for (const tool of TOOLS) {
    for (const c of GOLDEN[tool.name] ?? []) {
      for (const surface of SURFACES) {
        it(`${tool.name} (${c.label}) over ${surface} emits exactly the golden keys`, () => {
          const { meta } = recorded(tool.name, c.label, surface);
          expect(metaKeys(meta)).toEqual([...c.keys].sort());
          const scoped = c.scoped === true;
          expect('project_id' in meta).toBe(scoped);
          expect('project_name' in meta).toBe(scoped);
        });
      }
    }
  }
});

/** The cross-cutting field rules below hold on every recorded golden call. */
function everyGoldenCall(fn: (tool: string, surface: Surface, call: SurfaceCall) => void): void {
  expect(RECORDED.length).toBe(Object.values(GOLDEN).flat().length * SURFACES.length);
  for (const r of RECORDED) fn(r.tool, r.surface, r.call);
}

describe('request_id', () => {
  it('is a fresh ULID on every surface when the client sends no X-Request-ID, and the header carries the same id', () => {
    const seen = new Set<string>();
    everyGoldenCall((_tool, _surface, call) => {
      expect(call.meta.request_id).toMatch(ULID);
      expect(call.reply.headers.get('x-request-id')).toBe(call.meta.request_id);
      seen.add(call.meta.request_id);
    });
    const calls = Object.values(GOLDEN).flat().length * SURFACES.length;
    expect(seen.size).toBe(calls);
  });

  const honoured = ['trace-0001', 'span id with spaces', '!~'.repeat(100), 'x'.repeat(200)];
  for (const id of honoured) {
    it(`keeps a client X-Request-ID of ${id.length} printable ASCII characters as client_request_id beside a ULID, on REST and MCP`, async () => {
      for (const surface of SURFACES) {
        const call = await callOn(surface, 'list', {}, { headers: { 'x-request-id': id } });
        expect(call.meta.request_id).toMatch(ULID);
        expect(call.reply.headers.get('x-request-id')).toBe(call.meta.request_id);
        expect(call.meta.client_request_id).toBe(id);
        expect(call.reply.headers.get('x-client-request-id')).toBe(id);
      }
    });
  }

  const refused: [string, string][] = [
    ['201 characters', 'y'.repeat(201)],
    ['a tab', 'bad\tid'],
    ['a non-ASCII character', 'caf\u00e9'],
  ];
  for (const [what, id] of refused) {
    it(`ignores a client X-Request-ID with ${what} (no client_request_id)`, async () => {
      const call = await callOn('rest', 'list', {}, { headers: { 'x-request-id': id } });
      expect(call.meta.request_id).toMatch(ULID);
      expect(call.reply.headers.get('x-request-id')).toBe(call.meta.request_id);
      expect(call.meta.client_request_id).toBeUndefined();
      expect(call.reply.headers.get('x-client-request-id')).toBeNull();
    });
  }

  const KEYED = { PINCHER_HTTP_KEY: 'golden-full-key' };
  /** Requests that end in each status; `h` are extra headers (the X-Request-ID under test). */
  const byStatus: Record<number, (h: Record<string, string>) => Promise<Reply>> = {
    200: (h) => restCall('list', {}, { headers: h }),
    401: (h) => restCall('list', {}, { headers: h, env: KEYED }),
    404: (h) => send('/v1/no-such-route', { headers: h }),
    405: (h) => send('/mcp', { method: 'GET', headers: h }),
    413: (h) => send('/v1/tools/list', { method: 'POST', headers: { 'content-type': 'application/json', ...h }, body: ' '.repeat(1024 * 1024 + 1) }),
    500: async (h) => {
      const health = findTool('health');
      if (!health) throw new Error('health tool missing');
      return patched(health, 'handler', async () => {
        throw new Error('handler exploded');
      }, () => restCall('health', {}, { headers: h }));
    },
  };

  for (const [status, make] of Object.entries(byStatus)) {
    it(`echoes the client X-Request-ID on a ${status} response as client_request_id, beside a ULID request_id`, async () => {
      const reply = await make({ 'x-request-id': `echo-${status}` });
      expect(reply.status).toBe(Number(status));
      expect(reply.headers.get('x-client-request-id')).toBe(`echo-${status}`);
      expect(reply.headers.get('x-request-id')).toMatch(ULID);
      expect(reply.body._meta.request_id).toBe(reply.headers.get('x-request-id'));
      expect(reply.body._meta.client_request_id).toBe(`echo-${status}`);
    });

    it(`mints a ULID for a ${status} response and puts it in the X-Request-ID header`, async () => {
      const reply = await make({});
      expect(reply.status).toBe(Number(status));
      expect(reply.headers.get('x-request-id')).toMatch(ULID);
      expect(reply.body._meta.request_id).toBe(reply.headers.get('x-request-id'));
    });
  }

  it('echoes the client X-Request-ID on JSON-RPC protocol errors too', async () => {
    const reply = await send('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-request-id': 'rpc-parse' },
      body: '{not json',
    });
    expect(reply.body.error.code).toBe(-32700);
    expect(reply.headers.get('x-client-request-id')).toBe('rpc-parse');
    expect(reply.headers.get('x-request-id')).toMatch(ULID);
  });

  it('keeps the 500 body free of the internal failure detail', async () => {
    const reply = await byStatus[500]({});
    expect(reply.body.error.code).toBe('internal_error');
    expect(reply.text).not.toContain('handler exploded');
  });
});

describe('latency_ms and token accounting', () => {
  it('stamps latency_ms as an integer ≥ 0 on every call', () => {
    everyGoldenCall((_tool, _surface, call) => {
      expect(Number.isInteger(call.meta.latency_ms)).toBe(true);
      expect(call.meta.latency_ms).toBeGreaterThanOrEqual(0);
    });
  });

  it('sets tokens_used to ceil(len(JSON.stringify(payload)) / 4) on REST, and at least that on MCP (which also counts the notice), results and errors alike', () => {
    everyGoldenCall((tool, surface, call) => {
      if (surface === 'rest') {
        expect({ tool, surface, tokens_used: call.meta.tokens_used }).toEqual({ tool, surface, tokens_used: charTokens(call.payload) });
      } else {
        expect(call.meta.tokens_used, `${tool} on ${surface}`).toBeGreaterThanOrEqual(charTokens(call.payload));
      }
    });
  });

  it('counts on MCP what the model receives: an empty answer’s notice and plain-words line cost tokens REST does not send', async () => {
    const rest = await callOn('rest', 'list', { name_contains: 'zz-matches-nothing' });
    const mcp = await callOn('mcp-2025', 'list', { name_contains: 'zz-matches-nothing' });
    expect(mcp.meta.tokens_used).toBeGreaterThan(rest.meta.tokens_used);
  });

  it('always gives tokens_saved and tokens_saved_pct as numbers, 0 when baseline_method is none', () => {
    let none = 0;
    everyGoldenCall((_tool, _surface, call) => {
      expect(typeof call.meta.tokens_saved).toBe('number');
      expect(typeof call.meta.tokens_saved_pct).toBe('number');
      if (call.meta.baseline_method === 'none') {
        none++;
        expect(call.meta.tokens_saved).toBe(0);
        expect(call.meta.tokens_saved_pct).toBe(0);
      }
    });
    expect(none).toBeGreaterThan(0);
  });

  it('declares baseline none for tools without a baseline (why_empty, health), saving 0', async () => {
    for (const tool of ['why_empty', 'health']) {
      const { meta } = await callOn('rest', tool, {});
      expect(meta.baseline_method).toBe('none');
      expect(meta.tokens_saved).toBe(0);
      expect(meta.tokens_saved_pct).toBe(0);
    }
  });

  it('computes tokens_saved_pct = 100·saved/(saved+used) to one decimal for a paginated list of several projects', async () => {
    const names = ['pct-alpha', 'pct-bravo', 'pct-charlie', 'pct-delta', 'pct-echo', 'pct-foxtrot'];
    await insertProjects(names.map((name) => ({ name, schemaVersionAtIndex: SCHEMA_VERSION })));
    try {
      // The baseline of `list` is the unpaginated listing of the same scope (walk_directory).
      const whole = await restCall('list', { name_contains: 'pct-', limit: 200 });
      expect(whole.body.result.projects).toHaveLength(names.length);
      const baseline = charTokens(whole.body.result.projects);

      const page = await restCall('list', { name_contains: 'pct-', limit: 1 });
      const used = charTokens(page.body.result);
      const meta = page.body._meta;
      expect(meta.baseline_method).toBe('walk_directory');
      expect(meta.tokens_used).toBe(used);
      const saved = Math.max(0, baseline - used);
      expect(saved).toBeGreaterThan(0);
      expect(meta.tokens_saved).toBe(saved);
      // Round half up to one decimal, in integers: round(1000·saved/(saved+used)) / 10.
      const tenths = Math.floor((2000 * saved + (saved + used)) / (2 * (saved + used)));
      expect(meta.tokens_saved_pct).toBe(tenths / 10);
      expect(meta.tokens_saved_pct).toBeGreaterThan(0);
      expect(meta.tokens_saved_pct).toBeLessThan(100);

      // The whole listing in one page saves nothing against itself.
      expect(whole.body._meta.tokens_saved).toBe(0);
      expect(whole.body._meta.tokens_saved_pct).toBe(0);
    } finally {
      await deleteProjects(names);
    }
  });
});

describe('complexity_tier, session_id and project scope', () => {
  it('stamps each tool with the complexity_tier declared in the registry, on results and errors alike', () => {
    everyGoldenCall((tool, surface, call) => {
      expect({ tool, surface, tier: call.meta.complexity_tier }).toEqual({ tool, surface, tier: findTool(tool)?.tier });
    });
  });

  it('leaves session_id out when the client sends none', async () => {
    for (const surface of SURFACES) expect((await callOn(surface, 'list', {})).meta).not.toHaveProperty('session_id');
  });

  it('takes session_id from the X-Pincher-Session header', async () => {
    for (const surface of SURFACES) {
      const { meta } = await callOn(surface, 'list', {}, { headers: { 'x-pincher-session': `hdr-${surface}` } });
      expect(meta.session_id).toBe(`hdr-${surface}`);
    }
  });

  it('takes session_id from arguments._meta.session_id, which wins over the header', async () => {
    for (const surface of SURFACES) {
      const args = { _meta: { session_id: `arg-${surface}` } };
      expect((await callOn(surface, 'list', args)).meta.session_id).toBe(`arg-${surface}`);
      const both = await callOn(surface, 'list', args, { headers: { 'x-pincher-session': 'hdr-loses' } });
      expect(both.meta.session_id).toBe(`arg-${surface}`);
      expect(both.meta.warnings_v2 ?? []).toEqual([]);
    }
  });

  it('names the resolved project (id, name, schema_version_at_index) on a project-scoped call', async () => {
    for (const surface of SURFACES) {
      const { meta } = await callOn(surface, 'health', { project: PROJECT });
      expect(meta.project_id).toBe(projectId);
      expect(meta.project_name).toBe(PROJECT);
      expect(meta.schema_version_at_index).toBe(SCHEMA_VERSION);
    }
  });

  it('puts a minted request id in the X-Request-ID header of an MCP initialize reply', async () => {
    const init = await rpc('2025', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    expect(init.body.result.serverInfo.name).toBe('pincher-edge');
    expect(init.headers.get('x-request-id')).toMatch(ULID);
  });
});
