import type { Env } from '../env';
import { catalogEntriesNamed, movingStatement, placedCountsStatement, type CatalogEntry } from '../db/catalog';
import { shardMoves, shardMovesStatement, type Leftover, type MoveRecord, type ShardMoveRow } from '../db/move-state';
import { PROJECT_TABLES } from '../db/project-copy';
import { isMoving, MOVE_STALE_MS } from '../db/project-shard';
import { shardsOf, type Shard } from '../db/shards';

/**
 * The operator's view of the shards (GET /v1/admin/shards, `pincher-edge
 * shards`): stored bytes and projects per shard, the moves in flight into and
 * out of each with their progress, and the leftover copies the garbage
 * collection has still to remove. One round trip per shard, all at once: the
 * primary answers the catalog (projects per shard, the moves it holds) and its
 * own cursors in one batch; every other shard its cursors and leftovers in one
 * statement, whose D1 meta carries the stored bytes. When a shard holds a
 * cursor past the flip, one more read asks the catalog where its project is.
 */

/** A move in flight, as the catalog on the primary and the cursor on the target shard tell it. */
export interface MoveStatus {
  project: string;
  /** The move's id (the catalog's, or its cursor's once the catalog flipped); null only for a move begun before the catalog kept ids that wrote no cursor yet. A cancel given it ends only that move. */
  move: string | null;
  from: number;
  to: number;
  /** copying: the old shard answers, pushes are refused; removing: the catalog flipped, the old copy is being removed. */
  state: 'copying' | 'removing';
  /** The table being copied ('projects' last); null while removing, or before the first step wrote its cursor. */
  table: string | null;
  rows_copied: number;
  /** Rows the copy writes, counted when it began; null before the first step wrote its cursor. */
  rows_total_estimate: number | null;
  /** rows_copied of rows_total_estimate, 0–100 (100 once removing). */
  percent: number | null;
  rows_removed: number;
  steps: number;
  started_at: string | null;
  /** The last step (the newer of the catalog's heartbeat and the cursor's last write). */
  last_step_at: string | null;
  /** The catalog's heartbeat (null once the catalog flipped). */
  heartbeat_at: string | null;
  /** No step for MOVE_STALE_MS: pushes are accepted again and the next step takes it over (a step to another shard replaces it). */
  abandoned: boolean;
  /** When it counts (or counted) as abandoned if no step comes. */
  abandoned_after: string | null;
}

export interface ShardStatus {
  shard: number;
  binding: string;
  /** The database's stored bytes as D1 reports them. */
  bytes: number;
  /** Projects the catalog places on it. */
  projects: number;
  /** Projects being moved onto it, and off it. */
  moves_in: string[];
  moves_out: string[];
  /** Leftover copies (an old copy after a move, a cancelled or aborted move's partial copy) still to remove: their count, and the oldest by name. */
  leftovers: { count: number; projects: { project: string; project_id: string; since: string }[] };
}

export interface ShardsAnswer {
  shards: ShardStatus[];
  moves: MoveStatus[];
}

const iso = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString() : null);
const sum = (rows: Record<string, number>) => Object.values(rows).reduce((a, n) => a + n, 0);

interface ShardRead {
  shard: Shard;
  bytes: number;
  cursors: MoveRecord[];
  leftovers: number;
  listed: Leftover[];
}

/** Every shard's cursors, leftovers and bytes, and the catalog's counts and moves: one round trip per shard, in parallel. */
async function readShards(env: Env): Promise<{ reads: ShardRead[]; placed: Map<number, number>; claims: CatalogEntry[] }> {
  let placed = new Map<number, number>();
  let claims: CatalogEntry[] = [];
  const reads = await Promise.all(
    shardsOf(env).map(async (shard): Promise<ShardRead> => {
      if (shard.index === 0) {
        const [counts, moving, own] = await shard.db.batch([placedCountsStatement(shard.db), movingStatement(shard.db), shardMovesStatement(shard.db)]);
        placed = new Map((counts.results as { shard: number; projects: number }[]).map((r) => [r.shard, r.projects]));
        claims = moving.results as CatalogEntry[];
        return { shard, bytes: own.meta.size_after ?? 0, ...shardMoves(own.results[0] as ShardMoveRow | undefined) };
      }
      const r = await shardMovesStatement(shard.db).all<ShardMoveRow>();
      return { shard, bytes: r.meta.size_after ?? 0, ...shardMoves(r.results[0]) };
    }),
  );
  return { reads, placed, claims };
}

/** The move `cursor` (on its target) describes, with the catalog's `claim` when the catalog still holds the move. */
function moveStatus(name: string, from: number, to: number, cursor: MoveRecord | undefined, claim: CatalogEntry | undefined, now: number): MoveStatus {
  const removing = !claim;
  const copied = cursor ? sum(cursor.copied) : 0;
  const total = cursor ? Math.max(cursor.total, copied) : null;
  const last = Math.max(claim?.move_heartbeat_at ?? 0, cursor?.updated_at ?? 0) || null;
  const table = removing || !cursor ? null : cursor.table_index < PROJECT_TABLES.length ? PROJECT_TABLES[cursor.table_index].table : 'projects';
  return {
    project: name,
    move: cursor?.move_id ?? claim?.move_id ?? null,
    from,
    to,
    state: removing ? 'removing' : 'copying',
    table,
    rows_copied: copied,
    rows_total_estimate: total,
    percent: removing ? 100 : total ? Math.min(100, Math.floor((100 * copied) / total)) : null,
    rows_removed: cursor ? sum(cursor.removed) : 0,
    steps: cursor?.steps ?? 0,
    started_at: iso(cursor?.started_at),
    last_step_at: iso(last),
    heartbeat_at: iso(claim?.move_heartbeat_at),
    abandoned: claim ? !isMoving(claim, now) : (last ?? 0) < now - MOVE_STALE_MS,
    // What a step judges a move by: the catalog's heartbeat while it holds the move, the cursor's last write after the flip.
    abandoned_after: iso(claim ? (claim.move_heartbeat_at ?? 0) + MOVE_STALE_MS : last === null ? null : last + MOVE_STALE_MS),
  };
}

/** A cursor past the project row (its move flipped, or is about to). */
const pastCopy = (c: MoveRecord) => c.phase === 'removing' || c.table_index > PROJECT_TABLES.length;

/**
 * The moves in flight: every move the catalog holds (copying; its cursor on
 * the target, if a step wrote one), and every cursor past the flip whose
 * project the catalog places on that cursor's shard (`placed`: removing, the
 * old copy still to go). A cursor of a move that ended before its flip
 * (cancelled, aborted, replaced), or whose project has moved on since (a step
 * died after the flip and nothing settled it), is not a move: the garbage
 * collection drops it.
 */
function movesOf(reads: readonly ShardRead[], claims: readonly CatalogEntry[], placed: ReadonlyMap<string, number>, now: number): MoveStatus[] {
  const cursorOf = (name: string, to: number) => reads.find((r) => r.shard.index === to)?.cursors.find((c) => c.name === name);
  const out = claims.map((claim) => {
    const to = claim.moving_to as number;
    const cursor = cursorOf(claim.name, to);
    // The cursor of the move the catalog holds (not one left by an earlier move to the same shard).
    const own = cursor && cursor.from_shard === claim.shard && (claim.move_id ?? cursor.move_id) === cursor.move_id ? cursor : undefined;
    return moveStatus(claim.name, claim.shard, to, own, claim, now);
  });
  for (const { shard, cursors } of reads) {
    for (const c of cursors) {
      if (pastCopy(c) && placed.get(c.name) === shard.index && !claims.some((m) => m.name === c.name && m.moving_to === shard.index)) out.push(moveStatus(c.name, c.from_shard, shard.index, c, undefined, now));
    }
  }
  return out.sort((a, b) => a.project.localeCompare(b.project));
}

/** The shards, their moves and leftovers (see the module comment). */
export async function shardsStatus(env: Env, now = Date.now()): Promise<ShardsAnswer> {
  const { reads, placed, claims } = await readShards(env);
  // Where the catalog places the projects of cursors past the copy (one more round trip, only when there are any).
  const names = [...new Set(reads.flatMap((r) => r.cursors.filter(pastCopy).map((c) => c.name)))];
  const homes = new Map(names.length ? (await catalogEntriesNamed(shardsOf(env)[0].db, names)).map((e) => [e.name, e.shard]) : []);
  const moves = movesOf(reads, claims, homes, now);
  return {
    shards: reads.map(({ shard, bytes, leftovers, listed }) => ({
      shard: shard.index,
      binding: shard.binding,
      bytes,
      projects: placed.get(shard.index) ?? 0,
      moves_in: moves.filter((m) => m.to === shard.index).map((m) => m.project),
      moves_out: moves.filter((m) => m.from === shard.index).map((m) => m.project),
      leftovers: { count: leftovers, projects: listed.map((l) => ({ project: l.project, project_id: l.project_id, since: new Date(l.since).toISOString() })) },
    })),
    moves,
  };
}
