import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { INDEX_SCHEMA_VERSION } from '../../../src/version';
import { rest, type Json } from '../helpers';

const PROJECT = 'search-empty';
const STALE = 'search-stale';
const STALE_SCHEMA = 'search-stale-schema';
const HOLLOW = 'search-hollow';

const FILES = {
  'src/app.ts': 'export class LoginController {\n  handle() {}\n}\nexport function renderPage() {}\n',
  'src/fragile.ts': 'export function fragile() {\n  return (;\n}\n',
  'Main.hs': 'main = putStrLn "hi"\n',
  'docs/readme.md': '# Deployment\n\nSteps.\n',
};

function files(map: Record<string, string>) {
  return Object.entries(map).map(([path, content]) => ({ path, content }));
}

async function search(args: Json): Promise<Json> {
  const res = await rest('search', args);
  expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
  expect(res.body.result.results).toEqual([]);
  return res.body;
}

interface Step {
  tool: string;
  args: Json;
  why: string;
}

/** Executes every next step as the server emitted it; each must succeed, and a search step must find something. */
async function executeSteps(body: Json): Promise<Json[]> {
  const steps = (body._meta.next_steps ?? []) as Step[];
  expect(steps.length, 'no next_steps emitted').toBeGreaterThan(0);
  const replies: Json[] = [];
  for (const step of steps) {
    const where = `${step.tool} ${JSON.stringify(step.args)}`;
    expect(typeof step.why === 'string' && step.why.length > 0, where).toBe(true);
    const res = await rest(step.tool, step.args);
    expect(res.status, `${where}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
    expect(res.body).not.toHaveProperty('error');
    const unknown = ((res.body._meta.warnings_v2 ?? []) as Json[]).filter((w) => w.code === 'unknown_arg');
    expect(unknown, where).toEqual([]);
    if (step.tool === 'search') {
      expect(res.body.result.results.length, `${where} found nothing`).toBeGreaterThan(0);
      expect(res.body._meta).not.toHaveProperty('empty_reason');
    }
    replies.push(res.body);
  }
  return replies;
}

function expectEmpty(body: Json, reason: string): void {
  expect(body._meta.empty_reason).toBe(reason);
  expect(body._meta.diagnosis).toEqual(expect.any(String));
  expect((body._meta.diagnosis_v2 as Json[]).map((d) => d.code)).toContain(reason);
}

beforeAll(async () => {
  for (const name of [PROJECT, STALE, STALE_SCHEMA]) {
    const res = await rest('index', { project: name, files: files(FILES) });
    expect(res.status).toBe(200);
  }
  await env.DB.prepare('UPDATE projects SET extractor_version = 0 WHERE name = ?1').bind(STALE).run();
  await env.DB.prepare('UPDATE projects SET schema_version_at_index = ?2 WHERE name = ?1').bind(STALE_SCHEMA, INDEX_SCHEMA_VERSION - 1).run();
  await rest('index', { project: HOLLOW, files: files({ 'a.ts': 'export function a() {}\n' }) });
  const emptied = await rest('index', { project: HOLLOW, files: [], replace: true });
  expect(emptied.status).toBe(200);
});

describe('query_too_narrow', () => {
  it('names the kind filter when it excluded every match, and the step without it finds them', async () => {
    const body = await search({ project: PROJECT, query: 'LoginController', kind: 'Function' });
    expectEmpty(body, 'query_too_narrow');
    expect(body._meta.diagnosis).toContain('kind=Function');
    expect(body._meta.diagnosis_v2[0].data).toMatchObject({ filter: 'kind', matches: 2 });
    expect(body._meta.next_steps[0].args).toEqual({ project: PROJECT, query: 'LoginController' });
    const [found] = await executeSteps(body);
    expect(found.result.results[0].name).toBe('LoginController');
  });

  it('names a supported language the project has no symbols in', async () => {
    const body = await search({ project: PROJECT, query: 'renderPage', language: 'python' });
    expectEmpty(body, 'query_too_narrow');
    expect(body._meta.diagnosis_v2[0].data.filter).toBe('language');
    await executeSteps(body);
  });

  it('names the file_pattern filter', async () => {
    const body = await search({ project: PROJECT, query: 'renderPage', file_pattern: 'lib/**' });
    expectEmpty(body, 'query_too_narrow');
    expect(body._meta.diagnosis).toContain('file_pattern=lib/**');
    await executeSteps(body);
  });

  it('names the kind filter under a file_pattern every file of the project matches (a path filter with no condition)', async () => {
    const project = 'search-empty-one-file';
    expect((await rest('index', { project, files: files({ 'users.ts': 'export class Users {}\nexport function loginUser() {}\n' }) })).status).toBe(200);
    const found = await rest('search', { project, query: 'loginUser', file_pattern: 'users.ts' });
    expect(found.status, JSON.stringify(found.body).slice(0, 400)).toBe(200);
    expect(found.body.result.results.map((r: Json) => r.name)).toEqual(['loginUser']);
    const body = await search({ project, query: 'loginUser', kind: 'Class', file_pattern: 'users.ts' });
    expectEmpty(body, 'query_too_narrow');
    expect(body._meta.diagnosis).toContain('kind=Class');
    await executeSteps(body);
  });

  it('names the corpus and steps into the corpus that has the match', async () => {
    const body = await search({ project: PROJECT, query: 'Deployment' });
    expectEmpty(body, 'query_too_narrow');
    expect(body._meta.diagnosis_v2[0].data.filter).toBe('corpus');
    expect(body._meta.next_steps[0].args).toEqual({ project: PROJECT, query: 'Deployment', corpus: 'docs' });
    await executeSteps(body);
  });

  it('names the filters together when no single one is to blame', async () => {
    const body = await search({ project: PROJECT, query: 'LoginController', kind: 'Function', file_pattern: 'lib/**' });
    expectEmpty(body, 'query_too_narrow');
    expect(body._meta.diagnosis_v2[0].data).toMatchObject({ filter: 'all', filters: ['kind=Function', 'file_pattern=lib/**'] });
    expect(body._meta.next_steps).toHaveLength(1);
    await executeSteps(body);
  });

  it('verifies the relaxed step through the AND→OR fallback', async () => {
    const body = await search({ project: PROJECT, query: 'LoginController zebra', kind: 'Variable' });
    expectEmpty(body, 'query_too_narrow');
    const [found] = await executeSteps(body);
    expect(found._meta.warnings_v2.map((w: Json) => w.code)).toContain('and_fallback_or');
  });
});

describe('low_confidence_extractor', () => {
  it('fires when every candidate is under min_confidence, and steps down to the best confidence', async () => {
    const body = await search({ project: PROJECT, query: 'fragile', min_confidence: 0.9 });
    expectEmpty(body, 'low_confidence_extractor');
    const best = body._meta.diagnosis_v2[0].data.best_confidence as number;
    expect(best).toBeLessThan(0.9);
    expect(body._meta.next_steps[0].args).toEqual({ project: PROJECT, query: 'fragile', min_confidence: best });
    const [found] = await executeSteps(body);
    expect(found.result.results[0]).toMatchObject({ name: 'fragile', extraction_confidence: best });
  });
});

describe('unsupported_language', () => {
  it('fires for a language without an extractor and names the stored files it cannot read', async () => {
    const body = await search({ project: PROJECT, query: 'renderPage', language: 'haskell' });
    expectEmpty(body, 'unsupported_language');
    expect(body._meta.diagnosis).toContain('Main.hs');
    expect(body._meta.diagnosis_v2[0].data).toMatchObject({ language: 'haskell', unsupported_files: 1 });
    const steps = body._meta.next_steps as Step[];
    expect(steps.map((s) => s.tool)).toEqual(['search', 'health']);
    expect(steps[0].args).toEqual({ project: PROJECT, query: 'renderPage' });
    await executeSteps(body);
  });

  it('suggests the supported language a typo was close to, when it finds hits', async () => {
    const body = await search({ project: PROJECT, query: 'renderPage', language: 'typscript' });
    expectEmpty(body, 'unsupported_language');
    expect(body._meta.diagnosis).toContain("did you mean 'typescript'");
    expect(body._meta.next_steps[0].args).toEqual({ project: PROJECT, query: 'renderPage', language: 'typescript' });
    await executeSteps(body);
  });
});

describe('cap_dropped_all', () => {
  it('fires when the offset is past the last match and rewinds to offset 0', async () => {
    const body = await search({ project: PROJECT, query: 'renderPage', offset: 100 });
    expectEmpty(body, 'cap_dropped_all');
    expect(body.result).toEqual({ results: [], total: 1, has_more: false });
    expect(body._meta.next_steps[0].args).toEqual({ project: PROJECT, query: 'renderPage', offset: 0 });
    await executeSteps(body);
  });
});

describe('stale_index', () => {
  it('fires on a project indexed by an older extractor when nothing matches, and the re-index step runs', async () => {
    const body = await search({ project: STALE, query: 'nothingLikeThis' });
    expectEmpty(body, 'stale_index');
    expect(body._meta.diagnosis).toContain('extractor 0');
    expect((body._meta.next_steps as Step[]).map((s) => s.tool)).toEqual(['index', 'health']);
    await executeSteps(body);
  });

  it('fires on a project indexed under an older schema', async () => {
    const body = await search({ project: STALE_SCHEMA, query: 'nothingLikeThis' });
    expectEmpty(body, 'stale_index');
    expect(body._meta.diagnosis).toContain(`schema ${INDEX_SCHEMA_VERSION - 1}`);
    await executeSteps(body);
  });

  it('prefers a filter that explains the empty result, noting the staleness as info', async () => {
    // The re-index step executed above refreshed the project: make it stale again.
    await env.DB.prepare('UPDATE projects SET extractor_version = 0 WHERE name = ?1').bind(STALE).run();
    const body = await search({ project: STALE, query: 'LoginController', kind: 'Function' });
    expectEmpty(body, 'query_too_narrow');
    const info = (body._meta.diagnosis_v2 as Json[]).find((d) => d.code === 'stale_index');
    expect(info?.severity).toBe('info');
    await executeSteps(body);
  });

  it('leaves a stale project with hits alone', async () => {
    const res = await rest('search', { project: STALE_SCHEMA, query: 'renderPage' });
    expect(res.body.result.results).toHaveLength(1);
    expect(res.body._meta).not.toHaveProperty('empty_reason');
  });
});

describe('no_project_indexed', () => {
  it('fires for a project that does not exist', async () => {
    const body = await search({ project: 'search-no-such-project', query: 'renderPage' });
    expectEmpty(body, 'no_project_indexed');
    await executeSteps(body);
  });

  it('fires when no project is given and none is pinned', async () => {
    const body = await search({ query: 'renderPage' });
    expectEmpty(body, 'no_project_indexed');
    await executeSteps(body);
  });

  it('fires for an indexed project that holds no files', async () => {
    const body = await search({ project: HOLLOW, query: 'a' });
    expectEmpty(body, 'no_project_indexed');
    expect(body._meta.diagnosis).toContain('holds no files');
    await executeSteps(body);
  });
});

describe('no_results_in_corpus', () => {
  it('suggests a verified prefix search on a shortened term', async () => {
    const body = await search({ project: PROJECT, query: 'renderPagination' });
    expectEmpty(body, 'no_results_in_corpus');
    const [step] = body._meta.next_steps as Step[];
    expect(step.tool).toBe('search');
    expect(step.args).toEqual({ project: PROJECT, query: 'renderPag*' });
    const [found] = await executeSteps(body);
    expect(found.result.results[0].name).toBe('renderPage');
  });

  it('falls back to list when no shorter prefix finds anything', async () => {
    const body = await search({ project: PROJECT, query: 'qqqqqqqq' });
    expectEmpty(body, 'no_results_in_corpus');
    expect((body._meta.next_steps as Step[]).map((s) => s.tool)).toEqual(['list']);
    await executeSteps(body);
  });
});

describe('misses next to files the extractor could not read fully', () => {
  const GAPS = 'search-gaps';
  const NOTHING = 'search-nothing';

  beforeAll(async () => {
    const gaps = await rest('index', {
      project: GAPS,
      files: files({
        'src/ok.ts': 'export function render() {}\n',
        // Parsed with a syntax error: the name lives only in the body text, where no definition was recovered.
        'src/partial.ts': 'export function start() {\n  return (;\n  log("ghostHelper");\n}\n',
      }),
    });
    expect(gaps.status).toBe(200);
    const nothing = await rest('index', { project: NOTHING, files: files({ 'run.py': 'print("hello")\n', 'job.py': 'import os\nos.getcwd()\n' }) });
    expect(nothing.status).toBe(200);
  });

  it('answers low_confidence_extractor naming the partly read file that holds the name, with a grep step into it', async () => {
    const body = await search({ project: GAPS, query: 'ghostHelper' });
    expectEmpty(body, 'low_confidence_extractor');
    expect(body._meta.diagnosis).toContain('src/partial.ts');
    const [grep] = body._meta.next_steps as Step[];
    expect(grep).toMatchObject({ tool: 'grep', args: { project: GAPS, pattern: 'ghostHelper', literal: true, path: 'src/partial.ts' } });
    const [found] = await executeSteps(body);
    expect(found.result.matches[0]).toMatchObject({ path: 'src/partial.ts', line: 3 });
  });

  it('keeps no_results_in_corpus when no such file holds the name, and warns with the files named', async () => {
    const body = await search({ project: GAPS, query: 'qqqqqqqq' });
    expectEmpty(body, 'no_results_in_corpus');
    const warning = (body._meta.warnings_v2 as Json[]).find((w) => w.code === 'extraction_incomplete');
    expect(warning?.message).toContain('src/partial.ts');
    expect(warning?.data.files.map((f: Json) => f.path)).toEqual(['src/partial.ts']);
  });

  it('answers extractor_emitted_nothing for a project whose files hold no symbol', async () => {
    const body = await search({ project: NOTHING, query: 'hello' });
    expectEmpty(body, 'extractor_emitted_nothing');
    expect((body._meta.next_steps as Step[]).map((s) => s.tool)).toEqual(['grep', 'health']);
    await executeSteps(body);
  });
});
