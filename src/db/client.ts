/**
 * How this folder talks to D1 — one choice, for every runtime statement:
 *
 * - Statements are raw SQL through the binding (`d1.prepare(…).bind(?N…)`, `d1.batch`),
 *   each in a named function of `src/db/`. FTS5, CTEs, generation-guarded batches and
 *   per-statement timing all need the SQL itself, and the Worker then carries no query
 *   builder (smaller upload, faster startup).
 * - drizzle-orm is the schema (`schema.ts`): table shapes, the migrations drizzle-kit
 *   generates from it, and the row types (`typeof table.$inferSelect`), imported as types
 *   only. A function returning schema rows aliases the columns to the row type's keys,
 *   with the list checked against that type (see `PROJECT_COLUMNS` in `projects.ts`).
 * - No SQL outside `src/db/`, except `src/query/`, which compiles PinchQL to SQL.
 */

/** The driver's own message for a failed statement, without the SQL and parameters a wrapper adds around it. */
export function dbErrorMessage(err: unknown): string {
  const cause = (err as { cause?: unknown })?.cause;
  if (cause instanceof Error) return cause.message;
  return err instanceof Error ? err.message.split('\n')[0].slice(0, 200) : 'unknown database error';
}

/** The rows a statement returns, as the caller types them. */
export async function allRows<T>(stmt: D1PreparedStatement): Promise<T[]> {
  return (await stmt.all<T>()).results;
}
