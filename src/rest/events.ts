import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { PincherError } from '../errors';
import { eventsAfter, latestEventId, oldestEventId, type EventRow } from '../db/events';
import { checkProjectName } from '../upload/paths';

/**
 * `GET /v1/events`: push lifecycle and index changes as Server-Sent Events.
 *
 * Events are rows of the D1 `events` table (written by whichever isolate handled the push),
 * and a stream polls that table, so every stream sees every event whatever isolate serves
 * it; ids are the table's, so `Last-Event-ID` resumes exactly after the last event a client
 * received. A stream lives for a bounded time (PINCHER_EVENTS_STREAM_SECONDS, default 300),
 * then closes; EventSource reconnects on its own, with `Last-Event-ID`, and loses nothing
 * the retention window (PINCHER_EVENTS_RETENTION_DAYS) still holds.
 */
export const eventRoutes = new Hono<AppEnv>();

const POLL_MS = 1_000;
const HEARTBEAT_MS = 15_000;
/** EventSource's reconnection delay, sent as `retry:`. */
const RETRY_MS = 2_000;
const PAGE = 100;
const DEFAULT_STREAM_SECONDS = 300;
const MAX_STREAM_SECONDS = 3_600;

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One SSE message: `id`, `event` (the type) and one `data` line of JSON. */
function formatEvent(row: EventRow): string {
  let fields: Record<string, unknown> = {};
  try {
    fields = JSON.parse(row.data) as Record<string, unknown>;
  } catch {
    /* a row is written by this code as JSON; an unreadable one still carries its id and type */
  }
  const data = { id: row.id, type: row.type, ts: new Date(row.ts).toISOString(), project: row.project, ...fields };
  return `id: ${row.id}\nevent: ${row.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A resume point: the `Last-Event-ID` header (what EventSource sends on reconnect) wins over `?last_event_id=`. */
function resumeFrom(header: string | undefined, query: string | undefined): number | null {
  const raw = header?.trim() || query?.trim();
  if (raw === undefined || raw === '') return null;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new PincherError('invalid_params', `last_event_id must be a non-negative integer (an event id), got '${raw.slice(0, 40)}'`, {
      suggestion: 'resume with the id of the last event received (the SSE id: field), or 0 to replay every event still kept; omit it to receive only new events',
    });
  }
  return Number(raw);
}

function streamSeconds(value: string | undefined): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isInteger(n) && n > 0 ? Math.min(n, MAX_STREAM_SECONDS) : DEFAULT_STREAM_SECONDS;
}

eventRoutes.get('/events', async (c) => {
  const projectParam = c.req.query('project');
  const project = projectParam === undefined || projectParam === '' ? null : checkProjectName(projectParam);
  const resume = resumeFrom(c.req.header('last-event-id'), c.req.query('last_event_id'));
  const db = c.env.DB;
  let cursor = resume ?? (await latestEventId(db));
  const head: string[] = [`retry: ${RETRY_MS}\n\n`];
  if (resume !== null) {
    // Events between the resume point and the oldest kept one were pruned: say so once.
    const oldest = await oldestEventId(db);
    if (oldest !== null && oldest > resume + 1) {
      head.push(`event: gap\ndata: ${JSON.stringify({ type: 'gap', after: resume, next: oldest, message: 'events after the resume point were pruned by retention; re-read the state you track (GET /v1/projects)' })}\n\n`);
    }
  }
  const deadline = Date.now() + streamSeconds(c.env.PINCHER_EVENTS_STREAM_SECONDS) * 1000;
  let lastSent = Date.now();
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(head.join('')));
    },
    async pull(controller) {
      for (;;) {
        if (cancelled) return;
        if (Date.now() >= deadline) {
          controller.enqueue(encoder.encode(': stream lifetime reached; reconnect with Last-Event-ID\n\n'));
          controller.close();
          return;
        }
        let rows: EventRow[];
        try {
          rows = await eventsAfter(db, cursor, project, PAGE);
        } catch (err) {
          // The client reconnects with Last-Event-ID and misses nothing.
          console.error(`events stream read failed: ${err instanceof Error ? err.name : 'error'}`);
          controller.close();
          return;
        }
        if (rows.length) {
          controller.enqueue(encoder.encode(rows.map(formatEvent).join('')));
          cursor = rows[rows.length - 1].id;
          lastSent = Date.now();
          return;
        }
        if (Date.now() - lastSent >= HEARTBEAT_MS) {
          controller.enqueue(encoder.encode(': keep-alive\n\n'));
          lastSent = Date.now();
          return;
        }
        await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
      }
    },
    cancel() {
      cancelled = true;
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  });
});
