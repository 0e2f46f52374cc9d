import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../../src/version';
import { request } from '../upload/support';

type ReadyBody = { ready?: boolean; applied_migrations?: number | null; reasons?: string[]; error?: { code: string; suggestion?: string } };

describe('GET /v1/ready across two local D1 databases', () => {
  it('checks every shard when no shard is named', async () => {
    const res = await request('GET', '/v1/ready', undefined, null);
    const body = res.body as ReadyBody;
    expect(res.status).toBe(200);
    expect(body.ready).toBe(true);
    expect(body.applied_migrations).toBe(SCHEMA_VERSION);
  });

  it.each([['0'], ['1']])('checks shard %s alone when it is named', async (shard) => {
    const res = await request('GET', `/v1/ready?shard=${shard}`, undefined, null);
    const body = res.body as ReadyBody;
    expect(res.status).toBe(200);
    expect(body.ready).toBe(true);
    expect(body.reasons).toEqual([]);
  });

  it('answers unknown_shard, naming the shards that exist, for a shard it is not bound to', async () => {
    const res = await request('GET', '/v1/ready?shard=7', undefined, null);
    const body = res.body as ReadyBody;
    expect(res.status).toBe(404);
    expect(body.error?.code).toBe('unknown_shard');
    expect(body.error?.suggestion).toContain('1 (DB_SHARD_1)');
  });

  it.each([['x'], ['-1'], ['1.5'], ['']])('refuses shard=%j with invalid_params and a suggestion', async (shard) => {
    const res = await request('GET', `/v1/ready?shard=${encodeURIComponent(shard)}`, undefined, null);
    const body = res.body as ReadyBody;
    expect(res.status).toBe(400);
    expect(body.error?.code).toBe('invalid_params');
    expect(body.error?.suggestion).toMatch(/omit shard/);
  });
});
