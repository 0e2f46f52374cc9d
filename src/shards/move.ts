import type { Env } from '../env';
import { PincherError } from '../errors';
import { beginMove, cancelMove, catalogEntry, finishMove, placeEntry, touchMove, type CatalogEntry } from '../db/catalog';
import { dropMove, dropStaleMove, finishRecord, FINISHED_MOVE_MS, forgetFinished, markLeftover, moveIdTaken, QueryBudget, readMove, readMoveOrFinished, recordStep, staleCursors, startMove, type MoveRecord, type TargetRead } from '../db/move-state';
import { copyEstimate, copyPages, copyProjectRow, projectVersion, PROJECT_TABLES, removeLeftovers, type BeforeWrite } from '../db/project-copy';
import { forgetShards, isMoving, MOVE_STALE_MS } from '../db/project-shard';
import { getProjectByName } from '../db/projects';
import { shardAt, shardsOf, type Shard } from '../db/shards';
import { openUploadFor } from '../db/uploads';

/**
 * D1 queries one move step may make: well under the 1,000 a Worker invocation
 * may make on Workers Paid (https://developers.cloudflare.com/d1/platform/limits/),
 * leaving room for the request's own reads. PINCHER_MOVE_STEP_QUERIES lowers
 * (or raises, up to 900) it: on Workers Free (50 queries) set it to 40.
 */
export const MOVE_STEP_QUERIES = 400;
/** Wall time after which a step stops starting new pages (CPU and duration limits). */
export const MOVE_STEP_MS = 15_000;
/**
 * The fewest queries a step needs to make progress: the catalog, the cursor, the checks, one page.
 * A first step that also settles earlier moves (a died move into the source, an abandoned move
 * elsewhere) may end before its cursor starts (START_QUERIES): no step exceeds its budget.
 */
const MIN_STEP_QUERIES = 16;

/** A step's answer while the move goes on: call the same route again (`next`) until `state` is 'moved'. */
export interface MoveProgress {
  /** Rows written to the new shard so far, per table. */
  copied: Record<string, number>;
  rows_copied: number;
  /** Rows the copy will write, counted when it began (contents by distinct hash: an estimate). */
  rows_total_estimate: number;
  /** The table being copied ('projects' last), or null once the catalog flipped. */
  table: string | null;
  /** Rows removed from the old shard so far (after the flip), per table. */
  removed: Record<string, number>;
  steps: number;
  /** D1 queries this step made, and its budget. */
  queries: number;
  query_budget: number;
}

export interface MoveStepAnswer {
  project: string;
  /** The move's id: `next` carries it, and a retry of a step that finished the move, sent with it, is answered `moved` again. */
  move?: string;
  from: number;
  to: number;
  /** copying: the old shard answers every read and pushes are refused; removing: the new shard answers, the old copy is being removed; moved: done. */
  state: 'copying' | 'removing' | 'moved';
  progress: MoveProgress;
  /** The request that continues the move (absent once moved). */
  next?: { method: 'POST'; path: string; body: { shard: number; move: string } };
  /** When moved by this step: rows copied and removed per table, and the time since the move began. */
  copied?: Record<string, number>;
  removed?: Record<string, number>;
  duration_ms?: number;
  /**
   * When moved: true when another step of the same move (a retry, a second
   * client) finished it while this one ran; `progress` is then the move as
   * this step last saw it, and `copied`, `removed` and `duration_ms` are absent.
   */
  finished_by_another_step?: true;
  /**
   * When moved: the move had finished before this request came (a retry
   * carrying its move id, whose earlier answer was lost); nothing was done,
   * and `copied`, `removed` and `duration_ms` repeat the move's totals.
   */
  already_moved?: true;
}

export interface CancelAnswer {
  project: string;
  /** The shard the project stays on. */
  shard: number;
  state: 'cancelled';
  /** The shard the move was copying to, whose partial copy is removed. */
  was_moving_to: number;
  removed: Record<string, number>;
  /** False when part of the partial copy is still there: the garbage collection (or the next move to that shard) removes the rest. */
  partial_copy_removed: boolean;
}

export interface StepOptions {
  /**
   * The client's move id (32 hex digits): the id of the move it is stepping
   * (an answer's `move`), or one of its own for a new move, which the move
   * then takes. A request carrying the id of a move that finished answers
   * `moved` (`already_moved`) instead of `409 already_on_shard`.
   */
  move?: string;
  /** Test seam: the query budget of this step (default MOVE_STEP_QUERIES or PINCHER_MOVE_STEP_QUERIES). */
  queries?: number;
  /** Test seam: runs after the copy is complete and before the catalog flips. */
  beforeFlip?: () => Promise<void>;
  /** Test seam: runs between reading a page from the old shard and writing it to the new one. */
  beforeWrite?: BeforeWrite;
}

/** The step budget: PINCHER_MOVE_STEP_QUERIES when it is a whole number in [MIN_STEP_QUERIES, 900], else MOVE_STEP_QUERIES. */
export function stepQueries(env: Env, override?: number): number {
  if (override !== undefined) return override;
  const n = Number(env.PINCHER_MOVE_STEP_QUERIES ?? '');
  return Number.isInteger(n) && n >= MIN_STEP_QUERIES && n <= 900 ? n : MOVE_STEP_QUERIES;
}

const sum = (rows: Record<string, number>) => Object.values(rows).reduce((a, n) => a + n, 0);

function takenOver(name: string): PincherError {
  return new PincherError('project_moving', `the move of '${name}' was taken over by another step or cancelled`, {
    suggestion: 'GET /v1/admin/shards shows the move in progress; continue it with POST /v1/admin/projects/{project}/move',
  });
}

/** The catalog row of `name`, placing a project stored before the catalog existed on the primary. */
async function entryOf(env: Env, budget: QueryBudget, name: string): Promise<CatalogEntry> {
  budget.spend();
  let entry = await catalogEntry(env.DB, name);
  if (!entry && (await budget.first(env.DB.prepare('SELECT 1 FROM projects WHERE name = ?1').bind(name)))) {
    budget.spend(2);
    entry = await placeEntry(env.DB, name, 0, Date.now());
  }
  if (!entry) throw new PincherError('project_not_found', `no project named '${name.slice(0, 100)}'`, { suggestion: 'GET /v1/projects lists the projects this server holds' });
  return entry;
}

/**
 * One step of moving project `name` to shard `to` (docs/capacity.md). The
 * first step marks the project moving in the catalog (pushes are refused from
 * then on, reads keep going to the old shard) and starts a cursor on the
 * target; every step copies pages from the cursor on within its query budget;
 * the step that copies the last page checks that nothing committed on the old
 * shard meanwhile, copies the project row, flips the catalog in one statement
 * and starts removing the old copy, which later steps finish. A small project
 * moves in one step. A move no step touched for MOVE_STALE_MS is abandoned:
 * the next step to the same shard takes it over from its cursor (after the
 * same checks as a first step); one to another shard starts afresh.
 */
export async function moveStep(env: Env, name: string, to: number, opts: StepOptions = {}): Promise<MoveStepAnswer> {
  const started = Date.now();
  const budget = new QueryBudget(Math.max(MIN_STEP_QUERIES, stepQueries(env, opts.queries)), started + MOVE_STEP_MS);
  const target = shardAt(env, to);
  const entry = await entryOf(env, budget, name);
  const read = await readMoveOrFinished(target.db, budget, name);
  // A retry of a step that finished the move (its answer lost): the same answer again, nothing done.
  if (opts.move !== undefined && read.finished?.move_id === opts.move) return alreadyMoved(read.finished, budget);
  let rec = read.rec;

  if (entry.shard === to) {
    // After the flip: the old copy is removed by the steps that follow.
    if (entry.moving_to === null && rec && rec.from_shard !== to && rec.table_index > PROJECT_TABLES.length) return removalStep(env, budget, rec);
    throw new PincherError('already_on_shard', `project '${name}' is already on shard ${to}`, {
      suggestion:
        opts.move === undefined
          ? 'name another shard (GET /v1/admin/shards lists them with their stored bytes); to retry a step of a move, send the move id its answers carried ("move")'
          : `name another shard (GET /v1/admin/shards lists them with their stored bytes); move ${opts.move} is no move of '${name}' that finished on shard ${to} (a finished move is known by its id for ${FINISHED_MOVE_MS / 3_600_000} hours, until the project moves into shard ${to} again)`,
      details: { shard: to },
    });
  }
  const now = Date.now();
  if (entry.moving_to !== null && entry.moving_to !== to) {
    if (isMoving(entry, now)) {
      throw new PincherError('project_moving', `project '${name}' is being moved to shard ${entry.moving_to}`, {
        suggestion: `continue that move (pincher-edge move ${name} --shard ${entry.moving_to}) or cancel it (pincher-edge move ${name} --cancel); an abandoned move can be replaced after ${MOVE_STALE_MS / 60_000} minutes`,
        details: { moving_to: entry.moving_to },
      });
    }
  }
  const source = shardAt(env, entry.shard);
  const row = await budget.first<{ id: string }>(source.db.prepare('SELECT id FROM projects WHERE name = ?1').bind(name));
  if (!row) throw new PincherError('project_not_found', `project '${name}' is placed on shard ${source.index} but not stored there`, { suggestion: 'push the project again' });
  // The catalog's move to `to` and the cursor there are one move (a move begun before the catalog kept ids: its cursor's).
  const resuming =
    entry.moving_to === to && rec !== null && rec.phase === 'copying' && rec.from_shard === source.index && rec.project_id === row.id && rec.table_index <= PROJECT_TABLES.length && (entry.move_id ?? rec.move_id) === rec.move_id;
  if (!resuming || !isMoving(entry, now)) {
    // A first step, or one taking over an abandoned move: no push may be open.
    budget.spend();
    const holder = await openUploadFor(source.db, row.id);
    if (holder && holder.expires_at >= now) {
      throw new PincherError('push_in_progress', `a push to '${name}' is open; a project moves between pushes`, {
        suggestion: 'move it again once the push has committed (or been aborted)',
        details: { upload_id: holder.id },
      });
    }
  }
  if (resuming && rec) {
    budget.spend();
    if (!(await touchMove(env.DB, name, to, rec.move_id, now))) return overtaken(env, budget, name, source.index, to, rec);
    if ((await projectVersion(source.db, budget, row.id)) !== rec.version) return abort(env, budget, name, source, target, rec);
  } else {
    budget.spend();
    if (opts.move !== undefined && (await moveIdTaken(target.db, budget, name, opts.move))) {
      throw new PincherError('invalid_params', `move id ${opts.move} is already the id of another project's move on shard ${to}`, {
        suggestion: 'send a new id for each move (32 hex digits, e.g. a random UUID without its dashes), or none',
      });
    }
    // The catalog's move id: this step's (the client's, or a new one), or that of the move to `to` the catalog holds already.
    const moveId = await beginMove(env.DB, name, source.index, to, opts.move ?? newMoveId(), now, now - MOVE_STALE_MS);
    if (moveId === null) return overtaken(env, budget, name, source.index, to, rec);
    // An earlier move into the source whose step died after its flip: its old copy is listed for removal and its cursor ends, before this move can flip.
    await settleMoveInto(env, budget, source, name);
    if (entry.moving_to !== null && entry.moving_to !== to) {
      // An abandoned move elsewhere (which can no longer flip): its partial copy becomes a leftover there.
      const old = shardAt(env, entry.moving_to);
      await dropMove(old.db, budget, name, row.id, now, entry.move_id);
    }
    // Settling took the queries the cursor's start needs: the catalog holds the move, the next step starts its cursor.
    if (!budget.fits(START_QUERIES)) return answer(blankRecord(name, moveId, source.index, to, 'copying'), 'copying', budget);
    const version = await projectVersion(source.db, budget, row.id);
    if (version === null) return overtaken(env, budget, name, source.index, to, rec);
    rec = {
      name,
      move_id: moveId,
      project_id: row.id,
      from_shard: source.index,
      to_shard: to,
      version,
      phase: 'copying',
      table_index: 0,
      after_rowid: 0,
      copied: {},
      removed: {},
      total: await copyEstimate(source.db, budget, row.id),
      steps: 0,
      started_at: now,
      updated_at: now,
    };
    const start = await startMove(target.db, budget, rec);
    if (!start.started) {
      // Another step of this move started its cursor first (it may have copied, flipped or finished since): this one goes on from there.
      const current = start.rec;
      if (!current || current.move_id !== rec.move_id || current.project_id !== rec.project_id || current.from_shard !== rec.from_shard) return overtaken(env, budget, name, source.index, to, rec, true, start);
      rec = current;
    }
  }

  // Whatever the target still holds of an earlier copy goes before this copy writes its first row
  // (after that, nothing registers a leftover of this project there while this move lives).
  const copyBegun = rec.table_index > 0 || rec.after_rowid > 0;
  const cleared = copyBegun ? { removed: {}, done: true } : await removeLeftovers(target.db, budget, rec.project_id);
  if (cleared.done) {
    const progress = await copyPages(source.db, target.db, rec, budget, Date.now, opts.beforeWrite);
    if (progress.lost) return overtaken(env, budget, name, source.index, to, progress.rec, true, progress.read);
    rec = progress.rec;
  }
  // A concurrent step of this move flipped it while this one copied: this one helps remove the old copy.
  if (rec.phase === 'removing') return removalStep(env, budget, rec);
  if (rec.table_index < PROJECT_TABLES.length || !cleared.done || !budget.fits(FLIP_QUERIES)) return copyingAnswer(env, budget, rec);

  if (rec.table_index === PROJECT_TABLES.length) {
    // The last page is in: the project row, then the flip.
    await opts.beforeFlip?.();
    if ((await projectVersion(source.db, budget, row.id)) !== rec.version) return abort(env, budget, name, source, target, rec);
    if (await copyProjectRow(source.db, target.db, rec, budget, Date.now())) {
      rec = { ...rec, table_index: PROJECT_TABLES.length + 1, copied: { ...rec.copied, projects: 1 } };
    } else {
      // A concurrent step copied the row first (or the move is gone): go on from its cursor.
      const read = await readMoveOrFinished(target.db, budget, name);
      if (!read.rec || read.rec.move_id !== rec.move_id) return overtaken(env, budget, name, source.index, to, rec, true, read);
      rec = read.rec;
      if (rec.phase === 'removing') return removalStep(env, budget, rec);
    }
  }
  budget.spend();
  if (await finishMove(env.DB, name, source.index, to, rec.move_id)) {
    console.log(JSON.stringify({ event: 'project_moved', project_id: rec.project_id, from: source.index, to, steps: rec.steps + 1, duration_ms: Date.now() - rec.started_at }));
  } else {
    // Flipped already by a concurrent step of this move, or the move is no longer this one.
    budget.spend();
    const now = await catalogEntry(env.DB, name);
    if (now?.shard !== to || now.moving_to !== null) throw takenOver(name);
  }
  forgetShards();
  return removalStep(env, budget, rec);
}

/**
 * Queries a first step makes from its checks to its cursor, after settling
 * earlier moves: the generation, the estimate, the cursor's start (a batch of
 * five, reading the record back), and the catalog's read when the start lost
 * to a rival (overtaken; removing an old copy from there on is budgeted).
 */
const START_QUERIES = 8;

/** A new move's id: 32 hex digits. */
const newMoveId = () => crypto.randomUUID().replaceAll('-', '');

/** A move known only by its project, id, shards and phase: nothing copied, counted or timed (an answer's record when no cursor holds one). */
function blankRecord(name: string, moveId: string, from: number, to: number, phase: MoveRecord['phase']): MoveRecord {
  return { name, move_id: moveId, project_id: '', from_shard: from, to_shard: to, version: '', phase, table_index: 0, after_rowid: 0, copied: {}, removed: {}, total: 0, steps: 0, started_at: 0, updated_at: 0 };
}

/**
 * Queries the flip may take: the generation check, the project row's read and
 * write (with the cursor's advance), its cursor re-read when another step
 * wrote it first, the catalog's flip (and its re-read when another step
 * flipped first, or the move turned out to be no longer this one), and
 * marking the old copy (two).
 */
const FLIP_QUERIES = 9;

/** Counts a copying step on the cursor and answers the move's true progress (another step may have advanced it meanwhile). */
async function copyingAnswer(env: Env, budget: QueryBudget, rec: MoveRecord): Promise<MoveStepAnswer> {
  const step = await recordStep(shardAt(env, rec.to_shard).db, budget, rec, {}, Date.now());
  if (!step.counted || !step.rec) return overtaken(env, budget, rec.name, rec.from_shard, rec.to_shard, rec, true, step);
  return answer(step.rec, step.rec.phase === 'removing' ? 'removing' : 'copying', budget);
}

/** After the flip: removes the old copy from the old shard within the budget; the move is done once it is gone. */
async function removalStep(env: Env, budget: QueryBudget, rec: MoveRecord): Promise<MoveStepAnswer> {
  const source = shardAt(env, rec.from_shard);
  const target = shardAt(env, rec.to_shard);
  // A step that died between the flip and marking the old copy left the mark to this one; one whose
  // budget has no room for it leaves it to the next step (the record keeps its phase: not marked yet).
  const mark = rec.phase !== 'removing' && budget.fits(2);
  const marked = mark ? await markLeftover(source.db, budget, rec, Date.now()) : 0;
  const { removed, done } = rec.phase === 'removing' || mark ? await removeLeftovers(source.db, budget, rec.project_id) : { removed: {}, done: false };
  if (marked) removed.projects = (removed.projects ?? 0) + marked;
  const now = Date.now();
  if (!done) {
    const step = await recordStep(target.db, budget, { ...rec, phase: mark ? 'removing' : rec.phase }, removed, now);
    if (!step.counted || !step.rec) return overtaken(env, budget, rec.name, rec.from_shard, rec.to_shard, rec, false, step);
    return answer(step.rec, 'removing', budget);
  }
  // The record as the last step found it (another step may have counted removals meanwhile), this step's own added, kept as the finished move's.
  const finished = await finishRecord(target.db, budget, rec.name, rec.move_id, removed, now);
  if (!finished) return finishedElsewhere(budget, rec.from_shard, rec.to_shard, rec);
  return { ...answer(finished, 'moved', budget), copied: finished.copied, removed: finished.removed, duration_ms: now - rec.started_at };
}

/** The answer to a retry of a step that finished the move `done` (its record on the target): the finishing step's totals again. */
function alreadyMoved(done: MoveRecord, budget: QueryBudget): MoveStepAnswer {
  return { ...answer(done, 'moved', budget), copied: done.copied, removed: done.removed, duration_ms: done.updated_at - done.started_at, already_moved: true };
}

/**
 * Settles the move into `shard` of project `name` whose step died after the
 * flip, before the old copy went (the catalog places the project on `shard`,
 * its cursor there is past the project row): the old copy on the move's
 * source is listed for removal, unless a later move into that shard dealt
 * with it (markLeftover), and the cursor becomes the finished move's record;
 * the garbage collection removes the listed copy. Called by the first step
 * of a move out of `shard` (the catalog marks that move, so nothing flips the
 * project elsewhere meanwhile) and by the garbage collection. Returns the
 * `projects` rows of old copies deleted, or null when there was nothing to settle.
 */
async function settleMoveInto(env: Env, budget: QueryBudget, shard: Shard, name: string): Promise<number | null> {
  const rec = await readMove(shard.db, budget, name);
  if (!rec || rec.to_shard !== shard.index || rec.from_shard === shard.index || rec.table_index <= PROJECT_TABLES.length) return null;
  const marked = await markLeftover(shardAt(env, rec.from_shard).db, budget, rec, Date.now());
  await finishRecord(shard.db, budget, name, rec.move_id, marked ? { projects: marked } : {}, Date.now());
  return marked;
}

/**
 * A source that changed under the copy: the move ends, its partial copy goes
 * (what the budget leaves for later, the garbage collection or the next move
 * removes). A source whose row went because a concurrent step of this move
 * flipped it is no change: this step helps remove the old copy, or answers
 * the move done when that step finished it.
 */
async function abort(env: Env, budget: QueryBudget, name: string, source: Shard, target: Shard, rec: MoveRecord): Promise<MoveStepAnswer> {
  budget.spend();
  // The catalog no longer holds this move: flipped (the old copy's row is being removed), cancelled or replaced.
  if (!(await cancelMove(env.DB, name, target.index, rec.move_id))) return overtaken(env, budget, name, source.index, target.index, rec);
  // Only this move's cursor and copy: a move begun since the catalog let go of this one is left alone.
  await dropStaleMove(target.db, budget, rec, Date.now());
  const { done } = await removeLeftovers(target.db, budget, rec.project_id);
  throw new PincherError('move_source_changed', `project '${name}' changed on shard ${source.index} while it was copied; the move ended and the project stays on shard ${source.index}`, {
    suggestion: 'run the move again: it starts a fresh copy (pushes are accepted meanwhile)',
    details: { shard: source.index, partial_copy_removed: done },
  });
}

/**
 * A step that found its move no longer where it left it (the cursor gone or
 * replaced, the catalog no longer marking the move). When the catalog places
 * the project on `to` and holds no move, a concurrent step flipped it: while
 * the flipped cursor is there this step helps remove the old copy (`help`),
 * once it is gone the move is done and answered as moved. Anything else (a
 * cancel, a new move) answers 409 project_moving. `read` is the record of
 * the project on the target as this step has just found it (its start, a
 * page's re-read, its count), else it is read here; the catalog is read only
 * while the budget has room (else 409 project_moving unless the record shows
 * the move finished).
 */
async function overtaken(env: Env, budget: QueryBudget, name: string, from: number, to: number, seen: MoveRecord | null, help = true, read?: TargetRead): Promise<MoveStepAnswer> {
  const found = read ?? (await readMoveOrFinished(shardAt(env, to).db, budget, name));
  // The move this step was stepping finished meanwhile (another step, or a move out of the target settling it).
  if (seen?.move_id && found.finished?.move_id === seen.move_id) return finishedElsewhere(budget, from, to, seen);
  // No room left for the catalog (a step whose closing count found its move gone): the move is not this step's to answer for.
  if (!budget.room(1)) throw takenOver(name);
  budget.spend();
  const entry = await catalogEntry(env.DB, name);
  if (entry?.shard !== to || entry.moving_to !== null) throw takenOver(name);
  const current = found.rec;
  if (current) {
    if (help && current.from_shard === from && current.table_index > PROJECT_TABLES.length) return removalStep(env, budget, current);
    throw takenOver(name);
  }
  forgetShards();
  const none = blankRecord(name, '', from, to, 'removing');
  return finishedElsewhere(budget, from, to, seen && seen.from_shard === from && seen.to_shard === to ? seen : none);
}

/** The moved answer of a step whose move another step finished meanwhile: its progress as this step last saw it. */
function finishedElsewhere(budget: QueryBudget, from: number, to: number, seen: MoveRecord): MoveStepAnswer {
  return { ...answer({ ...seen, from_shard: from, to_shard: to, table_index: PROJECT_TABLES.length + 1 }, 'moved', budget), finished_by_another_step: true };
}

function answer(rec: MoveRecord, state: MoveStepAnswer['state'], budget: QueryBudget): MoveStepAnswer {
  const table = rec.table_index < PROJECT_TABLES.length ? PROJECT_TABLES[rec.table_index].table : rec.table_index === PROJECT_TABLES.length ? 'projects' : null;
  const progress: MoveProgress = {
    copied: rec.copied,
    rows_copied: sum(rec.copied),
    rows_total_estimate: Math.max(rec.total, sum(rec.copied)),
    table,
    removed: rec.removed,
    steps: rec.steps,
    queries: budget.spent,
    query_budget: budget.limit,
  };
  const out: MoveStepAnswer = { project: rec.name, ...(rec.move_id ? { move: rec.move_id } : {}), from: rec.from_shard, to: rec.to_shard, state, progress };
  if (state !== 'moved') out.next = { method: 'POST', path: `/v1/admin/projects/${encodeURIComponent(rec.name)}/move`, body: { shard: rec.to_shard, move: rec.move_id } };
  return out;
}

/**
 * Cancels the move of `name`: the catalog forgets it at once (pushes are
 * accepted again, reads never left the old shard) and the partial copy
 * becomes a leftover of the target, removed here as far as the budget goes and
 * by the garbage collection (or the next move to that shard) after.
 */
export async function cancelProjectMove(env: Env, name: string, opts: { queries?: number; move?: string } = {}): Promise<CancelAnswer> {
  const budget = new QueryBudget(Math.max(MIN_STEP_QUERIES, stepQueries(env, opts.queries)), Date.now() + MOVE_STEP_MS);
  const entry = await entryOf(env, budget, name);
  if (entry.moving_to === null) {
    throw new PincherError('move_not_found', `project '${name}' is not being moved (it is on shard ${entry.shard})`, {
      suggestion: 'GET /v1/admin/shards lists the moves in progress; a move whose catalog flipped is finished by calling the move again',
      details: { shard: entry.shard },
    });
  }
  const target = shardAt(env, entry.moving_to);
  const rec = await readMove(target.db, budget, name);
  // The move in progress: the catalog's id (a move begun before the catalog kept ids: its cursor's, once it wrote one).
  const moveId = entry.move_id ?? (rec?.from_shard === entry.shard ? rec.move_id : null);
  // A cancel naming its move ends only that one: a move begun since is left alone.
  if (opts.move !== undefined && moveId !== opts.move) {
    throw new PincherError('move_not_found', `move ${opts.move} is not the move of '${name}' in progress (${moveId ? `that is move ${moveId}` : 'that one has no id yet'}, to shard ${target.index})`, {
      suggestion: 'GET /v1/admin/shards (pincher-edge shards) lists the moves in progress with their ids; cancel without an id to end the move in progress, whichever it is',
      details: { shard: target.index, move: moveId },
    });
  }
  budget.spend();
  // Only the move read above: one begun since (after another request ended it) keeps the catalog.
  if (!(await cancelMove(env.DB, name, entry.moving_to, moveId))) {
    // A step flipped (or another request cancelled) the move since the catalog was read: nothing of it is this request's to remove.
    throw new PincherError('move_not_found', `the move of '${name}' to shard ${entry.moving_to} ended while it was being cancelled (it was finished or cancelled by another request)`, {
      suggestion: 'GET /v1/admin/shards shows where the project is and the moves in progress',
      details: { shard: entry.moving_to },
    });
  }
  forgetShards();
  const own = rec !== null && rec.move_id === moveId ? rec : null;
  const projectId = own?.project_id ?? (await budget.first<{ id: string }>(shardAt(env, entry.shard).db.prepare('SELECT id FROM projects WHERE name = ?1').bind(name)))?.id;
  let removal = { removed: {} as Record<string, number>, done: true };
  if (projectId) {
    // Only the cancelled move's cursor and copy: a move begun since the cancel ended this one in the catalog is left alone.
    if (own) await dropStaleMove(target.db, budget, own, Date.now());
    else await dropMove(target.db, budget, name, projectId, Date.now(), moveId);
    removal = await removeLeftovers(target.db, budget, projectId);
  }
  return { project: name, shard: entry.shard, state: 'cancelled', was_moving_to: target.index, removed: removal.removed, partial_copy_removed: removal.done };
}

/** Cursors the garbage collection looks at per shard and run, and the D1 queries it may spend on them. */
const GC_CURSORS = 20;
const GC_CURSOR_QUERIES = 100;

/** What the garbage collection did to move records: flipped moves settled, ended moves' cursors dropped, finished moves' records forgotten. */
export interface SettleReport {
  settled: number;
  dropped: number;
  forgotten: number;
}

/**
 * The garbage collection's pass over move cursors no step wrote for
 * MOVE_STALE_MS (src/upload/gc.ts), on every shard, before the leftovers are
 * removed: a move the catalog still holds is left to its next step or a
 * cancel; one whose catalog flipped to this shard and whose step died before
 * the old copy went is settled (settleMoveInto); a cursor of a move that
 * ended before its flip (its step died between the catalog and the cursor),
 * or whose project has moved on since, goes, and what the shard holds of the
 * project is listed for removal, never while the catalog places the project
 * here (or knows it not). Finished moves' records older than FINISHED_MOVE_MS
 * are forgotten.
 */
export async function settleAbandonedMoves(env: Env, now: number): Promise<SettleReport> {
  const report: SettleReport = { settled: 0, dropped: 0, forgotten: 0 };
  for (const shard of shardsOf(env)) {
    const budget = new QueryBudget(GC_CURSOR_QUERIES, Date.now() + MOVE_STEP_MS, 0);
    for (const stale of await staleCursors(shard.db, budget, now - MOVE_STALE_MS, GC_CURSORS)) {
      if (!budget.fits(5)) break;
      budget.spend();
      const entry = await catalogEntry(env.DB, stale.name);
      if (!entry || entry.moving_to === shard.index) continue;
      if (entry.shard === shard.index) {
        if ((await settleMoveInto(env, budget, shard, stale.name)) !== null) report.settled++;
      } else if (await dropStaleMove(shard.db, budget, stale, Date.now())) report.dropped++;
    }
    if (budget.fits(1)) report.forgotten += await forgetFinished(shard.db, budget, now - FINISHED_MOVE_MS);
  }
  return report;
}
