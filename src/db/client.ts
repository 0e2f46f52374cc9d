import { drizzle, type DrizzleD1Database } from 'drizzle-orm/d1';
import * as schema from './schema';

export type Db = DrizzleD1Database<typeof schema>;

const cache = new WeakMap<D1Database, Db>();

/** The drizzle handle for a D1 binding (one per binding per isolate). */
export function db(d1: D1Database): Db {
  let handle = cache.get(d1);
  if (!handle) {
    handle = drizzle(d1, { schema });
    cache.set(d1, handle);
  }
  return handle;
}

/** The driver's own message for a failed statement, without the SQL and parameters drizzle wraps around it. */
export function dbErrorMessage(err: unknown): string {
  const cause = (err as { cause?: unknown })?.cause;
  if (cause instanceof Error) return cause.message;
  return err instanceof Error ? err.message.split('\n')[0].slice(0, 200) : 'unknown database error';
}
