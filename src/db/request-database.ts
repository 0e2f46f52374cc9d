/**
 * The D1 handle of one tool call. It does two things the statements
 * themselves cannot:
 *
 * - counts D1 round trips: each `first`/`all`/`run`/`raw` of a statement and
 *   each `batch` (however many statements it holds) is one request to D1;
 * - lets a check statement ride along with the next round trip
 *   (`rideAlong`): the next `first`/`all`/`run` becomes a batch led by the check,
 *   so validating a cached row costs no round trip of its own. A batch is one
 *   transaction, so the check sees the same database state as the statement
 *   it rode with.
 *
 * Reads may go to a D1 Sessions API session (`withSession`): the handle only
 * needs `prepare` and `batch`, which sessions and bindings both have.
 */

/** What the handle needs of D1: a binding or a session. */
export type D1Reader = Pick<D1Database, 'prepare' | 'batch'>;

/** A check waiting for the next round trip: its statement, and what to do with its rows. */
interface RideAlong {
  statement: D1PreparedStatement;
  settle(rows: unknown[]): void;
}

/** A D1Database whose round trips are counted and which carries ride-along checks. */
export interface RequestDatabase extends D1Database {
  /** D1 round trips made through this handle so far. */
  readonly roundTrips: number;
  /**
   * Runs `statement` with the next round trip (or on `flush`) and hands its
   * rows to `settle`. Several checks may wait; they all ride together.
   */
  rideAlong(statement: D1PreparedStatement, settle: (rows: unknown[]) => void): void;
  /** Runs the pending ride-along checks on their own (one round trip); nothing when none is pending. */
  flush(): Promise<void>;
}

interface State {
  trips: number;
  /** Checks waiting for the next round trip, in the order they were added. */
  pending: RideAlong[];
}

const unwrap = new WeakMap<object, D1PreparedStatement>();

/** The statement a handle wrapped (statements prepared elsewhere pass through). */
function inner(s: D1PreparedStatement): D1PreparedStatement {
  return unwrap.get(s) ?? s;
}

/** One round trip: `real` alone, or batched after the pending ride-along check. */
async function trip<T>(db: D1Reader, state: State, real: D1PreparedStatement, alone: () => Promise<T>, fromBatch: (r: D1Result) => T): Promise<T> {
  state.trips++;
  const rides = state.pending.splice(0);
  if (!rides.length) return alone();
  let all: D1Result[];
  try {
    all = await db.batch([...rides.map((r) => r.statement), real]);
  } catch {
    // The statement's own failure, as it reports it alone; the checks wait for the next trip.
    state.pending.unshift(...rides);
    state.trips++;
    return alone();
  }
  rides.forEach((r, i) => r.settle(all[i].results));
  return fromBatch(all[rides.length]);
}

function wrapStatement(db: D1Reader, state: State, real: D1PreparedStatement): D1PreparedStatement {
  const wrapped = {
    bind: (...values: unknown[]) => wrapStatement(db, state, real.bind(...values)),
    first: (column?: string) =>
      trip(
        db,
        state,
        real,
        () => (column === undefined ? real.first() : real.first(column)),
        (r) => {
          const row = (r.results[0] ?? null) as Record<string, unknown> | null;
          return column === undefined || row === null ? row : (row[column] ?? null);
        },
      ),
    all: () => trip(db, state, real, () => real.all(), (r) => r),
    run: () => trip(db, state, real, () => real.run(), (r) => r),
    raw: (options?: { columnNames?: boolean }) => {
      // raw() answers arrays a batch does not give back: it never carries a ride-along.
      state.trips++;
      return real.raw(options as { columnNames: true });
    },
  } as unknown as D1PreparedStatement;
  unwrap.set(wrapped, real);
  return wrapped;
}

/**
 * Wraps `db` (a binding, a session, or another wrapper) for one tool call.
 *
 * @example
 * const db = requestDatabase(env.DB.withSession('first-unconstrained'));
 * await db.prepare('SELECT 1').first();
 * db.roundTrips; // 1
 */
export function requestDatabase(db: D1Reader): RequestDatabase {
  const state: State = { trips: 0, pending: [] };
  const handle = {
    get roundTrips() {
      return state.trips;
    },
    prepare: (sql: string) => wrapStatement(db, state, db.prepare(sql)),
    batch: async <T>(statements: D1PreparedStatement[]) => {
      state.trips++;
      const rides = state.pending.splice(0);
      const real = statements.map(inner);
      if (!rides.length) return db.batch<T>(real);
      let all: D1Result<T>[];
      try {
        all = await db.batch<T>([...rides.map((r) => r.statement), ...real]);
      } catch {
        state.pending.unshift(...rides);
        state.trips++;
        return db.batch<T>(real);
      }
      rides.forEach((r, i) => r.settle(all[i].results));
      return all.slice(rides.length);
    },
    rideAlong: (statement: D1PreparedStatement, settle: (rows: unknown[]) => void) => {
      state.pending.push({ statement: inner(statement), settle });
    },
    flush: async () => {
      const rides = state.pending.splice(0);
      if (!rides.length) return;
      state.trips++;
      const all = await db.batch(rides.map((r) => r.statement));
      rides.forEach((r, i) => r.settle(all[i].results));
    },
    exec: () => Promise.reject(new Error('exec is not available on a tool call\'s database handle')),
    dump: () => Promise.reject(new Error('dump is not available on a tool call\'s database handle')),
    withSession: () => {
      throw new Error('a tool call\'s database handle is already a session');
    },
  };
  return handle as unknown as RequestDatabase;
}

/** `d1` itself when it already is a request database (a sub-call shares its parent's), else a new one over it. */
export function asRequestDatabase(d1: D1Reader): RequestDatabase {
  return 'rideAlong' in d1 ? (d1 as RequestDatabase) : requestDatabase(d1);
}
