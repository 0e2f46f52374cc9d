import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeCapabilities } from '../../../src/envelope/capabilities';
import { INDEX_SCHEMA_VERSION, SCHEMA_VERSION, VERSION } from '../../../src/version';
import { deleteProjects, env, insertProjects, restCall, send, type Json } from '../contract/support';
import { push } from '../upload/support';

const FRESH = 'health-fresh';
const STALE = 'health-stale';
const PENDING = 'health-pending';
// Indexed under the oldest schema this server answers from as from its own (only storage changed since).
const LAYOUT = 'health-layout';
let ids: string[] = [];

beforeAll(async () => {
  ids = await insertProjects([
    { name: FRESH, schemaVersionAtIndex: SCHEMA_VERSION, files: 7, symbols: 40 },
    { name: STALE, schemaVersionAtIndex: INDEX_SCHEMA_VERSION - 1, files: 2, symbols: 5 },
    // Opened by a push that never committed: not indexed yet.
    { name: PENDING, indexedAt: null, schemaVersionAtIndex: null },
  ]);
});
afterAll(async () => {
  await deleteProjects([FRESH, STALE, PENDING]);
});

async function appliedMigrations(): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM d1_migrations').first<{ n: number }>();
  return row?.n ?? -1;
}

describe('health (the tool)', () => {
  it('reports version, schema_version, applied_migrations and migrations_current from the real D1 ledger', async () => {
    const { status, body } = await restCall('health', {});
    expect(status).toBe(200);
    const r = body.result;
    expect(r.version).toBe(VERSION);
    expect(r.schema_version).toBe(SCHEMA_VERSION);
    expect(r.applied_migrations).toBe(await appliedMigrations());
    expect(r.applied_migrations).toBe(env.TEST_MIGRATIONS.length);
    expect(r.migrations_current).toBe(true);
    expect(r.binary_drift).toBe(false);
    expect(r.ok).toBe(true);
  });

  it('reports the capabilities of this deployment', async () => {
    const { body } = await restCall('health', {});
    expect(body.result.capabilities).toEqual(computeCapabilities(env));
    expect(body.result.capabilities).toContain(`schema_v${SCHEMA_VERSION}`);
  });

  it('reports per-project state: files, symbols, schema_version_at_index and stale', async () => {
    const { body } = await restCall('health', {});
    const byName = new Map((body.result.projects as Json[]).map((p) => [p.name, p]));
    expect(byName.get(FRESH)).toMatchObject({ id: ids[0], files: 7, symbols: 40, schema_version_at_index: SCHEMA_VERSION, stale: false });
    expect(byName.get(STALE)).toMatchObject({ id: ids[1], files: 2, symbols: 5, schema_version_at_index: INDEX_SCHEMA_VERSION - 1, stale: true });
    expect(byName.get(FRESH)?.indexed_at).toBe(new Date(1_700_000_100_000).toISOString());
  });

  it('does not call stale a project indexed under INDEX_SCHEMA_VERSION: the migrations since only changed how rows are stored', async () => {
    expect(INDEX_SCHEMA_VERSION).toBeLessThan(SCHEMA_VERSION);
    const [id] = await insertProjects([{ name: LAYOUT, schemaVersionAtIndex: INDEX_SCHEMA_VERSION, files: 3, symbols: 9 }]);
    try {
      const { body } = await restCall('health', {});
      const row = (body.result.projects as Json[]).find((p) => p.name === LAYOUT);
      expect(row).toMatchObject({ id, schema_version_at_index: INDEX_SCHEMA_VERSION, stale: false });
    } finally {
      await deleteProjects([LAYOUT]);
    }
  });

  it('flags a project indexed under an older schema with a stale_index warning naming it', async () => {
    const { body } = await restCall('health', {});
    const warning = (body._meta.warnings_v2 as Json[]).find((w) => w.code === 'stale_index');
    expect(warning).toBeDefined();
    expect(warning?.severity).toBe('warning');
    const named = (warning?.data.projects as (string | Json)[]).map((p) => (typeof p === 'string' ? p : p.name));
    expect(named).toEqual([STALE]);
    expect(body._meta.warnings).toContain(`stale_index: ${warning?.message}`);
  });

  it('scopes to one project: only that project, with project_id/project_name/schema_version_at_index in _meta', async () => {
    const { body } = await restCall('health', { project: STALE });
    expect(body.result.projects.map((p: Json) => p.name)).toEqual([STALE]);
    expect(body.result.projects[0].stale).toBe(true);
    expect(body._meta.project_name).toBe(STALE);
    expect(body._meta.project_id).toBe(ids[1]);
    expect(body._meta.schema_version_at_index).toBe(INDEX_SCHEMA_VERSION - 1);
    expect((body._meta.warnings_v2 as Json[]).map((w) => w.code)).toContain('stale_index');
  });

  it('raises no stale_index warning when the scoped project is current', async () => {
    const { body } = await restCall('health', { project: FRESH });
    expect(body.result.projects[0].stale).toBe(false);
    expect(body._meta).not.toHaveProperty('warnings_v2');
  });

  it('answers an unknown project with an empty projects list and no_project_indexed plus a list step', async () => {
    const { status, body } = await restCall('health', { project: 'health-nope' });
    expect(status).toBe(200);
    expect(body.result.projects).toEqual([]);
    expect(body._meta.empty_reason).toBe('no_project_indexed');
    expect(body._meta.diagnosis).toContain('health-nope');
    expect(body._meta.next_steps).toEqual([{ tool: 'list', args: {}, why: expect.any(String) }]);
    expect(body._meta).not.toHaveProperty('project_id');
  });

  it('treats a project whose push never committed as not indexed', async () => {
    const { body } = await restCall('health', { project: PENDING });
    expect(body.result.projects).toEqual([]);
    expect(body._meta.empty_reason).toBe('no_project_indexed');
  });

  it('uses the ?project= URL pin when the argument is omitted', async () => {
    const { body } = await restCall('health', {}, { query: `?project=${FRESH}` });
    expect(body.result.projects.map((p: Json) => p.name)).toEqual([FRESH]);
    expect(body._meta.project_name).toBe(FRESH);
  });
});

describe('health server-wide on a server holding many projects', () => {
  const MANY = Array.from({ length: 120 }, (_, i) => `health-many-${String(i).padStart(3, '0')}`);
  const STALE_MANY = MANY[5];

  beforeAll(async () => {
    await insertProjects(
      MANY.map((name, i) => ({ name, indexedAt: 1_700_000_200_000 + i, ...(name === STALE_MANY ? { schemaVersionAtIndex: INDEX_SCHEMA_VERSION - 1 } : {}) })),
    );
  });
  afterAll(async () => {
    await env.DB.prepare("DELETE FROM projects WHERE name LIKE 'health-many-%'").run();
  });

  it('shows a bounded page, stale projects first and then the latest indexed, with the total and where to go on', async () => {
    const { body } = await restCall('health', {});
    const r = body.result;
    expect(r.projects.map((p: Json) => p.name)).toEqual([STALE_MANY, STALE, ...MANY.slice(-8).reverse()]);
    expect(r).toMatchObject({ projects_total: 122, has_more: true, next_offset: 10 });
    const cut = (body._meta.warnings_v2 as Json[]).find((w) => w.code === 'projects_truncated');
    expect(cut).toMatchObject({ severity: 'info', data: { total: 122, shown: 10, offset: 0, next_offset: 10 } });
    expect(body._meta.next_steps).toContainEqual({ tool: 'health', args: { offset: 10 }, why: expect.any(String) });
  });

  it('counts every stale project in the stale_index warning, not only those shown', async () => {
    const { body } = await restCall('health', { limit: 1 });
    expect(body.result.projects.map((p: Json) => p.name)).toEqual([STALE_MANY]);
    const warning = (body._meta.warnings_v2 as Json[]).find((w) => w.code === 'stale_index');
    expect(warning?.data.total).toBe(2);
    expect((warning?.data.projects as Json[]).map((p) => p.name)).toEqual([STALE_MANY, STALE]);
  });

  it('reaches every indexed project exactly once by following its next steps alone', async () => {
    let args: Json | undefined = { limit: 50 };
    const seen: string[] = [];
    for (let pages = 0; args && pages < 10; pages++) {
      const { body } = await restCall('health', args);
      seen.push(...(body.result.projects as Json[]).map((p) => p.name as string));
      args = (body._meta.next_steps as Json[] | undefined)?.find((s) => s.tool === 'health')?.args;
    }
    expect(seen).toHaveLength(122);
    expect(new Set(seen)).toEqual(new Set([...MANY, FRESH, STALE]));
  });

  it('answers an offset past the end with cap_dropped_all and a rewind step', async () => {
    const { body } = await restCall('health', { offset: 500 });
    expect(body.result).toMatchObject({ projects: [], projects_total: 122, has_more: false });
    expect(body._meta.empty_reason).toBe('cap_dropped_all');
    expect(body._meta.next_steps).toContainEqual({ tool: 'health', args: {}, why: expect.any(String) });
  });

  it('fits the default batch budget, so a batch step naming health runs', async () => {
    const { body } = await restCall('batch', { calls: [{ tool: 'health', args: {} }] });
    expect(body.result.entries[0].status).toBe('ok');
    expect(body.result.entries[0]._meta.tokens_used).toBeLessThan(4000);
  });
});

describe('the health and ready probes', () => {
  it('GET /v1/health is public and cheap: ok, version, schema_version', async () => {
    const { status, body } = await send('/v1/health', {}, { PINCHER_HTTP_KEY: 'health-key', PINCHER_ALLOW_OPEN: undefined });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, version: VERSION, schema_version: SCHEMA_VERSION, auth_required: true });
  });

  it('reports auth_required false only on an open server', async () => {
    expect((await send('/v1/health')).body.auth_required).toBe(false);
  });

  it('GET /v1/ready is 200 with ready true when D1 has exactly the migrations this Worker knows', async () => {
    const { status, body } = await send('/v1/ready');
    expect(status).toBe(200);
    expect(body).toMatchObject({ ready: true, schema_version: SCHEMA_VERSION, applied_migrations: SCHEMA_VERSION, reasons: [] });
    expect(body._meta.request_id).toBeTruthy();
  });

  it("reports a pushed project's languages, extraction failures and failed paths, kept per generation: a later call reads them, a push recomputes them", async () => {
    const project = 'health-files';
    const files = {
      'src/a.ts': 'export function a(): number {\n  return 1;\n}\n',
      'src/b.ts': 'export function b(): number {\n  return 2;\n}\n',
      'src/c.py': 'def c():\n    return 3\n',
      'assets/logo.bin': '\u0089PNG\u0000\u0000 health',
    };
    expect((await push(project, files)).commit?.status).toBe(200);
    const figures = async () => (await restCall('health', { project })).body.result.projects[0] as Json;
    const first = await figures();
    expect(first.languages.map((l: Json) => [l.language, l.files, l.symbols])).toEqual(
      expect.arrayContaining([
        ['typescript', 2, 2],
        ['python', 1, 1],
      ]),
    );
    expect(first.extraction_failures).toEqual([{ status: 'skipped', reason: 'binary', files: 1 }]);
    expect(first.failed_paths).toEqual([{ path: 'assets/logo.bin', status: 'skipped', reason: 'binary' }]);
    const id = first.id as string;
    const stored = await env.DB.prepare("SELECT generation, body FROM project_aggregates WHERE project_id = ?1 AND name = 'health'").bind(id).first<{ generation: number; body: string }>();
    const row = await env.DB.prepare('SELECT generation FROM projects WHERE id = ?1').bind(id).first<{ generation: number }>();
    expect(stored?.generation).toBe(row?.generation);
    // The stored row answers: a marked copy of it comes back.
    const marked = { ...JSON.parse(stored?.body ?? '{}'), failedPaths: [{ path: 'marked.bin', status: 'skipped', reason: 'binary' }] };
    await env.DB.prepare("UPDATE project_aggregates SET body = ?2 WHERE project_id = ?1 AND name = 'health'").bind(id, JSON.stringify(marked)).run();
    expect((await figures()).failed_paths).toEqual([{ path: 'marked.bin', status: 'skipped', reason: 'binary' }]);
    // A push moves the generation: the figures are read from the files again.
    expect((await push(project, { ...files, 'src/d.ts': 'export const d = 4;\n' })).commit?.status).toBe(200);
    const after = await figures();
    expect(after.failed_paths).toEqual([{ path: 'assets/logo.bin', status: 'skipped', reason: 'binary' }]);
    expect(after.languages.find((l: Json) => l.language === 'typescript')?.files).toBe(3);
    await deleteProjects([project]);
  });
});
