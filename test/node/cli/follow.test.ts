import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { followEvents, formatEvent, parseSse } from '../../../cli/follow.mjs';

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;
const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** An SSE server whose n-th connection (0-based) `handler` answers; records each request's headers. */
async function sseServer(handler: Handler): Promise<{ url: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    handler(req, res, requests.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const sse = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });
const message = (id: number, type: string, data: object) => `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ id, type, ...data })}\n\n`;
const until = async (check: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 10))) if (Date.now() > end) throw new Error('timed out');
};

describe('followEvents', () => {
  it('reconnects with Last-Event-ID after the server ends a stream and loses no event', async () => {
    const { url, requests } = await sseServer((req, res, n) => {
      sse(res);
      if (n === 0) {
        res.write('retry: 20\n\n');
        res.write(message(1, 'upload_opened', { upload_id: 'u1', files: 2, missing: 2 }));
        // Split a message across writes: only complete messages count.
        const second = message(2, 'files_received', { upload_id: 'u1', accepted: 2, symbols: 5 });
        res.write(second.slice(0, 20));
        setTimeout(() => res.end(second.slice(20) + ': stream lifetime reached; reconnect with Last-Event-ID\n\n'), 20);
      } else {
        res.write(message(3, 'committed', { upload_id: 'u1', generation: 4, symbols: 5, files: { new: 2, changed: 0, deleted: 0, unchanged: 0 } }));
        res.write(message(4, 'resolution_finished', { upload_id: 'u1', edges: 3 }));
      }
    });
    const got: { id: string | null; type: string }[] = [];
    const follower = followEvents({ url, key: 'k-123', project: 'web', onEvent: (e) => got.push({ id: e.id, type: e.type }) });
    await follower.connected;
    await until(() => got.length === 4);
    follower.stop();
    expect(got).toEqual([
      { id: '1', type: 'upload_opened' },
      { id: '2', type: 'files_received' },
      { id: '3', type: 'committed' },
      { id: '4', type: 'resolution_finished' },
    ]);
    expect(requests[0].url).toBe('/v1/events?project=web');
    expect(requests[0].headers.authorization).toBe('Bearer k-123');
    expect(requests[0].headers['last-event-id']).toBeUndefined();
    expect(requests[1].headers['last-event-id']).toBe('2');
    expect(follower.reconnects).toBe(1);
  });

  it('rejects connected with the server\'s message when the key is refused, and stops', async () => {
    const { url, requests } = await sseServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'the bearer token was not accepted' } }));
    });
    const follower = followEvents({ url, key: 'wrong', project: 'web', onEvent: () => undefined, retryMs: 10 });
    await expect(follower.connected).rejects.toThrow('the bearer token was not accepted');
    expect(await follower.ended).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(requests).toHaveLength(1);
  });
});

describe('parseSse and formatEvent', () => {
  it('keeps an unfinished message for the next chunk and reads CRLF, comments and retry', () => {
    const { messages, rest } = parseSse(': hi\r\n\r\nretry: 5\r\n\r\nid: 7\r\nevent: committed\r\ndata: {"a":1}\r\n\r\nid: 8\ndata: {');
    expect(messages.map((m) => [m.id, m.event, m.data, m.retry])).toEqual([
      [null, 'message', '', null],
      [null, 'message', '', 5],
      ['7', 'committed', '{"a":1}', null],
    ]);
    expect(rest).toBe('id: 8\ndata: {');
  });

  it('prints one line per lifecycle event with its counts', () => {
    expect(formatEvent({ id: '1', type: 'upload_opened', data: { files: 1200, missing: 3, plan: { new: 1, changed: 2, deleted: 0, unchanged: 1197 } } })).toBe(
      'event 1 opened: 1,200 files, 3 to send (1 new, 2 changed, 0 deleted, 1,197 unchanged)',
    );
    expect(formatEvent({ id: '2', type: 'files_received', data: { accepted: 3, symbols: 40, failed: 1 } })).toBe('event 2 received: 3 files, 40 symbols, 1 failed to parse');
    expect(formatEvent({ id: '4', type: 'resolution_finished', data: { edges: 12345, duration_ms: 1500 } })).toBe('event 4 graph resolved: 12,345 edges in 1.5 s');
  });
});
