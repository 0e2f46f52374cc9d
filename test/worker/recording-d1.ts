import { env } from 'cloudflare:workers';

const DB = (env as unknown as { DB: D1Database }).DB;

/** One statement as a caller bound it. */
export interface Captured {
  sql: string;
  args: unknown[];
}

/** A D1 binding that records every bound statement it prepares and runs it on the real one (for EXPLAIN QUERY PLAN tests). */
export function recording(): { d1: D1Database; seen: Captured[] } {
  const seen: Captured[] = [];
  const d1 = {
    prepare(sql: string) {
      const real = DB.prepare(sql);
      return {
        bind(...args: unknown[]) {
          seen.push({ sql, args });
          return real.bind(...args);
        },
      };
    },
    batch: (s: D1PreparedStatement[]) => DB.batch(s),
  } as unknown as D1Database;
  return { d1, seen };
}
