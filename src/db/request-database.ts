/**
 * The D1 handle of one tool call. It does three things the statements
 * themselves cannot:
 *
 * - counts D1 round trips: each request the handle sends to D1 (one
 *   statement, or one batch however many statements it holds) is one;
 * - coalesces: statements issued together (`Promise.all` of reads, or
 *   several `batch` calls in flight) go to D1 as one batch, so a handler
 *   that asks for what it needs at once pays one round trip;
 * - lets a check statement ride along with the next round trip
 *   (`rideAlong`): validating a cached row costs no round trip of its own.
 *   A batch is one transaction, so the check sees the same database state
 *   as the statements it rode with.
 *
 * When a combined batch fails (one bad statement fails a D1 batch whole),
 * each part runs again on its own, so every caller gets its own statement's
 * answer or error exactly as without the handle.
 *
 * Reads may go to a D1 Sessions API session (`withSession`): the handle only
 * needs `prepare` and `batch`, which sessions and bindings both have.
 */

/** What the handle needs of D1: a binding or a session. */
export type D1Reader = Pick<D1Database, 'prepare' | 'batch'>;

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

/** Statements one caller sent, and how its answer is made from their results (or from running them alone). */
interface Part {
  statements: D1PreparedStatement[];
  fromBatch(results: D1Result[]): unknown;
  alone(): Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** A check waiting for the next round trip: its statement, and what to do with its rows. */
interface RideAlong {
  statement: D1PreparedStatement;
  settle(rows: unknown[]): void;
}

/** Microtask turns a round trip waits for more statements: an `await` or two inside a caller still joins. */
const GATHER_TURNS = 3;

class Trips {
  count = 0;
  private queue: Part[] = [];
  private pending: RideAlong[] = [];
  private scheduled = false;

  constructor(private readonly db: D1Reader) {}

  send<T>(statements: D1PreparedStatement[], fromBatch: (results: D1Result[]) => T, alone: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ statements, fromBatch, alone, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        void this.gather(GATHER_TURNS);
      }
    });
  }

  ride(r: RideAlong): void {
    this.pending.push(r);
  }

  async flush(): Promise<void> {
    const rides = this.pending.splice(0);
    if (!rides.length) return;
    this.count++;
    const all = await this.db.batch(rides.map((r) => r.statement));
    rides.forEach((r, i) => r.settle(all[i].results));
  }

  private async gather(turns: number): Promise<void> {
    for (let i = 0; i < turns; i++) await Promise.resolve();
    this.scheduled = false;
    const parts = this.queue.splice(0);
    const rides = this.pending.splice(0);
    this.count++;
    if (parts.length === 1 && rides.length === 0) {
      const [p] = parts;
      p.alone().then(p.resolve, p.reject);
      return;
    }
    let all: D1Result[];
    try {
      all = await this.db.batch([...rides.map((r) => r.statement), ...parts.flatMap((p) => p.statements)]);
    } catch {
      // One part failed the batch: each part runs alone and answers for itself; the checks wait for the next trip.
      this.pending.unshift(...rides);
      for (const p of parts) {
        this.count++;
        p.alone().then(p.resolve, p.reject);
      }
      return;
    }
    rides.forEach((r, i) => r.settle(all[i].results));
    let at = rides.length;
    for (const p of parts) {
      const mine = all.slice(at, at + p.statements.length);
      at += p.statements.length;
      try {
        p.resolve(p.fromBatch(mine));
      } catch (err) {
        p.reject(err);
      }
    }
  }
}

const unwrap = new WeakMap<object, D1PreparedStatement>();

/** The statement a handle wrapped (statements prepared elsewhere pass through). */
function inner(s: D1PreparedStatement): D1PreparedStatement {
  return unwrap.get(s) ?? s;
}

function firstOf(r: D1Result, column: string | undefined): unknown {
  const row = (r.results[0] ?? null) as Record<string, unknown> | null;
  return column === undefined || row === null ? row : (row[column] ?? null);
}

function wrapStatement(trips: Trips, real: D1PreparedStatement): D1PreparedStatement {
  const wrapped = {
    bind: (...values: unknown[]) => wrapStatement(trips, real.bind(...values)),
    first: (column?: string) =>
      trips.send([real], ([r]) => firstOf(r, column), () => (column === undefined ? real.first() : real.first(column))),
    all: () => trips.send([real], ([r]) => r, () => real.all()),
    run: () => trips.send([real], ([r]) => r, () => real.run()),
    raw: (options?: { columnNames?: boolean }) => {
      // raw() answers arrays a batch does not give back: it always travels alone.
      trips.count++;
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
 * await Promise.all([db.prepare('SELECT 1').first(), db.prepare('SELECT 2').first()]);
 * db.roundTrips; // 1
 */
export function requestDatabase(db: D1Reader): RequestDatabase {
  const trips = new Trips(db);
  const handle = {
    get roundTrips() {
      return trips.count;
    },
    prepare: (sql: string) => wrapStatement(trips, db.prepare(sql)),
    batch: <T>(statements: D1PreparedStatement[]) => {
      const real = statements.map(inner);
      return trips.send(real, (rs) => rs as D1Result<T>[], () => db.batch<T>(real));
    },
    rideAlong: (statement: D1PreparedStatement, settle: (rows: unknown[]) => void) => trips.ride({ statement: inner(statement), settle }),
    flush: () => trips.flush(),
    exec: () => Promise.reject(new Error("exec is not available on a tool call's database handle")),
    dump: () => Promise.reject(new Error("dump is not available on a tool call's database handle")),
    withSession: () => {
      throw new Error("a tool call's database handle is already a session");
    },
  };
  return handle as unknown as RequestDatabase;
}

/** `d1` itself when it already is a request database (a sub-call shares its parent's), else a new one over it. */
export function asRequestDatabase(d1: D1Reader): RequestDatabase {
  return 'rideAlong' in d1 ? (d1 as RequestDatabase) : requestDatabase(d1);
}
