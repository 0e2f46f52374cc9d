// `npm run bench -- --only quality`: does a search for a definition's exact name find it, and
// first? Real projects (bench/quality-corpora.mjs) are pushed through the CLI to `wrangler dev`,
// universal-ctags is the oracle (bench/ctags.mjs), and every answer comes over REST.
//
// Per definition (ctags name, file, line, kind):
//   found      the definition is in the answer to `search {query: NAME, limit: max(100, k)}` (k the
//              name's definitions, at most 500), or, failing
//              that, `read {path, symbol: NAME@LINE}` resolves it (indexed but not found by name)
//   rank       its position in that search answer (1-based), when there
// A hit is the definition when its file is the definition's file, its name (or the last part
// of its qualified name) is NAME, and the ctags line is its start line ±1 or inside its lines.
// Per language and kind: coverage = found / definitions; recall@1 over names defined once in
// their project; recall@5; recall@k with k = max(5, definitions of that name in the project).
// A name's definitions are counted by ctags; for TypeScript, the larger of ctags' count and the
// TypeScript compiler's (bench/tsc-names.mjs: ctags 5.9 misses many in declaration files).
// Token ratio, on a seeded sample of the names search found: what `search {query: NAME}` +
// `symbol {id}` of the matching hit cost (`_meta.tokens_used` of each answer: its payload, which
// is what an MCP client shows the model) against `grep -rnwF NAME` over the project plus reading
// the defining file (chars/4). The JSON also has the ratio with the whole REST body (the
// `_meta` envelope included) as `token_ratio_envelope`, and per sample the search and symbol
// shares; PINCHER_QUALITY_DUMP=DIR writes each sample's two answers there, to see what costs.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { walk } from '../../cli/walk.mjs';
import { ORACLE_KINDS, ctagsVersion, runCtags } from './ctags.mjs';
import { prng } from './latency.mjs';
import { tscDefinitionCounts } from './tsc-names.mjs';
import { cliPush, startProxy } from './push.mjs';
import { killGroup } from './proc.mjs';
import { EXTENSIONS, PROJECTS, installCorpora } from './quality-corpora.mjs';
import { fmt } from './table.mjs';

export const QUALITY_TARGETS = { coverage: 0.98, recall_at_1: 0.9, recall_at_k: 0.98, token_ratio: 0.15 };

/** @param {string} q */
const leaf = (q) => q.split(/[.:#\\/]|::| > /).filter(Boolean).pop() ?? q;

/** @template T @param {T[]} items @param {number} k @param {() => number} rand */
function sample(items, k, rand) {
  if (k >= items.length) return items.slice();
  const pool = items.slice();
  const out = [];
  while (out.length < k) out.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]);
  return out;
}

/** Runs `fn` over `items` with at most `n` at a time. @template T @param {T[]} items @param {number} n @param {(x: T) => Promise<void>} fn */
async function pool(items, n, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

/** @param {string} url @param {string} key */
function rest(url, key) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return async (/** @type {string} */ tool, /** @type {Record<string, unknown>} */ args) => {
    for (let attempt = 0; ; attempt++) {
      let status = 0;
      let text = '';
      try {
        const res = await fetch(`${url}/v1/tools/${tool}`, { method: 'POST', headers, body: JSON.stringify(args), signal: AbortSignal.timeout(60_000) });
        status = res.status;
        text = await res.text();
      } catch (err) {
        if (attempt < 2) continue;
        return { ok: false, status, chars: 0, tokens: 0, result: null, error: String(/** @type {Error} */ (err)?.message ?? err) };
      }
      if ((status === 429 || status >= 500) && attempt < 2) {
        await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
        continue;
      }
      /** @type {any} */
      let body = null;
      try {
        body = JSON.parse(text);
      } catch {
        /* below */
      }
      // What the answer costs the agent: the server's own count of its payload (`_meta.tokens_used`),
      // else chars/4 of the payload; `chars` is the whole REST body, envelope included.
      const payload = body?.result ?? body?.error ?? null;
      const tokens = typeof body?._meta?.tokens_used === 'number' ? body._meta.tokens_used : Math.ceil(JSON.stringify(payload ?? '').length / 4);
      if (status >= 400 || !body || body.error) return { ok: false, status, chars: text.length, tokens, result: null, error: body?.error?.code ?? `http_${status}` };
      return { ok: true, status, chars: text.length, tokens, result: body.result, error: null };
    }
  };
}

/**
 * Whether a search hit (or a read's symbol) is the ctags definition.
 * @param {{ name?: string, qualified_name?: string, file_path?: string, start_line?: number, end_line?: number }} hit
 * @param {{ name: string, path: string, line: number }} def
 */
export function isDefinition(hit, def, file = hit.file_path) {
  if (file !== def.path) return false;
  if (hit.name !== def.name && leaf(hit.qualified_name ?? '') !== def.name) return false;
  const start = hit.start_line ?? -10;
  const end = hit.end_line ?? start;
  return Math.abs(start - def.line) <= 1 || (start <= def.line && def.line <= end);
}

/**
 * Measures one pushed project.
 * @param {{ project: { id: string, language: string, dir: string }, files: string[], call: ReturnType<typeof rest>, name: string, opts: { maxNames: number, tokenNames: number, seed: number, concurrency: number }, tmp: string }} o
 */
async function measureProject({ project, files, call, name, opts, tmp }) {
  const oracle = runCtags({ dir: project.dir, files, language: project.language, listFile: path.join(tmp, `${project.id}.files`) });
  /** @type {Map<string, typeof oracle.definitions>} */
  const byName = new Map();
  for (const d of oracle.definitions) {
    const list = byName.get(d.name) ?? [];
    list.push(d);
    byName.set(d.name, list);
  }
  // ctags undercounts a TypeScript name's definitions (bench/tsc-names.mjs): the compiler's
  // parser counts them too, and the larger count is the name's.
  const tsc = project.language === 'typescript' ? tscDefinitionCounts(project.dir, files) : null;
  const definedCount = (/** @type {string} */ n) => Math.max(byName.get(n)?.length ?? 0, tsc?.get(n) ?? 0);
  const rand = prng(opts.seed);
  const names = sample([...byName.keys()].sort(), opts.maxNames, rand);
  /** @type {{ def: (typeof oracle.definitions)[number], defined: number, defined_ctags: number, rank: number | null, found: 'search' | 'read' | null, above?: string[] }[]} */
  const rows = [];
  /** @type {Map<string, any[]>} */
  const answers = new Map();
  let errors = 0;
  /** @type {Record<string, number>} */
  const errorCodes = {};
  const noteError = (/** @type {string | null} */ code) => {
    errors++;
    errorCodes[code ?? 'unknown'] = (errorCodes[code ?? 'unknown'] ?? 0) + 1;
  };
  await pool(names, opts.concurrency, async (n) => {
    const defs = byName.get(n) ?? [];
    const defined = definedCount(n);
    // recall@k needs the first k hits: a name defined more than 100 times is searched that deep (≤ 500, one page).
    const r = await call('search', { project: name, query: n, limit: Math.min(500, Math.max(100, defined)), fields: ['id', 'name', 'qualified_name', 'kind', 'file_path', 'start_line', 'end_line'] });
    if (!r.ok) noteError(r.error);
    const hits = r.ok ? r.result?.results ?? [] : [];
    answers.set(n, hits);
    for (const def of defs) {
      const i = hits.findIndex((h) => isDefinition(h, def));
      // A miss keeps what ranked above it (or the first hits), to tell ranking from extraction.
      const missed = i < 0 || i + 1 > (defined === 1 ? 1 : Math.max(5, defined));
      const above = missed ? hits.slice(0, Math.min(i < 0 ? 3 : i, 3)).map((h) => `${h.kind} ${h.qualified_name} ${h.file_path}:${h.start_line}-${h.end_line}`) : undefined;
      rows.push({ def, defined, defined_ctags: defs.length, rank: i >= 0 ? i + 1 : null, found: i >= 0 ? 'search' : null, above });
    }
  });
  // Not in the answer: is it indexed at all? (`read` resolves NAME@LINE in that file.)
  const missed = rows.filter((r) => r.found === null);
  await pool(missed, opts.concurrency, async (row) => {
    const r = await call('read', { project: name, path: row.def.path, symbol: `${row.def.name}@${row.def.line}`, limit: 1 });
    const s = r.ok ? r.result?.symbol : null;
    if (s && isDefinition({ name: leaf(s.qualified_name), qualified_name: s.qualified_name, start_line: s.start_line, end_line: s.end_line }, row.def, row.def.path)) row.found = 'read';
  });

  // Token ratio on a sample of the names whose definition search found (the cost of a lookup
  // that succeeds; misses are counted by coverage): the default search, then `symbol` of the hit.
  const foundNames = [...new Set(rows.filter((r) => r.rank !== null).map((r) => r.def.name))].sort();
  const tokenNames = sample(foundNames, opts.tokenNames, prng(opts.seed + 1));
  const tokens = [];
  for (const n of tokenNames) {
    const def = rows.find((r) => r.def.name === n && r.rank !== null)?.def ?? byName.get(n)[0];
    const s = await call('search', { project: name, query: n });
    const hits = s.ok ? s.result?.results ?? [] : [];
    const hit = hits.find((h) => isDefinition(h, def)) ?? hits[0];
    const sym = hit?.id ? await call('symbol', { project: name, id: hit.id }) : null;
    const server = s.tokens + (sym?.tokens ?? 0);
    const envelope = Math.ceil(s.chars / 4) + (sym ? Math.ceil(sym.chars / 4) : 0);
    let grep = '';
    try {
      grep = execFileSync('grep', ['-rnwF', '--', n, '.'], { cwd: project.dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    } catch (err) {
      grep = /** @type {any} */ (err).stdout ?? '';
    }
    const fileChars = (await readFile(path.join(project.dir, def.path), 'utf8')).length;
    const baseline = Math.ceil(grep.length / 4) + Math.ceil(fileChars / 4);
    tokens.push({ name: n, kind: def.kind, server_tokens: server, search_tokens: s.tokens, symbol_tokens: sym?.tokens ?? 0, search_hits: hits.length, envelope_tokens: envelope, baseline_tokens: baseline, grep_tokens: Math.ceil(grep.length / 4), file_tokens: Math.ceil(fileChars / 4), symbol_ok: Boolean(sym?.ok) });
    if (process.env.PINCHER_QUALITY_DUMP) await writeFile(path.join(process.env.PINCHER_QUALITY_DUMP, `${project.id}--${n}.json`), JSON.stringify({ search: s.result, symbol: sym?.result }, null, 1));
  }
  return {
    ctags_definitions: oracle.definitions.length,
    ctags_names: byName.size,
    by_ctags_kind: oracle.byCtagsKind,
    names_measured: names.length,
    search_errors: errors,
    search_error_codes: errorCodes,
    rows: rows.map((r) => ({ name: r.def.name, path: r.def.path, line: r.def.line, kind: r.def.kind, ctags_kind: r.def.ctags_kind, defined: r.defined, ...(r.defined !== r.defined_ctags ? { defined_ctags: r.defined_ctags } : {}), rank: r.rank, found: r.found, ...(r.above?.length ? { above: r.above } : {}) })),
    tokens,
  };
}

/**
 * Coverage, recalls and token ratio over a set of rows and token samples.
 * @param {{ defined: number, rank: number | null, found: string | null }[]} rows
 * @param {{ server_tokens: number, baseline_tokens: number }[]} tokens
 */
export function summarize(rows, tokens) {
  const n = rows.length;
  const once = rows.filter((r) => r.defined === 1);
  const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (b > 0 ? a / b : null);
  const server = tokens.reduce((s, t) => s + t.server_tokens, 0);
  const baseline = tokens.reduce((s, t) => s + t.baseline_tokens, 0);
  const envelope = tokens.reduce((s, t) => s + (t.envelope_tokens ?? t.server_tokens), 0);
  return {
    definitions: n,
    defined_once: once.length,
    coverage: ratio(rows.filter((r) => r.found !== null).length, n),
    found_by_search: ratio(rows.filter((r) => r.found === 'search').length, n),
    recall_at_1: ratio(once.filter((r) => r.rank === 1).length, once.length),
    recall_at_5: ratio(rows.filter((r) => r.rank !== null && r.rank <= 5).length, n),
    recall_at_k: ratio(rows.filter((r) => r.rank !== null && r.rank <= Math.max(5, r.defined)).length, n),
    token_samples: tokens.length,
    token_ratio: ratio(server, baseline),
    token_ratio_envelope: ratio(envelope, baseline),
  };
}

/**
 * The whole stage: install the corpora, one `wrangler dev`, push and measure each project.
 * @param {{ opts: { quick: boolean, concurrency: number | null, qualityProjects: string[] | null, qualityNames: number, qualityTokenNames: number, qualitySeed: number, qualityCache: string }, code: { root: string, devServer: typeof import('../dev-server.mjs') }, tmp: string, log: (line: string) => void, live: { server: any, proxy: any }, progressFile?: string | null }} o
 */
export async function runQuality({ opts, code, tmp, log, live, progressFile = null }) {
  const started = performance.now();
  let specs = PROJECTS;
  if (opts.qualityProjects) {
    const wanted = new Set(opts.qualityProjects);
    specs = PROJECTS.filter((p) => wanted.has(p.id) || wanted.has(p.language));
    if (specs.length === 0) throw new Error(`--quality-projects matched no project (ids: ${PROJECTS.map((p) => p.id).join(', ')}; or a language)`);
  }
  log(`quality: installing ${specs.length} corpus projects into ${opts.qualityCache} (cached)…`);
  const installed = await installCorpora({ specs, cache: opts.qualityCache, log });
  log(`  ${installed.length} projects ready (${ctagsVersion()})`);

  const { applyLocalMigrations, startDevServer } = code.devServer;
  const persistTo = path.join(tmp, 'd1-quality');
  await mkdir(persistTo, { recursive: true });
  applyLocalMigrations(persistTo);
  const key = `bench-${randomBytes(16).toString('hex')}`;
  // A loaded machine (two cores shared by several runs) can take minutes to bundle and start.
  const server = await startDevServer({ persistTo, vars: { PINCHER_HTTP_KEY: key }, timeoutMs: 300_000 });
  live.server = server;
  const proxy = await startProxy(server.url);
  live.proxy = proxy;
  log(`  wrangler dev on ${server.url} (pgid ${server.pid})`);
  const call = rest(server.url, key);
  const projects = [];
  try {
    for (const cached of installed) {
      const t0 = performance.now();
      const name = `q-${cached.id}`;
      // Pushed from a copy outside the repository: the cache sits in a gitignored folder,
      // which the CLI's walk (rightly) skips.
      const project = { ...cached, dir: path.join(tmp, 'quality', cached.id) };
      await cp(cached.dir, project.dir, { recursive: true });
      const walked = await walk(project.dir);
      const files = walked.files.map((f) => f.path).filter((p) => codeFile(p, project.language));
      let push;
      try {
        const r = await cliPush({ root: code.root, dir: project.dir, url: proxy.url, key, project: name, ref: 'bench', commit: 'quality', serverPgid: server.pid, proxy, concurrency: opts.concurrency, timeoutMs: 10 * 60_000 });
        push = { ok: true, wall_ms: r.wallMs, files: r.summary.files, symbols: r.summary.symbols.total, failures: r.summary.failures ?? [] };
      } catch (err) {
        push = { ok: false, error: String(/** @type {Error} */ (err)?.message ?? err).slice(0, 600) };
        log(`  ${project.id}: PUSH FAILED: ${push.error.split('\n')[0]}`);
      }
      const m = await measureProject({ project, files, call, name, opts: { maxNames: opts.qualityNames, tokenNames: opts.qualityTokenNames, seed: opts.qualitySeed, concurrency: 4 }, tmp });
      const s = summarize(m.rows, m.tokens);
      log(`  ${project.id}: push ${push.ok ? `${(push.wall_ms / 1000).toFixed(1)} s, ${push.symbols} symbols` : 'FAILED'}; ${m.ctags_definitions} ctags defs, ${m.rows.length} measured; coverage ${fmt(s.coverage)}, r@1 ${fmt(s.recall_at_1)}, r@k ${fmt(s.recall_at_k)}, tokens ${fmt(s.token_ratio, 3)} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
      await rm(project.dir, { recursive: true, force: true });
      projects.push({ id: project.id, language: project.language, source: project.source, files: files.length, bytes: project.bytes, push, ...m, summary: s, ms: Math.round(performance.now() - t0) });
      // A long run interrupted still leaves the projects measured so far.
      if (progressFile) await writeFile(progressFile, `${JSON.stringify({ partial: true, projects, ...aggregate(projects) })}\n`);
    }
  } finally {
    live.server = null;
    live.proxy = null;
    await Promise.allSettled([server.stop(), proxy.close()]);
    killGroup(server.pid, 'SIGKILL');
  }
  return { ctags: ctagsVersion(), targets: QUALITY_TARGETS, cache: opts.qualityCache, options: { names_per_project: opts.qualityNames, token_names_per_project: opts.qualityTokenNames, seed: opts.qualitySeed }, projects, ...aggregate(projects), run_ms: Math.round(performance.now() - started) };
}

/** @param {string} p @param {string} language */
function codeFile(p, language) {
  return (EXTENSIONS[/** @type {keyof typeof EXTENSIONS} */ (language)] ?? []).includes(path.extname(p).toLowerCase());
}

/** Per language, per language × kind, and overall summaries. @param {any[]} projects */
function aggregate(projects) {
  /** @type {Record<string, any>} */
  const byLanguage = {};
  /** @type {Record<string, Record<string, any>>} */
  const byLanguageKind = {};
  const languages = [...new Set(projects.map((p) => p.language))];
  for (const l of languages) {
    const ps = projects.filter((p) => p.language === l);
    const rows = ps.flatMap((p) => p.rows);
    const tokens = ps.flatMap((p) => p.tokens);
    byLanguage[l] = { projects: ps.length, pushes_ok: ps.filter((p) => p.push.ok).length, ...summarize(rows, tokens) };
    byLanguageKind[l] = {};
    for (const k of ORACLE_KINDS) {
      const kr = rows.filter((r) => r.kind === k);
      if (kr.length) byLanguageKind[l][k] = summarize(kr, tokens.filter((t) => t.kind === k));
    }
  }
  const all = summarize(projects.flatMap((p) => p.rows), projects.flatMap((p) => p.tokens));
  return { by_language: byLanguage, by_language_kind: byLanguageKind, overall: { projects: projects.length, pushes_ok: projects.filter((p) => p.push.ok).length, ...all } };
}

/**
 * The stage's tables.
 * @param {any} q @param {(rows: any[][], o?: { title?: string }) => string} renderTable
 */
export function formatQuality(q, renderTable) {
  if (q.error) return `\nQuality stage failed: ${q.error}`;
  const t = q.targets;
  const out = [];
  const f = (/** @type {number | null} */ x) => fmt(x);
  const mark = (/** @type {number | null} */ x, /** @type {number} */ target, lower = false) => (x === null ? '—' : `${fmt(x)}${(lower ? x <= target : x >= target) ? '' : ' ✗'}`);
  const header = ['language', 'kind', 'defs', 'coverage', 'r@1 (once)', 'n once', 'r@5', 'r@k', 'token ratio', '+_meta', 'n tok'];
  const rows = [header];
  for (const [l, s] of Object.entries(q.by_language_kind)) {
    for (const [k, v] of Object.entries(/** @type {Record<string, any>} */ (s))) rows.push([l, k, v.definitions, f(v.coverage), f(v.recall_at_1), v.defined_once, f(v.recall_at_5), f(v.recall_at_k), fmt(v.token_ratio, 3), fmt(v.token_ratio_envelope, 3), v.token_samples]);
    const a = q.by_language[l];
    rows.push([l, `ALL (${a.pushes_ok}/${a.projects} pushed)`, a.definitions, mark(a.coverage, t.coverage), mark(a.recall_at_1, t.recall_at_1), a.defined_once, f(a.recall_at_5), mark(a.recall_at_k, t.recall_at_k), a.token_ratio === null ? '—' : mark(a.token_ratio, t.token_ratio, true).replace(fmt(a.token_ratio), fmt(a.token_ratio, 3)), fmt(a.token_ratio_envelope, 3), a.token_samples]);
  }
  const o = q.overall;
  rows.push(['all', `ALL (${o.pushes_ok}/${o.projects} pushed)`, o.definitions, mark(o.coverage, t.coverage), mark(o.recall_at_1, t.recall_at_1), o.defined_once, f(o.recall_at_5), mark(o.recall_at_k, t.recall_at_k), fmt(o.token_ratio, 3), fmt(o.token_ratio_envelope, 3), o.token_samples]);
  rows.push(['target', '', '', `≥ ${t.coverage}`, `≥ ${t.recall_at_1}`, '', '', `≥ ${t.recall_at_k}`, `≤ ${t.token_ratio}`, '', '']);
  out.push('', renderTable(rows, { title: `Quality: definitions (universal-ctags, ${q.ctags}) found by exact-name search over REST; ✗ = target not met; every push must succeed` }));

  const pr = [['project', 'language', 'source', 'files', 'push', 'symbols', 'ctags defs', 'measured', 'coverage', 'r@1', 'r@k', 'token ratio', 'time']];
  for (const p of q.projects) {
    pr.push([p.id, p.language, p.source, p.files, p.push.ok ? `ok ${(p.push.wall_ms / 1000).toFixed(1)} s` : 'FAILED', p.push.ok ? p.push.symbols : null, p.ctags_definitions, p.rows.length, f(p.summary.coverage), f(p.summary.recall_at_1), f(p.summary.recall_at_k), fmt(p.summary.token_ratio, 3), `${(p.ms / 1000).toFixed(0)} s`]);
  }
  out.push('', renderTable(pr, { title: `Quality by project (at most ${q.options.names_per_project} names per project, ${q.options.token_names_per_project} for tokens; seed ${q.options.seed})` }));
  for (const p of q.projects) {
    if (!p.push.ok) out.push(`push of ${p.id} failed: ${p.push.error}`);
    else if (p.push.failures.length) out.push(`push of ${p.id}: ${p.push.failures.length} file(s) failed on the server: ${p.push.failures.slice(0, 3).map((/** @type {any} */ x) => JSON.stringify(x)).join('; ')}`);
    if (p.search_errors) out.push(`${p.id}: ${p.search_errors} search call(s) failed: ${JSON.stringify(p.search_error_codes)}`);
  }
  out.push(`coverage = found in the top max(100, k) of search {query: NAME} or resolved by read {symbol: NAME@LINE}; r@1 over names defined once in their project; r@k: within max(5, same-name definitions); token ratio (names search found) = (search + symbol, _meta.tokens_used) / (grep -rnwF NAME + the defining file, chars/4); +_meta: with the whole REST body, envelope included`);
  return out.join('\n');
}
