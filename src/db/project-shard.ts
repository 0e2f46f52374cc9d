import type { Env } from '../env';
import { PincherError } from '../errors';
import { catalogEntry, placeEntry, type CatalogEntry } from './catalog';
import { getProjectByName, type ProjectRow } from './projects';
import { requestDatabase, type D1Reader, type RequestDatabase } from './request-database';
import { shardsOf, shardSizes, type Shard } from './shards';
import { BoundedMap } from '../util/bounded-map';

/**
 * The one place that answers "which D1 database holds project X" (the
 * catalog on the primary, src/db/catalog.ts), for tool calls, pushes, push
 * history, the move and the listings. Nothing else picks a database for
 * project data.
 *
 * Tool calls remember a project's shard per isolate. A remembered shard is
 * never trusted alone: the call's project row is read on that shard in the
 * call's own round trips (src/tools/project-cache.ts), and when the row is
 * missing or changed (the project moved, was dropped or re-pushed) the call
 * runs again with a fresh catalog read. Pushes and moves always read the
 * catalog afresh.
 */
const remembered = new BoundedMap<string, number>(1024);

/** Forgets every remembered shard (tests that rewrite the catalog behind the server's back). */
export function forgetShards(): void {
  remembered.clear();
}

/** A move whose heartbeat is older than this was abandoned: pushes are accepted again and a new move may start. */
export const MOVE_STALE_MS = 10 * 60 * 1000;

/** Whether `entry` is in the middle of a live move at `now`. */
export function isMoving(entry: CatalogEntry | null, now = Date.now()): boolean {
  return entry !== null && entry.moving_to !== null && (entry.move_heartbeat_at ?? 0) >= now - MOVE_STALE_MS;
}

/** The shard numbered `index` among `shards`, or shard_unavailable when the catalog names a binding this Worker lacks. */
function bound(shards: readonly Shard[], index: number, name: string): Shard {
  const shard = shards.find((s) => s.index === index);
  if (shard) return shard;
  throw new PincherError('shard_unavailable', `project '${name}' is stored on shard ${index}, which this Worker is not bound to`, {
    suggestion: `restore the D1 binding DB_SHARD_${index} in wrangler.toml and deploy again; the catalog still places the project there`,
    details: { shard: index },
  });
}

/** Where a push writes `name`, and its catalog row (null: not placed yet). Always a fresh catalog read. */
export interface ProjectHome {
  shard: Shard;
  entry: CatalogEntry | null;
}

/** Where `name` lives now (fresh catalog read); an unplaced name answers the primary, which does not hold it either. */
export async function projectHome(env: Env, name: string): Promise<ProjectHome> {
  const shards = shardsOf(env);
  const entry = await catalogEntry(env.DB, name);
  return { shard: bound(shards, entry?.shard ?? 0, name), entry };
}

/**
 * Where a push of `name` writes: its shard, or — for a new project — the shard
 * storing the fewest bytes (ties: the lowest index), recorded in the catalog
 * atomically so two pushes creating the same project at once agree.
 */
export async function placeProject(env: Env, name: string): Promise<ProjectHome> {
  const home = await projectHome(env, name);
  if (home.entry) return home;
  const shards = shardsOf(env);
  const open = placementShards(env, shards);
  const target = open.length === 1 ? open[0] : leastFilled(await shardSizes(open));
  const entry = await placeEntry(env.DB, name, target.index, Date.now());
  return { shard: bound(shards, entry.shard, name), entry };
}

/** The shards new projects may go to: PINCHER_PLACE_SHARDS (indexes, comma-separated) when it names any bound shard, else every shard. */
export function placementShards(env: Env, shards: readonly Shard[]): Shard[] {
  const wanted = new Set((env.PINCHER_PLACE_SHARDS ?? '').split(',').map((v) => v.trim()).filter((v) => /^\d+$/.test(v)).map(Number));
  const open = shards.filter((s) => wanted.has(s.index));
  return open.length ? open : [...shards];
}

function leastFilled(sizes: { shard: Shard; bytes: number }[]): Shard {
  return sizes.reduce((best, s) => (s.bytes < best.bytes || (s.bytes === best.bytes && s.shard.index < best.shard.index) ? s : best)).shard;
}

/** A client bookmark names its shard: `N~bookmark` for shard N ≥ 1, the bare D1 bookmark for the primary. */
export function encodeBookmark(shard: number, bookmark: string | null): string | null {
  if (bookmark === null) return null;
  return shard === 0 ? bookmark : `${shard}~${bookmark}`;
}

/**
 * A client's bookmarks, one per shard: entries `bookmark` (the primary) and
 * `N~bookmark` joined by commas. Each shard replicates on its own, so a
 * client that read several keeps the latest of each. An entry that is not a
 * bookmark is dropped; of two for one shard the greater (the later) is kept.
 */
export type Bookmarks = ReadonlyMap<number, string>;

export function decodeBookmarks(value: string | undefined | null): Map<number, string> {
  const out = new Map<number, string>();
  if (!value) return out;
  for (const entry of value.split(',')) {
    const m = /^(?:([1-9]\d{0,3})~)?([^,~]+)$/.exec(entry.trim());
    if (!m) continue;
    const shard = m[1] === undefined ? 0 : Number(m[1]);
    const held = out.get(shard);
    if (held === undefined || m[2] > held) out.set(shard, m[2]);
  }
  return out;
}

/** `bookmarks` as one header value, by shard; null when there are none. */
export function encodeBookmarks(bookmarks: Bookmarks): string | null {
  if (bookmarks.size === 0) return null;
  return [...bookmarks.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([shard, b]) => encodeBookmark(shard, b))
    .join(',');
}

/** The latest bookmark of each shard over several header values (D1 bookmarks sort oldest first). */
export function mergeBookmarks(values: readonly (string | null)[]): string | null {
  const out = new Map<number, string>();
  for (const v of values) {
    for (const [shard, b] of decodeBookmarks(v)) {
      const held = out.get(shard);
      if (held === undefined || b > held) out.set(shard, b);
    }
  }
  return encodeBookmarks(out);
}

/** What CallDatabases.forProject found. */
export interface ProjectPlacement {
  /** The request database of the project's shard. */
  db: RequestDatabase;
  /** The shard came from the per-isolate memory, not the catalog: a missing project row there may mean it moved. */
  fromMemory: boolean;
  /**
   * The project's row as read beside the catalog entry (`withRow`), when the catalog puts the project on the
   * primary (null: no such row there); undefined when it was not read.
   */
  primaryRow: { name: string; row: ProjectRow | null } | undefined;
}

/**
 * The databases of one tool call: a read session per shard it touches
 * (opened at the client's bookmark on the shard the bookmark came from, else
 * wherever is nearest), each behind a round-trip-counting request database.
 * The primary's serves the catalog and the server-wide tables.
 */
export class CallDatabases {
  private readonly sessions = new Map<number, { session: D1DatabaseSession; db: RequestDatabase }>();
  private readonly shards: readonly Shard[];
  private readonly bookmarks: Map<number, string>;
  /** The shard of the call's project (whose bookmark the response carries); the primary until one resolves. */
  private home = 0;
  constructor(
    env: Env,
    bookmark: string | undefined,
    private readonly wrap: (session: D1Reader) => D1Reader = (s) => s,
  ) {
    this.shards = shardsOf(env);
    this.bookmarks = decodeBookmarks(bookmark);
  }

  /** Every shard of the deployment. */
  get all(): readonly Shard[] {
    return this.shards;
  }

  /** The request database of `shard` for this call. */
  on(shard: number): RequestDatabase {
    let open = this.sessions.get(shard);
    if (!open) {
      const binding = bound(this.shards, shard, `#${shard}`);
      const session = binding.db.withSession(this.bookmarks.get(shard) ?? 'first-unconstrained');
      open = { session, db: requestDatabase(this.wrap(session)) };
      this.sessions.set(shard, open);
    }
    return open.db;
  }

  /** The primary's request database (catalog, call log, session credits). */
  primary(): RequestDatabase {
    return this.on(0);
  }

  /**
   * Where project `name` is: the request database holding it (the primary
   * when no name is given or the name is not placed). `fresh` skips the
   * per-isolate memory.
   */
  async forProject(name: string | undefined, fresh: boolean, withRow = false): Promise<ProjectPlacement> {
    if (!name) return { db: this.primary(), fromMemory: false, primaryRow: undefined };
    let shard = fresh ? undefined : remembered.get(name);
    const fromMemory = shard !== undefined;
    let primaryRow: ProjectPlacement['primaryRow'];
    if (shard === undefined) {
      // With `withRow`, the project's row is read in the catalog's round trip: the catalog is on the primary, where
      // most projects are (every one with a single database), so a cold call reads both at once instead of one after
      // the other. On another shard the row is read there, as before.
      const primary = this.primary();
      const [entry, row] = await Promise.all([catalogEntry(primary, name), withRow ? getProjectByName(primary, name) : undefined]);
      shard = entry?.shard ?? 0;
      if (entry) remembered.set(name, shard);
      else remembered.delete(name);
      if (withRow && shard === 0) primaryRow = { name, row: row ?? null };
    }
    bound(this.shards, shard, name);
    this.home = shard;
    return { db: this.on(shard), fromMemory, primaryRow };
  }

  /** D1 round trips across every shard this call touched. */
  get roundTrips(): number {
    let n = 0;
    for (const { db } of this.sessions.values()) n += db.roundTrips;
    return n;
  }

  /** SQL statements across every shard this call touched. */
  get statements(): number {
    let n = 0;
    for (const { db } of this.sessions.values()) n += db.statements;
    return n;
  }

  /**
   * The bookmarks to hand back: per shard, the latest of the client's and the
   * one this call's reads reached, so a client that keeps the last value it
   * got never reads an older state of any shard. Null when there are none.
   */
  getBookmark(): string | null {
    const out = new Map(this.bookmarks);
    for (const [shard, { session }] of this.sessions) {
      const reached = session.getBookmark();
      const held = out.get(shard);
      if (reached !== null && (held === undefined || reached > held)) out.set(shard, reached);
    }
    return encodeBookmarks(out);
  }
}

/** Where one push writes: the project's shard, and the primary for the server-wide rows (events). */
export interface PushTarget {
  project: string;
  shard: number;
  db: D1Database;
  primary: D1Database;
}

function movingError(name: string, entry: CatalogEntry): PincherError {
  return new PincherError('project_moving', `project '${name}' is being moved from shard ${entry.shard} to shard ${entry.moving_to}; pushes wait until the move completes`, {
    suggestion: 'push again in a minute: reads keep working during the move, and the push goes to the new shard once it completes (GET /v1/admin/shards lists moves in progress)',
    details: { shard: entry.shard, moving_to: entry.moving_to },
  });
}

/**
 * Where a push of `name` writes. `place` (opening a push) places a project not
 * placed yet (placeProject). A project in the middle of a move refuses pushes
 * with project_moving, so a commit never races the copy; `abandon` (aborting
 * an upload, which changes no index) is let through.
 */
export async function pushTarget(env: Env, name: string, opts: { place: boolean; abandon?: boolean }): Promise<PushTarget> {
  const home = opts.place ? await placeProject(env, name) : await projectHome(env, name);
  if (home.entry && isMoving(home.entry) && !opts.abandon) throw movingError(name, home.entry);
  return { project: name, shard: home.shard.index, db: home.shard.db, primary: env.DB };
}

/** Refuses a commit of `target` when a move began after its push opened (the catalog is read again, on the primary). */
export async function refuseWhileMoving(target: PushTarget): Promise<void> {
  const entry = await catalogEntry(target.primary, target.project);
  if (entry && (isMoving(entry) || entry.shard !== target.shard)) throw movingError(target.project, entry);
}
