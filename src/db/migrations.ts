import type { RequestDatabase } from './request-database';

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

/** Request databases already carrying a confirmSchemaStateAlong check. */
const confirming = new WeakSet<object>();

/** The ledger, oldest migration first. */
function ledgerStatement(d1: Pick<D1Database, 'prepare'>): D1PreparedStatement {
  return d1.prepare('SELECT name FROM d1_migrations ORDER BY id');
}

function stateOf(rows: readonly unknown[]): SchemaState {
  const names = rows.map((r) => (r as { name: string }).name);
  return { applied: names.length, names };
}

export interface SchemaStateOptions {
  /** Read the ledger again whatever is kept (health, readiness), and keep what was read. */
  fresh?: boolean;
  /**
   * The binding the read is kept under when `d1` is another handle on its database (a call's session or request
   * database): a tool that reads the ledger in its own round trip (health) spares the envelope's stamp, which asks
   * by binding, a read of its own.
   */
  cacheAs?: object;
  /** Any kept state will do, however old (a decision that must not wait for D1); a read only when none is kept. */
  anyAge?: boolean;
}

/**
 * Reads the migration ledger. Kept per isolate and database binding for a
 * few seconds: every call stamps drift fields, and the ledger only changes
 * on deploys. A call confirms a kept state older than that inside its own
 * first round trip (confirmSchemaStateAlong), so the stamp rarely reads it.
 */
export async function schemaState(d1: D1Database, opts: SchemaStateOptions = {}): Promise<SchemaState> {
  const key = opts.cacheAs ?? d1;
  const now = Date.now();
  const held = cached.get(key);
  if (!opts.fresh && held && (opts.anyAge || now - held.at < TTL_MS)) return held.state;
  let state: SchemaState;
  try {
    state = stateOf((await ledgerStatement(d1).all()).results);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // No ledger yet means no migration was applied.
    state = /no such table/i.test(message) ? { applied: 0, names: [] } : { applied: null, names: [], error: message };
  }
  cached.set(key, { at: now, state });
  return state;
}

/**
 * When the ledger kept for `binding` is older than the few seconds it is trusted for, has `db` (a call's request
 * database on that binding's database) confirm it with the call's next round trip: a condition folded into one of
 * its SELECTs (the ledger's count and last name unchanged), so the trip carries no statement more; the whole ledger
 * rides along when the condition cannot fold or did not hold. With nothing kept (an isolate's first call), the
 * ledger rides along as a statement of the trip. A call that makes no round trip on `db` drops it (the stamp then
 * reads the ledger itself, as without it). Without it, the first call after every few idle seconds (an agent
 * thinking between calls), and an isolate's first, paid a round trip of their own for the stamp's read.
 */
export function confirmSchemaStateAlong(db: RequestDatabase, binding: object): void {
  const held = cached.get(binding);
  // One check per request database (a batch's entries share their call's).
  // A state with no migration (or an error) is not confirmed: the ledger table may be missing, which would fail the trip.
  if (confirming.has(db) || (held && (!held.state.applied || Date.now() - held.at < TTL_MS))) return;
  confirming.add(db);
  const keep = (rows: unknown[]) => cached.set(binding, { at: Date.now(), state: stateOf(rows) });
  if (!held) {
    // Nothing kept yet (an isolate's first call): the ledger itself rides along.
    db.rideAlong(ledgerStatement(db), keep, undefined, { optional: true });
    return;
  }
  const { state } = held;
  db.rideAlong(
    ledgerStatement(db),
    keep,
    {
      condition: (from) => ({
        sql: `(SELECT count(*) FROM d1_migrations) = ?${from} AND (SELECT name FROM d1_migrations ORDER BY id DESC LIMIT 1) = ?${from + 1}`,
        values: [state.applied, state.names[state.names.length - 1]],
      }),
      held: () => cached.set(binding, { at: Date.now(), state }),
    },
    { optional: true },
  );
}

/** Makes the ledger kept for `binding` `ms` older (tests of the few seconds it is trusted for). */
export function ageSchemaState(binding: object, ms: number): void {
  const held = cached.get(binding);
  if (held) held.at -= ms;
}

/** Forget the cached ledger (tests that apply or fake migrations call this). */
export function resetSchemaStateCache(): void {
  cached = new WeakMap();
}
