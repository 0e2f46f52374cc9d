// `npm run bench -- --only shards`: a deployment with two D1 databases, measured. Real projects
// from the quality corpora cache are pushed cold to a local server whose two shards both take new
// projects (placement by stored bytes), then, per shard: the bytes D1 reports, the projects placed
// there, the one-round-trip floor of that shard (`/v1/ready?shard=N`), and search / read / find on
// a project placed there as a ratio to that floor (the catalog's routing must cost nothing
// measurable). Last, the largest project is moved to the other shard through the admin route:
// rows copied per second, and whether every measured answer is the same after the move.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { client, percentile, stats } from './latency.mjs';
import { killGroup } from './proc.mjs';
import { cliPush, startProxy } from './push.mjs';
import { copyProjects, STORAGE_PROJECTS } from './storage.mjs';

/** Default: the storage stage's projects, so both stages' bytes can be compared. */
export const SHARDS_PROJECTS = STORAGE_PROJECTS;

/**
 * @param {object} o
 * @param {{ root: string, devServer: any }} o.code
 * @param {string} o.tmp
 * @param {string} o.cache quality corpora cache
 * @param {string[] | null} o.projects
 * @param {number | null} o.concurrency
 * @param {number} o.calls measured calls per tool and shard
 * @param {number | null} [o.moveQueries] D1 queries per move step (PINCHER_MOVE_STEP_QUERIES), null: the server default
 * @param {{ server: any, proxy: any }} o.live
 * @param {(line: string) => void} o.log
 */
export async function runShardsBench({ code, tmp, cache, projects, concurrency, calls, moveQueries = null, live, log }) {
  const dirs = await copyProjects({ ids: projects ?? SHARDS_PROJECTS, cache, tmp: path.join(tmp, 'shards'), log });
  const persistTo = path.join(tmp, 'd1-shards');
  await mkdir(persistTo, { recursive: true });
  code.devServer.applyLocalMigrations(persistTo);
  const key = `bench-${randomBytes(16).toString('hex')}`;
  const adminKey = `admin-${randomBytes(16).toString('hex')}`;
  // Every shard takes new projects: placement by stored bytes is part of what is measured.
  const server = await code.devServer.startDevServer({ persistTo, vars: { PINCHER_HTTP_KEY: key, PINCHER_ADMIN_KEY: adminKey, ...(moveQueries ? { PINCHER_MOVE_STEP_QUERIES: String(moveQueries) } : {}) } });
  live.server = server;
  const proxy = await startProxy(server.url);
  live.proxy = proxy;
  try {
    /** @type {{ id: string, project: string, shard: number }[]} */
    const placed = [];
    for (const { id, dir } of dirs) {
      const project = `sh-${id}`;
      await cliPush({ root: code.root, dir, url: proxy.url, key, project, ref: 'bench', commit: 'shards', serverPgid: server.pid, proxy, concurrency });
      placed.push({ id, project, shard: await shardOf(server.url, key, project) });
      log(`  pushed ${id}: placed on shard ${placed[placed.length - 1].shard}`);
    }
    const listing = await adminGet(server.url, adminKey, '/v1/admin/shards');
    const c = client(server.url, key);

    /** @type {any[]} */
    const perShard = [];
    for (const s of listing.shards) {
      const here = placed.filter((p) => p.shard === s.shard);
      const entry = { shard: s.shard, binding: s.binding, bytes: s.bytes, projects: s.projects, placed: here.map((p) => p.id), floor: null, tools: {} };
      perShard.push(entry);
      if (here.length === 0) continue;
      const probe = await probeCalls(c, here[0].project);
      log(`  shard ${s.shard}: ${calls} calls per tool on ${here[0].project}…`);
      const measured = await measure(c, `/v1/ready?shard=${s.shard}`, probe, calls);
      entry.floor = measured.floor;
      entry.tools = measured.tools;
      entry.multi_trip_calls = measured.multi_trip_calls;
      entry.measured_on = here[0].id;
    }

    // The move: the largest project (most files) to the other shard, answers compared before and after.
    const sizes = await Promise.all(placed.map(async (p) => ({ ...p, files: (await c.call('find', { pattern: '**', project: p.project, limit: 1 })).result?.total ?? 0 })));
    const mover = sizes.sort((a, b) => b.files - a.files)[0];
    const target = listing.shards.find((/** @type {any} */ s) => s.shard !== mover.shard)?.shard;
    let move = null;
    if (target !== undefined) {
      const probe = await probeCalls(c, mover.project);
      const before = await answers(c, probe);
      log(`  moving ${mover.id} (${mover.files} files) from shard ${mover.shard} to shard ${target}…`);
      const t0 = performance.now();
      // One bounded step per request until the move is done (src/shards/move.ts).
      let report = await adminPost(server.url, adminKey, `/v1/admin/projects/${mover.project}/move`, { shard: target });
      let maxQueries = report.progress?.queries ?? 0;
      while (report.state && report.state !== 'moved') {
        report = await adminPost(server.url, adminKey, `/v1/admin/projects/${mover.project}/move`, { shard: target });
        maxQueries = Math.max(maxQueries, report.progress?.queries ?? 0);
      }
      const wallMs = performance.now() - t0;
      const after = await answers(c, probe);
      const copied = Object.values(report.copied).reduce((a, n) => a + Number(n), 0);
      const sizesAfter = await adminGet(server.url, adminKey, '/v1/admin/shards');
      move = {
        project: mover.id,
        files: mover.files,
        from: report.from,
        to: report.to,
        rows_copied: copied,
        rows_removed: Object.values(report.removed).reduce((a, n) => a + Number(n), 0),
        server_ms: report.duration_ms,
        steps: report.progress?.steps ?? 1,
        max_queries_per_step: maxQueries,
        query_budget: report.progress?.query_budget ?? null,
        wall_ms: Math.round(wallMs),
        rows_per_s: Math.round(copied / (report.duration_ms / 1000)),
        answers_compared: before.length,
        answers_identical: JSON.stringify(before) === JSON.stringify(after),
        // search's BM25 scores count every document of the shard's FTS table, so they shift with the
        // projects sharing a shard; the hits and their order must not.
        answers_identical_but_scores: JSON.stringify(before, withoutScores) === JSON.stringify(after, withoutScores),
        // bm25's relevance is the part of a score under 500 (docs/search.md): a co-tenant may reorder hits whose
        // other parts (tier, source, body, first definition) are equal, and nothing else. Answers equal once each
        // search page is sorted by those parts and then by id differ in that order alone.
        answers_identical_but_relevance: JSON.stringify(before.map(relevanceBlind)) === JSON.stringify(after.map(relevanceBlind)),
        answers_differing: before.filter((b, i) => JSON.stringify(b, withoutScores) !== JSON.stringify(after[i], withoutScores)).length,
        answers_differing_beyond_relevance: before.filter((b, i) => JSON.stringify(relevanceBlind(b)) !== JSON.stringify(relevanceBlind(after[i]))).length,
        // The first answers that differ beyond scores, both sides, to see what a move changed: those that differ
        // beyond bm25's relevance first.
        differences: before
          .flatMap((b, i) => (JSON.stringify(b, withoutScores) === JSON.stringify(after[i], withoutScores) ? [] : [{ before: b, after: after[i], beyond_relevance: JSON.stringify(relevanceBlind(b)) !== JSON.stringify(relevanceBlind(after[i])) }]))
          .sort((x, y) => Number(y.beyond_relevance) - Number(x.beyond_relevance))
          .slice(0, 3),
        placed_after: (await shardOf(server.url, key, mover.project)) === target,
        bytes_after: sizesAfter.shards.map((/** @type {any} */ s) => ({ shard: s.shard, bytes: s.bytes })),
      };
    }
    return { projects: placed, shards: perShard, move, calls };
  } finally {
    live.server = null;
    live.proxy = null;
    await Promise.allSettled([server.stop(), proxy.close()]);
    killGroup(server.pid, 'SIGKILL');
  }
}

/**
 * The shard a project's reads go to: a read on shard N ≥ 1 returns its bookmark as `N~…`
 * (docs/consistency.md), the primary's bare.
 * @param {string} url @param {string} key @param {string} project
 */
async function shardOf(url, key, project) {
  const res = await fetch(`${url}/v1/tools/find`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ pattern: '**', project, limit: 1 }) });
  await res.text();
  if (!res.ok) throw new Error(`shards: find on ${project} answered HTTP ${res.status}`);
  const bookmark = res.headers.get('x-pincher-bookmark');
  if (bookmark === null) throw new Error('shards: the server sent no X-Pincher-Bookmark; cannot tell which shard answered');
  // One entry per shard the call read, shard 0's unprefixed (src/db/project-shard.ts, encodeBookmarks): a cold call
  // reads the catalog on shard 0 besides the project's shard, so the project is on the highest shard named.
  return Math.max(...bookmark.split(',').map((entry) => Number(/^(\d+)~/.exec(entry.trim())?.[1] ?? 0)));
}

/** @param {string} url @param {string} key @param {string} route */
async function adminGet(url, key, route) {
  const res = await fetch(`${url}${route}`, { headers: { authorization: `Bearer ${key}` } });
  if (!res.ok) throw new Error(`shards: GET ${route} answered HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

/** @param {string} url @param {string} key @param {string} route @param {unknown} body */
async function adminPost(url, key, route, body) {
  const res = await fetch(`${url}${route}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(30 * 60_000) });
  if (!res.ok) throw new Error(`shards: POST ${route} answered HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

/**
 * The calls measured on a project: search for the base names of its first files, a read of
 * each file's map, and find with a glob of its commonest extension.
 * @param {ReturnType<typeof client>} c @param {string} project
 */
async function probeCalls(c, project) {
  const listed = await c.call('find', { pattern: '**', project, limit: 40 });
  if (!listed.ok) throw new Error(`shards: find on ${project} failed: ${listed.errorMessage}`);
  /** @type {string[]} */
  const paths = (listed.result?.files ?? listed.result?.results ?? []).map((/** @type {any} */ f) => (typeof f === 'string' ? f : f.path)).filter(Boolean);
  if (paths.length === 0) throw new Error(`shards: find on ${project} listed no files`);
  const ext = mostCommon(paths.map((p) => path.extname(p)).filter(Boolean)) ?? '';
  const names = [...new Set(paths.map((p) => path.basename(p, path.extname(p))).filter((n) => /^[A-Za-z_]\w{2,}$/.test(n)))];
  return {
    search: (names.length ? names : ['index']).slice(0, 10).map((query) => ({ query, project })),
    read: paths.slice(0, 10).map((p) => ({ path: p, map: true, project })),
    find: [{ pattern: `**/*${ext}`, project, limit: 20 }],
  };
}

/** JSON.stringify replacer dropping search's `score`. @param {string} k @param {unknown} v */
const withoutScores = (k, v) => (k === 'score' ? undefined : v);

/**
 * An answer with each search hit's score cut to its parts above bm25's relevance (multiples of 500) and the hits
 * sorted by that, then by id: what a move may not change. When more hits follow the page, the page's lowest such
 * score is cut by the page's end: which of its tied hits made the page is relevance's choice, so only how many did
 * is kept.
 * @param {{ t: string, args: unknown, ok: boolean, result: any }} a
 */
export function relevanceBlind(a) {
  const hits = a.t === 'search' && Array.isArray(a.result?.results) ? a.result.results : null;
  if (!hits) return JSON.parse(JSON.stringify(a, withoutScores));
  let cut = hits
    .map((/** @type {any} */ h) => ({ ...h, score: Math.floor(h.score / 500) * 500 }))
    .sort((/** @type {any} */ x, /** @type {any} */ y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  if (a.result.has_more && cut.length) {
    const lowest = cut[cut.length - 1].score;
    cut = [...cut.filter((h) => h.score !== lowest), { score: lowest, hits_at_page_end: cut.filter((h) => h.score === lowest).length }];
  }
  return { ...a, result: { ...a.result, results: cut } };
}

/** @param {string[]} xs */
function mostCommon(xs) {
  const n = new Map();
  for (const x of xs) n.set(x, (n.get(x) ?? 0) + 1);
  return [...n.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/**
 * p50/p99 of the shard's floor and of each tool, interleaved so load drifts alike for all.
 * @param {ReturnType<typeof client>} c @param {string} floorRoute @param {Record<string, Record<string, unknown>[]>} probe @param {number} calls
 */
async function measure(c, floorRoute, probe, calls) {
  /** @type {Record<string, { server: number[], client: number[], trips: number[] }>} */
  const xs = { floor: { server: [], client: [], trips: [] } };
  /** Calls that took more than one D1 round trip, with their arguments. @type {any[]} */
  const multi = [];
  for (const t of Object.keys(probe)) xs[t] = { server: [], client: [], trips: [] };
  for (let i = 0; i < 5; i++) for (const [t, args] of Object.entries(probe)) await c.call(t, args[i % args.length]);
  for (let i = 0; i < calls; i++) {
    const f = await c.ping(floorRoute);
    if (f.serverMs !== null) xs.floor.server.push(f.serverMs);
    xs.floor.client.push(f.clientMs);
    for (const [t, args] of Object.entries(probe)) {
      const r = await c.call(t, args[i % args.length]);
      if (!r.ok) throw new Error(`shards: ${t} failed: ${r.errorCode} ${r.errorMessage}`);
      if (r.serverMs !== null) xs[t].server.push(r.serverMs);
      xs[t].client.push(r.clientMs);
      if (r.roundTrips !== null) xs[t].trips.push(r.roundTrips);
      if (r.roundTrips !== null && r.roundTrips > 1) multi.push({ tool: t, args: args[i % args.length], trips: r.roundTrips, empty_reason: r.emptyReason });
    }
  }
  const floor = { server: stats(xs.floor.server), client: stats(xs.floor.client) };
  /** @type {Record<string, any>} */
  const tools = {};
  for (const t of Object.keys(probe)) {
    const server = stats(xs[t].server);
    const client = stats(xs[t].client);
    tools[t] = {
      server,
      client,
      trips_p50: xs[t].trips.length ? percentile(xs[t].trips.slice().sort((a, b) => a - b), 50) : null,
      trips_max: xs[t].trips.length ? Math.max(...xs[t].trips) : null,
      server_ratio: server && floor.server?.p50 ? Math.round((server.p50 / floor.server.p50) * 100) / 100 : null,
      client_ratio: client && floor.client?.p50 ? Math.round((client.p50 / floor.client.p50) * 100) / 100 : null,
    };
  }
  return { floor, tools, multi_trip_calls: multi.slice(0, 10) };
}

/** Every probe call's answer, for comparing before and after a move. @param {ReturnType<typeof client>} c @param {Record<string, Record<string, unknown>[]>} probe */
async function answers(c, probe) {
  const out = [];
  for (const [t, list] of Object.entries(probe)) {
    for (const args of list) {
      const r = await c.call(t, args);
      out.push({ t, args, ok: r.ok, result: r.result });
    }
  }
  return out;
}

/** @param {Awaited<ReturnType<typeof runShardsBench>>} s @param {typeof import('./table.mjs').renderTable} renderTable */
export function formatShardsBench(s, renderTable) {
  const rows = [['shard', 'binding', 'projects', 'stored MB', 'floor p50 server / client ms', 'search ÷ floor (server / client)', 'read ÷ floor', 'find ÷ floor', 'trips p50/max (search, read, find)']];
  for (const sh of s.shards) {
    const r = (/** @type {string} */ t) => (sh.tools[t] ? `${sh.tools[t].server_ratio ?? '—'} / ${sh.tools[t].client_ratio ?? '—'}` : null);
    rows.push([
      sh.shard,
      sh.binding,
      `${sh.projects}${sh.placed.length ? ` (${sh.placed.join(', ')})` : ''}`,
      (sh.bytes / 1e6).toFixed(2),
      sh.floor ? `${sh.floor.server?.p50 ?? '—'} / ${sh.floor.client?.p50 ?? '—'}` : null,
      r('search'),
      r('read'),
      r('find'),
      sh.floor ? ['search', 'read', 'find'].map((t) => `${sh.tools[t]?.trips_p50 ?? '—'}/${sh.tools[t]?.trips_max ?? '—'}`).join(', ') : null,
    ]);
  }
  const out = [renderTable(rows, { title: `Shards: ${s.projects.length} projects pushed cold to two local D1 databases, placement by stored bytes; ${s.calls} calls per tool and shard` })];
  const bytes = s.shards.map((sh) => sh.bytes);
  if (bytes.length > 1) out.push(`placement: largest shard ${(Math.max(...bytes) / 1e6).toFixed(2)} MB, smallest ${(Math.min(...bytes) / 1e6).toFixed(2)} MB (${(Math.max(...bytes) / Math.max(1, Math.min(...bytes))).toFixed(2)}×)`);
  const m = s.move;
  if (m) {
    out.push(`move: ${m.project} (${m.files} files) shard ${m.from} → ${m.to}: ${m.rows_copied.toLocaleString('en-US')} rows copied in ${(m.server_ms / 1000).toFixed(1)} s over ${m.steps} step(s) of at most ${m.max_queries_per_step} D1 queries (budget ${m.query_budget}) = ${m.rows_per_s.toLocaleString('en-US')} rows/s (${m.rows_removed.toLocaleString('en-US')} removed from shard ${m.from}); ${m.answers_compared} answers ${m.answers_identical ? 'identical' : m.answers_identical_but_scores ? 'identical but for search scores (BM25 counts the shard\'s other projects)' : m.answers_identical_but_relevance ? `compared: ${m.answers_differing} differ only in search scores and in which hits tied but for bm25's relevance come first (or last on a page), as it counts the shard's other projects (docs/search.md)` : `compared, ${m.answers_differing_beyond_relevance} DIFFERENT beyond bm25's relevance (${m.answers_differing} in all)`} after the move; reads ${m.placed_after ? 'served' : 'NOT served'} by shard ${m.to}`);
  }
  return out.join('\n');
}
