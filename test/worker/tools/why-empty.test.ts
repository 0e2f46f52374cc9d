import { describe, expect, it } from 'vitest';
import { EMPTY_REASONS, EMPTY_REASON_CATALOG } from '../../../src/envelope/empty-reasons';
import { TOOL_NAMES } from '../../../src/tools/registry';
import { TRANSPORTS, mcpPayload, mcpTool, restCall, type Json } from '../contract/support';

/** The 13 codes of reference/empty-reason-catalog.md, written out independently of src/. */
const CATALOG_CODES = [
  'no_project_indexed',
  'stale_index',
  'unsupported_language',
  'low_confidence_extractor',
  'same_file_only',
  'cross_file_unavailable',
  'query_too_narrow',
  'no_results_in_corpus',
  'cap_dropped_all',
  'incremental_no_change',
  'all_files_blocked',
  'extractor_emitted_nothing',
  'target_not_resolved',
];

describe('why_empty without a code', () => {
  it('returns all 13 catalog codes, each with title, fires_when, recovery and recovery_steps', async () => {
    const { status, body } = await restCall('why_empty', {});
    expect(status).toBe(200);
    expect(body.result.total).toBe(13);
    const entries = body.result.entries as Json[];
    expect(entries.map((e) => e.code).sort()).toEqual([...CATALOG_CODES].sort());
    for (const e of entries) {
      for (const field of ['title', 'fires_when', 'recovery']) {
        expect(typeof e[field], `${e.code}.${field}`).toBe('string');
        expect(e[field].length, `${e.code}.${field}`).toBeGreaterThan(10);
      }
      expect(Array.isArray(e.recovery_steps), `${e.code}.recovery_steps`).toBe(true);
    }
  });

  it('matches the src catalog the rest of the server stamps from', () => {
    expect([...EMPTY_REASONS].sort()).toEqual([...CATALOG_CODES].sort());
    for (const code of EMPTY_REASONS) expect(EMPTY_REASON_CATALOG[code].code).toBe(code);
  });

  it('emits no next_steps for the whole catalog (nothing specific to recover from)', async () => {
    const { body } = await restCall('why_empty', {});
    expect(body._meta).not.toHaveProperty('next_steps');
    expect(body._meta).not.toHaveProperty('empty_reason');
  });

  it('names only tools this server serves in any recovery step', async () => {
    const { body } = await restCall('why_empty', {});
    for (const e of body.result.entries as Json[]) {
      for (const s of e.recovery_steps as Json[]) expect(TOOL_NAMES.has(s.tool), `${e.code} → ${s.tool}`).toBe(true);
    }
  });
});

describe('why_empty with one code', () => {
  for (const code of CATALOG_CODES) {
    it(`returns the single entry for ${code} and emits its recovery steps as next_steps`, async () => {
      const { status, body } = await restCall('why_empty', { code });
      expect(status).toBe(200);
      expect(body.result.total).toBe(1);
      const [entry] = body.result.entries as Json[];
      expect(entry.code).toBe(code);
      const steps = entry.recovery_steps as Json[];
      if (steps.length) expect(body._meta.next_steps).toEqual(steps);
      else expect(body._meta).not.toHaveProperty('next_steps');
    });
  }

  it('fills the project into project-scoped recovery steps but not into list', async () => {
    const { body } = await restCall('why_empty', { code: 'stale_index', project: 'web' });
    const steps = body._meta.next_steps as Json[];
    expect(steps.length).toBeGreaterThan(0);
    for (const s of steps) expect(s.args.project).toBe('web');

    const listSteps = (await restCall('why_empty', { code: 'no_project_indexed', project: 'web' })).body._meta.next_steps as Json[];
    expect(listSteps.find((s) => s.tool === 'list')?.args).toEqual({});
  });

  it('is not itself an empty result (it explains one)', async () => {
    const { body } = await restCall('why_empty', { code: 'cap_dropped_all' });
    expect(body._meta).not.toHaveProperty('empty_reason');
  });
});

describe('why_empty with an unknown code', () => {
  it('answers 400 unknown_empty_reason listing every code, with a did-you-mean for a near miss', async () => {
    const { status, body } = await restCall('why_empty', { code: 'stale_indx' });
    expect(status).toBe(400);
    expect(body.error.code).toBe('unknown_empty_reason');
    expect(body.error.message).toContain('stale_indx');
    expect([...body.error.details.codes].sort()).toEqual([...CATALOG_CODES].sort());
    expect(body.error.details.did_you_mean).toBe('stale_index');
    expect(body.error.suggestion).toContain("'stale_index'");
    expect(body._meta.request_id).toBeTruthy();
  });

  it('offers no did-you-mean when nothing is close', async () => {
    const { body } = await restCall('why_empty', { code: 'qqqqqqqqqqqqqqqqqqqqq' });
    expect(body.error.code).toBe('unknown_empty_reason');
    expect(body.error.details).not.toHaveProperty('did_you_mean');
    expect(body.error.suggestion).toMatch(/why_empty/);
  });

  it('is an isError tool result with the same typed error over MCP', async () => {
    for (const transport of TRANSPORTS) {
      const { result } = await mcpTool(transport, 'why_empty', { code: 'cap_droped_all' });
      expect(result?.isError).toBe(true);
      const { error } = mcpPayload(result as Json);
      expect(error.code).toBe('unknown_empty_reason');
      expect(error.details.did_you_mean).toBe('cap_dropped_all');
    }
  });
});
