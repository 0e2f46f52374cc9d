import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { shardsOf } from '../../../src/db/shards';
import type { Env } from '../../../src/env';

const ENV = env as unknown as Env & { DB_SHARD_1: D1Database };

describe('shardsOf', () => {
  it('reads the bindings of an environment once: later calls get the same frozen list', () => {
    const first = shardsOf(ENV);
    expect(first.map((s) => [s.index, s.binding])).toEqual([
      [0, 'DB'],
      [1, 'DB_SHARD_1'],
    ]);
    expect(shardsOf(ENV)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('reads another environment object afresh, and one whose primary changed', () => {
    const fewer = { ...ENV, DB_SHARD_1: undefined } as unknown as Env;
    expect(shardsOf(fewer).map((s) => s.binding)).toEqual(['DB']);
    const more = { ...ENV, DB_SHARD_7: ENV.DB_SHARD_1 } as unknown as Env;
    expect(shardsOf(more).map((s) => s.index)).toEqual([0, 1, 7]);
    const swapped = { ...ENV } as Env;
    expect(shardsOf(swapped)[0].db).toBe(ENV.DB);
    swapped.DB = ENV.DB_SHARD_1;
    expect(shardsOf(swapped)[0].db).toBe(ENV.DB_SHARD_1);
  });
});
