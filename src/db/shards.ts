import type { Env } from '../env';
import { PincherError } from '../errors';

/**
 * The D1 databases projects are placed on. `DB` is shard 0, the primary: it
 * also holds what is server-wide (the project → shard catalog, the call log,
 * events, session credits). Every other D1 binding named `DB_SHARD_<n>`
 * (n ≥ 1) is shard n, so a deployment grows by adding a binding to
 * wrangler.toml (and applying the migrations to it): nothing else changes.
 * Every shard carries the same schema.
 */
export interface Shard {
  /** 0 for the primary, n for `DB_SHARD_<n>`. What the catalog stores. */
  index: number;
  binding: string;
  db: D1Database;
}

/** The naming rule: `DB_SHARD_1`, `DB_SHARD_2`, … (no leading zeros). */
const SHARD_BINDING = /^DB_SHARD_([1-9]\d{0,3})$/;

function isD1(value: unknown): value is D1Database {
  return typeof value === 'object' && value !== null && typeof (value as D1Database).prepare === 'function' && typeof (value as D1Database).batch === 'function';
}

/** Each environment's shards: the bindings of an `env` object are fixed for its life (a deploy makes a new one). */
const byEnv = new WeakMap<object, readonly Shard[]>();

/**
 * Every shard of this deployment, ordered by index (the primary first). Read
 * from `env` once per environment object, not on every call.
 *
 * @example
 * shardsOf(env).map((s) => s.binding); // ['DB', 'DB_SHARD_1']
 */
export function shardsOf(env: Env): readonly Shard[] {
  const known = byEnv.get(env);
  if (known && known[0].db === env.DB) return known;
  const found: Shard[] = [{ index: 0, binding: 'DB', db: env.DB }];
  for (const [binding, value] of Object.entries(env)) {
    const m = SHARD_BINDING.exec(binding);
    if (m && isD1(value)) found.push({ index: Number(m[1]), binding, db: value });
  }
  const shards = Object.freeze(found.sort((a, b) => a.index - b.index));
  byEnv.set(env, shards);
  return shards;
}

/** The shard numbered `index`, or a typed error naming the shards that exist. */
export function shardAt(env: Env, index: number): Shard {
  const all = shardsOf(env);
  const shard = all.find((s) => s.index === index);
  if (shard) return shard;
  throw new PincherError('unknown_shard', `this deployment has no shard ${index}`, {
    suggestion: `pick one of the shards this Worker is bound to: ${all.map((s) => `${s.index} (${s.binding})`).join(', ')}; a new shard is a D1 binding named DB_SHARD_<n> in wrangler.toml`,
    details: { shards: all.map((s) => s.index) },
  });
}

/** Stored bytes of each shard, from D1's own `size_after` figure on a trivial statement (one round trip per shard, in parallel). */
export async function shardSizes(shards: readonly Shard[]): Promise<{ shard: Shard; bytes: number }[]> {
  return Promise.all(
    shards.map(async (shard) => {
      const r = await shard.db.prepare('SELECT 1 AS one').run();
      return { shard, bytes: r.meta.size_after ?? 0 };
    }),
  );
}
