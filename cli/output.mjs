// What the push prints: progress on stderr (a bar on a TTY, a few plain lines otherwise), the
// summary (text or one JSON object on stdout) and the one-line failure message.
import cliProgress from 'cli-progress';
import { SKIP_REASONS } from './walk.mjs';

const STEP_PHRASES = {
  walk: 'walking the tree',
  open: 'opening the upload',
  upload: 'sending files',
  commit: 'committing',
  abandon: 'abandoning the upload',
};

/**
 * Progress reporting for one push.
 * @param {{ stream?: NodeJS.WriteStream, tty?: boolean }} [options]
 */
export function createProgress({ stream = process.stderr, tty = Boolean(stream.isTTY) } = {}) {
  /** @type {cliProgress.SingleBar | null} */
  let bar = null;
  let total = { files: 0, bytes: 0 };
  let done = { files: 0, bytes: 0 };
  let lastDecile = 0;

  /** @param {string} line */
  const say = (line) => stream.write(`pincher-edge: ${line}\n`);
  const stop = () => {
    bar?.stop();
    bar = null;
  };

  return {
    say,
    stop,
    /** @param {import('./push.mjs').ProgressEvent} event */
    onProgress: (event) => {
      if (event.type === 'opened') {
        total = { files: event.files, bytes: event.bytes };
        say(`upload ${event.uploadId} opened${event.superseded ? ` (took over abandoned upload ${event.superseded})` : ''}: ${plural(event.files, 'file')} (${formatBytes(event.bytes)}) to send`);
        if (tty && event.files > 0) {
          bar = new cliProgress.SingleBar({
            stream,
            format: '  {bar} {percentage}% | {value}/{total} files | {sent}/{size}',
            hideCursor: true,
            clearOnComplete: true,
          }, cliProgress.Presets.shades_classic);
          bar.start(event.files, 0, { sent: formatBytes(0), size: formatBytes(event.bytes) });
        }
      } else if (event.type === 'sent') {
        done = { files: done.files + event.files, bytes: done.bytes + event.bytes };
        if (bar) {
          bar.update(done.files, { sent: formatBytes(done.bytes) });
          return;
        }
        // One line per tenth of the bytes; a small push crosses a tenth with every batch.
        const decile = Math.floor((10 * done.bytes) / Math.max(total.bytes, 1));
        if (decile > lastDecile || done.files === total.files) {
          lastDecile = decile;
          say(`sent ${done.files}/${total.files} files, ${formatBytes(done.bytes)} (${Math.floor((100 * done.bytes) / Math.max(total.bytes, 1))}%)`);
        }
      } else if (event.type === 'committing') {
        stop();
        say('committing');
      }
    },
  };
}

/**
 * @typedef {object} Target
 * @property {string | null} url shown URL (no credentials)
 * @property {string} project
 * @property {string | null} ref
 * @property {string | null} commit
 */

/**
 * The JSON summary of a finished push.
 * @param {Target} target
 * @param {import('./walk.mjs').WalkResult} walked
 * @param {import('./push.mjs').PushResult} pushed
 * @param {number} durationMs
 * @param {{ path: string, auto: boolean } | null} [scip] the SCIP index sent with the commit
 */
export function pushSummary(target, walked, pushed, durationMs, scip = null) {
  const server = /** @type {Record<string, unknown>} */ (pushed.committed.files ?? {});
  const count = (/** @type {string} */ name) => (typeof server[name] === 'number' ? /** @type {number} */ (server[name]) : 0);
  const skipped = { ...walked.counts };
  for (const { reason } of pushed.skipped) skipped[reason] = (skipped[reason] ?? 0) + 1;
  const warnings = warningsOf(pushed.committed);
  return {
    ok: true,
    dry_run: false,
    ...target,
    upload_id: pushed.uploadId,
    files: {
      total: walked.files.length,
      new: count('new'),
      changed: count('changed'),
      unchanged: count('unchanged'),
      deleted: count('deleted'),
      skipped: walked.skipped.length + Math.max(count('skipped'), pushed.skipped.length),
      failed: count('failed'),
    },
    skipped,
    failures: pushed.failures,
    symbols: {
      total: typeof pushed.committed.symbols === 'number' ? pushed.committed.symbols : null,
      extracted: pushed.symbolsExtracted,
    },
    sent: pushed.sent,
    // The server's account of the index (documents covered, edges by kind); ignored: a server without SCIP ingest.
    ...(scip && { scip: { ...scip, ...(isRecord(pushed.committed.scip) ? pushed.committed.scip : { ignored: true }) } }),
    ...(warnings.length > 0 && { warnings }),
    duration_ms: durationMs,
    server_duration_ms: typeof pushed.committed.duration_ms === 'number' ? pushed.committed.duration_ms : null,
    // Send it back as X-Pincher-Bookmark: the call then reads this push's index on any replica (docs/consistency.md).
    ...(typeof pushed.committed.bookmark === 'string' && { bookmark: pushed.committed.bookmark }),
  };
}

/**
 * The JSON summary of a dry run: everything the walk decided, nothing asked of the server.
 * @param {Target} target
 * @param {import('./walk.mjs').WalkResult} walked
 * @param {number} durationMs
 */
export function dryRunSummary(target, walked, durationMs) {
  return {
    ok: true,
    dry_run: true,
    ...target,
    files: { total: walked.files.length, bytes: walked.files.reduce((sum, f) => sum + f.size, 0), skipped: walked.skipped.length },
    skipped: walked.counts,
    manifest: walked.files,
    skipped_paths: walked.skipped,
    duration_ms: durationMs,
  };
}

/**
 * The JSON summary of a failed push.
 * @param {Partial<Target>} target
 * @param {import('./http.mjs').PushError & { uploadId?: string, abandoned?: boolean }} error
 * @param {number} durationMs
 */
export function failureSummary(target, error, durationMs) {
  return {
    ok: false,
    dry_run: false,
    ...target,
    upload_id: error.uploadId ?? null,
    abandoned: error.uploadId ? Boolean(error.abandoned) : null,
    error: {
      step: error.step,
      status: error.status ?? null,
      code: error.code,
      message: error.message,
      suggestion: error.suggestion ?? null,
      ...(error.details && { details: error.details }),
    },
    duration_ms: durationMs,
  };
}

/** @param {ReturnType<typeof pushSummary>} s */
export function formatPushSummary(s) {
  const f = s.files;
  const lines = [
    `pushed ${describeTarget(s)} in ${formatDuration(s.duration_ms)}`,
    `  files    ${f.total} indexed: ${f.new} new, ${f.changed} changed, ${f.unchanged} unchanged, ${f.deleted} deleted, ${f.failed} failed`,
    `  skipped  ${formatSkipped(f.skipped, s.skipped)}`,
    `  symbols  ${s.symbols.total ?? '?'} in the index (${s.symbols.extracted} extracted now)`,
    `  sent     ${plural(s.sent.files, 'file')}, ${formatBytes(s.sent.bytes)} in ${plural(s.sent.batches, 'batch', 'batches')}`,
  ];
  if (s.scip) lines.push(`  scip     ${formatScip(s.scip)}`);
  for (const w of s.warnings ?? []) lines.push(`  warning  ${w}`);
  for (const { path, reason } of s.failures.slice(0, 10)) lines.push(`  failed   ${path} (${reason})`);
  if (s.failures.length > 10) lines.push(`  failed   … and ${s.failures.length - 10} more (see --json)`);
  return lines.join('\n');
}

/** @param {ReturnType<typeof dryRunSummary>} s */
export function formatDryRun(s) {
  const lines = [`dry run: would push ${describeTarget(s)}`];
  for (const file of s.manifest) lines.push(`  + ${file.path} (${formatBytes(file.size)})`);
  for (const entry of s.skipped_paths) lines.push(`  - ${entry.path} (${entry.reason}${entry.detail ? `: ${entry.detail}` : ''})`);
  lines.push(`  files    ${s.files.total} (${formatBytes(s.files.bytes)}); the server asks only for content it lacks`);
  lines.push(`  skipped  ${formatSkipped(s.files.skipped, s.skipped)}`);
  return lines.join('\n');
}

/**
 * The one line a failed push prints on stderr.
 * @param {import('./http.mjs').PushError & { uploadId?: string, abandoned?: boolean }} error
 * @param {{ project?: string, keyGiven: boolean }} context
 */
export function formatFailure(error, { project, keyGiven }) {
  const step = STEP_PHRASES[error.step] ?? error.step;
  const http = error.status ? `HTTP ${error.status} ${error.code}: ` : '';
  let line;
  if (error.status === 401 || error.status === 403) {
    const why = keyGiven ? 'the server refused the key' : 'no key was given and the server requires one';
    const hint = keyGiven ? 'push needs the read-write key (PINCHER_HTTP_KEY)' : 'set PINCHER_HTTP_KEY or pass --key';
    line = `${why} while ${step} (${http}${error.message}) — ${error.suggestion ?? hint}`;
  } else if (error.code === 'push_in_progress') {
    const other = typeof error.details?.upload_id === 'string' ? ` (upload ${error.details.upload_id})` : '';
    line = `another push of ${project ?? 'this project'} is in progress${other}: ${error.message}${error.suggestion ? ` — ${error.suggestion}` : ''}`;
  } else if (error.code === 'upload_superseded') {
    line = `a newer push of ${project ?? 'this project'} took over while ${step}: ${error.message}`;
  } else if (error.code === 'cancelled') {
    line = `cancelled while ${step}`;
  } else {
    line = `${step} failed: ${http}${error.message}${error.suggestion ? ` — ${error.suggestion}` : ''}`;
  }
  if (error.uploadId && error.code !== 'upload_superseded') {
    line += error.abandoned
      ? `; upload ${error.uploadId} abandoned, the previous index stays`
      : `; upload ${error.uploadId} could not be abandoned and stays open until the next push takes it over (at once with --take-over, else after 150 s idle)`;
  }
  return `pincher-edge: ${line}`;
}

/**
 * @param {number} total
 * @param {Record<string, number>} byReason
 */
function formatSkipped(total, byReason) {
  const parts = Object.entries(byReason)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([reason, n]) => `${reason} ${n}`);
  return parts.length ? `${total}: ${parts.join(', ')}` : `${total}`;
}

/** @param {string} reason */
function rank(reason) {
  const at = SKIP_REASONS.indexOf(/** @type {import('./walk.mjs').SkipReason} */ (reason));
  return at === -1 ? SKIP_REASONS.length : at;
}

/** @param {{ project: string, ref: string | null, commit: string | null, url: string | null }} s */
function describeTarget(s) {
  const at = s.ref ? ` @ ${s.ref}` : '';
  const sha = s.commit ? ` (${s.commit.slice(0, 12)})` : '';
  const to = s.url ? ` to ${s.url}` : '';
  return `${s.project}${at}${sha}${to}`;
}

/** @param {number} bytes */
export function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** @param {number} ms */
function formatDuration(ms) {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** @param {number} n @param {string} one @param {string} [many] */
function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** @param {import('./walk.mjs').WalkResult} walked */
export function formatWalked(walked) {
  const bytes = walked.files.reduce((sum, f) => sum + f.size, 0);
  return `walked ${plural(walked.files.length, 'file')} (${formatBytes(bytes)}), skipped ${formatSkipped(walked.skipped.length, walked.counts)}`;
}

/** @param {unknown} v @returns {v is Record<string, unknown>} */
function isRecord(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The server's warnings about the commit (`_meta.warnings_v2` messages).
 * @param {Record<string, unknown>} committed
 * @returns {string[]}
 */
function warningsOf(committed) {
  const meta = isRecord(committed._meta) ? committed._meta : {};
  const list = Array.isArray(meta.warnings_v2) ? meta.warnings_v2 : [];
  return list.filter((w) => isRecord(w) && typeof w.message === 'string' && w.severity !== 'info').map((w) => String(w.message));
}

/** @param {Record<string, unknown>} scip */
function formatScip(scip) {
  const from = scip.auto ? `${scip.path} (found at the push root; --no-scip to skip it)` : String(scip.path);
  if (scip.ignored) return `${from}: the server ignored it (it predates SCIP ingest)`;
  const edges = isRecord(scip.edges) ? Object.values(scip.edges).reduce((a, b) => a + (typeof b === 'number' ? b : 0), 0) : null;
  return `${from}: ${scip.files_covered} of ${scip.documents} document(s) used, ${edges === null ? 'graph pending' : `${edges} exact edges`}`;
}
