import { refuseWhileMoving, type PushTarget } from '../db/project-shard';
import { recordEvent } from '../events/record';
import { ulid } from 'ulid';
import { EXTRACTOR_VERSION } from '../extract';
import { PincherError } from '../errors';
import type { MetaCollector } from '../envelope/collector';
import { SCHEMA_VERSION } from '../version';
import {
  changeCountsStatement,
  classifyStatements,
  ensureProject,
  claimOpenUpload,
  claimOpenUploadStatement,
  getProjectUpload,
  getUpload,
  openUploadRows,
  batchPlan,
  missingFilesStatement,
  missingHashes,
  openUploadFor,
  pathsFoldedTo,
  setUploadStatus,
  openedUploadState,
  openedUploadStatements,
  readOpenedUploadState,
  type OpenedUploadState,
  readChangeCounts,
  recordPlanStatement,
  touchUploadStatement,
  type ChangeCounts,
  type ManifestEntryRow,
  type ManifestRow,
  type NeededExtraction,
  type UploadRow,
} from '../db/uploads';
import { commitStatements, incomingOutcomesStatement, readIncomingOutcomes, storeExtractionStatements, type OutcomeRow } from '../db/index-store';
import { committedPathsStatement, planResolution, planResolutionStatements, resolveCommitted, type ResolutionPlan, type ResolutionResult } from '../db/resolution';
import { dbErrorMessage } from '../db/client';
import { commitTotalsStatement, type CommitTotals } from '../db/projects';
import { mergeFullTextIndexes } from '../db/fts-merge';
import { checkProjectName, isSha256Hex, pathProblem, sha256Hex } from './paths';
import { extractionRow, languageOf } from './extract-rows';
import { newProjectId } from './project-id';
import { prepareScip, reportScip, type PushedScip } from './scip';

/** Uploads expire this long after their last activity. */
export const UPLOAD_TTL_MS = 15 * 60 * 1000;
/**
 * An open upload whose last request (its heartbeat) is older than this is
 * abandoned: the next push of the project supersedes it. Longer than the
 * CLI's request timeout, so a live push is never taken for dead.
 */
export const UPLOAD_STALE_MS = 150 * 1000;
export const MAX_MANIFEST_ENTRIES = 100_000;
export const MAX_FILE_BYTES = 1024 * 1024;
/** Per-file parse budget: generous, because a loaded host stretches wall-clock time. */
export const PARSE_BUDGET_MS = 5_000;

export interface ManifestEntry {
  path: string;
  hash: string;
  size: number;
}

export interface OpenRequest {
  project: string;
  ref?: string | null;
  commit?: string | null;
  manifest: unknown;
  mode?: 'replace' | 'merge';
  /** Classify every listed file as changed (server-side re-extraction). */
  forceChanged?: boolean;
  /** Supersede the project's open upload at once, however recent its heartbeat. */
  takeOver?: boolean;
  /** Who pushes (a CI actor or user name), for push history. */
  pushedBy?: string | null;
}

export interface OpenResult {
  upload_id: string;
  project: string;
  expires_at: string;
  missing: string[];
  plan: ChangeCounts;
  /** The abandoned (or, with take_over, the open) upload this one took the project from. */
  superseded?: string;
}

function manifestError(index: number, path: unknown, problem: string): PincherError {
  return new PincherError('invalid_manifest', `manifest[${index}]${typeof path === 'string' ? ` (${path.slice(0, 200)})` : ''}: ${problem}`, {
    suggestion: 'send every file once as {path, hash, size}: a relative /-separated path, the lowercase hex SHA-256 of its bytes and its size',
    details: { index, ...(typeof path === 'string' ? { path: path.slice(0, 1024) } : {}) },
  });
}

/** Validates the whole manifest before anything is written. */
export function checkManifest(manifest: unknown): ManifestRow[] {
  if (!Array.isArray(manifest)) {
    throw new PincherError('invalid_manifest', 'manifest must be an array of {path, hash, size}', {
      suggestion: 'send {"manifest": [{"path": "src/a.ts", "hash": "<sha256 hex>", "size": 123}]}',
    });
  }
  if (manifest.length > MAX_MANIFEST_ENTRIES) {
    throw new PincherError('invalid_manifest', `manifest has ${manifest.length} entries; the limit is ${MAX_MANIFEST_ENTRIES}`, {
      suggestion: 'narrow the push with .pincherignore, or split the repository into several projects',
    });
  }
  // Folded path → the path that claimed it: two paths differing only in case cannot both be
  // checked out on a case-insensitive file system (macOS, Windows).
  const seen = new Map<string, string>();
  const sizeOf = new Map<string, number>();
  return manifest.map((entry: unknown, i: number) => {
    const e = entry as Partial<ManifestEntry> | null;
    if (!e || typeof e !== 'object') throw manifestError(i, undefined, 'entry must be an object {path, hash, size}');
    const problem = pathProblem(e.path);
    if (problem) throw manifestError(i, e.path, problem);
    const path = e.path as string;
    const folded = path.toLowerCase();
    const other = seen.get(folded);
    if (other === path) throw manifestError(i, path, 'duplicate path');
    if (other !== undefined) throw caseClash(i, path, other);
    seen.set(folded, path);
    if (!isSha256Hex(e.hash)) throw manifestError(i, path, 'hash must be 64 lowercase hex characters (SHA-256)');
    if (typeof e.size !== 'number' || !Number.isInteger(e.size) || e.size < 0) throw manifestError(i, path, 'size must be a non-negative integer');
    const sameContent = sizeOf.get(e.hash);
    if (sameContent !== undefined && sameContent !== e.size) {
      throw manifestError(i, path, `size ${e.size} differs from the ${sameContent} bytes declared for another path with the same hash`);
    }
    sizeOf.set(e.hash, e.size);
    return { path, hash: e.hash, size: e.size, language: languageOf(path) };
  });
}

/** Two paths of one project that differ only in letter case. */
export function caseClash(index: number, path: string, other: string): PincherError {
  return new PincherError('invalid_manifest', `manifest[${index}] (${path.slice(0, 200)}): differs only in letter case from '${other.slice(0, 200)}'`, {
    suggestion: 'rename or drop one of the two files (they collide on case-insensitive file systems), or exclude one with .pincherignore',
    details: { index, path: path.slice(0, 1024), conflicts_with: other.slice(0, 1024) },
  });
}

function optionalText(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > max) {
    throw new PincherError('invalid_params', `${field} must be a string of at most ${max} characters`, {
      suggestion: `omit ${field} or send a short string`,
    });
  }
  return value;
}

/** ASCII-only lowercase, the folding SQLite's lower() applies. */
function asciiFold(path: string): string {
  return path.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/**
 * Opens an upload: validates and classifies the manifest, takes the
 * project's push lock (taking it over from an abandoned upload, or from any
 * open one with `takeOver`), and answers which contents the server lacks.
 */
export async function openUpload(target: PushTarget, req: OpenRequest): Promise<OpenResult> {
  const d1 = target.db;
  const name = checkProjectName(req.project);
  const ref = optionalText(req.ref, 'ref', 200);
  const commit = optionalText(req.commit, 'commit', 100);
  const pushedBy = optionalText(req.pushedBy, 'pushed_by', 100);
  const manifest = checkManifest(req.manifest);
  const mode = req.mode ?? 'replace';
  const now = Date.now();
  if (mode === 'merge' && manifest.length) {
    // A merge keeps the other stored files: none may differ from a listed path only in case (checked before any upload exists).
    const project = await ensureProject(d1, name, newProjectId(), now);
    const listed = new Set(manifest.map((m) => m.path));
    const index = new Map(manifest.map((m, i) => [asciiFold(m.path), i]));
    const other = (await pathsFoldedTo(d1, project.id, [...index.keys()])).find((p) => !listed.has(p));
    if (other !== undefined) {
      const i = index.get(asciiFold(other)) as number;
      throw caseClash(i, manifest[i].path, other);
    }
  }
  const upload: UploadRow = {
    id: ulid(),
    project_id: '',
    ref,
    commit_sha: commit,
    status: 'open',
    mode,
    created_at: now,
    updated_at: now,
    expires_at: now + UPLOAD_TTL_MS,
    manifest_count: manifest.length,
    pushed_by: pushedBy,
  };
  // The project row, the release of an abandoned push lock and the new upload: one round trip.
  const { project, released, inserted } = await openUploadRows(d1, name, newProjectId(), upload, UPLOAD_STALE_MS, req.takeOver === true);
  upload.project_id = project.id;
  const superseded = released.find((r) => r.status === 'superseded')?.id;
  if (!inserted) {
    const holder = await openUploadFor(d1, project.id);
    throw new PincherError('push_in_progress', `another push to '${name}' is in progress`, {
      suggestion: `wait for it to commit, or take it over at once (pincher-edge push --take-over, or "take_over": true when opening); an upload idle for ${UPLOAD_STALE_MS / 1000} s is taken over by the next push`,
      details: holder
        ? { upload_id: holder.id, expires_at: new Date(holder.expires_at).toISOString(), last_activity: new Date(holder.updated_at).toISOString() }
        : {},
    });
  }
  let state: OpenedUploadState | null = null;
  try {
    const classify = classifyStatements(d1, upload.id, project.id, manifest, EXTRACTOR_VERSION, mode, req.forceChanged);
    // An empty merge manifest classifies nothing (D1 refuses an empty batch). The heartbeat
    // is renewed last: classifying a large manifest takes a while. The upload's state (its plan,
    // the contents it misses, a declared size the stored content contradicts) is read in the same batch.
    if (classify.length) {
      const touched = Date.now();
      const reads = openedUploadStatements(d1, upload.id, EXTRACTOR_VERSION);
      const results = await d1.batch([...classify, recordPlanStatement(d1, upload.id), touchUploadStatement(d1, upload.id, touched, UPLOAD_TTL_MS), ...reads]);
      state = readOpenedUploadState(results.slice(-reads.length));
      upload.updated_at = touched;
      upload.expires_at = touched + UPLOAD_TTL_MS;
    }
  } catch (err) {
    await setUploadStatus(d1, upload.id, 'aborted', Date.now());
    throw err;
  }
  const { plan, missing, conflict } = state ?? (await openedUploadState(d1, upload.id, EXTRACTOR_VERSION));
  if (conflict) {
    await setUploadStatus(d1, upload.id, 'aborted', Date.now());
    throw new PincherError('size_mismatch', `manifest entry ${conflict.path.slice(0, 200)} declares ${conflict.declared} bytes, but the content with its hash has ${conflict.stored}; nothing was written`, {
      suggestion: "declare each file's size as the byte length of its content (UTF-8) and open the upload again",
      details: { path: conflict.path.slice(0, 1024), declared: conflict.declared, received: conflict.stored },
    });
  }
  await recordEvent(target.primary, 'upload_opened', project, { upload_id: upload.id, ref, commit, mode, files: manifest.length, missing: missing.length, plan, ...(superseded ? { superseded } : {}) });
  return { upload_id: upload.id, project: name, expires_at: new Date(upload.expires_at).toISOString(), missing, plan, ...(superseded ? { superseded } : {}) };
}

/**
 * The open upload `uploadId` of `project`, its heartbeat renewed, or the
 * matching typed error: `upload_superseded` when a newer push took the
 * project over, `upload_not_found` otherwise.
 */
export async function requireOpenUpload(d1: D1Database, project: string, uploadId: string): Promise<UploadRow> {
  const now = Date.now();
  const claimed = await claimOpenUpload(d1, uploadId, project, now, UPLOAD_TTL_MS);
  if (claimed) return claimed;
  throw await unclaimedError(d1, project, uploadId, now);
}

/** Why upload `uploadId` of `project` could not be claimed at `now`. */
async function unclaimedError(d1: D1Database, project: string, uploadId: string, now: number): Promise<PincherError> {
  const upload = await getProjectUpload(d1, project, uploadId);
  if (!upload) {
    return new PincherError('upload_not_found', `no upload '${uploadId.slice(0, 60)}' for project '${project.slice(0, 100)}'`, {
      suggestion: 'open a new upload with POST /v1/projects/{project}/uploads',
    });
  }
  return notOpenError(d1, upload, now);
}

/** Why an upload that exists can no longer be used. */
async function notOpenError(d1: D1Database, upload: UploadRow, now: number): Promise<PincherError> {
  if (upload.status === 'superseded') {
    const newer = await openUploadFor(d1, upload.project_id);
    return new PincherError('upload_superseded', `upload '${upload.id}' was taken over by a newer push; nothing it sent was committed`, {
      suggestion: 'a newer push of this project replaced this one; push again if this tree is the one to index',
      details: { status: 'superseded', ...(newer ? { upload_id: newer.id } : {}) },
    });
  }
  const expired = upload.status === 'expired' || (upload.status === 'open' && upload.expires_at < now);
  return new PincherError('upload_not_found', `upload '${upload.id}' is ${expired ? 'expired' : upload.status}`, {
    suggestion: 'open a new upload with POST /v1/projects/{project}/uploads and push again',
    details: { status: expired ? 'expired' : upload.status },
  });
}

export interface IncomingFile {
  path: string;
  hash: string;
  content: string;
}

export interface AcceptResult {
  accepted: number;
  skipped: { path: string; reason: string }[];
  failures: { path: string; reason: string; message: string | null }[];
  symbols: number;
}

const NO_CONTENT_REASONS = new Set(['binary', 'encoding', 'file_too_large']);
const utf8 = new TextEncoder();

/**
 * Receives a batch of file contents: every item is checked (in the
 * manifest with that hash and size, content hashes to it) before anything
 * is written; then each content is extracted once per language the upload
 * needs it as, and content + extractions are stored in one batch.
 */
export async function acceptFiles(target: PushTarget, upload: UploadRow, files: unknown): Promise<AcceptResult> {
  const items = checkIncoming(files);
  const { entries, needed } = await batchPlan(target.db, upload.id, items.map((i) => i.path), items.map((i) => i.hash), EXTRACTOR_VERSION);
  return storeBatch(target, upload, items, entries, needed);
}

/**
 * `acceptFiles` for upload `uploadId` of `project` not claimed yet (`requireOpenUpload`): the
 * claim rides in the batch plan's round trip. A batch refused before that (a bad item) claims
 * first, so an upload that is not open answers as it would have.
 */
export async function claimAndAcceptFiles(target: PushTarget, project: string, uploadId: string, files: unknown): Promise<AcceptResult> {
  let items: IncomingFile[];
  try {
    items = checkIncoming(files);
  } catch (err) {
    await requireOpenUpload(target.db, project, uploadId);
    throw err;
  }
  const now = Date.now();
  const claim = claimOpenUploadStatement(target.db, uploadId, project, now, UPLOAD_TTL_MS);
  const { entries, needed, claimed } = await batchPlan(target.db, uploadId, items.map((i) => i.path), items.map((i) => i.hash), EXTRACTOR_VERSION, claim);
  if (!claimed) throw await unclaimedError(target.db, project, uploadId, now);
  return storeBatch(target, claimed, items, entries, needed);
}

/** A content batch's items, checked one by one (a typed error for the first bad one). */
function checkIncoming(files: unknown): IncomingFile[] {
  if (!Array.isArray(files) || files.length === 0) {
    throw new PincherError('invalid_request', 'files must be a non-empty array of {path, hash, content}', {
      suggestion: 'send {"files": [{"path": "src/a.ts", "hash": "<sha256 hex>", "content": "…"}]}',
    });
  }
  return files.map((f: unknown, i: number) => {
    const e = f as Partial<IncomingFile> | null;
    const problem = pathProblem(e?.path);
    if (!e || problem) throw itemError('invalid_path', i, e?.path, problem ?? 'entry must be an object');
    if (!isSha256Hex(e.hash)) throw itemError('invalid_request', i, e.path, 'hash must be 64 lowercase hex characters');
    if (typeof e.content !== 'string') throw itemError('invalid_request', i, e.path, 'content must be a string (UTF-8 text)');
    return { path: e.path as string, hash: e.hash, content: e.content };
  });
}

async function storeBatch(
  target: PushTarget,
  upload: UploadRow,
  items: readonly IncomingFile[],
  entries: Map<string, ManifestEntryRow>,
  needed: readonly NeededExtraction[],
): Promise<AcceptResult> {
  const d1 = target.db;
  const sizes = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const entry = entries.get(item.path);
    if (!entry || entry.change === 'deleted') throw itemError('invalid_path', i, item.path, 'path is not in this upload\'s manifest');
    if (entry.hash !== item.hash) throw itemError('hash_mismatch', i, item.path, 'hash differs from the manifest entry for this path');
    const bytes = utf8.encode(item.content);
    if ((await sha256Hex(bytes)) !== item.hash) {
      throw itemError('hash_mismatch', i, item.path, 'content does not hash to the given SHA-256 (send the file bytes as UTF-8 text)');
    }
    const size = bytes.length;
    if (size !== entry.size) {
      throw itemError('size_mismatch', i, item.path, `the manifest declared ${entry.size} bytes but ${size} arrived`, { declared: entry.size, received: size });
    }
    sizes.set(item.hash, size);
  }
  // One extraction per (content, language): each item as its own path, then every other
  // language the upload needs the same bytes as, under one of that language's paths.
  const work = new Map<string, { path: string; hash: string; content: string }>();
  for (const item of items) work.set(`${item.hash}\0${languageOf(item.path)}`, item);
  const contentOf = new Map(items.map((i) => [i.hash, i.content]));
  for (const n of needed) {
    const key = `${n.hash}\0${n.language}`;
    if (!work.has(key)) work.set(key, { path: n.path, hash: n.hash, content: contentOf.get(n.hash) as string });
  }
  const result: AcceptResult = { accepted: items.length, skipped: [], failures: [], symbols: 0 };
  const stored = [];
  const blobSent = new Set<string>();
  for (const item of work.values()) {
    const row = await extractionRow(item.path, item.hash, item.content, { maxBytes: MAX_FILE_BYTES, timeoutMs: PARSE_BUDGET_MS });
    // The content itself is stored once, with the first extraction that keeps it.
    const keepContent = !(row.reason && NO_CONTENT_REASONS.has(row.reason)) && !blobSent.has(item.hash);
    if (keepContent) blobSent.add(item.hash);
    stored.push({ row, content: keepContent ? item.content : null, size: sizes.get(item.hash) ?? 0 });
    result.symbols += row.symbolCount;
    if (row.status === 'skipped') result.skipped.push({ path: item.path, reason: row.reason ?? 'unknown' });
    if (row.status === 'failed') result.failures.push({ path: item.path, reason: row.reason ?? 'unknown', message: row.message });
  }
  const now = Date.now();
  // The heartbeat rides in the same batch as the rows: one round trip per content batch.
  await d1.batch([...storeExtractionStatements(d1, stored, now), touchUploadStatement(d1, upload.id, now, UPLOAD_TTL_MS)]);
  await recordEvent(target.primary, 'files_received', { id: upload.project_id, name: target.project }, { upload_id: upload.id, accepted: result.accepted, skipped: result.skipped.length, failed: result.failures.length, symbols: result.symbols });
  return result;
}

const ITEM_SUGGESTIONS = {
  invalid_path: 'fix or drop that file and send the batch again',
  invalid_request: 'fix or drop that file and send the batch again',
  hash_mismatch: 'fix or drop that file and send the batch again',
  size_mismatch: 'declare each file\'s size as the byte length of its content (UTF-8) in the manifest: open a new upload with the corrected manifest',
} as const;

function itemError(code: keyof typeof ITEM_SUGGESTIONS, index: number, path: unknown, problem: string, extra: Record<string, unknown> = {}): PincherError {
  const where = typeof path === 'string' ? path.slice(0, 200) : `files[${index}]`;
  return new PincherError(code, `${where}: ${problem}; nothing in this batch was stored`, {
    suggestion: ITEM_SUGGESTIONS[code],
    details: { index, ...(typeof path === 'string' ? { path: path.slice(0, 1024) } : {}), ...extra },
  });
}

export interface CommitSummary {
  project: string;
  ref: string | null;
  commit: string | null;
  files: { new: number; changed: number; unchanged: number; deleted: number; skipped: number; failed: number };
  skipped_by_reason: Record<string, number>;
  failed_by_reason: Record<string, number>;
  symbols: number;
  symbols_added: number;
  /** Resolved graph edges of the project after the push; absent when the resolution pass did not finish. */
  edges?: number;
  /** What the SCIP index sent with the commit covered and produced; absent without one. */
  scip?: Record<string, unknown>;
  duration_ms: number;
}

/**
 * Commits an upload atomically and records the catalog's empty reasons on
 * the collector: incremental_no_change, unsupported_language,
 * extractor_emitted_nothing. `scipBytes`, a SCIP index sent with the commit,
 * is decoded and checked before anything is written (a bad one refuses the
 * commit and leaves the upload open); its exact edges land in the same
 * resolution batch as the rest of the graph.
 */
/** An upload claimed for its commit, with every read the commit plans from (claimForCommit). */
export interface CommitClaim {
  upload: UploadRow;
  /** When the claim was made (the commit's start). */
  started: number;
  reads: D1Result[];
}

/**
 * Claims open upload `uploadId` of `project` for its commit (requireOpenUpload's claim: its heartbeat renewed, or the
 * typed error saying why it cannot be) and reads, in the same round trip and one snapshot of the upload's rows,
 * everything the commit plans from: the contents still missing, the change counts, the incoming files' outcomes and
 * resolution's plan. Read before a SCIP body is.
 */
export async function claimForCommit(target: PushTarget, project: string, uploadId: string): Promise<CommitClaim> {
  const d1 = target.db;
  const started = Date.now();
  const [claimed, ...reads] = await d1.batch([
    claimOpenUploadStatement(d1, uploadId, project, started, UPLOAD_TTL_MS),
    missingFilesStatement(d1, uploadId, EXTRACTOR_VERSION),
    changeCountsStatement(d1, uploadId),
    incomingOutcomesStatement(d1, uploadId, EXTRACTOR_VERSION),
    ...planResolutionStatements(d1, uploadId),
  ]);
  const upload = (claimed.results as UploadRow[])[0];
  if (!upload) throw await unclaimedError(d1, project, uploadId, started);
  return { upload, started, reads };
}

export async function commitUpload(target: PushTarget, claim: CommitClaim, meta: MetaCollector, requestId?: string, scipBytes?: Uint8Array): Promise<CommitSummary> {
  const d1 = target.db;
  const project = target.project;
  const { upload, started } = claim;
  const [missingRead, countsRead, outcomeRead, ...planReads] = claim.reads;
  const missing = missingRead.results as { path: string; hash: string }[];
  if (missing.length) {
    const total = (await missingHashes(d1, upload.id, EXTRACTOR_VERSION)).length;
    throw new PincherError('upload_incomplete', `${total} file content(s) are still missing; the index was not changed`, {
      suggestion: 'send the missing files to POST …/uploads/{upload_id}/files, then commit again',
      details: { missing_count: total, missing },
    });
  }
  const scip = scipBytes ? await prepareScip(d1, upload.id, scipBytes) : null;
  const plan = readChangeCounts(countsRead.results as { change: keyof ChangeCounts; n: number }[]);
  const outcome = readIncomingOutcomes(outcomeRead.results as OutcomeRow[]);
  const graphPlan = await planResolution(d1, upload.project_id, [planReads[0], planReads[1]]);
  const planned = Date.now();
  // A move that began after this push opened copies the project as it was: the commit waits for it.
  await refuseWhileMoving(target);
  // The project's totals and paths (resolution's layout) are read in the commit's own batch, after its writes.
  const applied = await d1.batch([
    ...commitStatements(d1, {
      projectId: upload.project_id,
      uploadId: upload.id,
      extractorVersion: EXTRACTOR_VERSION,
      schemaVersion: SCHEMA_VERSION,
      ref: upload.ref,
      commitSha: upload.commit_sha,
      now: Date.now(),
    }),
    commitTotalsStatement(d1, upload.project_id),
    committedPathsStatement(d1, upload.project_id),
  ]);
  const [committedPaths, totalsRead, statusChange] = [applied[applied.length - 1], applied[applied.length - 2], applied[applied.length - 3]];
  if (!statusChange.meta.changes) {
    // Another commit, an abort or a take-over of this upload won the race; this one changed nothing.
    const now = await getUpload(d1, upload.id);
    throw await notOpenError(d1, now ?? { ...upload, status: 'unknown' }, Date.now());
  }
  await mergeFullTextIndexes(d1);
  const totals = (totalsRead.results as CommitTotals[])[0] ?? null;
  const committed = Date.now();
  const generation = totals?.generation ?? 0;
  await recordEvent(target.primary, 'committed', { id: upload.project_id, name: project }, { upload_id: upload.id, ref: upload.ref, commit: upload.commit_sha, generation, files: plan, symbols: totals?.symbol_count ?? 0, duration_ms: committed - started });
  const resolved = await resolveAfterCommit(d1, graphPlan, generation, committedPaths, meta, scip);
  const edges = resolved?.edges ?? null;
  await recordEvent(
    target.primary,
    resolved ? 'resolution_finished' : 'resolution_pending',
    { id: upload.project_id, name: project },
    resolved ? { upload_id: upload.id, generation, edges: resolved.edges, duration_ms: Date.now() - committed } : { upload_id: upload.id, generation, message: 'the graph was not rebuilt for this push; the next push or index force rebuilds it' },
  );
  // Where a commit spends its time, for operators (counts and milliseconds only).
  console.log(JSON.stringify({ event: 'commit', request_id: requestId, project_id: upload.project_id, plan_ms: planned - started, commit_ms: committed - planned, resolution_ms: Date.now() - committed, files: plan.new + plan.changed + plan.deleted, resolution_full: graphPlan.full, edges }));
  meta.scope({ id: upload.project_id, name: project, schemaVersionAtIndex: totals?.schema_version_at_index ?? null });
  const skipped = Object.values(outcome.skipped).reduce((a, b) => a + b, 0);
  const failed = Object.values(outcome.failed).reduce((a, b) => a + b, 0);
  const incoming = plan.new + plan.changed;
  if (incoming === 0 && plan.deleted === 0) {
    meta.empty('incremental_no_change', `every one of the ${plan.unchanged} file(s) was unchanged since the last index; nothing to do`);
  } else if (incoming > 0 && outcome.symbols === 0) {
    if (outcome.unsupported === incoming) {
      meta.empty('unsupported_language', `none of the ${incoming} new or changed file(s) is in a language with an extractor; they are stored for grep and read only`);
      meta.next('health', { project }, 'list the languages with an extractor');
    } else {
      meta.empty('extractor_emitted_nothing', `${incoming} file(s) were processed but the extractor found no symbols (${failed} failed to parse)`);
      meta.next('health', { project }, 'see extraction failures by reason');
    }
  }
  return {
    project,
    ref: upload.ref,
    commit: upload.commit_sha,
    files: { ...plan, skipped, failed },
    skipped_by_reason: outcome.skipped,
    failed_by_reason: outcome.failed,
    symbols: totals?.symbol_count ?? 0,
    symbols_added: outcome.symbols,
    ...(edges === null ? {} : { edges }),
    ...(scip ? { scip: { ...reportScip(scip, meta), ...(resolved?.scip ? { definitions: resolved.scip.definitions, unmapped_definitions: resolved.scip.unmapped, edges: resolved.scip.edges } : { edges: null }) } } : {}),
    duration_ms: Date.now() - started,
  };
}

/**
 * Runs the resolution pass for a committed push and returns the project's
 * edge count (and what a SCIP index contributed), or null when the pass failed
 * or was overtaken (the index itself is committed either way; the next push or
 * `index force` rebuilds the graph).
 */
async function resolveAfterCommit(
  d1: D1Database,
  plan: ResolutionPlan,
  generation: number,
  committed: D1Result,
  meta: MetaCollector,
  scip: PushedScip | null,
): Promise<{ edges: number; scip?: ResolutionResult['scip'] } | null> {
  try {
    const result = await resolveCommitted(d1, plan, generation, committed, scip?.documents);
    if (!result.applied) {
      meta.warn('graph_pending', 'a newer push committed while this one resolved its references; the graph follows the newer push');
      return null;
    }
    return { edges: result.total, ...(result.scip ? { scip: result.scip } : {}) };
  } catch (err) {
    const error = dbErrorMessage(err).slice(0, 300);
    console.error(JSON.stringify({ event: 'resolution_failed', project_id: plan.projectId, error }));
    meta.warn('graph_pending', 'the index was committed but resolving its references failed; graph tools answer from the previous graph until the next push or `index force`', { error });
    return null;
  }
}

/** Abandons an open upload; the visible index is untouched. */
export async function abortUpload(target: PushTarget, upload: UploadRow): Promise<void> {
  await setUploadStatus(target.db, upload.id, 'aborted', Date.now());
  await recordEvent(target.primary, 'upload_aborted', { id: upload.project_id, name: target.project }, { upload_id: upload.id });
}
