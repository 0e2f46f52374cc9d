import { getProjectByName, projectByNameStatement, projectRowHolds, type ProjectRow } from '../db/projects';
import type { ProjectPlacement } from '../db/project-shard';
import type { RequestDatabase } from '../db/request-database';
import { BoundedMap } from '../util/bounded-map';

/**
 * Project rows cached per isolate, by name. A cached row is never trusted on
 * its own: the call that uses it re-reads the row in its own first D1 round
 * trip (a ride-along check, src/db/request-database.ts: a condition folded
 * into a SELECT of the call's first round trip, or a statement beside it) and, when the row
 * changed (a push committed a new generation, the project was dropped or
 * recreated), the call is marked stale and the seam runs it again with the
 * fresh row. So the cache saves the lookup's round trip and never serves an
 * old generation.
 */
/** At most 256 rows; the oldest stored go first. */
const cache = new BoundedMap<string, ProjectRow>(256);

function remember(row: ProjectRow): void {
  cache.set(row.name, row);
}

/** Same row, column by column (the row is flat: numbers, strings, nulls). */
function sameRow(a: ProjectRow, b: unknown): boolean {
  if (!b || typeof b !== 'object') return false;
  const other = b as Record<string, unknown>;
  return (Object.keys(a) as (keyof ProjectRow)[]).every((k) => a[k] === other[k]);
}

/** Project lookups of one tool call (one handler run) through its request database. */
export class ProjectLookup {
  /** A cached row this call used turned out to differ from the stored one: the answer must be recomputed. */
  stale = false;
  /** After a stale run, the call looks every project up afresh. */
  private readonly bypass: boolean;
  /** `db` was chosen from the remembered shard (src/db/project-shard.ts): a missing row may mean the project moved. */
  private readonly shardRemembered: boolean;

  constructor(
    private readonly db: RequestDatabase,
    opts: { bypass?: boolean; shardRemembered?: boolean; prefetched?: ProjectPlacement['primaryRow'] } = {},
  ) {
    this.bypass = opts.bypass ?? false;
    this.shardRemembered = opts.shardRemembered ?? false;
    this.prefetched = opts.prefetched;
  }

  /** The row this call already read beside the project's catalog entry (ProjectPlacement.primaryRow, from CallDatabases.forProject): fresh, no check needed. */
  private readonly prefetched: ProjectPlacement['primaryRow'];

  /** The project named `name`: read in this call already, from the cache (checked in the call's next round trip), or from D1. */
  async byName(name: string): Promise<ProjectRow | undefined> {
    if (this.prefetched?.name === name) {
      const row = this.prefetched.row ?? undefined;
      if (row) remember(row);
      else cache.delete(name);
      return row;
    }
    const cached = this.bypass ? undefined : cache.get(name);
    if (cached) {
      this.db.rideAlong(projectByNameStatement(this.db, name), (rows) => {
        const row = rows[0] as ProjectRow | undefined;
        if (sameRow(cached, row)) return;
        this.stale = true;
        if (row) remember(row);
        else cache.delete(name);
      }, { condition: (from) => projectRowHolds(cached, from), held: () => {} });
      return cached;
    }
    const row = await getProjectByName(this.db, name);
    if (row) remember(row);
    else {
      cache.delete(name);
      // Not on the shard remembered for it: it may have moved; the seam asks the catalog and runs again.
      if (this.shardRemembered) this.stale = true;
    }
    return row;
  }
}

/** Empties the cache (tests that rewrite projects behind the server's back). */
export function forgetProjects(): void {
  cache.clear();
}
