// One HTTP exchange, measured, never throwing: transport failures come back as status 0.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * @param {string} base
 * @param {{ method?: string, path: string, headers?: Record<string, string>, body?: string | Buffer, chunked?: boolean, timeoutMs?: number }} req
 * @returns {Promise<{ status: number, headers: Record<string, string | string[] | undefined>, text: string, json: any, ms: number, error?: string }>}
 */
export function exchange(base, req) {
  const url = new URL(req.path, base);
  const started = performance.now();
  return new Promise((resolve) => {
    const headers = { ...(req.headers ?? {}) };
    if (req.body !== undefined && !req.chunked) headers['content-length'] = String(Buffer.byteLength(req.body));
    const r = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: req.method ?? 'GET', headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, ms: performance.now() - started });
      });
      res.on('error', (err) => resolve({ status: 0, headers: {}, text: '', json: undefined, ms: performance.now() - started, error: err.code ?? err.message }));
    });
    r.setTimeout(req.timeoutMs ?? 120_000, () => r.destroy(new Error('timeout')));
    r.on('error', (err) => resolve({ status: 0, headers: {}, text: '', json: undefined, ms: performance.now() - started, error: err.code ?? err.message }));
    if (req.body !== undefined) {
      if (req.chunked) {
        // Several writes without Content-Length: Node sends Transfer-Encoding: chunked.
        const buf = Buffer.from(req.body);
        for (let at = 0; at < buf.length; at += 256 * 1024) r.write(buf.subarray(at, at + 256 * 1024));
      } else r.write(req.body);
    }
    r.end();
  });
}

/** Percentile of sorted numbers. */
export function percentile(sorted, p) {
  if (!sorted.length) return null;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
}
