// The upload protocol client (docs/indexing.md): open an upload with the manifest, send only
// the content the server lacks in batches of at most 2 MiB, several at a time, then commit.
// Whatever goes wrong after the upload is opened, the upload is abandoned (DELETE) so the
// project is not locked until it expires.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PushError, createClient } from './http.mjs';
import { sha256 } from './walk.mjs';

export const MAX_BATCH_BYTES = 2 * 1024 * 1024;
/** The largest SCIP index the server accepts with a commit (src/upload/scip.ts). */
export const MAX_SCIP_BYTES = 32 * 1024 * 1024;
const SCIP_MEDIA_TYPE = 'application/x-scip';
export const MAX_MANIFEST_FILES = 100_000;
const BODY_OPEN = '{"files":[';
const BODY_CLOSE = ']}';

/**
 * @typedef {import('./walk.mjs').WalkedFile} WalkedFile
 * @typedef {{ path: string, reason: string }} PathReason
 * @typedef {{ type: 'opened', uploadId: string, files: number, bytes: number, superseded?: string }
 *   | { type: 'sent', files: number, bytes: number }
 *   | { type: 'committing' }} ProgressEvent
 *   `opened` announces how much will travel; each `sent` adds one finished batch.
 */

/**
 * @typedef {object} PushOptions
 * @property {string} url
 * @property {string} [key]
 * @property {string} project
 * @property {string} [ref]
 * @property {string} [commit]
 * @property {string} root the walked folder; manifest paths are relative to it
 * @property {WalkedFile[]} files the manifest
 * @property {number} concurrency batches in flight at once
 * @property {boolean} [takeOver] supersede the project's open upload (a killed push) at once
 * @property {string} [pushedBy] who pushes, shown in the server's push history
 * @property {Uint8Array} [scip] a SCIP index of the tree, sent as the commit's body
 * @property {AbortSignal} [signal]
 * @property {number} [retryBaseMs]
 * @property {(event: ProgressEvent) => void} [onProgress]
 */

/**
 * @typedef {object} PushResult
 * @property {string} uploadId
 * @property {{ files: number, bytes: number, batches: number }} sent
 * @property {PathReason[]} skipped what the server recorded as skipped while extracting
 * @property {PathReason[]} failures extraction failures
 * @property {number} symbolsExtracted symbols found in the content sent this time
 * @property {Record<string, unknown>} committed the commit answer (the server's summary)
 */

/**
 * Upload a walked tree. Throws a PushError; `error.uploadId` and `error.abandoned` tell what
 * became of an upload that was opened.
 * @param {PushOptions} options
 * @returns {Promise<PushResult>}
 * @example
 *   const { files } = await walk(root);
 *   const result = await push({ url, key, project: 'web', root, files, concurrency: 4 });
 */
export async function push(options) {
  const { url, key, project, ref, commit, root, files, signal, retryBaseMs, onProgress = () => {} } = options;
  if (files.length > MAX_MANIFEST_FILES) {
    throw new PushError({
      step: 'open',
      code: 'manifest_too_large',
      message: `${files.length} files exceed the ${MAX_MANIFEST_FILES}-file limit of one project`,
      suggestion: 'push a sub-folder, or exclude folders with a .pincherignore',
    });
  }
  // Failing fast: the first failed batch cancels the others still in flight.
  const failFast = new AbortController();
  const client = createClient({ url, key, retryBaseMs, signal: signal ? AbortSignal.any([signal, failFast.signal]) : failFast.signal });
  const uploads = `/v1/projects/${encodeURIComponent(project)}/uploads`;

  const manifest = files.map(({ path, hash, size }) => ({ path, hash, size }));
  const opened = await client.request('open', 'POST', uploads, JSON.stringify({ ref, commit, manifest, ...(options.takeOver && { take_over: true }), ...(options.pushedBy && { pushed_by: options.pushedBy }) }), 'overload');
  const uploadId = typeof opened.upload_id === 'string' ? opened.upload_id : '';
  if (!uploadId) throw new PushError({ step: 'open', status: 201, code: 'bad_response', message: 'the server opened an upload without an upload_id' });
  const upload = `${uploads}/${encodeURIComponent(uploadId)}`;

  try {
    const toSend = contentToSend(files, opened.missing);
    const superseded = typeof opened.superseded === 'string' ? opened.superseded : undefined;
    onProgress({ type: 'opened', uploadId, files: toSend.length, bytes: toSend.reduce((sum, f) => sum + f.size, 0), ...(superseded && { superseded }) });
    const sent = await sendBatches({ client, path: `${upload}/files`, root, files: toSend, concurrency: options.concurrency, failFast, onProgress });
    onProgress({ type: 'committing' });
    const committed = options.scip
      ? await client.request('commit', 'POST', `${upload}/commit`, options.scip, 'overload', SCIP_MEDIA_TYPE)
      : await client.request('commit', 'POST', `${upload}/commit`, undefined, 'overload');
    return { uploadId, ...sent, committed };
  } catch (error) {
    const failure = error instanceof PushError ? error : new PushError({ step: 'upload', code: 'client_error', message: String(/** @type {Error} */ (error)?.message ?? error) });
    Object.assign(failure, { uploadId, abandoned: await abandon({ url, key, path: upload }) });
    throw failure;
  }
}

/**
 * One file per missing hash: identical files share their content, so it travels once.
 * @param {WalkedFile[]} files
 * @param {unknown} missing
 */
function contentToSend(files, missing) {
  const wanted = new Set(Array.isArray(missing) ? missing : []);
  return files.filter((file) => wanted.delete(file.hash));
}

/**
 * @param {object} o
 * @param {ReturnType<typeof createClient>} o.client
 * @param {string} o.path
 * @param {string} o.root
 * @param {WalkedFile[]} o.files
 * @param {number} o.concurrency
 * @param {AbortController} o.failFast
 * @param {(event: ProgressEvent) => void} o.onProgress
 */
async function sendBatches({ client, path, root, files, concurrency, failFast, onProgress }) {
  const batches = packBatches(root, files, MAX_BATCH_BYTES);
  const sent = { files: 0, bytes: 0, batches: 0 };
  /** @type {PathReason[]} */
  const skipped = [];
  /** @type {PathReason[]} */
  const failures = [];
  let symbolsExtracted = 0;
  /** @type {unknown} */
  let failure;

  // Workers pull from one async generator; its next() calls queue, so each batch goes once.
  const worker = async () => {
    for (;;) {
      const { value: batch, done } = await batches.next();
      if (done) return;
      const answer = await client.request('upload', 'POST', path, batch.body, 'transient');
      skipped.push(...pathReasons(answer.skipped));
      failures.push(...pathReasons(answer.failures));
      symbolsExtracted += typeof answer.symbols === 'number' ? answer.symbols : 0;
      sent.files += batch.files;
      sent.bytes += batch.bytes;
      sent.batches++;
      onProgress({ type: 'sent', files: batch.files, bytes: batch.bytes });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker().catch((error) => {
    // Keep the first failure; the ones it causes (cancelled requests) are noise.
    if (failure === undefined) failure = error;
    failFast.abort();
  })));
  if (failure !== undefined) throw failure;
  const byPath = (/** @type {PathReason} */ a, /** @type {PathReason} */ b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  return { sent, skipped: skipped.sort(byPath), failures: failures.sort(byPath), symbolsExtracted };
}

/**
 * Read files in manifest order and pack them into request bodies of at most `maxBytes` (a file
 * bigger than that on its own travels alone). Content is re-hashed: a file edited since the walk
 * would be refused by the server, so it stops the push here with a clearer message.
 * @param {string} root
 * @param {WalkedFile[]} files
 * @param {number} maxBytes
 * @returns {AsyncGenerator<{ body: string, files: number, bytes: number }>}
 */
export async function* packBatches(root, files, maxBytes) {
  /** @type {string[]} */
  let parts = [];
  let size = BODY_OPEN.length + BODY_CLOSE.length;
  let bytes = 0;
  const batch = () => ({ body: `${BODY_OPEN}${parts.join(',')}${BODY_CLOSE}`, files: parts.length, bytes });
  for (const file of files) {
    const content = await readFile(join(root, file.path)).catch(() => null);
    if (!content || sha256(content) !== file.hash) {
      throw new PushError({
        step: 'upload',
        code: 'file_changed',
        message: `${file.path} changed or disappeared while pushing`,
        suggestion: 'run the push again once the tree is stable',
      });
    }
    const part = JSON.stringify({ path: file.path, hash: file.hash, content: content.toString('utf8') });
    const partBytes = Buffer.byteLength(part);
    if (parts.length > 0 && size + 1 + partBytes > maxBytes) {
      yield batch();
      parts = [];
      size = BODY_OPEN.length + BODY_CLOSE.length;
      bytes = 0;
    }
    size += (parts.length > 0 ? 1 : 0) + partBytes;
    bytes += content.length;
    parts.push(part);
  }
  if (parts.length > 0) yield batch();
}

/**
 * Best-effort DELETE of an opened upload; true when the server confirmed it.
 * @param {{ url: string, key?: string, path: string }} o
 */
async function abandon({ url, key, path }) {
  try {
    await createClient({ url, key, signal: AbortSignal.timeout(10_000) }).request('abandon', 'DELETE', path, undefined, 'none');
    return true;
  } catch {
    return false;
  }
}

/** @param {unknown} list @returns {PathReason[]} */
function pathReasons(list) {
  if (!Array.isArray(list)) return [];
  return list
    .filter((item) => item && typeof item.path === 'string')
    .map((item) => ({ path: item.path, reason: typeof item.reason === 'string' ? item.reason : 'unknown' }));
}
