import * as z from 'zod';
import { PincherError } from '../errors';
import { EXTRACTOR_VERSION } from '../extract';
import { getProjectByName } from '../db/projects';
import { pendingCount, pendingFromStore, projectFilesManifest } from '../db/reindex';
import { abortOpenUpload, touchUpload } from '../db/uploads';
import { storeExtractionStatements, type ExtractionRow } from '../db/index-store';
import { extractionRow } from '../upload/extract-rows';
import { blockedFile } from '../upload/blocklist';
import { sha256Hex } from '../upload/paths';
import { pushTarget } from '../db/project-shard';
import { acceptFiles, claimForCommit, commitUpload, MAX_FILE_BYTES, openUpload, PARSE_BUDGET_MS, requireOpenUpload, UPLOAD_TTL_MS } from '../upload/service';
import { defineTool, type ToolContext } from './define';

/** Inline pushes are for small edits; CI uses `pincher-edge push`. */
export const INLINE_MAX_FILES = 200;
/** Content cap for inline files; with JSON escaping it keeps the request under the 1 MiB body limit. */
export const INLINE_MAX_BYTES = 768 * 1024;
/** Files re-extracted per `force` call, so each call fits a Worker's CPU budget. */
const FORCE_CHUNK = 150;
/** Files between two progress reports of a `force` chunk. */
const PROGRESS_EVERY = 25;

const summary = z.object({
  project: z.string(),
  ref: z.string().nullable(),
  commit: z.string().nullable(),
  files: z.object({
    new: z.number(),
    changed: z.number(),
    unchanged: z.number(),
    deleted: z.number(),
    skipped: z.number(),
    failed: z.number(),
    blocked: z.number(),
  }),
  blocked_by_family: z.record(z.string(), z.number()),
  skipped_by_reason: z.record(z.string(), z.number()),
  failed_by_reason: z.record(z.string(), z.number()),
  symbols: z.number(),
  symbols_added: z.number(),
  /** Resolved graph edges after the commit; absent until the commit's resolution pass finishes. */
  edges: z.number().optional(),
  done: z.boolean(),
  upload_id: z.string().optional(),
  remaining: z.number().optional(),
});

export const indexTool = defineTool({
  name: 'index',
  title: 'Index files or re-extract a project',
  description:
    'Write to a project index. Either files (inline, merged into the project) or force=true (rebuild every stored file: ' +
    'files the current extractor has not extracted are re-extracted, in resumable chunks; symbols and the call graph are rebuilt). ' +
    'Exactly one of files or force. CI should use `npx --yes <server>/v1/cli.tgz push`.',
  tier: 'heavy',
  toolset: 'full',
  writes: { idempotent: true },
  baseline: 'none',
  input: z.object({
    project: z.string().describe('Project name, 1–100 of A–Z a–z 0–9 . _ -; created on first index.'),
    files: z
      .array(z.object({ path: z.string(), content: z.string() }))
      .max(INLINE_MAX_FILES)
      .optional()
      .describe(`Files to add or replace: relative /-separated paths; at most ${INLINE_MAX_FILES} files and 768 KiB of content in total. Not with force.`),
    replace: z.boolean().default(false).describe('With files: true deletes project files not listed; default false merges.'),
    force: z
      .boolean()
      .default(false)
      .describe('Rebuild every stored file; re-extract those the current extractor has not extracted. Not with files. Repeat with upload_id until done.'),
    upload_id: z.string().optional().describe('Continue the force run named in the previous answer (next_steps carries it).'),
    ref: z.string().max(200).optional().describe('Ref label for this index (e.g. main).'),
  }),
  output: summary,
  handler: async (args, ctx) => {
    if (args.files && args.force) {
      throw new PincherError('invalid_params', 'files and force cannot be combined', {
        suggestion: 'call index with files to add content, or with force=true to re-extract what is stored',
      });
    }
    if (!args.files && !args.force) {
      throw new PincherError('invalid_params', 'index needs files or force=true', {
        suggestion: 'pass files: [{path, content}] or force: true',
      });
    }
    return args.force ? forceReindex(args.project, args.upload_id, ctx) : inlineIndex(args, ctx);
  },
});

type Ctx = ToolContext;
type Summary = z.infer<typeof summary>;

async function inlineIndex(
  args: { project: string; files?: { path: string; content: string }[]; replace: boolean; ref?: string },
  ctx: Ctx,
): Promise<Summary> {
  // A new project is placed on a shard here, as a push places it (src/db/project-shard.ts).
  const target = await pushTarget(ctx.env, args.project, { place: true });
  const db = target.db;
  const files = args.files ?? [];
  const total = files.reduce((n, f) => n + new TextEncoder().encode(f.content).length, 0);
  if (total > INLINE_MAX_BYTES) {
    throw new PincherError('body_too_large', `files hold ${total} bytes; inline index takes at most ${INLINE_MAX_BYTES}`, {
      suggestion: 'push large trees with `npx --yes <server>/v1/cli.tgz push`, or send fewer files per call',
    });
  }
  const blocked: Record<string, number> = {};
  const kept = files.filter((f) => {
    const family = blockedFile(f.path, f.content);
    if (family) blocked[family] = (blocked[family] ?? 0) + 1;
    return !family;
  });
  const blockedCount = files.length - kept.length;
  if (files.length > 0 && kept.length === 0) {
    ctx.meta.empty(
      'all_files_blocked',
      `all ${files.length} file(s) were blocked (${Object.entries(blocked).map(([k, v]) => `${k}: ${v}`).join(', ')}); nothing was indexed`,
      { blocked },
    );
    const existing = await getProjectByName(db, args.project);
    return {
      project: args.project,
      ref: existing?.ref ?? null,
      commit: existing?.commitSha ?? null,
      files: { new: 0, changed: 0, unchanged: 0, deleted: 0, skipped: 0, failed: 0, blocked: blockedCount },
      blocked_by_family: blocked,
      skipped_by_reason: {},
      failed_by_reason: {},
      symbols: existing?.symbolCount ?? 0,
      symbols_added: 0,
      done: true,
    };
  }
  const manifest = await Promise.all(
    kept.map(async (f) => ({ path: f.path, hash: await sha256Hex(f.content), size: new TextEncoder().encode(f.content).length })),
  );
  const opened = await openUpload(target, { project: args.project, ref: args.ref, manifest, mode: args.replace ? 'replace' : 'merge' });
  const upload = await requireOpenUpload(db, opened.project, opened.upload_id);
  try {
    const missing = new Set(opened.missing);
    const send = kept.map((f, i) => ({ path: f.path, hash: manifest[i].hash, content: f.content })).filter((f) => missing.has(f.hash));
    if (send.length) await acceptFiles(target, upload, send);
    const done = await commitUpload(target, await claimForCommit(target, opened.project, upload.id), ctx.meta, ctx.requestId);
    return { ...done, files: { ...done.files, blocked: blockedCount }, blocked_by_family: blocked, done: true };
  } catch (err) {
    await abortOpenUpload(db, upload.id);
    throw err;
  }
}

async function forceReindex(project: string, uploadId: string | undefined, ctx: Ctx): Promise<Summary> {
  const row = await getProjectByName(ctx.db, project);
  if (!row || row.indexedAt === null) {
    ctx.meta.empty('no_project_indexed', `project '${project}' has no stored index to re-extract; push it first`, { project });
    ctx.meta.next('list', {}, 'see which projects are indexed');
    return {
      project,
      ref: null,
      commit: null,
      files: { new: 0, changed: 0, unchanged: 0, deleted: 0, skipped: 0, failed: 0, blocked: 0 },
      blocked_by_family: {},
      skipped_by_reason: {},
      failed_by_reason: {},
      symbols: 0,
      symbols_added: 0,
      done: true,
    };
  }
  const target = await pushTarget(ctx.env, project, { place: false });
  const db = target.db;
  let id = uploadId;
  if (!id) {
    // Every stored file is marked changed so the commit rebuilds it from a fresh extraction.
    const manifest = await projectFilesManifest(db, row.id);
    const opened = await openUpload(target, { project, ref: row.ref, commit: row.commitSha, manifest, mode: 'replace', forceChanged: true });
    id = opened.upload_id;
  }
  const upload = await requireOpenUpload(db, project, id);
  const pending = await pendingFromStore(db, upload.id, EXTRACTOR_VERSION, FORCE_CHUNK + 1);
  const chunk = pending.slice(0, FORCE_CHUNK);
  const stored = [];
  if (chunk.length) await ctx.progress?.(0, chunk.length, `re-extracting ${chunk.length} file(s) of '${project}'`);
  for (const p of chunk) {
    const row =
      p.content === null
        ? skippedRow(p.hash, p.language, p.previous_reason ?? 'encoding')
        : await extractionRow(p.path, p.hash, p.content, { maxBytes: MAX_FILE_BYTES, timeoutMs: PARSE_BUDGET_MS });
    stored.push({ row, content: null, size: 0 });
    if (stored.length % PROGRESS_EVERY === 0 || stored.length === chunk.length) {
      await ctx.progress?.(stored.length, chunk.length, `re-extracted ${stored.length} of ${chunk.length} file(s) of '${project}'`);
    }
  }
  if (stored.length) await db.batch(storeExtractionStatements(db, stored, Date.now()));
  if (pending.length > FORCE_CHUNK) {
    // Each chunk is activity on the upload: keep it from expiring between calls.
    await touchUpload(db, upload.id, Date.now(), UPLOAD_TTL_MS);
    const remaining = await pendingCount(db, upload.id, EXTRACTOR_VERSION);
    ctx.meta.next('index', { project, force: true, upload_id: upload.id }, `continue re-extraction: ${remaining} file(s) left`);
    return {
      project,
      ref: row.ref,
      commit: row.commitSha,
      files: { new: 0, changed: stored.length, unchanged: 0, deleted: 0, skipped: 0, failed: 0, blocked: 0 },
      blocked_by_family: {},
      skipped_by_reason: {},
      failed_by_reason: {},
      symbols: row.symbolCount,
      symbols_added: 0,
      done: false,
      upload_id: upload.id,
      remaining,
    };
  }
  const done = await commitUpload(target, await claimForCommit(target, project, upload.id), ctx.meta, ctx.requestId);
  return { ...done, files: { ...done.files, blocked: 0 }, blocked_by_family: {}, done: true };
}

/** A file never stored (binary, encoding, too large) keeps its skip reason under the new extractor. */
function skippedRow(hash: string, language: string, reason: string): ExtractionRow {
  return {
    hash,
    language,
    extractorVersion: EXTRACTOR_VERSION,
    corpus: 'none',
    status: 'skipped',
    reason,
    message: null,
    hadErrors: false,
    symbolCount: 0,
    refCount: 0,
    parseMs: 0,
    symbolsJson: '[]',
    refsJson: '[]',
  };
}
