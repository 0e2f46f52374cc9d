// The local runtime's processes and its V8 inspector, for the scripts that look inside a
// running Worker (soak-heap.mjs, profile-push.mjs). Linux /proc only.
import { mkdtemp, readFile, readdir, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QUIET_ENV, ROOT, applyLocalMigrations, freePort } from '../dev-server.mjs';

/**
 * The Worker under wrangler's programmatic dev API with an inspector port (unless `inspector: false`), on a fresh migrated
 * local D1 (every shard) under a new temp folder (or the local D1 already in `persistTo`,
 * migrated), with `key` as its full access key and `vars` as further plain-text bindings.
 * `watch: false`: an edit in the tree while it runs must not reload the Worker mid-measure.
 * `inspector: false` starts it without one (`inspectorPort` null), as the local server and the bench run it:
 * with an inspector, wrangler's inspector proxy subscribes to the runtime's events and reports every D1
 * query as a network request, which adds CPU and wall time to each call (measure CPU and latency without it).
 * `root`: the checkout whose Worker (wrangler.toml, sources, migrations) runs, by default this one.
 */
export async function startInspectedWorker({ key, tempPrefix, minify, persistTo, vars = {}, inspector = true, root = ROOT }) {
  Object.assign(process.env, QUIET_ENV);
  const { unstable_startWorker } = await import('wrangler');
  const persist = persistTo ?? (await mkdtemp(path.join(tmpdir(), tempPrefix)));
  applyLocalMigrations(persist, { root });
  const port = await freePort();
  const inspectorPort = inspector ? await freePort() : null;
  const plain = (value) => ({ type: 'plain_text', value });
  const worker = await unstable_startWorker({
    config: path.join(root, 'wrangler.toml'),
    ...(minify === undefined ? {} : { build: { minify } }),
    bindings: { PINCHER_HTTP_KEY: plain(key), PINCHER_RATE_LIMIT: plain('off'), PINCHER_ACCESS_LOG: plain('off'), ...Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, plain(String(v))])) },
    dev: { server: { hostname: '127.0.0.1', port }, inspector: inspector ? { hostname: '127.0.0.1', port: inspectorPort } : false, remote: false, persist, logLevel: 'warn', watch: false },
  });
  return { worker, persist, base: `http://127.0.0.1:${port}`, inspectorPort };
}

/**
 * The `workerd` processes that are children of `parent` (this process by default): the
 * runtime wrangler's programmatic dev API starts. `inspector` keeps only the ones started
 * with an inspector address.
 */
export async function childWorkerds(parent = process.pid, { inspector = false } = {}) {
  const found = [];
  for (const e of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(e)) continue;
    const stat = await readFile(`/proc/${e}/stat`, 'utf8').catch(() => '');
    if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
    const cmd = (await readFile(`/proc/${e}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if (!cmd.some((c) => c.includes('workerd'))) continue;
    if (inspector && !cmd.some((c) => c.startsWith('--inspector-addr'))) continue;
    found.push(Number(e));
  }
  return found;
}

/**
 * Every isolate a runtime lists on its own inspector (its `--inspector-addr` is port 0: the
 * listening socket of one of `pids` that answers /json/list), as `{ id, url }`: the Worker,
 * and miniflare's own workers (D1, cache, …) when the runtime lists them. wrangler's
 * inspector proxy is not this: it forwards one isolate only.
 */
export async function runtimeInspectorTargets(pids) {
  for (const pid of pids) {
    const inodes = new Set();
    for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [])) {
      const m = /socket:\[(\d+)\]/.exec(await readlink(`/proc/${pid}/fd/${fd}`).catch(() => ''));
      if (m) inodes.add(m[1]);
    }
    for (const table of ['tcp', 'tcp6']) {
      for (const line of (await readFile(`/proc/${pid}/net/${table}`, 'utf8').catch(() => '')).split('\n').slice(1)) {
        const f = line.trim().split(/\s+/);
        if (f[3] !== '0A' || !inodes.has(f[9])) continue; // 0A: listening
        const list = await fetch(`http://127.0.0.1:${parseInt(f[1].split(':').pop(), 16)}/json/list`)
          .then((r) => (r.ok ? r.json() : null))
          .catch(() => null);
        if (Array.isArray(list) && list[0]?.webSocketDebuggerUrl) return list.map((t) => ({ id: t.id, url: t.webSocketDebuggerUrl }));
      }
    }
  }
  return [];
}

/** A minimal Chrome DevTools Protocol client for one isolate: `send` a method, `on` an event. */
export async function connectInspector(url, headers = {}) {
  const ws = new WebSocket(url, { headers });
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map();
  const listeners = new Map();
  ws.addEventListener('message', (ev) => {
    const msg = JSON.parse(String(ev.data));
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(`${msg.error.message} (${msg.error.code})`));
      else resolve(msg.result);
    } else if (msg.method) listeners.get(msg.method)?.(msg.params);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    on: (method, fn) => listeners.set(method, fn),
    close: () => ws.close(),
  };
}

/**
 * Busy, self and inclusive time (µs) by function of a V8 CPU profile. Each sample stands for the time to the next
 * one, at most twice the profile's median interval: a longer gap is time the sampler did not see this isolate run
 * (workerd runs the local D1's Durable Object on the same thread, and idles between requests). Counted whole, it went
 * to whatever ran just before, most often a D1 call's send, and made an I/O-bound call look several times busier.
 * @param {{ nodes: any[], samples: number[], timeDeltas: number[] }} profile
 */
export function profileTimes(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const deltas = profile.timeDeltas.slice(1).sort((a, b) => a - b);
  const cap = 2 * (deltas[Math.floor(deltas.length / 2)] ?? 0);
  const time = new Map();
  for (let i = 0; i < profile.samples.length; i++) time.set(profile.samples[i], (time.get(profile.samples[i]) ?? 0) + Math.min(profile.timeDeltas[i + 1] ?? 0, cap));
  const label = (f) => `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
  /** @type {Map<string, number>} */
  const self = new Map();
  /** @type {Map<string, number>} */
  const inclusive = new Map();
  let busy = 0;
  for (const [id, us] of time) {
    const f = byId.get(id).callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    busy += us;
    self.set(label(f), (self.get(label(f)) ?? 0) + us);
    const seen = new Set();
    for (let c = id; c; c = parent.get(c)) {
      const k = label(byId.get(c).callFrame);
      if (!seen.has(k)) inclusive.set(k, (inclusive.get(k) ?? 0) + us);
      seen.add(k);
    }
  }
  return { busy, self, inclusive };
}

/** Prints profileTimes: busy, then self and inclusive time by function. `per` divides every figure (calls profiled: ms per call). */
export function summarizeProfile(name, profile, { self: selfRows = 20, inclusive: inclusiveRows = 35, per = 1 } = {}) {
  const { busy, self, inclusive } = profileTimes(profile);
  const ms = (us) => (us / 1000 / per).toFixed(per > 1 ? 2 : 0).padStart(7);
  console.log(`== ${name}: busy ${ms(busy)} ms${per > 1 ? ' per call' : ''}`);
  console.log('-- self');
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, selfRows)) console.log(ms(us), k);
  console.log('-- inclusive');
  for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(1, inclusiveRows + 1)) console.log(ms(us), k);
}
