// `push --follow`: read a project's push events from GET /v1/events (Server-Sent Events)
// while the push runs and after, reconnecting with Last-Event-ID so nothing is lost when
// the server closes a stream at the end of its lifetime or the connection drops.

/** Event types that end a push's story: its graph resolved (or was left pending), or it was aborted. */
export const FINAL_EVENTS = new Set(['resolution_finished', 'resolution_pending', 'upload_aborted']);

/**
 * @typedef {{ id: string | null, type: string, data: Record<string, any> }} PushEvent
 */

/**
 * Splits SSE text into complete messages; returns them and the unfinished tail.
 * @param {string} text
 * @returns {{ messages: { id: string | null, event: string, data: string, retry: number | null }[], rest: string }}
 */
export function parseSse(text) {
  const messages = [];
  const blocks = text.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    const msg = { id: /** @type {string | null} */ (null), event: 'message', data: '', retry: /** @type {number | null} */ (null) };
    const data = [];
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') msg.id = value;
      else if (field === 'event') msg.event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry' && /^\d+$/.test(value)) msg.retry = Number(value);
    }
    msg.data = data.join('\n');
    messages.push(msg);
  }
  return { messages, rest };
}

/**
 * Follows `GET /v1/events?project=…` until stopped. `connected` settles once the first
 * stream answered (from then on no event of the project is missed: the server starts a
 * stream without a resume point at its newest event), or rejects when the server refuses.
 *
 * @param {object} o
 * @param {string} o.url server base URL
 * @param {string} [o.key]
 * @param {string} o.project
 * @param {(event: PushEvent) => void} o.onEvent
 * @param {number} [o.retryMs] wait before reconnecting (the server's `retry:` replaces it)
 * @param {typeof fetch} [o.fetchImpl]
 */
export function followEvents({ url, key, project, onEvent, retryMs = 2000, fetchImpl = fetch }) {
  const controller = new AbortController();
  /** @type {string | null} */
  let last = null;
  let retry = retryMs;
  let settle = { resolve: () => {}, reject: (/** @type {Error} */ _e) => {} };
  const connected = new Promise((resolve, reject) => {
    settle = { resolve: () => resolve(undefined), reject };
  });
  // An unobserved rejection must not crash the process; callers await `connected`.
  connected.catch(() => {});
  let reconnects = 0;

  const loop = (async () => {
    while (!controller.signal.aborted) {
      try {
        /** @type {Record<string, string>} */
        const headers = { accept: 'text/event-stream' };
        if (key) headers.authorization = `Bearer ${key}`;
        if (last !== null) headers['last-event-id'] = last;
        const res = await fetchImpl(`${url.replace(/\/+$/, '')}/v1/events?project=${encodeURIComponent(project)}`, { headers, signal: controller.signal });
        if (!res.ok || !res.body) {
          const body = await res.json().catch(() => null);
          const error = Object.assign(new Error(body?.error?.message ?? `GET /v1/events answered ${res.status}`), { status: res.status, code: body?.error?.code ?? 'http_error' });
          settle.reject(error);
          if (res.status < 500) return error;
          throw error;
        }
        settle.resolve();
        const decoder = new TextDecoder();
        let buffer = '';
        for await (const chunk of /** @type {AsyncIterable<Uint8Array>} */ (/** @type {unknown} */ (res.body))) {
          const parsed = parseSse(buffer + decoder.decode(chunk, { stream: true }));
          buffer = parsed.rest;
          for (const m of parsed.messages) {
            if (m.retry !== null) retry = m.retry;
            if (m.id !== null) last = m.id;
            if (!m.data) continue;
            let data;
            try {
              data = JSON.parse(m.data);
            } catch {
              continue;
            }
            onEvent({ id: m.id, type: m.event, data });
          }
        }
      } catch (error) {
        if (controller.signal.aborted) return null;
        void error; // a dropped connection: reconnect below, resuming after the last id
      }
      if (controller.signal.aborted) return null;
      reconnects++;
      await new Promise((resolve) => setTimeout(resolve, retry));
    }
    return null;
  })();

  return {
    connected,
    /** Resolves to the refusal error (4xx) that ended following, or null when stopped. */
    ended: loop,
    get reconnects() {
      return reconnects;
    },
    stop() {
      controller.abort();
    },
  };
}

/**
 * One line per lifecycle event, for a person reading the push's output.
 * @param {PushEvent} e
 */
export function formatEvent(e) {
  const d = e.data;
  const n = (/** @type {unknown} */ v) => (typeof v === 'number' ? v.toLocaleString('en-US') : '?');
  const ms = (/** @type {unknown} */ v) => (typeof v === 'number' ? ` in ${v < 1000 ? `${v} ms` : `${(v / 1000).toFixed(1)} s`}` : '');
  const plan = (/** @type {any} */ p) => (p ? `${n(p.new)} new, ${n(p.changed)} changed, ${n(p.deleted)} deleted, ${n(p.unchanged)} unchanged` : '');
  const text = {
    upload_opened: () => `opened: ${n(d.files)} files, ${n(d.missing)} to send${d.plan ? ` (${plan(d.plan)})` : ''}`,
    files_received: () => `received: ${n(d.accepted)} files, ${n(d.symbols)} symbols${d.skipped ? `, ${n(d.skipped)} skipped` : ''}${d.failed ? `, ${n(d.failed)} failed to parse` : ''}`,
    committed: () => `committed: generation ${n(d.generation)}, ${n(d.symbols)} symbols (${plan(d.files)})${ms(d.duration_ms)}`,
    resolution_finished: () => `graph resolved: ${n(d.edges)} edges${ms(d.duration_ms)}`,
    resolution_pending: () => `graph pending: ${d.message ?? 'not rebuilt for this push'}`,
    upload_aborted: () => 'aborted',
    gap: () => `gap: ${d.message ?? 'events were pruned'}`,
  }[e.type];
  return `event ${e.id ?? '-'} ${text ? text() : e.type}`;
}
