// Pushing through the real CLI (`node cli/bin.mjs push DIR --json`) to a running server, with a
// recording loopback proxy in between: the proxy times every request of the protocol (open,
// files batches, commit) and keeps the server's `_meta.latency_ms`, so the report can say
// where a push spends its time. Plus the MCP `tools/list` size over the same server.
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { groupCpuSeconds, run } from './proc.mjs';

/**
 * @typedef {object} RequestRecord
 * @property {'open' | 'files' | 'commit' | 'abandon' | 'other'} step
 * @property {string} method
 * @property {number} start ms, performance.now()
 * @property {number} end ms, performance.now()
 * @property {number} requestBytes
 * @property {number} responseBytes
 * @property {number} status
 * @property {number | null} serverLatencyMs `_meta.latency_ms` of the answer
 * @property {Record<string, unknown>} answer a few fields of the answer
 * @property {string} [errorBody] the start of the body of a 4xx/5xx answer
 */

/** @param {string} method @param {string} url @returns {RequestRecord['step']} */
function stepOf(method, url) {
  const p = url.split('?')[0];
  if (method === 'POST' && /^\/v1\/projects\/[^/]+\/uploads$/.test(p)) return 'open';
  if (method === 'POST' && /\/uploads\/[^/]+\/files$/.test(p)) return 'files';
  if (method === 'POST' && /\/uploads\/[^/]+\/commit$/.test(p)) return 'commit';
  if (method === 'DELETE' && /\/uploads\/[^/]+$/.test(p)) return 'abandon';
  return 'other';
}

/** @param {RequestRecord['step']} step @param {any} body */
function pick(step, body) {
  if (!body || typeof body !== 'object') return {};
  if (body.error) return { error: body.error.code };
  if (step === 'open') return { missing: Array.isArray(body.missing) ? body.missing.length : null, plan: body.plan };
  if (step === 'files') return { accepted: body.accepted, symbols: body.symbols, skipped: body.skipped?.length ?? 0, failures: body.failures?.length ?? 0 };
  if (step === 'commit') return { files: body.files, symbols: body.symbols, symbols_added: body.symbols_added, duration_ms: body.duration_ms };
  return {};
}

/**
 * The body as sent, decompressed for reading (workerd compresses JSON for clients that accept it).
 * @param {Buffer} body @param {string | undefined} encoding
 */
function decode(body, encoding) {
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.gunzipSync(body);
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  if (encoding === 'deflate') return zlib.inflateSync(body);
  return body;
}

/** @param {Buffer} body @param {string | undefined} encoding */
function decodeText(body, encoding) {
  try {
    return decode(body, encoding).toString('utf8');
  } catch {
    return `<${body.length} bytes, ${encoding ?? 'identity'}>`;
  }
}

/**
 * A recording reverse proxy on 127.0.0.1 in front of `target`.
 * @param {string} target e.g. http://127.0.0.1:8787
 * @returns {Promise<{ url: string, records: RequestRecord[], reset(): void, close(): Promise<void> }>}
 */
export async function startProxy(target) {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  /** @type {RequestRecord[]} */
  let records = [];
  const server = http.createServer((req, res) => {
    const start = performance.now();
    const method = req.method ?? 'GET';
    const step = stepOf(method, req.url ?? '/');
    let requestBytes = 0;
    const headers = { ...req.headers, host: upstream.host };
    const out = http.request({ host: upstream.hostname, port: upstream.port, method, path: req.url, headers, agent }, (answer) => {
      const chunks = [];
      answer.on('data', (c) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        const end = performance.now();
        let parsed = null;
        try {
          parsed = JSON.parse(decode(body, answer.headers['content-encoding']).toString('utf8'));
        } catch {
          /* not JSON */
        }
        records.push({
          step,
          method,
          start,
          end,
          requestBytes,
          responseBytes: body.length,
          status: answer.statusCode ?? 0,
          serverLatencyMs: typeof parsed?._meta?.latency_ms === 'number' ? parsed._meta.latency_ms : null,
          answer: pick(step, parsed),
          ...((answer.statusCode ?? 0) >= 400 && { errorBody: decodeText(body, answer.headers['content-encoding']).slice(0, 400) }),
        });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(body);
      });
      answer.on('error', () => res.destroy());
    });
    out.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'bench_proxy', message: err.message } }));
    });
    req.on('data', (c) => (requestBytes += c.length));
    req.pipe(out);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    get records() {
      return records;
    },
    reset() {
      records = [];
    },
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

/**
 * Runs `node cli/bin.mjs push DIR --json` and measures it.
 * @param {object} o
 * @param {string} o.root repository root (where cli/ is)
 * @param {string} o.dir folder to push
 * @param {string} o.url server (or proxy) URL
 * @param {string} o.key PINCHER_HTTP_KEY
 * @param {string} o.project
 * @param {string} o.ref
 * @param {string} o.commit
 * @param {number} o.serverPgid process group of wrangler dev (for its CPU time)
 * @param {Awaited<ReturnType<typeof startProxy>>} o.proxy
 * @param {number | null} [o.concurrency] --concurrency (the CLI's default when null)
 * @param {number} [o.timeoutMs]
 */
export async function cliPush({ root, dir, url, key, project, ref, commit, serverPgid, proxy, concurrency = null, timeoutMs = 30 * 60_000 }) {
  proxy.reset();
  const serverCpuBefore = groupCpuSeconds(serverPgid);
  const spawnedAt = performance.now();
  const res = await run(process.execPath, [path.join(root, 'cli', 'bin.mjs'), 'push', dir, '--url', url, '--project', project, '--ref', ref, '--commit', commit, '--json', ...(concurrency ? ['--concurrency', String(concurrency)] : [])], {
    cwd: root,
    env: { ...process.env, PINCHER_HTTP_KEY: key },
    timeoutMs,
  });
  const serverCpuAfter = groupCpuSeconds(serverPgid);
  let summary = null;
  try {
    summary = JSON.parse(res.stdout);
  } catch {
    /* reported below */
  }
  if (res.code !== 0 || !summary?.ok) {
    const why = res.timedOut
      ? `timed out after ${Math.round(timeoutMs / 1000)} s`
      : summary?.error
        ? `${summary.error.step}: ${summary.error.code}: ${summary.error.message}`
        : `exit ${res.code ?? res.signal}: ${res.stderr.trim().slice(-400)}`;
    throw new Error(`pincher-edge push failed (${why})`);
  }
  return {
    wallMs: Math.round(res.wallMs),
    cliCpuS: res.cpu ? round(res.cpu.user + res.cpu.system, 2) : null,
    serverCpuS: serverCpuBefore && serverCpuAfter ? round(serverCpuAfter.total - serverCpuBefore.total, 2) : null,
    serverCpuByCommand: serverCpuBefore && serverCpuAfter
      ? Object.fromEntries(Object.entries(serverCpuAfter.byCommand).map(([k, v]) => [k, round(v - (serverCpuBefore.byCommand[k] ?? 0), 2)]))
      : null,
    summary,
    phases: phases(proxy.records, spawnedAt, spawnedAt + res.wallMs),
  };
}

/**
 * Where the push's wall time went, from the proxy's records.
 * @param {RequestRecord[]} records
 * @param {number} spawnedAt
 * @param {number} exitedAt
 */
function phases(records, spawnedAt, exitedAt) {
  // With retries, the answered attempt is the last one of its step.
  const open = records.filter((r) => r.step === 'open').pop();
  const commit = records.filter((r) => r.step === 'commit').pop();
  const files = records.filter((r) => r.step === 'files');
  const failed = records.filter((r) => r.status >= 400 || r.status === 0);
  const rel = (/** @type {number} */ t) => Math.round(t - spawnedAt);
  const batchStart = files.length ? Math.min(...files.map((r) => r.start)) : null;
  const batchEnd = files.length ? Math.max(...files.map((r) => r.end)) : null;
  const answered = files.filter((r) => r.status < 400);
  const latencies = answered.map((r) => r.end - r.start);
  const serverLatencies = answered.map((r) => r.serverLatencyMs ?? 0);
  return {
    // Answers the CLI retried (429/5xx) or that failed, by step and status.
    refused: failed.map((r) => ({ step: r.step, status: r.status, ms: Math.round(r.end - r.start), body: r.errorBody ?? null })),
    // CLI start → manifest request: node start-up, git probe, walk + hash of the tree.
    walk_ms: open ? rel(open.start) : null,
    open_ms: open ? Math.round(open.end - open.start) : null,
    open_server_ms: open?.serverLatencyMs ?? null,
    open_request_bytes: open?.requestBytes ?? null,
    // open answered → first batch sent: reading and packing the first batch.
    pack_first_ms: open && batchStart !== null ? Math.round(batchStart - open.end) : null,
    batches: files.filter((r) => r.status < 400).length,
    batches_ms: batchStart !== null && batchEnd !== null ? Math.round(batchEnd - batchStart) : 0,
    batch_latency_ms: answered.length
      ? { mean: Math.round(latencies.reduce((a, b) => a + b, 0) / answered.length), max: Math.round(Math.max(...latencies)), min: Math.round(Math.min(...latencies)) }
      : null,
    batch_server_ms_sum: Math.round(serverLatencies.reduce((a, b) => a + b, 0)),
    batch_request_bytes: files.reduce((s, r) => s + r.requestBytes, 0),
    commit_ms: commit ? Math.round(commit.end - commit.start) : null,
    commit_server_ms: commit?.serverLatencyMs ?? null,
    commit_duration_ms: typeof commit?.answer?.duration_ms === 'number' ? commit.answer.duration_ms : null,
    // commit answered → CLI exited: printing the summary, process exit.
    exit_ms: commit ? Math.round(exitedAt - commit.end) : null,
    requests: records.map((r) => ({
      step: r.step,
      start_ms: rel(r.start),
      ms: Math.round(r.end - r.start),
      server_ms: r.serverLatencyMs,
      status: r.status,
      request_bytes: r.requestBytes,
      ...r.answer,
      ...(r.errorBody !== undefined && { error_body: r.errorBody }),
    })),
  };
}

/**
 * The CLI's fixed costs, without a server: `--version` (node start-up + module loading) and
 * `--dry-run` (start-up + git probe + walk + hash of the whole tree), median of `times` runs.
 * @param {{ root: string, dir: string, times?: number }} options
 */
export async function cliBaseline({ root, dir, times = 3 }) {
  const bin = path.join(root, 'cli', 'bin.mjs');
  const median = (/** @type {number[]} */ xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const version = [];
  const dryRun = [];
  for (let i = 0; i < times; i++) {
    version.push((await run(process.execPath, [bin, '--version'], { cwd: root, timeoutMs: 60_000 })).wallMs);
    dryRun.push((await run(process.execPath, [bin, 'push', dir, '--dry-run', '--json', '--project', 'bench'], { cwd: root, timeoutMs: 120_000 })).wallMs);
  }
  return { version_ms: Math.round(median(version)), dry_run_ms: Math.round(median(dryRun)), runs: times };
}

/**
 * Size of `tools/list` as an MCP client receives it: initialize, then tools/list, over
 * streamable HTTP (2025-06-18, JSON responses). Tokens are chars/4 of the JSON-RPC result;
 * `tokens_cl100k` counts the same text exactly when js-tiktoken is installed.
 * @param {{ url: string, key: string, query?: string }} options
 */
export async function toolsListSize({ url, key, query = '' }) {
  const endpoint = `${url}/mcp${query}`;
  const protocol = '2025-06-18';
  let id = 0;
  const rpc = async (/** @type {string} */ method, /** @type {object} */ params, notification = false) => {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${key}`,
        'mcp-protocol-version': protocol,
      },
      body: JSON.stringify(notification ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', id: ++id, method, params }),
    });
    const text = await res.text();
    if (notification) return { status: res.status, text };
    if (!res.ok) throw new Error(`${method} answered HTTP ${res.status}: ${text.slice(0, 200)}`);
    const type = res.headers.get('content-type') ?? '';
    const json = type.includes('text/event-stream') ? JSON.parse(text.split('\n').find((l) => l.startsWith('data:'))?.slice(5) ?? 'null') : JSON.parse(text);
    if (json?.error) throw new Error(`${method} answered JSON-RPC error ${json.error.code}: ${json.error.message}`);
    return { status: res.status, text, json };
  };
  await rpc('initialize', { protocolVersion: protocol, capabilities: {}, clientInfo: { name: 'pincher-bench', version: '1' } });
  await rpc('notifications/initialized', {}, true);
  const listed = await rpc('tools/list', {});
  const resultText = JSON.stringify(listed.json.result);
  const tools = listed.json.result?.tools ?? [];
  return {
    toolset: query.includes('full') ? 'full' : 'core',
    tools: tools.length,
    names: tools.map((/** @type {{ name: string }} */ t) => t.name),
    body_bytes: Buffer.byteLength(listed.text),
    result_chars: resultText.length,
    tokens: Math.ceil(resultText.length / 4),
    tokens_cl100k: await exactTokens(resultText),
  };
}

/** @param {string} text */
async function exactTokens(text) {
  try {
    const { getEncoding } = await import('js-tiktoken');
    return getEncoding('cl100k_base').encode(text).length;
  } catch {
    return null;
  }
}

/** @param {number} x @param {number} [d] */
function round(x, d = 1) {
  return Math.round(x * 10 ** d) / 10 ** d;
}
