// `pincher-edge shards` and `pincher-edge move`: the operator's side of a sharded deployment,
// over the admin routes (GET /v1/admin/shards, POST /v1/admin/projects/{project}/move) with the
// admin key. Each returns the exit code and throws nothing.
import { randomUUID } from 'node:crypto';
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

/** Steps in a row that may report no progress before the CLI gives up (another client stepping the same move makes none of its own). */
export const STALLED_STEPS = 50;

/**
 * Moves a project to another shard, one bounded server step per request
 * (POST /v1/admin/projects/{project}/move until the answer's state is
 * 'moved'), with a progress line per step on stderr. The old copy answers
 * reads until the catalog flips. A step is safe to retry (the server's cursor
 * only advances with the rows it copied), so failed requests are retried on
 * 429 and 5xx. Every request carries the move's id (one of the CLI's own for
 * the first, then the one the answers carry): a retry of the step that
 * finished the move is answered `moved` again, not `already_on_shard`.
 * @param {AdminOptions & { project: string, shard: number }} options @param {Io} io
 * @returns {Promise<number>} 0 moved, 1 failed
 */
export async function runMove(options, io) {
  const out = printer(options, io);
  if (!options.json) out.complain(`pincher-edge: moving ${options.project} to shard ${options.shard} on ${displayUrl(options.url)} (reads keep being served from the old shard until the move commits)…`);
  try {
    const client = createClient({ url: options.url, key: options.key, signal: io.signal });
    const path = `/v1/admin/projects/${encodeURIComponent(options.project)}/move`;
    let body = JSON.stringify({ shard: options.shard, move: randomUUID().replaceAll('-', '') });
    let stalled = 0;
    let last = '';
    for (;;) {
      const answer = /** @type {MoveAnswer} */ (await client.request('move', 'POST', path, body, 'transient'));
      if (answer.next?.body) body = JSON.stringify(answer.next.body);
      if (answer.state === undefined || answer.state === 'moved') {
        if (options.json) out.print(JSON.stringify(withoutMeta(answer), null, 2));
        else out.print(formatMove(answer));
        return 0;
      }
      out.complain(formatStep(answer));
      const mark = JSON.stringify([answer.state, answer.progress?.rows_copied, answer.progress?.removed]);
      stalled = mark === last ? stalled + 1 : 0;
      last = mark;
      if (stalled >= STALLED_STEPS) {
        out.complain(`pincher-edge: moving ${options.project} failed: ${STALLED_STEPS} steps in a row made no progress — pincher-edge shards shows the move; run the command again to continue it, or cancel it with pincher-edge move ${options.project} --cancel`);
        return 1;
      }
    }
  } catch (error) {
    out.complain(failureLine(/** @type {AdminError} */ (error), `moving ${options.project}`, options.url));
    return 1;
  }
}

/**
 * Cancels a project's move (DELETE /v1/admin/projects/{project}/move): the
 * project stays where it was, pushes are accepted again at once, and the
 * partial copy on the target is removed (what one request cannot remove, the
 * garbage collection removes). The move's id, read from the shards' listing
 * (GET /v1/admin/shards) just before, rides along (`?move=`), so the cancel
 * ends only the move listed: one begun since is left alone (404
 * move_not_found). A move the listing knows no id of (begun before the server
 * recorded move ids, with no cursor yet) is cancelled without one.
 * @param {AdminOptions & { project: string }} options @param {Io} io
 * @returns {Promise<number>} 0 cancelled, 1 failed
 */
export async function runCancelMove(options, io) {
  const out = printer(options, io);
  try {
    const client = createClient({ url: options.url, key: options.key, signal: io.signal });
    const listing = /** @type {ShardsAnswer} */ (await client.request('shards', 'GET', '/v1/admin/shards', undefined, 'transient'));
    const id = listing.moves?.find((m) => m.project === options.project && m.state === 'copying')?.move;
    const path = `/v1/admin/projects/${encodeURIComponent(options.project)}/move${id ? `?move=${encodeURIComponent(id)}` : ''}`;
    const answer = /** @type {CancelAnswer} */ (await client.request('cancel', 'DELETE', path, undefined, 'transient'));
    if (options.json) out.print(JSON.stringify(withoutMeta(answer), null, 2));
    else {
      const rest = answer.partial_copy_removed ? 'its partial copy was removed' : 'the rest of its partial copy is removed by the garbage collection';
      out.print(`pincher-edge: cancelled the move of ${answer.project} to shard ${answer.was_moving_to}; it stays on shard ${answer.shard} (${rest})`);
    }
    return 0;
  } catch (error) {
    out.complain(failureLine(/** @type {AdminError} */ (error), `cancelling the move of ${options.project}`, options.url));
    return 1;
  }
}

/**
 * @typedef {{ project: string, move?: string | null, from: number, to: number, state?: 'copying' | 'removing', table?: string | null, rows_copied?: number, rows_total_estimate?: number | null, percent?: number | null, rows_removed?: number, steps?: number, started_at?: string | null, last_step_at?: string | null, heartbeat_at?: string | null, abandoned?: boolean, abandoned_after?: string | null }} MoveStatus
 * @typedef {{ count: number, projects: { project: string, project_id: string, since: string }[] }} Leftovers
 * @typedef {{ shards: { shard: number, binding: string, bytes: number, projects: number, moves_in?: string[], moves_out?: string[], leftovers?: Leftovers }[], moves: MoveStatus[] }} ShardsAnswer
 * @typedef {{ copied: Record<string, number>, rows_copied: number, rows_total_estimate: number, table: string | null, removed: Record<string, number>, steps: number, queries: number, query_budget: number }} MoveProgress
 * @typedef {{ project: string, move?: string, from: number, to: number, state?: 'copying' | 'removing' | 'moved', progress?: MoveProgress, next?: { method: 'POST', path: string, body: { shard: number, move: string } }, copied: Record<string, number>, removed: Record<string, number>, duration_ms: number, finished_by_another_step?: boolean, already_moved?: boolean }} MoveAnswer
 * @typedef {{ project: string, shard: number, state: 'cancelled', was_moving_to: number, removed: Record<string, number>, partial_copy_removed: boolean }} CancelAnswer
 * @typedef {{ step?: string, code?: string, status?: number, message: string, suggestion?: string }} AdminError
 */

/**
 * The shards as an aligned table (stored MB, projects, moves in and out, leftovers to remove), then a
 * line per move in flight (state, progress, last step; an abandoned one with the commands that take it
 * over or end it) and a line per shard holding leftovers.
 * @param {ShardsAnswer} answer
 */
export function formatShards(answer) {
  const n = (/** @type {number} */ v) => v.toLocaleString('en-US');
  const rows = [['shard', 'binding', 'stored MB', 'projects', 'moving in', 'moving out', 'leftovers']];
  for (const s of answer.shards) {
    rows.push([String(s.shard), s.binding, (s.bytes / 1e6).toFixed(1), String(s.projects), String(s.moves_in?.length ?? 0), String(s.moves_out?.length ?? 0), String(s.leftovers?.count ?? 0)]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((cell, i) => (i === 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd());
  for (const m of answer.moves) {
    const progress =
      m.state === 'removing'
        ? `removing the old copy from shard ${m.from} (${n(m.rows_removed ?? 0)} rows removed)`
        : m.rows_total_estimate == null
          ? 'copying (no step has written its cursor yet)'
          : `copying ${m.table ?? 'rows'}: ${n(m.rows_copied ?? 0)} / ~${n(m.rows_total_estimate)} rows (${m.percent ?? 0} %)`;
    const when = [m.steps !== undefined ? `${m.steps} steps` : '', m.started_at ? `started ${m.started_at}` : '', `last step ${m.last_step_at ?? m.heartbeat_at ?? '?'}`].filter(Boolean).join(', ');
    const abandoned = m.abandoned
      ? m.state === 'removing'
        ? ` — abandoned (no step for 10 minutes): the garbage collection finishes it, or pincher-edge move ${m.project} --shard ${m.to} now`
        : ` — abandoned (no step for 10 minutes): pincher-edge move ${m.project} --shard ${m.to} takes it over, pincher-edge move ${m.project} --cancel ends it`
      : '';
    lines.push(`moving ${m.project}: shard ${m.from} → ${m.to ?? '?'}, ${progress}; ${when}${abandoned}`);
  }
  for (const s of answer.shards) {
    const left = s.leftovers;
    if (!left?.count) continue;
    const named = left.projects.map((l) => `${l.project} (since ${l.since})`).join(', ');
    const more = left.count > left.projects.length ? ` and ${n(left.count - left.projects.length)} more` : '';
    lines.push(`leftovers on shard ${s.shard}: ${named}${more} — removed by the move's next step or the garbage collection`);
  }
  return lines.join('\n');
}

/**
 * The final line of a move: its rows copied and removed, or, when another request stepping the
 * same move finished it meanwhile, that it is done (the totals are that request's to report).
 * @param {MoveAnswer} answer
 */
export function formatMove(answer) {
  if (answer.finished_by_another_step) {
    return `pincher-edge: moved ${answer.project} from shard ${answer.from} to shard ${answer.to} (another request stepping the same move finished it)`;
  }
  const sum = (/** @type {Record<string, number>} */ rows) => Object.values(rows).reduce((a, n) => a + n, 0);
  const seconds = (answer.duration_ms / 1000).toFixed(1);
  if (answer.already_moved) {
    return `pincher-edge: moved ${answer.project} from shard ${answer.from} to shard ${answer.to}: the move had finished before this request, whose earlier answer was lost (${sum(answer.copied).toLocaleString('en-US')} rows copied, ${sum(answer.removed).toLocaleString('en-US')} removed from shard ${answer.from}, in ${seconds} s)`;
  }
  return `pincher-edge: moved ${answer.project} from shard ${answer.from} to shard ${answer.to} in ${seconds} s (${sum(answer.copied).toLocaleString('en-US')} rows copied, ${sum(answer.removed).toLocaleString('en-US')} removed from shard ${answer.from})`;
}

/** One progress line of a step that did not finish the move. @param {MoveAnswer} answer */
export function formatStep(answer) {
  const p = /** @type {MoveProgress} */ (answer.progress);
  const n = (/** @type {number} */ v) => v.toLocaleString('en-US');
  if (answer.state === 'removing') {
    const removed = Object.values(p.removed).reduce((a, v) => a + v, 0);
    return `pincher-edge: step ${p.steps}: moved to shard ${answer.to}; removing the old copy from shard ${answer.from} (${n(removed)} rows removed)`;
  }
  const pct = p.rows_total_estimate > 0 ? Math.min(100, Math.floor((100 * p.rows_copied) / p.rows_total_estimate)) : 0;
  return `pincher-edge: step ${p.steps}: copying ${p.table ?? 'rows'}: ${n(p.rows_copied)} / ~${n(p.rows_total_estimate)} rows (${pct} %)`;
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
