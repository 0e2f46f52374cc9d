import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_REASONS } from '../../../src/envelope/empty-reasons';
import { TOOLS, TOOL_NAMES } from '../../../src/tools/registry';
import { INDEX_SCHEMA_VERSION } from '../../../src/version';
import { contributedCases, deleteProjects, env, indexCodeProject, insertProjects, mcpTool, restCall, type Json, type StepSource } from './support';

/**
 * Every next_steps entry the server emits must be a call the server itself
 * would run: `args` is an object, and executing it succeeds.
 */
type Source = StepSource;

const PROJECTS = ['steps-alpha', 'steps-bravo', 'steps-charlie'];
const CODE = 'steps-code';

interface Step {
  tool: string;
  args: unknown;
  why: unknown;
}

/** Steps from REST `_meta.next_steps` and from MCP `structuredContent.notice.next_steps`, checked to agree. */
async function stepsOf(src: Source): Promise<Step[]> {
  const rest = await restCall(src.tool, src.args);
  expect(rest.status, `${src.label}: ${rest.text.slice(0, 200)}`).toBe(200);
  const steps = (rest.body._meta.next_steps ?? []) as Step[];
  // With every tool advertised, MCP emits the same steps as REST (the core list routes some through batch: reachable-steps.test.ts).
  const { result } = await mcpTool('2025', src.tool, src.args, { query: '?toolset=full' });
  expect(result?.structuredContent.notice?.next_steps ?? []).toEqual(steps);
  if (src.mustSteer) expect(steps.length, `${src.label} emitted no next_steps`).toBeGreaterThan(0);
  return steps;
}

async function checkAndRun(src: Source): Promise<void> {
  for (const step of await stepsOf(src)) {
    const where = `${src.label} → ${step.tool} ${JSON.stringify(step.args)}`;
    expect(TOOL_NAMES.has(step.tool), `${where}: unknown tool`).toBe(true);
    expect(step.args !== null && typeof step.args === 'object' && !Array.isArray(step.args), `${where}: args must be an object`).toBe(true);
    expect(typeof step.why === 'string' && step.why.length > 0, `${where}: why must be prose`).toBe(true);

    const rest = await restCall(step.tool, step.args);
    expect(rest.status, `${where}: ${rest.text.slice(0, 300)}`).toBe(200);
    expect(rest.body).not.toHaveProperty('error');
    const unknownArgs = ((rest.body._meta.warnings_v2 ?? []) as Json[]).filter((w) => w.code === 'unknown_arg');
    expect(unknownArgs, `${where}: the step passes parameters the tool does not accept`).toEqual([]);

    const { result } = await mcpTool('2025', step.tool, step.args as Json, { query: '?toolset=full' });
    expect(result?.isError, `${where} over MCP`).toBeUndefined();
  }
}

describe('with no project indexed', () => {
  beforeAll(async () => {
    await env.DB.prepare('DELETE FROM projects').run();
  });

  const sources: Source[] = [
    { label: 'list on an empty server', tool: 'list', args: {} },
    { label: 'health scoped to an unknown project', tool: 'health', args: { project: 'steps-unknown' }, mustSteer: true },
  ];
  for (const src of sources) it(`every next step from ${src.label} executes successfully`, () => checkAndRun(src));
});

describe('with projects indexed', () => {
  beforeAll(async () => {
    await insertProjects(PROJECTS.map((name) => ({ name, schemaVersionAtIndex: INDEX_SCHEMA_VERSION - 1 })));
    await indexCodeProject(CODE);
  });
  afterAll(async () => {
    await deleteProjects([...PROJECTS, CODE]);
  });

  const sources: Source[] = [
    { label: 'list with an offset past the end', tool: 'list', args: { offset: 500 }, mustSteer: true },
    { label: 'list with a name filter that matches nothing', tool: 'list', args: { name_contains: 'zz-none' }, mustSteer: true },
    { label: 'list with a filtered offset past the end', tool: 'list', args: { name_contains: 'steps-', offset: 50 }, mustSteer: true },
    { label: 'list with more pages', tool: 'list', args: { limit: 1 }, mustSteer: true },
    { label: 'list on its last page', tool: 'list', args: { limit: 2, offset: 2 } },
    { label: 'health scoped to an unknown project', tool: 'health', args: { project: 'steps-unknown' }, mustSteer: true },
    { label: 'health scoped to a stale project', tool: 'health', args: { project: 'steps-alpha' } },
    { label: 'health server-wide', tool: 'health', args: {} },
    { label: 'the why_empty catalog', tool: 'why_empty', args: {} },
    { label: 'index force on a project never indexed', tool: 'index', args: { project: 'steps-unknown', force: true }, mustSteer: true },
    { label: 'index force on an indexed project', tool: 'index', args: { project: 'steps-bravo', force: true } },
  ];
  // The code tools on a real indexed project: every empty or partial answer they can give.
  const code: Source[] = [
    { label: 'search with a kind filter that excludes every hit', tool: 'search', args: { project: CODE, query: 'listen', kind: 'Class' }, mustSteer: true },
    { label: 'search with an offset past the end', tool: 'search', args: { project: CODE, query: 'port', offset: 100 }, mustSteer: true },
    { label: 'search for a word not in the corpus', tool: 'search', args: { project: CODE, query: 'zebra' }, mustSteer: true },
    { label: 'search on an unknown project', tool: 'search', args: { project: 'steps-unknown', query: 'x' }, mustSteer: true },
    { label: 'search with a language without an extractor', tool: 'search', args: { project: CODE, query: 'listen', language: 'cobol' } },
    { label: 'search with a strict min_confidence', tool: 'search', args: { project: CODE, query: 'listen', min_confidence: 1 } },
    { label: 'search with a file_pattern that excludes every hit', tool: 'search', args: { project: CODE, query: 'listen', file_pattern: '*.py' } },
    { label: 'search with more pages', tool: 'search', args: { project: CODE, query: 'port OR listen OR Server OR start', limit: 1 } },
    { label: 'symbol with an unknown id', tool: 'symbol', args: { project: CODE, id: 'src/app.ts::Nope#Function' }, mustSteer: true },
    { label: 'symbol with a malformed id', tool: 'symbol', args: { project: CODE, id: 'not-an-id' } },
    { label: 'symbols with one unknown id', tool: 'symbols', args: { project: CODE, ids: ['src/app.ts::listen#Function', 'src/app.ts::Nope#Function'] }, mustSteer: true },
    { label: 'context for an unknown name', tool: 'context', args: { project: CODE, name: 'Nope' }, mustSteer: true },
    { label: 'context for a known method', tool: 'context', args: { project: CODE, name: 'Server.start' } },
    { label: 'read of a path not indexed', tool: 'read', args: { project: CODE, path: 'src/nope.ts' }, mustSteer: true },
    { label: 'read of a symbol not in the file', tool: 'read', args: { project: CODE, path: 'src/app.ts', symbol: 'Nope' } },
    { label: 'read of a window past the end', tool: 'read', args: { project: CODE, path: 'src/app.ts', offset: 500 } },
    { label: 'read of a partial window', tool: 'read', args: { project: CODE, path: 'src/app.ts', limit: 2 } },
    { label: 'grep with no match', tool: 'grep', args: { project: CODE, pattern: 'zzzz' }, mustSteer: true },
    { label: 'grep capped by limit', tool: 'grep', args: { project: CODE, pattern: 'port', limit: 1 } },
    { label: 'grep with a path glob that excludes every file', tool: 'grep', args: { project: CODE, pattern: 'port', path: '*.py' } },
    { label: 'find with a glob that excludes every file', tool: 'find', args: { project: CODE, pattern: '*.zz' }, mustSteer: true },
    { label: 'find capped by limit', tool: 'find', args: { project: CODE, limit: 1 } },
    { label: 'ls of a folder that does not exist', tool: 'ls', args: { project: CODE, path: 'nope' }, mustSteer: true },
    { label: 'ls capped by limit', tool: 'ls', args: { project: CODE, max_depth: 3, limit: 1 } },
  ];
  sources.push(...code);
  for (const c of contributedCases(CODE)) sources.push(...(c.steps ?? []));

  for (const code of EMPTY_REASONS) {
    sources.push({ label: `why_empty ${code}`, tool: 'why_empty', args: { code } });
    sources.push({ label: `why_empty ${code} for a project`, tool: 'why_empty', args: { code, project: 'steps-alpha' } });
  }
  for (const src of sources) it(`every next step from ${src.label} executes successfully`, () => checkAndRun(src));

  it('follows a pagination chain to the last page by executing next_steps alone', async () => {
    let step: Step | undefined = { tool: 'list', args: { limit: 1 }, why: 'start' };
    const seen: string[] = [];
    for (let hops = 0; step && hops < 10; hops++) {
      const rest = await restCall(step.tool, step.args);
      expect(rest.status).toBe(200);
      seen.push(...(rest.body.result.projects as Json[]).map((p) => p.name as string));
      step = (rest.body._meta.next_steps as Step[] | undefined)?.[0];
    }
    expect(seen).toEqual([...PROJECTS, CODE].sort());
  });

  it('rewinds to a page that has rows when the offset was past the end', async () => {
    const past = await restCall('list', { offset: 500 });
    const [step] = past.body._meta.next_steps as Step[];
    const rewound = await restCall(step.tool, step.args);
    expect(rewound.body.result.projects.length).toBeGreaterThan(0);
    expect(rewound.body._meta).not.toHaveProperty('empty_reason');
  });
});

describe('steps respect the caller’s scope', () => {
  const STALE = 'steps-scope-stale';
  const KEYS = { PINCHER_HTTP_KEY: 'steps-full-key', PINCHER_READ_KEY: 'steps-read-key' };
  const WRITE_TOOLS = new Set(TOOLS.filter((t) => !t.annotations.readOnlyHint).map((t) => t.name));

  beforeAll(async () => {
    await insertProjects([{ name: STALE, schemaVersionAtIndex: INDEX_SCHEMA_VERSION - 1 }]);
  });
  afterAll(async () => {
    await deleteProjects([STALE]);
  });

  it('steers a full-key caller to the write tool that fixes a stale project', async () => {
    const reply = await restCall('health', { project: STALE }, { env: KEYS, headers: { authorization: 'Bearer steps-full-key' } });
    const tools = ((reply.body._meta.next_steps ?? []) as Step[]).map((s) => s.tool);
    expect(tools.some((t) => WRITE_TOOLS.has(t))).toBe(true);
  });

  it('never steers a read-key caller to a write tool it could not run', async () => {
    const reply = await restCall('health', { project: STALE }, { env: KEYS, headers: { authorization: 'Bearer steps-read-key' } });
    expect(reply.status).toBe(200);
    for (const step of (reply.body._meta.next_steps ?? []) as Step[]) expect(WRITE_TOOLS.has(step.tool), step.tool).toBe(false);
  });
});
