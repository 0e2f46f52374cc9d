import { afterEach, describe, expect, it, vi } from 'vitest';
import { restCall, send, type EnvOverrides } from '../contract/support';

const KEY = 'log-full-5b8c2e9d4a';
const KEYED: EnvOverrides = { PINCHER_ALLOW_OPEN: undefined, PINCHER_HTTP_KEY: KEY, PINCHER_READ_KEY: undefined };

/** Every console line written while `fn` runs, then the parsed `event: request` ones. */
async function captured(fn: () => Promise<unknown>): Promise<{ lines: string[]; requests: Record<string, unknown>[] }> {
  const lines: string[] = [];
  const record = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  vi.spyOn(console, 'log').mockImplementation(record);
  vi.spyOn(console, 'error').mockImplementation(record);
  vi.spyOn(console, 'warn').mockImplementation(record);
  await fn();
  vi.restoreAllMocks();
  const requests = lines.flatMap((l) => {
    try {
      const parsed = JSON.parse(l) as Record<string, unknown>;
      return parsed.event === 'request' ? [parsed] : [];
    } catch {
      return [];
    }
  });
  return { lines, requests };
}

afterEach(() => vi.restoreAllMocks());

describe('request log', () => {
  it('writes one JSON line per request with request id, method, route, status and latency', async () => {
    let requestId = '';
    const { requests } = await captured(async () => {
      const reply = await restCall('list', {}, { env: KEYED, headers: { authorization: `Bearer ${KEY}` } });
      requestId = reply.headers.get('x-request-id') ?? '';
    });
    expect(requests).toHaveLength(1);
    const [line] = requests;
    expect(line).toMatchObject({ event: 'request', request_id: requestId, method: 'POST', route: '/v1/tools/list', status: 200 });
    expect(typeof line.latency_ms).toBe('number');
    expect(line.error).toBeUndefined();
  });

  it('logs an error response with its code, and never the Authorization value or the query string', async () => {
    const secret = 'Bearer wrong-key-0a9b8c7d6e';
    const { lines, requests } = await captured(() =>
      restCall('list', {}, { env: KEYED, headers: { authorization: secret }, query: '?project=secret-query-value&key=abc123' }),
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ status: 401, error: 'unauthorized', route: '/v1/tools/list' });
    const all = lines.join('\n');
    expect(all).not.toContain('wrong-key-0a9b8c7d6e');
    expect(all).not.toContain(KEY);
    expect(all).not.toContain('secret-query-value');
    expect(all).not.toContain('abc123');
  });

  it('writes no request line when PINCHER_ACCESS_LOG is off (the local server sets it)', async () => {
    const { requests } = await captured(() =>
      restCall('list', {}, { env: { ...KEYED, PINCHER_ACCESS_LOG: 'off' }, headers: { authorization: `Bearer ${KEY}` } }),
    );
    expect(requests).toHaveLength(0);
  });

  it('logs not-found routes with their code', async () => {
    const { requests } = await captured(() => send('/v1/nowhere', { headers: { authorization: `Bearer ${KEY}` } }, KEYED));
    expect(requests[0]).toMatchObject({ method: 'GET', route: '/v1/nowhere', status: 404, error: 'not_found' });
  });
});
