import { beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../../src/version';
import { deleteProjects, insertProjects } from '../contract/support';
import { rest, type Json } from '../helpers';
import { codes, FILES, ID, runStep, seedProject } from './composite-fixture';

const P = 'comp-ctx';
const call = (task: string, extra: Json = {}) => rest('context_for_task', { project: P, task, ...extra });
const seedIds = (body: Json) => body.result.seeds.map((s: Json) => s.id);

beforeAll(async () => {
  await seedProject(P);
});

describe('context_for_task: seeds', () => {
  it('seeds from a spelled name first, then a plain word that is a symbol name', async () => {
    const { status, body } = await call('make `Server.start` retry when listen fails', { seeds: 2 });
    expect(status).toBe(200);
    expect(body.result.seeds.map((s: Json) => [s.id, s.via, s.matched])).toEqual([
      [ID.start, 'name', 'Server.start'],
      [ID.listen, 'name', 'listen'],
    ]);
  });

  it('seeds from a mentioned file:line with the symbol spanning that line', async () => {
    const { body } = await call('the bug is around src/net.ts:5', { seeds: 1 });
    expect(body.result.seeds.map((s: Json) => [s.id, s.via, s.matched])).toEqual([[ID.bind, 'path', 'src/net.ts:5']]);
  });

  it('seeds from a mentioned file with its top-level symbols, exported first', async () => {
    const { body } = await call('tidy up net.ts', { seeds: 2 });
    expect(body.result.seeds.map((s: Json) => [s.id, s.via])).toEqual([[ID.listen, 'path'], [ID.bind, 'path']]);
  });

  it('falls back to BM25 over the words: all words first, then any word', async () => {
    const all = await call('user', { seeds: 1 });
    expect(all.body.result.seeds[0]).toMatchObject({ id: ID.loadUser, via: 'search_all_words', matched: 'user' });
    const any = await call('user frobnicator', { seeds: 1 });
    expect(any.body.result.seeds[0]).toMatchObject({ id: ID.loadUser, via: 'search_any_word', matched: 'user OR frobnicator' });
  });

  it('ranks non-test code before tests within the same evidence', async () => {
    const { body } = await call('anything about testListen and listen', { seeds: 2 });
    expect(seedIds(body)).toEqual([ID.testListen, ID.listen]);
    const words = await call('start listen', { seeds: 3 });
    expect(seedIds(words.body)).toEqual([ID.start, ID.listen, ID.testStart]);
  });

  it('lists spelled names that resolve to nothing in unresolved', async () => {
    const { body } = await call('compare `Server.start` with `Server.restartAll`');
    expect(body.result.unresolved).toEqual(['Server.restartAll']);
    expect(seedIds(body)[0]).toBe(ID.start);
  });
});

describe('context_for_task: related code and budget', () => {
  it('adds callers and callees one hop away, each tied to its seed', async () => {
    const { body } = await call('change `listen`', { seeds: 1 });
    expect(body.result.related.map((r: Json) => [r.relation, r.id, r.of, r.call_line])).toEqual([
      ['callee', ID.bind, ID.listen, 2],
      ['caller', ID.testListen, ID.listen, 3],
      ['caller', ID.start, ID.listen, 5],
    ]);
  });

  it('carries seed sources when the budget allows', async () => {
    const { body } = await call('change `listen`', { seeds: 1 });
    expect(body.result.seeds[0].source).toBe('export function listen(port: number): number {\n  return bind(port) + 1;\n}');
    expect(body.result.used_tokens).toBeLessThanOrEqual(4000);
    expect(body._meta.warnings_v2 ?? []).toEqual([]);
  });

  it('looks a spelled name up in the files the task mentions first', async () => {
    const elsewhere = await call('`Server`', { seeds: 1 });
    expect(seedIds(elsewhere.body)).toEqual(['go/server.go::Server#Struct']);
    const here = await call('`Server` in src/app.ts', { seeds: 1 });
    expect(seedIds(here.body)).toEqual([ID.server]);
  });

  it('keeps a class as a skeleton with its outline when its source does not fit', async () => {
    const { body } = await call('`Big`', { seeds: 1, max_tokens: 300 });
    const seed = body.result.seeds[0];
    expect(seed.id).toBe('src/big.ts::Big#Class');
    expect(seed.source).toBeUndefined();
    expect(seed.outline.map((o: Json) => o.id)).toEqual(['alpha', 'beta', 'gamma'].map((m) => `src/big.ts::Big.${m}#Method`));
    expect(body.result.used_tokens).toBeLessThanOrEqual(300);
    const step = body._meta.next_steps.find((s: Json) => s.why.includes('skeletons'));
    expect(step.args.ids).toEqual(['src/big.ts::Big#Class']);
    await runStep(step);
  });

  it('drops what max_tokens cannot hold with budget_truncated, and a symbols step fetches it', async () => {
    const { body } = await call('`listen` `Server.start` `main` `bind` `load_user`', { seeds: 5, max_tokens: 200 });
    expect(codes(body._meta.warnings_v2)).toContain('budget_truncated');
    expect(body.result.dropped.length).toBeGreaterThan(0);
    expect(body.result.used_tokens).toBeLessThanOrEqual(200);
    const step = body._meta.next_steps.find((s: Json) => s.tool === 'symbols' && s.why.includes('left out'));
    expect(step.args.ids).toEqual([...new Set(body.result.dropped)]);
    const fetched = await runStep(step);
    expect(fetched.result.symbols.length).toBe(step.args.ids.length);
  });

  it('answers cap_dropped_all when not even one seed fits max_tokens', async () => {
    const { body } = await call('`documented`', { seeds: 1, max_tokens: 200 });
    expect(body.result.seeds).toEqual([]);
    expect(body._meta.empty_reason).toBe('cap_dropped_all');
    expect(body.result.dropped).toEqual(['py/docs.py::documented#Function']);
  });

  it('declares full_file_read over the seed files', async () => {
    const { body } = await call('change `listen`', { seeds: 1 });
    const bytes = new TextEncoder().encode(FILES['src/net.ts']).length;
    expect(body._meta.baseline_method).toBe('full_file_read');
    expect(body._meta.tokens_saved).toBe(Math.max(0, Math.ceil(bytes / 4) - body._meta.tokens_used));
  });
});

describe('context_for_task: empty answers', () => {
  it('answers target_not_resolved when the spelled names and words match nothing, with steps that run', async () => {
    const { body } = await call('rewrite `zzFrobnicate` please');
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(body.result.unresolved).toEqual(['zzFrobnicate']);
    expect(body._meta.next_steps.map((s: Json) => s.tool)).toEqual(['grep', 'list']);
    for (const s of body._meta.next_steps) await runStep(s);
  });

  it('answers no_results_in_corpus when plain words match nothing', async () => {
    const { body } = await call('quaternion slerp interpolation');
    expect(body._meta.empty_reason).toBe('no_results_in_corpus');
    for (const s of body._meta.next_steps) await runStep(s);
  });

  it('answers no_project_indexed for an unknown project and for a project without files', async () => {
    const unknown = await rest('context_for_task', { project: 'comp-ctx-none', task: 'listen' });
    expect(unknown.body._meta.empty_reason).toBe('no_project_indexed');
    await insertProjects([{ name: 'comp-ctx-empty', files: 0, symbols: 0, schemaVersionAtIndex: SCHEMA_VERSION }]);
    try {
      const empty = await rest('context_for_task', { project: 'comp-ctx-empty', task: 'listen' });
      expect(empty.body._meta.empty_reason).toBe('no_project_indexed');
      expect(empty.body._meta.diagnosis).toContain('holds no files');
    } finally {
      await deleteProjects(['comp-ctx-empty']);
    }
  });
});

describe('context_for_task: bad input', () => {
  it('refuses a task that names nothing to search for', async () => {
    const { status, body } = await call('please help me fix this?');
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_params');
    expect(body.error.message).toContain('names nothing to search for');
    expect(body.error.suggestion).toBeTruthy();
  });

  it('refuses a task over 2000 characters, max_tokens and seeds out of range', async () => {
    for (const args of [{ task: 'x'.repeat(2001) }, { task: 'listen', max_tokens: 199 }, { task: 'listen', max_tokens: 50_001 }, { task: 'listen', seeds: 6 }, { task: 'listen', seeds: 0 }]) {
      const { body } = await rest('context_for_task', { project: P, ...args });
      expect(body.error?.code, JSON.stringify(args).slice(0, 80)).toBe('invalid_params');
    }
  });
});
