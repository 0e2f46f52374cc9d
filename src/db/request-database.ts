/**
 * The D1 handle of one tool call. It does three things the statements
 * themselves cannot:
 *
 * - counts D1 round trips: each request the handle sends to D1 (one
 *   statement, or one batch however many statements it holds) is one;
 * - coalesces: statements issued together (`Promise.all` of reads, or
 *   several `batch` calls in flight) go to D1 as one batch, so a handler
 *   that asks for what it needs at once pays one round trip;
 * - lets a check ride along with the next round trip (`rideAlong`):
 *   validating a cached row costs no round trip of its own. A check that can
 *   be said as a SQL condition is folded into one SELECT of the trip
 *   (`foldChecks`), so the trip sends no statement more; otherwise it goes
 *   as a statement of its own in the same batch. Either way it sees the same
 *   database state as the statements it rode with (a batch is one
 *   transaction).
 *
 * When a combined batch fails (one bad statement fails a D1 batch whole),
 * each part runs again on its own, so every caller gets its own statement's
 * answer or error exactly as without the handle.
 *
 * Reads may go to a D1 Sessions API session (`withSession`): the handle only
 * needs `prepare` and `batch`, which sessions and bindings both have.
 */

import { literalLimits } from './limit-literals';
import { BoundedMap } from '../util/bounded-map';

/** What the handle needs of D1: a binding or a session. */
export type D1Reader = Pick<D1Database, 'prepare' | 'batch'>;

/** A D1Database whose round trips are counted and which carries ride-along checks. */
export interface RequestDatabase extends D1Database {
  /** D1 round trips made through this handle so far. */
  readonly roundTrips: number;
  /** SQL statements those round trips executed (a batch counts each of its statements). */
  readonly statements: number;
  /**
   * Runs `statement` with the next round trip (or on `flush`) and hands its
   * rows to `settle`. Several checks may wait; they all ride together. With
   * `fold`, the check may instead travel as a condition inside a SELECT of
   * the trip: `held` is then called when the condition held, and when it
   * did not the trip is sent again with `statement` beside it.
   */
  rideAlong(statement: D1PreparedStatement, settle: (rows: unknown[]) => void, fold?: Fold, opts?: RideOptions): void;
  /** Runs the pending ride-along checks on their own (one round trip); nothing when none is pending (an optional one is dropped). */
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

/**
 * A check said as a SQL condition, to be folded into another statement:
 * `condition(from)` is SQL that is true exactly when the check passes (its
 * parameters numbered from `?from`, their values in order); `held` is called
 * when it did.
 */
export interface Fold {
  condition(from: number): { sql: string; values: unknown[] };
  held(): void;
}

/** How a check rides. */
export interface RideOptions {
  /**
   * Worth doing only with a round trip the call makes anyway: `flush` drops it instead of sending it on its own
   * (its caller then does without the answer, e.g. reads it itself later).
   */
  optional?: boolean;
}

/** A check waiting for the next round trip: its statement, what to do with its rows, and optionally its condition. */
interface RideAlong {
  statement: D1PreparedStatement;
  settle(rows: unknown[]): void;
  fold?: Fold;
  optional?: boolean;
}

/** D1 binds at most this many values per statement. */
const MAX_BOUND = 100;

/** What a handle remembers of a statement it prepared: its text and bound values (so a check can be folded into it). */
interface Source {
  sql: string;
  values: unknown[];
}

/** SQL the checks can be folded into: one SELECT (a leading WITH included), nothing after it. */
const FOLDABLE = /^\s*(?:SELECT|WITH)\b/i;

/** String literals and quoted identifiers: text in which no keyword or bracket counts. */
const QUOTED = /'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]/g;

/** A bracketed group holding no other: removed innermost first, it leaves the statement's top level. */
const INNERMOST_GROUP = /\([^()]*\)/g;

/**
 * Whether `sql` (one statement, nothing after it) is a SELECT that ends
 * without a LIMIT of its own at the top level: then a LIMIT can be appended
 * to it as it stands. A statement with a comment, or writing anything, is not
 * read further: it takes the subquery.
 */
function takesLimit(sql: string): boolean {
  let top = sql.replace(QUOTED, "''");
  if (/--|\/\*/.test(top)) return false;
  for (let before = ''; before !== top; ) [before, top] = [top, top.replace(INNERMOST_GROUP, ' ')];
  return !/[()]|\b(?:LIMIT|INSERT|UPDATE|DELETE|REPLACE|RETURNING)\b/i.test(top);
}

/** What foldChecks needs of a statement's text: the text without a trailing `;`, whether checks fold into it, and how. */
interface FoldShape {
  sql: string;
  /** One SELECT (a leading WITH included) and nothing after it. */
  foldable: boolean;
  /** takesLimit: the checks' LIMIT is appended, not wrapped around the statement in a subquery. */
  appendable: boolean;
}

/**
 * foldShape's answers by statement text. Working one out is several regular-expression passes over the text
 * (takesLimit strips one level of brackets per pass): tens of microseconds for a walk's 5 KB, on every call
 * that folds a check, where most texts repeat from call to call.
 */
const shapes = new BoundedMap<string, FoldShape>(256);

function foldShape(text: string): FoldShape {
  let shape = shapes.get(text);
  if (shape === undefined) {
    const sql = text.replace(/[\s;]+$/, '');
    // A `;` inside a string literal (the id range's ':;' bound, src/db/symbol-range.ts) ends nothing.
    const foldable = FOLDABLE.test(sql) && !sql.replace(QUOTED, "''").includes(';');
    shapes.set(text, (shape = { sql, foldable, appendable: foldable && takesLimit(sql) }));
  }
  return shape;
}

/**
 * `source` with every check folded in: the statement's rows unchanged when
 * all the checks hold, the error SQLite raises for a LIMIT that is not an
 * integer (`datatype mismatch`) when one does not. SQLite computes LIMIT
 * once before reading any row, so a statement with no rows checks too.
 * Null when the statement is not a lone SELECT or the parameters would pass
 * D1's limit.
 */
function foldChecks(source: Source, folds: Fold[]): Source | null {
  const { sql, foldable, appendable } = foldShape(source.sql);
  if (!foldable) return null;
  const values = [...source.values];
  const conditions: string[] = [];
  for (const f of folds) {
    const c = f.condition(values.length + 1);
    conditions.push(c.sql);
    values.push(...c.values);
  }
  if (values.length > MAX_BOUND) return null;
  const limit = `LIMIT CASE WHEN ${conditions.join(' AND ')} THEN -1 ELSE 'a ride-along check failed' END`;
  // Appended as it stands when the statement has no LIMIT of its own: SQLite prepares no subquery (a sixth
  // fewer instructions for a symbol read), and the columns keep the statement's own names.
  if (appendable) return { sql: `${sql}\n${limit}`, values };
  // The subquery keeps the statement's ORDER BY: the outer query is one table, neither a join nor ordered.
  return { sql: `SELECT * FROM (\n${sql}\n) ${limit}`, values };
}

/** Microtask turns a round trip waits for more statements: an `await` or two inside a caller still joins. */
const GATHER_TURNS = 3;

/** Text and bound values of the statements handles prepared, by the D1 statement itself. */
const sources = new WeakMap<D1PreparedStatement, Source>();

class Trips {
  count = 0;
  statements = 0;
  private queue: Part[] = [];
  private pending: RideAlong[] = [];
  private scheduled = false;

  constructor(readonly db: D1Reader) {}

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

  /** One statement (or batch) that goes to D1 alone: one round trip. */
  trip<T>(statements: number, run: () => Promise<T>): Promise<T> {
    this.count++;
    this.statements += statements;
    return run();
  }

  async flush(): Promise<void> {
    const rides = this.pending.splice(0).filter((r) => !r.optional);
    if (!rides.length) return;
    const all = await this.trip(rides.length, () => this.db.batch(rides.map((r) => r.statement)));
    rides.forEach((r, i) => r.settle(all[i].results));
  }

  private async gather(turns: number): Promise<void> {
    for (let i = 0; i < turns; i++) await Promise.resolve();
    this.scheduled = false;
    const parts = this.queue.splice(0);
    const rides = this.pending.splice(0);
    if (parts.length === 1 && rides.length === 0) {
      const [p] = parts;
      this.trip(p.statements.length, p.alone).then(p.resolve, p.reject);
      return;
    }
    if (rides.length && (await this.folded(parts, rides))) return;
    let all: D1Result[];
    try {
      all = await this.trip(rides.length + parts.reduce((n, p) => n + p.statements.length, 0), () =>
        this.db.batch([...rides.map((r) => r.statement), ...parts.flatMap((p) => p.statements)]),
      );
    } catch {
      // One part failed the batch: each part runs alone and answers for itself; the checks wait for the next trip.
      this.pending.unshift(...rides);
      for (const p of parts) this.trip(p.statements.length, p.alone).then(p.resolve, p.reject);
      return;
    }
    rides.forEach((r, i) => r.settle(all[i].results));
    answer(parts, all.slice(rides.length));
  }

  /**
   * Sends `parts` with every check of `rides` folded into one statement that
   * takes them (appended if one can be, the shortest): true when that answered them all. False, with
   * nothing answered, when a check cannot be folded, no statement takes
   * them, or the folded trip failed (a check that did not hold, or any
   * failure): the caller then sends the checks as statements of their own.
   */
  private async folded(parts: Part[], rides: RideAlong[]): Promise<boolean> {
    const folds = rides.map((r) => r.fold);
    if (!folds.every((f): f is Fold => f !== undefined)) return false;
    const statements = parts.flatMap((p) => p.statements);
    // Into a statement that takes them appended, the shortest of those, else the shortest that takes them wrapped in a
    // subquery: an appended LIMIT leaves a statement's plan as it is, where a subquery is one more to prepare and may
    // be planned into the statement (foldChecks).
    let target = -1;
    let into: Source | null = null;
    const rank = (s: Source) => [foldShape(s.sql).appendable ? 0 : 1, s.sql.length];
    let best: number[] | null = null;
    statements.forEach((s, i) => {
      const source = sources.get(s);
      if (!source) return;
      const r = rank(source);
      if (best !== null && (r[0] > best[0] || (r[0] === best[0] && r[1] >= best[1]))) return;
      const folded = foldChecks(source, folds);
      if (folded) [target, into, best] = [i, folded, r];
    });
    if (into === null) return false;
    const { sql, values } = into as Source;
    statements[target] = this.db.prepare(sql).bind(...values);
    let all: D1Result[];
    try {
      all = await this.trip(statements.length, () => (statements.length === 1 ? statements[0].all().then((r) => [r]) : this.db.batch(statements)));
    } catch {
      return false;
    }
    for (const f of folds) f.held();
    answer(parts, all);
    return true;
  }
}

/** Hands each part its own results out of a batch's, in order. */
function answer(parts: Part[], all: D1Result[]): void {
  let at = 0;
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

const unwrap = new WeakMap<object, D1PreparedStatement>();

/** The statement a handle wrapped (statements prepared elsewhere pass through). */
function inner(s: D1PreparedStatement): D1PreparedStatement {
  return unwrap.get(s) ?? s;
}

function firstOf(r: D1Result, column: string | undefined): unknown {
  const row = (r.results[0] ?? null) as Record<string, unknown> | null;
  return column === undefined || row === null ? row : (row[column] ?? null);
}

/**
 * The statement `values` bound to `source.sql`: with its integer LIMIT and
 * OFFSET values written into the text (src/db/limit-literals.ts), prepared
 * anew, so that no statement a tool sends has SQLite prepare it twice.
 */
function bindTo(db: D1Reader, real: D1PreparedStatement, sql: string, values: unknown[]): [D1PreparedStatement, Source] {
  const literal = literalLimits(sql, values);
  return literal ? [db.prepare(literal.sql).bind(...literal.values), literal] : [real.bind(...values), { sql, values }];
}

/** `prepared`: the statement as prepared, before any value was bound (binding again starts from it). */
function wrapStatement(trips: Trips, real: D1PreparedStatement, source: Source, prepared = { real, sql: source.sql }): D1PreparedStatement {
  sources.set(real, source);
  const wrapped = {
    bind: (...values: unknown[]) => {
      const [statement, bound] = bindTo(trips.db, prepared.real, prepared.sql, values);
      return wrapStatement(trips, statement, bound, prepared);
    },
    first: (column?: string) =>
      trips.send([real], ([r]) => firstOf(r, column), () => (column === undefined ? real.first() : real.first(column))),
    all: () => trips.send([real], ([r]) => r, () => real.all()),
    run: () => trips.send([real], ([r]) => r, () => real.run()),
    // raw() answers arrays a batch does not give back: it always travels alone.
    raw: (options?: { columnNames?: boolean }) => trips.trip(1, () => real.raw(options as { columnNames: true })),
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
    get statements() {
      return trips.statements;
    },
    prepare: (sql: string) => wrapStatement(trips, db.prepare(sql), { sql, values: [] }),
    batch: <T>(statements: D1PreparedStatement[]) => {
      const real = statements.map(inner);
      return trips.send(real, (rs) => rs as D1Result<T>[], () => db.batch<T>(real));
    },
    rideAlong: (statement: D1PreparedStatement, settle: (rows: unknown[]) => void, fold?: Fold, opts?: RideOptions) =>
      trips.ride({ statement: inner(statement), settle, fold, optional: opts?.optional }),
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
