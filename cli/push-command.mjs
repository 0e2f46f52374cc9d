// `pincher-edge push`: fill in defaults from git, walk, then either describe (--dry-run) or
// upload, and print the outcome. Returns the exit code; throws nothing.
import { readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { ciBranch, defaultProject, gitFacts } from './git.mjs';
import { PushError, displayUrl } from './http.mjs';
import {
  createProgress, dryRunSummary, failureSummary, formatDryRun, formatFailure, formatPushSummary, formatWalked, pushSummary,
} from './output.mjs';
import { FINAL_EVENTS, followEvents, formatEvent } from './follow.mjs';
import { MAX_SCIP_BYTES, push } from './push.mjs';
import { walk } from './walk.mjs';

export const PROJECT_NAME = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * @typedef {object} PushCommandOptions
 * @property {string} dir
 * @property {string} [url] required unless dryRun
 * @property {string} [key]
 * @property {string} [project]
 * @property {string} [ref]
 * @property {string} [commit]
 * @property {string} [pushedBy] who pushes, for the server's push history
 * @property {boolean} json
 * @property {boolean} dryRun
 * @property {number} concurrency
 * @property {boolean} [takeOver] supersede an open upload of the project instead of failing
 * @property {string | false} [scip] a SCIP index to send; false: none; omitted: dir/index.scip when it exists
 * @property {number} maxFileSize
 * @property {boolean} [follow] print the push's lifecycle events from GET /v1/events until its graph is resolved
 * @property {number} [followTimeoutMs] how long --follow waits for that after the commit (default 120 s)
 */

/**
 * @typedef {object} Io
 * @property {NodeJS.WritableStream & { isTTY?: boolean }} stdout
 * @property {NodeJS.WriteStream} stderr
 * @property {NodeJS.ProcessEnv} env
 * @property {AbortSignal} [signal]
 */

/**
 * @param {PushCommandOptions} options
 * @param {Io} io
 * @returns {Promise<number>} exit code: 0 done, 1 failed, 2 bad invocation, 130 cancelled
 */
export async function runPush(options, io) {
  const started = Date.now();
  // Server text is printed as is; make sure it can never carry the key out.
  const redact = (/** @type {string} */ text) => (options.key && options.key.length >= 6 ? text.split(options.key).join('***') : text);
  const print = (/** @type {unknown} */ value) => io.stdout.write(`${redact(typeof value === 'string' ? value : JSON.stringify(value, null, 2))}\n`);
  const complain = (/** @type {string} */ line) => io.stderr.write(`${redact(line)}\n`);

  const root = resolve(options.dir);
  if (!(await stat(root).then((s) => s.isDirectory(), () => false))) {
    complain(`pincher-edge: ${options.dir} is not a directory`);
    return 2;
  }
  const facts = await gitFacts(root);
  const project = options.project ?? defaultProject(root, facts);
  if (!PROJECT_NAME.test(project)) {
    complain(`pincher-edge: "${project}" (from ${options.project ? '--project' : 'git or the folder name'}) is not a valid project name; pass --project with 1-100 of A-Z a-z 0-9 . _ -`);
    return 2;
  }
  const target = {
    url: options.url ? displayUrl(options.url) : null,
    project,
    ref: options.ref ?? facts.branch ?? (facts.commit ? ciBranch(io.env) : undefined) ?? null,
    commit: options.commit ?? facts.commit ?? null,
  };
  const progress = createProgress({ stream: io.stderr });
  const scipPath = options.scip === false ? null : options.scip !== undefined ? resolve(options.scip) : join(root, AUTO_SCIP);
  const scipGiven = typeof options.scip === 'string';
  if (scipGiven && !(await stat(/** @type {string} */ (scipPath)).then((s) => s.isFile(), () => false))) {
    complain(`pincher-edge: --scip ${options.scip} is not a file; run the indexer first (e.g. npx @sourcegraph/scip-typescript index) or drop --scip`);
    return 2;
  }

  /** @type {Awaited<ReturnType<typeof startFollowing>>} */
  let follow = null;
  try {
    const found = scipPath ? await readScip(scipPath, scipGiven) : null;
    const walked = await walk(root, { maxFileSize: options.maxFileSize }).catch((error) => {
      throw new PushError({ step: 'walk', code: error.code ?? 'walk_failed', message: error.message });
    });
    if (found) {
      // The index describes the tree; it is not a source file of it.
      const inside = relative(root, found.path).split(sep).join('/');
      walked.files = walked.files.filter((f) => f.path !== inside);
    }
    if (options.dryRun) {
      const summary = dryRunSummary(target, walked, Date.now() - started);
      print(options.json ? summary : formatDryRun(summary));
      return 0;
    }
    progress.say(formatWalked(walked));
    if (options.follow) follow = await startFollowing(options, project, progress.say);
    if (found) progress.say(`scip     ${found.shown} (${found.auto ? 'found at the push root; --no-scip to skip it' : '--scip'}), ${found.bytes.length} bytes, sent with the commit`);
    const pushed = await push({
      url: /** @type {string} */ (options.url),
      key: options.key,
      project,
      ref: target.ref ?? undefined,
      commit: target.commit ?? undefined,
      root,
      files: walked.files,
      concurrency: options.concurrency,
      takeOver: options.takeOver,
      ...(options.pushedBy && { pushedBy: options.pushedBy }),
      ...(found && { scip: found.bytes }),
      signal: io.signal,
      onProgress: (event) => {
        if (event.type === 'opened') follow?.track(event.uploadId);
        progress.onProgress(event);
      },
    });
    if (follow) await follow.finish(options.followTimeoutMs ?? DEFAULT_FOLLOW_TIMEOUT_MS);
    const summary = pushSummary(target, walked, pushed, Date.now() - started, found && { path: found.shown, auto: found.auto });
    print(options.json ? summary : formatPushSummary(summary));
    return 0;
  } catch (caught) {
    progress.stop();
    follow?.stop();
    const error = caught instanceof PushError
      ? caught
      : new PushError({ step: 'walk', code: 'internal', message: String(/** @type {Error} */ (caught)?.message ?? caught) });
    complain(formatFailure(error, { project, keyGiven: Boolean(options.key) }));
    if (options.json) print(failureSummary(target, error, Date.now() - started));
    return error.code === 'cancelled' ? 130 : 1;
  }
}

const DEFAULT_FOLLOW_TIMEOUT_MS = 120_000;
/** How long the events stream may take to answer before --follow gives up on it (the push goes on). */
const FOLLOW_CONNECT_MS = 15_000;

/**
 * Opens the project's events stream before the push starts (so none of its events is
 * missed) and prints, through `say`, the events of the upload `track` names; events seen
 * before the upload id is known are held until then. Null when the stream cannot be
 * followed: the push goes on and says why.
 * @param {PushCommandOptions} options
 * @param {string} project
 * @param {(line: string) => void} say
 */
async function startFollowing(options, project, say) {
  /** @type {string | null} */
  let ours = null;
  /** @type {import('./follow.mjs').PushEvent[]} */
  const held = [];
  let finished = () => {};
  let final = false;
  const show = (/** @type {import('./follow.mjs').PushEvent} */ e) => {
    say(formatEvent(e));
    if (FINAL_EVENTS.has(e.type)) {
      final = true;
      finished();
    }
  };
  const follower = followEvents({
    url: /** @type {string} */ (options.url),
    key: options.key,
    project,
    onEvent: (e) => {
      if (ours === null) held.push(e);
      else if (e.data.upload_id === ours || e.type === 'gap') show(e);
    },
  });
  let timer;
  const refused = await Promise.race([
    follower.connected.then(() => null, (/** @type {Error} */ error) => error.message),
    new Promise((resolve) => (timer = setTimeout(() => resolve(`no answer within ${FOLLOW_CONNECT_MS / 1000} s`), FOLLOW_CONNECT_MS))),
  ]);
  clearTimeout(timer);
  if (refused !== null) {
    follower.stop();
    say(`--follow: cannot follow GET /v1/events (${refused}); pushing without following`);
    return null;
  }
  say(`following events of ${project}`);
  return {
    /** @param {string} uploadId */
    track(uploadId) {
      ours = uploadId;
      for (const e of held.splice(0)) if (e.data.upload_id === ours) show(e);
    },
    /** Waits for the push's final event (its graph resolved or left pending), at most `timeoutMs`. */
    async finish(/** @type {number} */ timeoutMs) {
      let timeout;
      const outcome = final
        ? 'done'
        : await new Promise((resolve) => {
            finished = () => resolve('done');
            timeout = setTimeout(() => resolve('timeout'), timeoutMs);
          });
      clearTimeout(timeout);
      follower.stop();
      if (outcome === 'timeout') say(`--follow: no resolution event within ${Math.round(timeoutMs / 1000)} s; the push itself is committed`);
    },
    stop: () => follower.stop(),
  };
}

/** The index a SCIP indexer writes by default, looked for at the push root. */
export const AUTO_SCIP = 'index.scip';

/**
 * Reads a SCIP index to send; null when the auto-detected one does not exist.
 * @param {string} path
 * @param {boolean} given named by --scip (then it must exist)
 * @returns {Promise<{ path: string, shown: string, auto: boolean, bytes: Buffer } | null>}
 */
async function readScip(path, given) {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return null;
  const shown = relative(process.cwd(), path) || path;
  if (info.size > MAX_SCIP_BYTES) {
    throw new PushError({
      step: 'walk',
      code: 'scip_too_large',
      message: `${shown} is ${info.size} bytes; the server accepts a SCIP index of at most ${MAX_SCIP_BYTES} bytes`,
      suggestion: given ? 'index a smaller part of the repository, or push without --scip' : 'push with --no-scip, or index a smaller part of the repository',
    });
  }
  return { path, shown, auto: !given, bytes: await readFile(path) };
}
