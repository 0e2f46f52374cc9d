import { allRows } from './client';

/**
 * The project → shard catalog (`project_shards`, read on the primary only;
 * src/db/shards.ts explains shards). These statements are the only SQL that
 * touches it.
 */
export interface CatalogEntry {
  name: string;
  shard: number;
  moving_to: number | null;
  move_heartbeat_at: number | null;
  /** The id of the move `moving_to` names (null on a move begun before the catalog kept ids). */
  move_id: string | null;
}

const COLUMNS = 'name, shard, moving_to, move_heartbeat_at, move_id';

/** The catalog row of `name`, or null when no project of that name was ever placed. */
export async function catalogEntry(primary: Pick<D1Database, 'prepare'>, name: string): Promise<CatalogEntry | null> {
  return primary.prepare(`SELECT ${COLUMNS} FROM project_shards WHERE name = ?1`).bind(name).first<CatalogEntry>();
}

/** Every catalog row (a few hundred bytes per project), for listings across shards. */
export function catalogEntries(primary: D1Database): Promise<CatalogEntry[]> {
  return allRows<CatalogEntry>(primary.prepare(`SELECT ${COLUMNS} FROM project_shards ORDER BY name`));
}

/**
 * Places `name` on `shard` unless it is placed already, and answers where it
 * lives, in one atomic batch: of two pushes creating the same project at once,
 * one inserts and both read the same row. A project the primary already holds
 * without a catalog row (stored before the catalog existed) stays on shard 0.
 */
export async function placeEntry(primary: D1Database, name: string, shard: number, now: number): Promise<CatalogEntry> {
  const [, read] = await primary.batch([
    primary
      .prepare(
        'INSERT INTO project_shards (name, shard, placed_at) SELECT ?1, CASE WHEN EXISTS (SELECT 1 FROM projects WHERE name = ?1) THEN 0 ELSE ?2 END, ?3 ON CONFLICT (name) DO NOTHING',
      )
      .bind(name, shard, now),
    primary.prepare(`SELECT ${COLUMNS} FROM project_shards WHERE name = ?1`).bind(name),
  ]);
  return read.results[0] as CatalogEntry;
}

/**
 * Marks `name` as moving from `from` to `to` as move `moveId`, and answers the
 * id of the move the catalog now holds; null when the project is not on `from`
 * or a move to another shard is alive (its heartbeat is newer than `staleBefore`).
 * A move to `to` already marked (alive or abandoned) is marked again and keeps
 * its id: every step to the same shard steps the one move (a step restarting
 * its copy, or taking over an abandoned one).
 */
export async function beginMove(primary: D1Database, name: string, from: number, to: number, moveId: string, now: number, staleBefore: number): Promise<string | null> {
  const row = await primary
    .prepare(
      `UPDATE project_shards SET move_id = CASE WHEN moving_to = ?3 AND move_id IS NOT NULL THEN move_id ELSE ?6 END, moving_to = ?3, move_heartbeat_at = ?4
       WHERE name = ?1 AND shard = ?2 AND (moving_to IS NULL OR moving_to = ?3 OR move_heartbeat_at < ?5) RETURNING move_id`,
    )
    .bind(name, from, to, now, staleBefore, moveId)
    .first<{ move_id: string }>();
  return row?.move_id ?? null;
}

/**
 * The condition (SQL) that the catalog's move is move ?`param`, or a move
 * begun before the catalog recorded ids (null: a new move always records one).
 */
const isMove = (param: string) => `(move_id = ${param} OR move_id IS NULL)`;

/**
 * Renews the heartbeat of move `moveId` to `to` (recording its id on a move
 * begun before the catalog kept ids); false when the catalog no longer holds
 * that move (cancelled, flipped, or replaced).
 */
export async function touchMove(primary: D1Database, name: string, to: number, moveId: string, now: number): Promise<boolean> {
  const r = await primary
    .prepare(`UPDATE project_shards SET move_heartbeat_at = ?3, move_id = ?4 WHERE name = ?1 AND moving_to = ?2 AND ${isMove('?4')}`)
    .bind(name, to, now, moveId)
    .run();
  return r.meta.changes > 0;
}

/** The flip: one statement moves `name` from `from` to `to` and ends move `moveId`; false when the catalog's move is not that one. */
export async function finishMove(primary: D1Database, name: string, from: number, to: number, moveId: string): Promise<boolean> {
  const r = await primary
    .prepare(`UPDATE project_shards SET shard = ?3, moving_to = NULL, move_heartbeat_at = NULL, move_id = NULL WHERE name = ?1 AND shard = ?2 AND moving_to = ?3 AND ${isMove('?4')}`)
    .bind(name, from, to, moveId)
    .run();
  return r.meta.changes > 0;
}

/**
 * Ends move `moveId` to `to` without flipping (cancelled, or the copy failed);
 * false when the catalog holds no such move (flipped, ended, or another move
 * begun since). `moveId` null: the move begun before the catalog kept ids
 * (and only while its id is still unrecorded).
 */
export async function cancelMove(primary: D1Database, name: string, to: number, moveId: string | null): Promise<boolean> {
  const r = await primary
    .prepare(`UPDATE project_shards SET moving_to = NULL, move_heartbeat_at = NULL, move_id = NULL WHERE name = ?1 AND moving_to = ?2 AND ${moveId === null ? 'move_id IS NULL' : isMove('?3')}`)
    .bind(name, to, moveId)
    .run();
  return r.meta.changes > 0;
}

/** The catalog rows of `names` (any order; names never placed are absent). */
export function catalogEntriesNamed(primary: D1Database, names: readonly string[]): Promise<CatalogEntry[]> {
  return allRows<CatalogEntry>(primary.prepare(`SELECT ${COLUMNS} FROM project_shards WHERE name IN (SELECT value FROM json_each(?1))`).bind(JSON.stringify(names)));
}

/** Projects the catalog places on each shard. */
export function placedCountsStatement(primary: D1Database): D1PreparedStatement {
  return primary.prepare('SELECT shard, count(*) AS projects FROM project_shards GROUP BY shard');
}

/** The catalog's moves (live or abandoned): project, shard, target and heartbeat. */
export function movingStatement(primary: D1Database): D1PreparedStatement {
  return primary.prepare(`SELECT ${COLUMNS} FROM project_shards WHERE moving_to IS NOT NULL ORDER BY name`);
}
