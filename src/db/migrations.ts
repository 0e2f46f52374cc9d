/** State of the D1 schema as recorded in wrangler's `d1_migrations` ledger. */
export interface SchemaState {
  /** Number of applied migrations (the stored schema version); null when D1 is unreachable. */
  applied: number | null;
  names: string[];
  error?: string;
}

const TTL_MS = 5_000;
let cached: { at: number; state: SchemaState; d1: D1Database } | undefined;

/**
 * Reads the migration ledger. Cached per isolate for a few seconds: every
 * call stamps drift fields, and the ledger only changes on deploys.
 */
export async function schemaState(d1: D1Database, fresh = false): Promise<SchemaState> {
  const now = Date.now();
  if (!fresh && cached && cached.d1 === d1 && now - cached.at < TTL_MS) return cached.state;
  let state: SchemaState;
  try {
    const rows = await d1.prepare('SELECT name FROM d1_migrations ORDER BY id').all<{ name: string }>();
    const names = rows.results.map((r) => r.name);
    state = { applied: names.length, names };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // No ledger yet means no migration was applied.
    state = /no such table/i.test(message) ? { applied: 0, names: [] } : { applied: null, names: [], error: message };
  }
  cached = { at: now, state, d1 };
  return state;
}

/** Forget the cached ledger (tests that apply or fake migrations call this). */
export function resetSchemaStateCache(): void {
  cached = undefined;
}
