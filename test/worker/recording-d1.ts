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

/** Each captured statement's EXPLAIN QUERY PLAN, as its plan lines joined by newlines. */
export async function planTexts(seen: readonly Captured[]): Promise<string[]> {
  const out: string[] = [];
  for (const s of seen) {
    const rows = await DB.prepare(`EXPLAIN QUERY PLAN ${s.sql}`)
      .bind(...s.args)
      .all<{ detail: string }>();
    out.push(rows.results.map((r) => r.detail).join('\n'));
  }
  return out;
}
