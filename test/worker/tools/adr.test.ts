import { beforeAll, describe, expect, it } from 'vitest';
import { restCall } from '../contract/support';
import { rest, type Json } from '../helpers';
import { DB, indexProject, runStep } from './support';

const PROJECT = 'adr-proj';
const EMPTY = 'adr-empty';

const read = (args: Json) => rest('adr', { project: PROJECT, ...args });
const write = (args: Json) => rest('adr_write', { project: PROJECT, ...args });

async function create(title: string, extra: Json = {}): Promise<Json> {
  const { status, body } = await write({ action: 'set', title, ...extra });
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body.result.created).toBe(true);
  return body.result.record;
}

beforeAll(async () => {
  await indexProject(PROJECT, { 'src/a.ts': 'export const a = 1;\n' });
  await indexProject(EMPTY, { 'src/a.ts': 'export const a = 1;\n' });
});

describe('adr_write set and adr get', () => {
  it('creates records numbered ADR-0001, ADR-0002… with defaults, and reads one back whole', async () => {
    const first = await create('Use D1 for the index', { context: 'We need SQL at the edge.', decision: 'D1 through drizzle.', consequences: '100 bound parameters per statement.' });
    expect(first).toMatchObject({
      id: 'ADR-0001',
      title: 'Use D1 for the index',
      status: 'proposed',
      context: 'We need SQL at the edge.',
      decision: 'D1 through drizzle.',
      consequences: '100 bound parameters per statement.',
      superseded_by: null,
    });
    expect(first.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(first.created_at).toBe(first.updated_at);
    const second = await create('  Stateless MCP  ', { status: 'accepted' });
    expect(second).toMatchObject({ id: 'ADR-0002', title: 'Stateless MCP', status: 'accepted', context: '', decision: '', consequences: '' });

    const { body } = await read({ action: 'get', id: 'adr-1' });
    expect(body.result).toEqual({ action: 'get', project: PROJECT, record: first });
    expect(body._meta).not.toHaveProperty('empty_reason');
  });

  it('updates only the fields given and moves updated_at', async () => {
    const before = (await read({ action: 'get', id: 'ADR-0001' })).body.result.record;
    await new Promise((r) => setTimeout(r, 5));
    const { body } = await write({ action: 'set', id: 'ADR-0001', status: 'accepted', decision: 'D1, through drizzle, with json_each for bulk.' });
    expect(body.result).toMatchObject({ action: 'set', id: 'ADR-0001', created: false, deleted: false });
    const after = body.result.record;
    expect(after).toEqual({ ...before, status: 'accepted', decision: 'D1, through drizzle, with json_each for bulk.', updated_at: after.updated_at });
    expect(after.updated_at > before.updated_at).toBe(true);
  });

  it('supersedes with superseded_by (status follows), and any other status clears it', async () => {
    const third = await create('Edges resolved at commit');
    const { body } = await write({ action: 'set', id: 'ADR-0002', superseded_by: third.id });
    expect(body.result.record).toMatchObject({ status: 'superseded', superseded_by: third.id });
    // The replacing record cannot be deleted while ADR-0002 points at it.
    const refused = await write({ action: 'delete', id: third.id });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_request');
    expect(refused.body.error.details.superseded).toEqual(['ADR-0002']);
    expect(refused.body.error.suggestion).toContain('ADR-0002');

    const cleared = await write({ action: 'set', id: 'ADR-0002', status: 'deprecated' });
    expect(cleared.body.result.record).toMatchObject({ status: 'deprecated', superseded_by: null });
  });

  it('refuses contradictory or impossible supersession', async () => {
    const contradict = await write({ action: 'set', id: 'ADR-0001', superseded_by: 'ADR-0002', status: 'accepted' });
    expect(contradict.body.error.code).toBe('invalid_params');
    expect(contradict.body.error.message).toContain('contradicts superseded_by');
    const self = await write({ action: 'set', id: 'ADR-0001', superseded_by: 'ADR-0001' });
    expect(self.body.error.message).toContain('cannot supersede itself');
    const missing = await write({ action: 'set', id: 'ADR-0001', superseded_by: 'ADR-0999' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    expect((await read({ action: 'get', id: 'ADR-0001' })).body.result.record.superseded_by).toBeNull();
  });
});

describe('validation', () => {
  const cases: [string, Json, string][] = [
    ['a title over 200 characters', { action: 'set', title: 't'.repeat(201) }, 'title'],
    ['a blank title', { action: 'set', title: '   ' }, 'title'],
    ['a body over 20000 characters', { action: 'set', title: 'x', context: 'c'.repeat(20_001) }, 'context'],
    ['set without id and without title', { action: 'set', decision: 'd' }, 'title'],
    ['set with id and nothing to change', { action: 'set', id: 'ADR-0001' }, 'id'],
    ['delete without id', { action: 'delete' }, 'id'],
    ['delete with fields', { action: 'delete', id: 'ADR-0001', title: 'x' }, 'title'],
    ['a malformed id', { action: 'set', id: 'RFC-1', title: 'x' }, 'id'],
    ['id ADR-0000', { action: 'delete', id: 'ADR-0000' }, 'id'],
    ['an unknown status', { action: 'set', title: 'x', status: 'maybe' }, 'status'],
    ['no action', {}, 'action'],
  ];
  for (const [what, args, param] of cases) {
    it(`refuses ${what} with invalid_params naming ${param}, and changes nothing`, async () => {
      const before = await DB.prepare('SELECT count(*) AS n, max(updated_at) AS u FROM adrs').first();
      const { status, body } = await write(args);
      expect(status).toBe(400);
      expect(body.error.code).toBe('invalid_params');
      expect(body.error.message).toContain(param);
      expect(body.error.suggestion).toBeTruthy();
      expect(await DB.prepare('SELECT count(*) AS n, max(updated_at) AS u FROM adrs').first()).toEqual(before);
    });
  }

  it('accepts a title of exactly 200 characters and bodies of exactly 20000', async () => {
    const rec = await create('t'.repeat(200), { context: 'c'.repeat(20_000), decision: 'd'.repeat(20_000), consequences: 'q'.repeat(20_000) });
    expect(rec.title).toHaveLength(200);
    expect((await write({ action: 'delete', id: rec.id })).body.result).toMatchObject({ id: rec.id, deleted: true });
  });

  it('answers not_found when updating or deleting a record that does not exist', async () => {
    for (const args of [{ action: 'set', id: 'ADR-0999', title: 'x' }, { action: 'delete', id: 'ADR-0999' }]) {
      const { status, body } = await write(args);
      expect(status).toBe(404);
      expect(body.error.code).toBe('not_found');
      expect(body.error.suggestion).toContain('adr with action list');
    }
  });

  it('refuses id, status, limit and offset with actions that do not take them', async () => {
    for (const args of [{ action: 'list', id: 'ADR-0001' }, { action: 'get', id: 'ADR-0001', status: 'accepted' }, { action: 'export', limit: 5 }, { action: 'get', id: 'ADR-0001', offset: 1 }, { action: 'get' }]) {
      const { body } = await read(args);
      expect(body.error.code, JSON.stringify(args)).toBe('invalid_params');
    }
  });
});

describe('adr list and export', () => {
  it('pages summaries by id, filters by status, and steers to the next page', async () => {
    const all = (await read({ action: 'list' })).body.result;
    expect(all.records.map((r: Json) => r.id)).toEqual(['ADR-0001', 'ADR-0002', 'ADR-0003']);
    expect(Object.keys(all.records[0]).sort()).toEqual(['id', 'status', 'superseded_by', 'title', 'updated_at']);
    expect(all).toMatchObject({ total: 3, has_more: false });

    const page = await read({ action: 'list', limit: '2' });
    expect(page.body.result).toMatchObject({ total: 3, has_more: true, next_offset: 2 });
    const [step] = page.body._meta.next_steps;
    expect(step).toMatchObject({ tool: 'adr', args: { project: PROJECT, action: 'list', limit: 2, offset: 2 } });
    expect((await runStep(step)).result.records.map((r: Json) => r.id)).toEqual(['ADR-0003']);

    const accepted = (await read({ action: 'list', status: 'accepted' })).body.result;
    expect(accepted.records.map((r: Json) => r.id)).toEqual(['ADR-0001']);
    expect(accepted.total).toBe(1);
  });

  it('defaults to list', async () => {
    expect((await read({})).body.result.action).toBe('list');
  });

  it('exports every record as Markdown, optionally of one status', async () => {
    const { body } = await read({ action: 'export' });
    const md: string = body.result.markdown;
    expect(body.result.total).toBe(3);
    expect(md.startsWith(`# Architecture decision records: ${PROJECT}\n`)).toBe(true);
    expect(md).toContain('## ADR-0001: Use D1 for the index');
    expect(md).toContain('- Status: accepted');
    expect(md).toContain('### Context\n\nWe need SQL at the edge.\n');
    expect(md).toContain('### Decision\n\nD1, through drizzle, with json_each for bulk.\n');
    expect(md.indexOf('ADR-0001')).toBeLessThan(md.indexOf('ADR-0002'));
    // Empty sections are left out.
    expect(md.split('## ADR-0002')[1].split('## ADR-0003')[0]).not.toContain('### Context');
    const deprecated = (await read({ action: 'export', status: 'deprecated' })).body.result.markdown;
    expect(deprecated).toContain('## ADR-0002');
    expect(deprecated).not.toContain('## ADR-0001');
  });
});

describe('empty answers', () => {
  it('answers target_not_resolved for an id that matches no record, with a list step', async () => {
    const { status, body } = await read({ action: 'get', id: 'ADR-0042' });
    expect(status).toBe(200);
    expect(body.result.record).toBeNull();
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(body._meta.next_steps).toEqual([expect.objectContaining({ tool: 'adr', args: { project: PROJECT, action: 'list' } })]);
    for (const step of body._meta.next_steps) await runStep(step);
  });

  it('answers no_results_in_corpus for a project without records, on list and export', async () => {
    for (const action of ['list', 'export']) {
      const { body } = await rest('adr', { project: EMPTY, action });
      expect(body._meta.empty_reason).toBe('no_results_in_corpus');
      expect(body.result.total).toBe(0);
      for (const step of body._meta.next_steps) await runStep(step);
    }
  });

  it('answers query_too_narrow when the status filter excludes every record', async () => {
    for (const action of ['list', 'export']) {
      const { body } = await read({ action, status: 'superseded' });
      expect(body._meta.empty_reason).toBe('query_too_narrow');
      const [step] = body._meta.next_steps;
      expect(step.args).toEqual({ project: PROJECT, action });
      expect((await runStep(step)).result.total).toBe(3);
    }
  });

  it('answers cap_dropped_all for an offset past the end, rewinding to the first page', async () => {
    const { body } = await read({ action: 'list', offset: 50 });
    expect(body._meta.empty_reason).toBe('cap_dropped_all');
    const [step] = body._meta.next_steps;
    expect(step.args).toEqual({ project: PROJECT, action: 'list', offset: 0 });
    expect((await runStep(step)).result.records).toHaveLength(3);
  });

  it('answers no_project_indexed for an unknown project on both tools, writing nothing', async () => {
    const r = await rest('adr', { project: 'adr-nowhere' });
    expect(r.body._meta.empty_reason).toBe('no_project_indexed');
    const w = await rest('adr_write', { project: 'adr-nowhere', action: 'set', title: 'x' });
    expect(w.body.result).toEqual({ action: 'set', project: null, id: null, created: false, deleted: false, record: null });
    expect(w.body._meta.empty_reason).toBe('no_project_indexed');
  });
});

describe('delete and scope', () => {
  const KEYS = { PINCHER_HTTP_KEY: 'adr-full-key', PINCHER_READ_KEY: 'adr-read-key' };
  const as = (key: string) => ({ env: KEYS, headers: { authorization: `Bearer ${key}` } });

  it('lets the read-only key get, list and export, and refuses it set and delete', async () => {
    for (const action of ['list', 'export']) {
      expect((await restCall('adr', { project: PROJECT, action }, as(KEYS.PINCHER_READ_KEY))).status).toBe(200);
    }
    expect((await restCall('adr', { project: PROJECT, action: 'get', id: 'ADR-0001' }, as(KEYS.PINCHER_READ_KEY))).body.result.record.id).toBe('ADR-0001');
    for (const args of [{ project: PROJECT, action: 'set', title: 'nope' }, { project: PROJECT, action: 'delete', id: 'ADR-0001' }]) {
      const r = await restCall('adr_write', args, as(KEYS.PINCHER_READ_KEY));
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('insufficient_scope');
    }
    expect((await read({ action: 'list' })).body.result.total).toBe(3);
  });

  it('deletes one record with the full key; numbering continues from the highest remaining id', async () => {
    const r = await restCall('adr_write', { project: PROJECT, action: 'delete', id: 'ADR-0003' }, as(KEYS.PINCHER_HTTP_KEY));
    expect(r.body.result).toEqual({ action: 'delete', project: PROJECT, id: 'ADR-0003', created: false, deleted: true, record: null });
    expect((await read({ action: 'get', id: 'ADR-0003' })).body._meta.empty_reason).toBe('target_not_resolved');
    expect((await create('Next one')).id).toBe('ADR-0003');
  });

  it('keeps records per project', async () => {
    expect((await rest('adr', { project: EMPTY })).body.result.total).toBe(0);
    await rest('adr_write', { project: EMPTY, action: 'set', title: 'Own numbering' });
    expect((await rest('adr', { project: EMPTY, action: 'get', id: 'ADR-0001' })).body.result.record.title).toBe('Own numbering');
    expect((await read({ action: 'get', id: 'ADR-0001' })).body.result.record.title).toBe('Use D1 for the index');
  });
});
