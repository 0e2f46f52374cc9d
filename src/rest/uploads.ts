import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { PincherError } from '../errors';
import { requireWrite } from '../http/auth';
import { readBodyBytes, readJsonBody } from '../http/body';
import { jsonWithMeta } from '../http/respond';
import { MetaCollector } from '../envelope/collector';
import { changeCounts, getProjectUpload } from '../db/uploads';
import { latestBookmark } from '../db/sessions';
import { encodeBookmark, projectHome, pushTarget } from '../db/project-shard';
import { BOOKMARK_HEADER } from '../http/bookmark';
import { abortUpload, claimAndAcceptFiles, claimForCommit, commitUpload, openUpload, requireOpenUpload } from '../upload/service';
import { checkProjectName } from '../upload/paths';
import { MAX_SCIP_BYTES, SCIP_MEDIA_TYPES } from '../upload/scip';
import { firstIssue, OpenUploadBody } from './upload-schemas';

/** Manifest bodies: 100,000 entries of ~150 bytes. */
export const MAX_MANIFEST_BODY = 24 * 1024 * 1024;
/** Content batches (the CLI packs 2 MiB). */
export const MAX_FILES_BODY = 4 * 1024 * 1024;

/** The push protocol (docs/indexing.md): manifest, content batches, atomic commit. */
export const uploadRoutes = new Hono<AppEnv>();

function objectBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new PincherError('invalid_request', 'the body must be a JSON object', { suggestion: 'see docs/indexing.md for the request shapes' });
  }
  return body as Record<string, unknown>;
}

uploadRoutes.post('/:project/uploads', async (c) => {
  requireWrite(c.get('scope'), 'pushing an index');
  const body = objectBody(await readJsonBody(c, MAX_MANIFEST_BODY));
  const fields = OpenUploadBody.omit({ manifest: true }).safeParse(body);
  if (!fields.success) {
    const { field, message } = firstIssue(fields.error);
    throw new PincherError('invalid_params', message.startsWith(field) ? message : `${field}: ${message}`, {
      suggestion: 'see the OpenUpload request body in GET /v1/openapi.json (mode: replace or merge; take_over: true or false; ref and commit: short strings)',
    });
  }
  const mode = fields.data.mode ?? 'replace';
  // A new project is placed on the shard storing the fewest bytes (src/db/project-shard.ts).
  const target = await pushTarget(c.env, checkProjectName(c.req.param('project')), { place: true });
  const result = await openUpload(target, {
    project: c.req.param('project'),
    ref: body.ref as string | undefined,
    commit: body.commit as string | undefined,
    manifest: body.manifest,
    mode,
    takeOver: fields.data.take_over === true,
    pushedBy: body.pushed_by as string | null | undefined,
  });
  return jsonWithMeta(c, { ...result }, 201);
});

uploadRoutes.post('/:project/uploads/:id/files', async (c) => {
  requireWrite(c.get('scope'), 'pushing an index');
  const project = checkProjectName(c.req.param('project'));
  const target = await pushTarget(c.env, project, { place: false });
  const id = c.req.param('id');
  let body: Record<string, unknown>;
  try {
    body = objectBody(await readJsonBody(c, MAX_FILES_BODY));
  } catch (err) {
    // A body refused: the upload's own state answers first, as when it is claimed before the body is read.
    await requireOpenUpload(target.db, project, id);
    throw err;
  }
  // The upload is claimed in the batch's first round trip.
  const result = await claimAndAcceptFiles(target, project, id, body.files);
  return jsonWithMeta(c, { ...result });
});

uploadRoutes.post('/:project/uploads/:id/commit', async (c) => {
  requireWrite(c.get('scope'), 'pushing an index');
  const project = checkProjectName(c.req.param('project'));
  const target = await pushTarget(c.env, project, { place: false });
  // The claim and every read the commit plans from: one round trip, before the body is read.
  const claim = await claimForCommit(target, project, c.req.param('id'));
  // A SCIP index travels as the commit body; no body (or JSON) commits without one.
  const media = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const scip = SCIP_MEDIA_TYPES.includes(media) ? await readBodyBytes(c, MAX_SCIP_BYTES) : undefined;
  const meta = new MetaCollector();
  const summary = await commitUpload(target, claim, meta, c.get('requestId'), scip);
  // Read-your-writes: a tool call sending this bookmark back reads the index this commit made, on any replica
  // of the project's shard (the bookmark names its shard).
  const bookmark = encodeBookmark(target.shard, await latestBookmark(target.db));
  const res = await jsonWithMeta(c, { ...summary }, 200, meta);
  if (bookmark) res.headers.set(BOOKMARK_HEADER, bookmark);
  return res;
});

uploadRoutes.get('/:project/uploads/:id', async (c) => {
  const project = checkProjectName(c.req.param('project'));
  const { shard } = await projectHome(c.env, project);
  const upload = await getProjectUpload(shard.db, project, c.req.param('id'));
  if (!upload) {
    throw new PincherError('upload_not_found', `no upload '${c.req.param('id').slice(0, 60)}' for project '${project}'`, {
      suggestion: 'open a new upload with POST /v1/projects/{project}/uploads',
    });
  }
  const status = upload.status === 'open' && upload.expires_at < Date.now() ? 'expired' : upload.status;
  return jsonWithMeta(c, {
    upload_id: upload.id,
    project,
    status,
    ref: upload.ref,
    commit: upload.commit_sha,
    created_at: new Date(upload.created_at).toISOString(),
    expires_at: new Date(upload.expires_at).toISOString(),
    plan: await changeCounts(shard.db, upload.id),
  });
});

uploadRoutes.delete('/:project/uploads/:id', async (c) => {
  requireWrite(c.get('scope'), 'abandoning an upload');
  const project = checkProjectName(c.req.param('project'));
  const target = await pushTarget(c.env, project, { place: false, abandon: true });
  const upload = await requireOpenUpload(target.db, project, c.req.param('id'));
  await abortUpload(target, upload);
  return jsonWithMeta(c, { upload_id: upload.id, status: 'aborted' });
});
