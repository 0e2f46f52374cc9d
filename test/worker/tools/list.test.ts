import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProjectByName } from '../../../src/db/projects';
import { deleteProjects, env, insertProjects, restCall } from '../contract/support';

// Names of this file's own: the suite's storage is shared, so every filter here is one only they match.
const NAMES = ['ListProbe-Alpha', 'listprobe-beta', 'LISTPROBE-gamma', 'other-listprobe-delta'];

beforeAll(async () => {
  await insertProjects(NAMES.map((name, i) => ({ name, files: i + 1, symbols: 10 * (i + 1) })));
});
afterAll(async () => {
  await deleteProjects(NAMES);
});

describe('list', () => {
  it('filters by name_contains in any case, orders by name and counts every match', async () => {
    const { status, body } = await restCall('list', { name_contains: 'listPROBE' });
    expect(status).toBe(200);
    expect(body.result.total).toBe(4);
    expect(body.result.projects.map((p: { name: string }) => p.name)).toEqual([...NAMES].sort());
    expect(body.result.has_more).toBe(false);
  });

  it('pages with limit and offset, the total still counting every match', async () => {
    const first = await restCall('list', { name_contains: 'listprobe', limit: 3 });
    expect(first.body.result).toMatchObject({ total: 4, has_more: true, next_offset: 3 });
    expect(first.body.result.projects).toHaveLength(3);
    const rest = await restCall('list', { name_contains: 'listprobe', limit: 3, offset: 3 });
    expect(rest.body.result.projects.map((p: { name: string }) => p.name)).toEqual([[...NAMES].sort()[3]]);
    expect(rest.body.result.has_more).toBe(false);
  });

  it('reports each project as stored', async () => {
    const { body } = await restCall('list', { name_contains: 'listprobe-beta' });
    expect(body.result.projects).toEqual([expect.objectContaining({ name: 'listprobe-beta', files: 2, symbols: 20, ref: 'refs/heads/main', commit: 'abc1234' })]);
  });

  it('reads a project row with every column under its schema name', async () => {
    const row = await getProjectByName(env.DB, 'ListProbe-Alpha');
    expect(row).toMatchObject({ name: 'ListProbe-Alpha', fileCount: 1, symbolCount: 10, commitSha: 'abc1234', ref: 'refs/heads/main', generation: 0, graphGeneration: 0, createdAt: 1_700_000_000_000 });
    expect(await getProjectByName(env.DB, 'listprobe-alpha')).toBeUndefined();
  });
});
