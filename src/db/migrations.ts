/** State of the D1 schema as recorded in wrangler's `d1_migrations` ledger. */
export interface SchemaState {
  /** Number of applied migrations (the stored schema version); null when D1 is unreachable. */
  applied: number | null;
  names: string[];
  error?: string;
}

const TTL_MS = 5_000;
/** The last ledger read of each database binding (a deployment's bindings live as long as the isolate). */
let cached = new WeakMap<object, { at: number; state: SchemaState }>();

/**
 * Reads the migration ledger. Cached per isolate and database for a few
 * seconds: every call stamps drift fields, and the ledger only changes on
 * deploys. `fresh` reads it again (health, readiness) and keeps what it read.
 * `cacheAs` is the binding the read is kept under when `d1` is another handle
 * on that database (a call's session or request database): a tool that reads
 * the ledger through its own round trip (health) then spares the envelope's
 * stamp, which asks by binding, a second one.
 */
export async function schemaState(d1: D1Database, fresh = false, cacheAs: object = d1): Promise<SchemaState> {
  const now = Date.now();
  const held = cached.get(cacheAs);
  if (!fresh && held && now - held.at < TTL_MS) return held.state;
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
  cached.set(cacheAs, { at: now, state });
  return state;
}

/** Forget the cached ledger (tests that apply or fake migrations call this). */
export function resetSchemaStateCache(): void {
  cached = new WeakMap();
}
