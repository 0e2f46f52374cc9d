// `pincher-edge shards` and `pincher-edge move`: the operator's side of a sharded deployment,
// over the admin routes (GET /v1/admin/shards, POST /v1/admin/projects/{project}/move) with the
// admin key. Each returns the exit code and throws nothing.
import { createClient, displayUrl } from './http.mjs';

/**
 * @typedef {object} AdminOptions
 * @property {string} url
 * @property {string} key the admin key (PINCHER_ADMIN_KEY)
 * @property {boolean} json
 */

/**
 * @typedef {object} Io
 * @property {NodeJS.WritableStream} stdout
 * @property {NodeJS.WritableStream} stderr
 * @property {AbortSignal} [signal]
 */

/**
 * Lists the shards: binding, stored bytes (D1's own figure), projects, and moves in progress.
 * @param {AdminOptions} options @param {Io} io
 * @returns {Promise<number>} 0 listed, 1 failed
 */
export async function runShards(options, io) {
  const out = printer(options, io);
  try {
    const client = createClient({ url: options.url, key: options.key, signal: io.signal });
    const answer = await client.request('shards', 'GET', '/v1/admin/shards', undefined, 'transient');
    if (options.json) {
      out.print(JSON.stringify(withoutMeta(answer), null, 2));
      return 0;
    }
    out.print(formatShards(/** @type {ShardsAnswer} */ (answer)));
    return 0;
  } catch (error) {
    out.complain(failureLine(/** @type {AdminError} */ (error), 'listing the shards', options.url));
    return 1;
  }
}

/**
 * Moves a project to another shard; the old copy answers reads until the catalog flips.
 * @param {AdminOptions & { project: string, shard: number }} options @param {Io} io
 * @returns {Promise<number>} 0 moved, 1 failed
 */
export async function runMove(options, io) {
  const out = printer(options, io);
  if (!options.json) out.complain(`pincher-edge: moving ${options.project} to shard ${options.shard} on ${displayUrl(options.url)} (reads keep being served from the old shard until the move commits)…`);
  try {
    const client = createClient({ url: options.url, key: options.key, signal: io.signal });
    // Retried only when the server did not act (429 / 503): a move is not idempotent.
    const answer = await client.request('move', 'POST', `/v1/admin/projects/${encodeURIComponent(options.project)}/move`, JSON.stringify({ shard: options.shard }), 'overload');
    if (options.json) {
      out.print(JSON.stringify(withoutMeta(answer), null, 2));
      return 0;
    }
    out.print(formatMove(/** @type {MoveAnswer} */ (answer)));
    return 0;
  } catch (error) {
    out.complain(failureLine(/** @type {AdminError} */ (error), `moving ${options.project}`, options.url));
    return 1;
  }
}

/**
 * @typedef {{ shards: { shard: number, binding: string, bytes: number, projects: number }[], moves: { project: string, from: number, to: number | null, heartbeat_at: string }[] }} ShardsAnswer
 * @typedef {{ project: string, from: number, to: number, copied: Record<string, number>, removed: Record<string, number>, duration_ms: number }} MoveAnswer
 * @typedef {{ step?: string, code?: string, status?: number, message: string, suggestion?: string }} AdminError
 */

/** @param {ShardsAnswer} answer */
export function formatShards(answer) {
  const rows = [['shard', 'binding', 'stored MB', 'projects']];
  for (const s of answer.shards) rows.push([String(s.shard), s.binding, (s.bytes / 1e6).toFixed(1), String(s.projects)]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((cell, i) => (i === 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd());
  for (const m of answer.moves) lines.push(`moving: ${m.project} from shard ${m.from} to shard ${m.to ?? '?'} (last heartbeat ${m.heartbeat_at})`);
  return lines.join('\n');
}

/** @param {MoveAnswer} answer */
export function formatMove(answer) {
  const sum = (/** @type {Record<string, number>} */ rows) => Object.values(rows).reduce((a, n) => a + n, 0);
  const seconds = (answer.duration_ms / 1000).toFixed(1);
  return `pincher-edge: moved ${answer.project} from shard ${answer.from} to shard ${answer.to} in ${seconds} s (${sum(answer.copied).toLocaleString('en-US')} rows copied, ${sum(answer.removed).toLocaleString('en-US')} removed from shard ${answer.from})`;
}

/** @param {AdminError} error @param {string} doing @param {string} url */
function failureLine(error, doing, url) {
  if (error.code === 'cancelled') return `pincher-edge: cancelled while ${doing}`;
  const http = error.status ? `HTTP ${error.status} ${error.code}: ` : '';
  const hint =
    error.status === 401 || error.status === 403
      ? 'the admin routes need the admin key: set PINCHER_ADMIN_KEY to the Worker\'s PINCHER_ADMIN_KEY secret'
      : error.status === 404 && error.code === 'http_404'
        ? `is ${displayUrl(url)} a pincher-edge server with the admin routes?`
        : undefined;
  const suggestion = error.suggestion ?? hint;
  return `pincher-edge: ${doing} failed: ${http}${error.message}${suggestion ? ` — ${suggestion}` : ''}`;
}

/** @param {Record<string, unknown>} answer */
function withoutMeta(answer) {
  const { _meta, ...rest } = answer;
  return rest;
}

/** Writers that can never carry the key out, whatever the server's text holds. @param {AdminOptions} options @param {Io} io */
function printer(options, io) {
  const redact = (/** @type {string} */ text) => (options.key.length >= 6 ? text.split(options.key).join('***') : text);
  return {
    print: (/** @type {string} */ text) => io.stdout.write(`${redact(text)}\n`),
    complain: (/** @type {string} */ line) => io.stderr.write(`${redact(line)}\n`),
  };
}
