import { describe, expect, it } from 'vitest';
import { app } from '../../../src/app';
import { ERROR_CODES } from '../../../src/errors';
import { createExecutionContext } from 'cloudflare:test';
import { env, restCall, send, type EnvOverrides, type Json } from '../contract/support';
import { BASE, SELF } from '../helpers';

const PROJECT = 'events-web';
const OTHER = 'events-other';
const files = (marker: string) => [
  { path: 'src/server.ts', content: `export function listen(port: number) {\n  return serve(port, '${marker}');\n}\nfunction serve(p: number, m: string) {\n  return p + m.length;\n}\n` },
];

interface Sse {
  id?: string;
  event?: string;
  data?: Json;
  comment?: string;
}

/** Parses SSE text into messages (id/event/data) and comments. */
function parseSse(text: string): Sse[] {
  const out: Sse[] = [];
  for (const block of text.split('\n\n')) {
    if (!block.trim()) continue;
    const msg: Sse = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) msg.comment = line.slice(1).trim();
      else if (line.startsWith('id: ')) msg.id = line.slice(4);
      else if (line.startsWith('event: ')) msg.event = line.slice(7);
      else if (line.startsWith('data: ')) msg.data = JSON.parse(line.slice(6));
    }
    out.push(msg);
  }
  return out;
}

/** Reads `res`'s stream until `done(messages)` holds (or 15 s pass), then cancels it. */
async function readUntil(res: Response, done: (m: Sse[]) => boolean, during?: () => Promise<unknown>): Promise<Sse[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const pending = during?.();
  const deadline = Date.now() + 15_000;
  try {
    while (Date.now() < deadline) {
      const next = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), Math.max(0, deadline - Date.now())))]);
      if (next === null || next.done) break;
      text += decoder.decode(next.value, { stream: true });
      // Only complete messages count.
      const complete = text.slice(0, text.lastIndexOf('\n\n') + 2);
      if (done(parseSse(complete))) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    await pending;
  }
  return parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2));
}

const events = (m: Sse[]) => m.filter((x) => x.event && x.event !== 'gap');
const PUSH_TYPES = ['upload_opened', 'files_received', 'committed', 'resolution_finished'];

async function push(project: string, marker: string): Promise<void> {
  const r = await restCall('index', { project, files: files(marker) });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
}

function stream(query: string, headers: Record<string, string> = {}): Promise<Response> {
  return SELF.fetch(`${BASE}/v1/events${query}`, { headers });
}

describe('GET /v1/events', () => {
  it('replays a push as upload_opened, files_received, committed, resolution_finished, in id order, with counts and no source text', async () => {
    await push(PROJECT, 'first');
    const res = await stream(`?project=${PROJECT}&last_event_id=0`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toMatch(/no-cache/);
    const got = events(await readUntil(res, (m) => events(m).length >= 4));
    expect(got.slice(0, 4).map((e) => e.event)).toEqual(PUSH_TYPES);
    const ids = got.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    for (const e of got) {
      expect(e.data).toMatchObject({ id: Number(e.id), type: e.event, project: PROJECT });
      expect(JSON.stringify(e.data)).not.toContain('serve(port');
    }
    const [opened, received, committed, resolved] = got.map((e) => e.data as Json);
    expect(opened).toMatchObject({ files: 1, missing: 1, plan: { new: 1, changed: 0, unchanged: 0, deleted: 0 } });
    expect(received).toMatchObject({ accepted: 1, failed: 0, upload_id: opened.upload_id });
    expect(received.symbols).toBeGreaterThan(0);
    expect(committed).toMatchObject({ upload_id: opened.upload_id, files: { new: 1 } });
    expect(committed.generation).toBeGreaterThan(0);
    expect(resolved).toMatchObject({ upload_id: opened.upload_id, generation: committed.generation });
    expect(resolved.edges).toBeGreaterThanOrEqual(1);
  });

  it('resumes after Last-Event-ID and loses nothing across a reconnect', async () => {
    const first = events(await readUntil(await stream(`?project=${PROJECT}&last_event_id=0`), (m) => events(m).length >= 4));
    const cut = first[1].id as string;
    // The header (what EventSource sends on reconnect) wins over the query.
    const again = events(await readUntil(await stream(`?project=${PROJECT}&last_event_id=0`, { 'last-event-id': cut }), (m) => events(m).length >= 2));
    expect(again.slice(0, 2).map((e) => e.id)).toEqual([first[2].id, first[3].id]);
  });

  it('without a resume point sends only new events, live, and filters by project', async () => {
    const res = await stream(`?project=${PROJECT}`);
    const got = await readUntil(
      res,
      (m) => events(m).some((e) => e.event === 'resolution_finished'),
      async () => {
        await push(OTHER, 'elsewhere');
        await push(PROJECT, 'second');
      },
    );
    const live = events(got);
    expect(live.map((e) => e.event)).toEqual(PUSH_TYPES);
    expect(live.every((e) => e.data?.project === PROJECT)).toBe(true);
    expect(live[0].data).toMatchObject({ plan: { changed: 1 } });
    // Unfiltered, the other project's push is there too.
    const all = events(await readUntil(await stream('?last_event_id=0'), (m) => events(m).some((e) => e.data?.project === OTHER)));
    expect(all.some((e) => e.data?.project === OTHER)).toBe(true);
  });

  it('opens with a retry hint and closes at the end of its lifetime, asking the client to reconnect', async () => {
    const ctx = createExecutionContext();
    const started = Date.now();
    const res = await app.fetch(new Request(`${BASE}/v1/events`), { ...env, PINCHER_EVENTS_STREAM_SECONDS: '1' } as never, ctx);
    const text = await res.text();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(text.startsWith('retry: ')).toBe(true);
    expect(text).toMatch(/: stream lifetime reached; reconnect with Last-Event-ID\n\n$/);
  });

  it('says so once when events after the resume point were pruned', async () => {
    const insert = env.DB.prepare("INSERT INTO events (ts, type, project_id, project_name, data) VALUES (?1, 'committed', NULL, 'events-pruned', '{}') RETURNING id");
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(((await insert.bind(Date.now()).first()) as { id: number }).id);
    // Retention pruned everything up to the second one.
    await env.DB.prepare('DELETE FROM events WHERE id <= ?1').bind(ids[1]).run();
    const lost = await readUntil(await stream(`?project=events-pruned&last_event_id=${ids[0]}`), (m) => events(m).length >= 1);
    expect(lost.filter((m) => m.event === 'gap').map((m) => m.data)).toEqual([expect.objectContaining({ type: 'gap', after: ids[0], next: ids[2] })]);
    expect(events(lost).map((e) => Number(e.id))).toEqual([ids[2]]);
    // Resuming right before the oldest kept event loses nothing: no gap.
    const whole = await readUntil(await stream(`?project=events-pruned&last_event_id=${ids[1]}`), (m) => events(m).length >= 1);
    expect(whole.some((m) => m.event === 'gap')).toBe(false);
    expect(events(whole).map((e) => Number(e.id))).toEqual([ids[2]]);
  });

  it('refuses a bad resume point and a bad project name with typed errors', async () => {
    for (const [query, headers, code] of [
      ['?last_event_id=abc', {}, 'invalid_params'],
      ['?last_event_id=-1', {}, 'invalid_params'],
      ['', { 'last-event-id': '1.5' }, 'invalid_params'],
      ['?project=../etc', {}, 'invalid_project_name'],
    ] as const) {
      const reply = await send(`/v1/events${query}`, { headers });
      expect(reply.status, query).toBe(ERROR_CODES[code]);
      expect(reply.body.error.code).toBe(code);
      expect(reply.body.error.suggestion).toBeTruthy();
    }
  });

  it('needs a key in keyed mode; the read-only key is enough', async () => {
    const keyed: EnvOverrides = { PINCHER_ALLOW_OPEN: undefined, PINCHER_HTTP_KEY: 'ev-full', PINCHER_READ_KEY: 'ev-read', PINCHER_EVENTS_STREAM_SECONDS: '1' };
    expect((await send('/v1/events', {}, keyed)).status).toBe(401);
    const ok = await send('/v1/events', { headers: { authorization: 'Bearer ev-read' } }, keyed);
    expect(ok.status).toBe(200);
    expect(ok.text.startsWith('retry: ')).toBe(true);
  });
});
