import type { Env } from '../env';
import { shardsOf } from '../db/shards';
import {
  deleteCallsBeyond,
  deleteClosedUploadFiles,
  deleteClosedUploads,
  deleteOldCalls,
  deleteOldEvents,
  deleteUnusedBlobs,
  deleteUnusedExtractions,
  expireUploads,
} from '../db/gc';
import { QueryBudget } from '../db/move-state';
import { removeLeftovers } from '../db/project-copy';
import { settleAbandonedMoves, type SettleReport } from '../shards/move';

/** Closed uploads (and their manifests) are kept this long, for `GET …/uploads/{id}`. */
export const UPLOAD_RETENTION_MS = 60 * 60 * 1000;
/** Unused content and extractions younger than this are kept (a second guard besides the open-upload check). */
export const CONTENT_GRACE_MS = 60 * 60 * 1000;
export const DEFAULT_GC_BATCH_ROWS = 5_000;
/** Statements per phase and run: a run deletes at most this many batches of each kind. */
export const GC_ROUNDS = 4;
/** D1 queries a run may spend per shard removing leftover copies of moved projects (src/shards/move.ts). */
export const GC_LEFTOVER_QUERIES = 60;
export const DEFAULT_CALL_LOG_RETENTION_DAYS = 30;
export const DEFAULT_CALL_LOG_MAX_ROWS = 1_000_000;
export const DEFAULT_EVENTS_RETENTION_DAYS = 7;
export const DEFAULT_PUSH_HISTORY_DAYS = 30;

export interface GcOptions {
  now: number;
  /** Rows per delete statement (contents: a tenth of it, each carries its trigram index). */
  batchRows: number;
  callLogRetentionMs: number;
  callLogMaxRows: number;
  eventsRetentionMs: number;
  /** Closed uploads (push history) are kept this long; their manifests only UPLOAD_RETENTION_MS. */
  pushHistoryMs: number;
}

export interface GcReport {
  expired_uploads: number;
  upload_files: number;
  uploads: number;
  extractions: number;
  blobs: number;
  call_log: number;
  events: number;
  /** Rows of leftover copies (old copies after moves, cancelled moves' partial copies) removed. */
  leftovers: number;
  /** False when some phase hit its bound: the next run continues. */
  complete: boolean;
  duration_ms: number;
}

function positiveInt(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** GC settings from the Worker's variables (README, variables table). */
export function gcOptionsFrom(env: Env, now: number): GcOptions {
  return {
    now,
    batchRows: positiveInt(env.PINCHER_GC_BATCH_ROWS, DEFAULT_GC_BATCH_ROWS),
    callLogRetentionMs: positiveInt(env.PINCHER_CALL_LOG_RETENTION_DAYS, DEFAULT_CALL_LOG_RETENTION_DAYS) * 86_400_000,
    callLogMaxRows: positiveInt(env.PINCHER_CALL_LOG_MAX_ROWS, DEFAULT_CALL_LOG_MAX_ROWS),
    eventsRetentionMs: positiveInt(env.PINCHER_EVENTS_RETENTION_DAYS, DEFAULT_EVENTS_RETENTION_DAYS) * 86_400_000,
    pushHistoryMs: positiveInt(env.PINCHER_PUSH_HISTORY_DAYS, DEFAULT_PUSH_HISTORY_DAYS) * 86_400_000,
  };
}

/** Runs `step` up to GC_ROUNDS times while it deletes a full batch; returns rows deleted and whether it finished. */
async function bounded(step: (limit: number) => Promise<number>, limit: number): Promise<[number, boolean]> {
  let total = 0;
  for (let round = 0; round < GC_ROUNDS; round++) {
    const n = await step(limit);
    total += n;
    if (n < limit) return [total, true];
  }
  return [total, false];
}

/**
 * One bounded garbage-collection run. Order matters: manifests of closed
 * uploads go first (they are what keeps content alive), then extractions,
 * then contents no extraction describes any more.
 */
export async function collectGarbage(d1: D1Database, o: GcOptions): Promise<GcReport> {
  const started = Date.now();
  const closedBefore = o.now - UPLOAD_RETENTION_MS;
  const createdBefore = o.now - CONTENT_GRACE_MS;
  const blobRows = Math.max(1, Math.floor(o.batchRows / 10));
  const expired = await expireUploads(d1, o.now);
  // Leftover copies first: what they free is then content no file uses.
  const leftovers = await removeLeftovers(d1, new QueryBudget(GC_LEFTOVER_QUERIES, started + 30_000, 0));
  const [uploadFiles, filesDone] = await bounded((n) => deleteClosedUploadFiles(d1, closedBefore, n), o.batchRows);
  const historyBefore = Math.min(closedBefore, o.now - o.pushHistoryMs);
  const [uploads, uploadsDone] = await bounded((n) => deleteClosedUploads(d1, historyBefore, n), o.batchRows);
  const [extractions, extractionsDone] = await bounded((n) => deleteUnusedExtractions(d1, createdBefore, n), o.batchRows);
  const [blobs, blobsDone] = await bounded((n) => deleteUnusedBlobs(d1, createdBefore, n), blobRows);
  const [oldCalls, oldDone] = await bounded((n) => deleteOldCalls(d1, o.now - o.callLogRetentionMs, n), o.batchRows);
  const [extraCalls, capDone] = await bounded((n) => deleteCallsBeyond(d1, o.callLogMaxRows, n), o.batchRows);
  const [events, eventsDone] = await bounded((n) => deleteOldEvents(d1, o.now - o.eventsRetentionMs, n), o.batchRows);
  return {
    expired_uploads: expired,
    upload_files: uploadFiles,
    uploads,
    extractions,
    blobs,
    call_log: oldCalls + extraCalls,
    events,
    leftovers: Object.values(leftovers.removed).reduce((a, n) => a + n, 0),
    complete: leftovers.done && filesDone && uploadsDone && extractionsDone && blobsDone && oldDone && capDone && eventsDone,
    duration_ms: Date.now() - started,
  };
}

/** One run over every shard: the per-shard reports, and their sum (complete when every shard's run was). */
export interface ShardedGcReport extends GcReport {
  shards: (GcReport & { shard: number })[];
  /** Move cursors no step wrote for 10 minutes, settled or dropped, and finished moves' records forgotten (src/shards/move.ts). */
  moves: SettleReport;
}

/**
 * The Cron Trigger: one bounded run on every shard (src/db/shards.ts), one after
 * the other, logged as one line per shard (counts only). A shard whose run fails
 * is logged and the others still run; the run then fails as a whole.
 */
export async function scheduledGc(env: Env, scheduledTime: number): Promise<ShardedGcReport> {
  const options = gcOptionsFrom(env, scheduledTime);
  const shards: ShardedGcReport['shards'] = [];
  let failed: unknown;
  // Abandoned moves first: the old copies they list are then removed by this run.
  let moves: SettleReport = { settled: 0, dropped: 0, forgotten: 0 };
  try {
    moves = await settleAbandonedMoves(env, scheduledTime);
    console.log(JSON.stringify({ event: 'gc_moves', ...moves }));
  } catch (err) {
    console.error(JSON.stringify({ event: 'gc_failed', phase: 'moves', error: err instanceof Error ? err.name : 'error' }));
    failed = err;
  }
  for (const shard of shardsOf(env)) {
    try {
      const report = await collectGarbage(shard.db, options);
      console.log(JSON.stringify({ event: 'gc', shard: shard.index, ...report }));
      shards.push({ shard: shard.index, ...report });
    } catch (err) {
      console.error(JSON.stringify({ event: 'gc_failed', shard: shard.index, error: err instanceof Error ? err.name : 'error' }));
      failed ??= err;
    }
  }
  if (failed) throw failed;
  const sum = (k: Exclude<keyof GcReport, 'complete'>) => shards.reduce((n, r) => n + r[k], 0);
  return {
    expired_uploads: sum('expired_uploads'),
    upload_files: sum('upload_files'),
    uploads: sum('uploads'),
    extractions: sum('extractions'),
    blobs: sum('blobs'),
    call_log: sum('call_log'),
    events: sum('events'),
    leftovers: sum('leftovers'),
    complete: shards.every((r) => r.complete),
    duration_ms: sum('duration_ms'),
    shards,
    moves,
  };
}
