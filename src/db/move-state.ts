/**
 * A resumable move's durable state (src/shards/move.ts): its cursor
 * (`project_moves`, on the move's target shard, advanced in the same batch as
 * the page it counts) and the leftover copies a shard holds
 * (`shard_leftovers`). These statements are the only SQL that touches either.
 */

/**
 * The D1 queries one move step may still make. D1 caps the queries of one
 * Worker invocation (1,000 on Workers Paid, 50 on Free); a step counts every
 * statement it sends, a batch's one by one, and stops at its budget or its
 * deadline (CPU and wall time are bounded too).
 */
export class QueryBudget {
  spent = 0;
  /**
   * @param limit queries in all
   * @param deadline epoch ms after which no more work starts
   * @param reserve queries kept back for the step's closing write (its cursor or answer record)
   */
  constructor(
    readonly limit: number,
    private readonly deadline: number,
    private readonly reserve = 1,
  ) {}

  /** Queries left for work (the reserve not counted). */
  get left(): number {
    return this.limit - this.reserve - this.spent;
  }

  /** Whether `n` more queries fit the budget (keeping the reserve) and the step's time is not up. */
  fits(n: number): boolean {
    return this.spent + n + this.reserve <= this.limit && Date.now() < this.deadline;
  }

  /** Whether `n` more queries fit the budget, the reserve included (what a step may still send once its closing write is spent or failed). */
  room(n: number): boolean {
    return this.spent + n <= this.limit;
  }

  /** Counts `n` queries about to be sent. */
  spend(n = 1): void {
    this.spent += n;
  }

  first<T>(stmt: D1PreparedStatement): Promise<T | null> {
    this.spent++;
    return stmt.first<T>();
  }

  async all<T>(stmt: D1PreparedStatement): Promise<T[]> {
    this.spent++;
    return (await stmt.all<T>()).results;
  }

  async changes(stmt: D1PreparedStatement): Promise<number> {
    this.spent++;
    return (await stmt.run()).meta.changes;
  }

  batch(db: D1Database, stmts: D1PreparedStatement[]): Promise<D1Result[]> {
    this.spent += stmts.length;
    return db.batch(stmts);
  }
}

/** copying, removing (after the flip), or FINISHED (the record of a finished move). */
export type MovePhase = 'copying' | 'removing' | typeof FINISHED;

/** One row of `project_moves`, its JSON columns parsed. */
export interface MoveRecord {
  name: string;
  move_id: string;
  project_id: string;
  from_shard: number;
  to_shard: number;
  version: string;
  phase: MovePhase;
  table_index: number;
  after_rowid: number;
  copied: Record<string, number>;
  removed: Record<string, number>;
  total: number;
  steps: number;
  started_at: number;
  updated_at: number;
}

type RawRecord = Omit<MoveRecord, 'copied' | 'removed'> & { copied: string; removed: string };

/**
 * The phase of a finished move's record: once the old copy is gone (or listed
 * for the garbage collection) the cursor is kept as this record of the move,
 * so a retry of its last step (its answer lost) is answered `moved` again, and
 * a late step of an earlier move into the same shard sees that a later move
 * came (markLeftover). The garbage collection forgets it after FINISHED_MOVE_MS.
 */
export const FINISHED = 'moved' as const;

/** How long a finished move's record is kept (a retry with its move id is answered `moved` until then). */
export const FINISHED_MOVE_MS = 24 * 60 * 60 * 1000;

/**
 * The record of `name` on `target`, whatever its phase: the move in flight
 * (`rec`), or the last finished move into `target` (`finished`). A shard holds
 * one record per project (`name` is the key).
 */
export async function readMoveOrFinished(target: D1Database, budget: QueryBudget, name: string): Promise<TargetRead> {
  return split(await budget.first<RawRecord>(target.prepare('SELECT * FROM project_moves WHERE name = ?1').bind(name)));
}

/** The move of `name` to the shard `target` is (in flight, or flipped and removing the old copy), or null. */
export async function readMove(target: D1Database, budget: QueryBudget, name: string): Promise<MoveRecord | null> {
  return (await readMoveOrFinished(target, budget, name)).rec;
}

/** Whether a move id of another project is already on `target` (a client reusing its id for a second project). */
export async function moveIdTaken(target: D1Database, budget: QueryBudget, name: string, moveId: string): Promise<boolean> {
  return (await budget.first(target.prepare('SELECT 1 FROM project_moves WHERE move_id = ?1 AND name <> ?2').bind(moveId, name))) !== null;
}

const parsed = (raw: RawRecord): MoveRecord => ({ ...raw, copied: JSON.parse(raw.copied), removed: JSON.parse(raw.removed) });

/**
 * Registers as a leftover of `target` every copy it holds of `projectId` or named `name` that a new copy must not meet
 * (with `only`, only where its SQL over ?1 the project id, ?2 the name and ?4 its `param` holds).
 */
function leftoverStatements(target: D1Database, projectId: string, name: string, now: number, only?: { sql: string; param: string }): D1PreparedStatement[] {
  const holds = ['projects WHERE id = ?1', ...['files', 'symbols', 'edges', 'edge_ends', 'adrs', 'project_aggregates', 'uploads'].map((t) => `${t} WHERE project_id = ?1`)]
    .map((from) => `EXISTS (SELECT 1 FROM ${from})`)
    .join(' OR ');
  return [
    'SELECT project_id, name, ?3 FROM project_moves WHERE name = ?2 AND project_id <> ?1',
    'SELECT id, name, ?3 FROM projects WHERE name = ?2 AND id <> ?1',
    `SELECT ?1, ?2, ?3 WHERE (${holds})`,
  ].map((select) => {
    const stmt = target.prepare(`INSERT OR IGNORE INTO shard_leftovers (project_id, name, since) ${select}${only ? ` AND ${only.sql}` : ''}`);
    return only ? stmt.bind(projectId, name, now, only.param) : stmt.bind(projectId, name, now);
  });
}

/** `rec`'s move id as an SQL literal (a page's inserts bind only their rows). */
function idLiteral(rec: Pick<MoveRecord, 'move_id'>): string {
  if (!/^[0-9a-f]{32}$/.test(rec.move_id)) throw new Error('move id is not hex');
  return `'${rec.move_id}'`;
}

/**
 * The condition (SQL) that `rec`'s cursor may start on the target: the record
 * of the project there (`name`; `id` the move id, both parameters) is neither this move's (another
 * step of it started the cursor first: the caller joins it, whatever it holds)
 * nor that of a move begun after this one (this step's move was let go of by
 * the catalog meanwhile, and the target may hold the live copy of that later
 * move).
 */
function mayStart(rec: MoveRecord, name: string, id: string): string {
  return `NOT EXISTS (SELECT 1 FROM project_moves WHERE name = ${name} AND (move_id = ${id} OR started_at > ${Math.trunc(rec.started_at)}))`;
}

/** The record of a project on a move's target: in flight (`rec`), or a finished move's. */
export interface TargetRead {
  rec: MoveRecord | null;
  finished: MoveRecord | null;
}

const split = (raw: RawRecord | undefined | null): TargetRead => {
  const rec = raw ? parsed(raw) : null;
  return rec?.phase === FINISHED ? { rec: null, finished: rec } : { rec, finished: null };
};

/**
 * Starts (or restarts) the copy of `rec` on `target`, in one batch that also
 * reads the record back: whatever the target holds of the project (an earlier
 * copy, a leftover) is marked a leftover to remove first, and the cursor is
 * set at the first table. A step of an earlier move of the same name loses its
 * cursor and writes nothing more. Nothing is written while the target holds
 * this move's record already (another step of the move started it: `started`
 * is false and the caller goes on from it, or finds the move finished) or a
 * later move's (mayStart).
 */
export async function startMove(target: D1Database, budget: QueryBudget, rec: MoveRecord): Promise<TargetRead & { started: boolean }> {
  const results = await budget.batch(target, [
    ...leftoverStatements(target, rec.project_id, rec.name, rec.started_at, { sql: mayStart(rec, '?2', '?4'), param: rec.move_id }),
    target
      .prepare(
        `INSERT OR REPLACE INTO project_moves (name, move_id, project_id, from_shard, to_shard, version, phase, table_index, after_rowid, copied, removed, total, steps, started_at, updated_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15 WHERE ${mayStart(rec, '?1', '?2')}
           AND NOT EXISTS (SELECT 1 FROM project_moves WHERE move_id = ?2 AND name <> ?1)`,
      )
      .bind(rec.name, rec.move_id, rec.project_id, rec.from_shard, rec.to_shard, rec.version, rec.phase, rec.table_index, rec.after_rowid, JSON.stringify(rec.copied), JSON.stringify(rec.removed), rec.total, rec.steps, rec.started_at, rec.updated_at),
    target.prepare('SELECT * FROM project_moves WHERE name = ?1').bind(rec.name),
  ]);
  return { started: results[results.length - 2].meta.changes > 0, ...split(results[results.length - 1].results[0] as RawRecord | undefined) };
}

/**
 * Ends the copy of `name` on `target` without a flip (cancelled, or an
 * abandoned move replaced): the partial copy becomes a leftover and the
 * cursor goes, in one batch, so no step of that move writes another row. With
 * `moveId`, only that move's: nothing is listed or dropped while the target
 * holds the record of another move (one begun since, or its copy).
 */
export async function dropMove(target: D1Database, budget: QueryBudget, name: string, projectId: string, now: number, moveId: string | null): Promise<void> {
  const only = moveId === null ? undefined : { sql: 'NOT EXISTS (SELECT 1 FROM project_moves WHERE name = ?2 AND move_id <> ?4)', param: moveId };
  const drop = target.prepare(`DELETE FROM project_moves WHERE name = ?1${moveId === null ? '' : ' AND move_id = ?2'}`).bind(...(moveId === null ? [name] : [name, moveId]));
  await budget.batch(target, [...leftoverStatements(target, projectId, name, now, only), drop]);
}

/** The statement advancing `rec`'s cursor from where `rec` says it is; it changes no row when another step moved it first. */
export function advanceStatement(target: D1Database, rec: MoveRecord, next: { table_index: number; after_rowid: number; copied: Record<string, number> }, now: number): D1PreparedStatement {
  return target
    .prepare(
      'UPDATE project_moves SET table_index = ?3, after_rowid = ?4, copied = ?5, updated_at = ?6 WHERE name = ?1 AND move_id = ?2 AND table_index = ?7 AND after_rowid = ?8',
    )
    .bind(rec.name, rec.move_id, next.table_index, next.after_rowid, JSON.stringify(next.copied), now, rec.table_index, rec.after_rowid);
}

/** The condition (SQL, no parameters) that `rec`'s cursor is still where `rec` says: a page's inserts carry it, so a stale step inserts nothing. */
export function cursorHolds(rec: MoveRecord): string {
  return `EXISTS (SELECT 1 FROM project_moves WHERE move_id = ${idLiteral(rec)} AND table_index = ${Math.trunc(rec.table_index)} AND after_rowid = ${Math.trunc(rec.after_rowid)})`;
}

/** The SQL adding the counts of the JSON parameter `param` to `removed`, table by table. */
const addRemoved = (param: string) =>
  `(SELECT coalesce(json_group_object(key, n), '{}') FROM (SELECT key, sum(value) AS n FROM (SELECT key, value FROM json_each(project_moves.removed) UNION ALL SELECT key, value FROM json_each(${param})) GROUP BY key))`;

/**
 * Counts a step of `rec`'s move and answers the record of the project on the
 * target as it now stands, in one statement: `counted` when it is still this
 * move's (another step may have advanced it meanwhile), else the record of
 * whatever is there (the move finished by another step, or another move's
 * cursor; nothing when the cursor went), which is left as it was. `removed`
 * adds the rows this step removed to what the record holds (two steps removing
 * at once both count), and the phase only goes forward (a step that copied
 * while another flipped does not set it back to copying).
 */
export async function recordStep(target: D1Database, budget: QueryBudget, rec: Pick<MoveRecord, 'name' | 'move_id' | 'phase'>, removed: Record<string, number>, now: number): Promise<TargetRead & { counted: boolean }> {
  const ours = `(move_id = ?2 AND phase <> '${FINISHED}')`;
  const raw = await budget.first<RawRecord & { counted: number }>(
    target
      .prepare(
        `UPDATE project_moves SET phase = CASE WHEN NOT ${ours} OR phase = 'removing' THEN phase ELSE ?3 END,
           removed = CASE WHEN ${ours} THEN ${addRemoved('?4')} ELSE removed END,
           steps = steps + ${ours}, updated_at = CASE WHEN ${ours} THEN ?5 ELSE updated_at END
         WHERE name = ?1 RETURNING *, ${ours} AS counted`,
      )
      .bind(rec.name, rec.move_id, rec.phase, JSON.stringify(removed), now),
  );
  if (!raw) return { counted: false, rec: null, finished: null };
  const { counted, ...record } = raw;
  return { counted: counted === 1, ...split(record) };
}

/**
 * Ends a move whose old copy is gone (or listed for removal): its record
 * becomes the finished move's (FINISHED), with this step counted and its
 * removals added, and is answered as it now stands (null when another step
 * ended it first, or the move is no longer this one).
 */
export async function finishRecord(target: D1Database, budget: QueryBudget, name: string, moveId: string, removed: Record<string, number>, now: number): Promise<MoveRecord | null> {
  const raw = await budget.first<RawRecord>(
    target
      .prepare(
        `UPDATE project_moves SET phase = '${FINISHED}', removed = ${addRemoved('?3')}, steps = steps + 1, updated_at = ?4 WHERE name = ?1 AND move_id = ?2 AND phase <> '${FINISHED}' RETURNING *`,
      )
      .bind(name, moveId, JSON.stringify(removed), now),
  );
  return raw ? parsed(raw) : null;
}

/**
 * Ends the record of a move that is over without leaving a finished move
 * (cancelled, aborted, or ended before its flip by a step that died, or whose
 * project has moved on since): in one batch
 * guarded by its move id (a move begun since replaced the record and is left
 * alone), whatever `target` holds of the project becomes a leftover (the
 * catalog no longer places it there) and the record goes. False when the
 * record was no longer that move's.
 */
export async function dropStaleMove(target: D1Database, budget: QueryBudget, rec: Pick<MoveRecord, 'name' | 'project_id' | 'move_id'>, now: number): Promise<boolean> {
  const results = await budget.batch(target, [
    ...leftoverStatements(target, rec.project_id, rec.name, now, { sql: 'EXISTS (SELECT 1 FROM project_moves WHERE name = ?2 AND move_id = ?4)', param: rec.move_id }),
    target.prepare('DELETE FROM project_moves WHERE name = ?1 AND move_id = ?2').bind(rec.name, rec.move_id),
  ]);
  return results[results.length - 1].meta.changes > 0;
}

/** Cursors on a shard no step wrote since `before` (oldest first), for the garbage collection to settle. */
export async function staleCursors(d1: D1Database, budget: QueryBudget, before: number, limit: number): Promise<MoveRecord[]> {
  const raws = await budget.all<RawRecord>(d1.prepare(`SELECT * FROM project_moves WHERE phase <> '${FINISHED}' AND updated_at < ?1 ORDER BY updated_at LIMIT ?2`).bind(before, limit));
  return raws.map(parsed);
}

/** Forgets the records of moves finished before `before`; the rows deleted. */
export async function forgetFinished(d1: D1Database, budget: QueryBudget, before: number): Promise<number> {
  return budget.changes(d1.prepare(`DELETE FROM project_moves WHERE phase = '${FINISHED}' AND updated_at < ?1`).bind(before));
}

/**
 * Marks the old copy on `d1` after `move` flipped as a leftover to remove,
 * and deletes its `projects` row in the same batch: a reader that remembered
 * this shard finds no row there and reads the catalog again. Nothing is
 * marked while `d1` holds the cursor or the finished record of a later move
 * back into it (from the move's target or any other shard): that move dealt
 * with the old copy when it began, and what `d1` holds now is its copy (the
 * live one once it finished). Returns the `projects` rows deleted.
 */
export async function markLeftover(d1: D1Database, budget: QueryBudget, move: Pick<MoveRecord, 'project_id' | 'name' | 'started_at'>, now: number): Promise<number> {
  const noMoveBack = 'NOT EXISTS (SELECT 1 FROM project_moves WHERE name = ?2 AND started_at > ?3)';
  const [, deleted] = await budget.batch(d1, [
    d1.prepare(`INSERT OR IGNORE INTO shard_leftovers (project_id, name, since) SELECT ?1, ?2, ?4 WHERE ${noMoveBack}`).bind(move.project_id, move.name, move.started_at, now),
    d1.prepare(`DELETE FROM projects WHERE id = ?1 AND ${noMoveBack}`).bind(move.project_id, move.name, move.started_at),
  ]);
  return deleted.meta.changes;
}

/** Leftovers a shard's status names at most (the count covers them all). */
export const LISTED_LEFTOVERS = 20;

/** What a shard holds of moves, in one row: every cursor on it (JSON), and its leftovers (count, oldest first). */
export interface ShardMoveRow {
  moves: string;
  leftovers: number;
  leftover_list: string;
}

/** A leftover copy a shard still holds (removed by the move's steps or the garbage collection). */
export interface Leftover {
  project: string;
  project_id: string;
  since: number;
}

/**
 * One statement reading a shard's move cursors and leftovers, for the
 * operator's listing (GET /v1/admin/shards): its D1 meta also carries the
 * database's stored bytes, so a shard costs the listing one round trip.
 */
export function shardMovesStatement(d1: D1Database): D1PreparedStatement {
  const fields = ['name', 'move_id', 'project_id', 'from_shard', 'to_shard', 'version', 'phase', 'table_index', 'after_rowid', 'total', 'steps', 'started_at', 'updated_at'];
  const cursor = `json_object(${fields.map((f) => `'${f}', ${f}`).join(', ')}, 'copied', json(copied), 'removed', json(removed))`;
  return d1.prepare(
    `SELECT (SELECT json_group_array(${cursor}) FROM project_moves WHERE phase <> '${FINISHED}') AS moves, (SELECT count(*) FROM shard_leftovers) AS leftovers,
       (SELECT json_group_array(json_object('project', name, 'project_id', project_id, 'since', since)) FROM (SELECT name, project_id, since FROM shard_leftovers ORDER BY since LIMIT ${LISTED_LEFTOVERS})) AS leftover_list`,
  );
}

/** Parses a row of shardMovesStatement. */
export function shardMoves(row: ShardMoveRow | undefined): { cursors: MoveRecord[]; leftovers: number; listed: Leftover[] } {
  if (!row) return { cursors: [], leftovers: 0, listed: [] };
  return { cursors: JSON.parse(row.moves) as MoveRecord[], leftovers: row.leftovers, listed: JSON.parse(row.leftover_list) as Leftover[] };
}
