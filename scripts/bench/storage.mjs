// `npm run bench -- --only storage`: what the index costs in bytes, and how fast a cold push
// goes against parse-only, on real repositories from the quality corpora cache
// (bench/quality-corpora.mjs) or on any checkout given as a folder path
// (`--storage-projects ../some-repo,ts-zod`: the files the CLI's walk would push). Each project
// is pushed cold through the CLI to a fresh local D1; then, with the server stopped, the SQLite
// file is measured with the `dbstat` virtual table of the `sqlite3` CLI: the bytes of every
// table and index (FTS5 shadow tables counted under their virtual table), per MB of stored
// source (the distinct file contents in `blobs`), and the amplification (database bytes /
// stored source bytes). Parse-only throughput is web-tree-sitter in Node (bench/parse-wasm.mjs)
// over the same projects' TypeScript, JavaScript and Python files, so "cold push / parse-only"
// compares the same bytes in one run.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { walk } from '../../cli/walk.mjs';
import { copyWalked, languageOf } from './corpus.mjs';
import { runExtractNode } from './extract-node.mjs';
import { mbps, parseWasm, round } from './parse-wasm.mjs';
import { killGroup } from './proc.mjs';
import { cliPush, startProxy } from './push.mjs';

/** Real repositories in languages parse-only covers (TypeScript, JavaScript, Python), ≈ 11 MB. */
export const STORAGE_PROJECTS = ['ts-rxjs', 'ts-types-node', 'ts-zod', 'js-lodash', 'js-axios', 'py-jinja2', 'py-stdlib-modules'];

/** Amplification the index must stay under (database bytes / stored source bytes). */
export const AMPLIFICATION_TARGET = 4;

/** FTS5 keeps a virtual table in shadow tables named `<table>_<suffix>`. */
const FTS_SHADOWS = ['_data', '_idx', '_docsize', '_config', '_content'];

/** @param {string} file @param {string} sql @returns {any[]} */
function sqlite(file, sql) {
  const out = execFileSync('sqlite3', ['-json', file, sql], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out.trim() ? JSON.parse(out) : [];
}

/**
 * The primary's `.sqlite` file of the local D1s under `persistTo`: the stage places every
 * project there (PINCHER_PLACE_SHARDS=0), so it is the largest; the other shards hold only
 * the schema. @param {string} persistTo
 */
async function d1File(persistTo) {
  const found = [];
  const visit = async (/** @type {string} */ dir) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await visit(p);
      else if (e.name.endsWith('.sqlite') && !e.name.startsWith('metadata')) found.push(p);
    }
  };
  await visit(persistTo);
  if (!found.length) throw new Error(`no local D1 file under ${persistTo}`);
  const sizes = await Promise.all(found.map(async (f) => (await stat(f)).size));
  return found[sizes.indexOf(Math.max(...sizes))];
}

/**
 * The per-project table's columns that sum several tables: an edge's rows and its ends' (migration 0025).
 * @type {Record<string, string[]>}
 */
const SHOWN_AS = { edges: ['edge_rows', 'edge_ends'] };

/**
 * Edges in a measured database: rows of `edge_rows` (migration 0025; `edges` is a view of them).
 * @param {{ tables: Record<string, { rows: number | null }> }} db
 */
function edgeRows(db) {
  return db.tables.edge_rows?.rows ?? 0;
}

/**
 * Bytes of every table with its indexes, from `dbstat` (pages as stored, free space included).
 * @param {string} file
 */
export function measureDatabase(file) {
  const master = sqlite(file, "SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')");
  const virtual = new Set(sqlite(file, "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").map((r) => r.name));
  const owner = new Map(master.map((r) => [r.name, r.type === 'index' ? r.tbl_name : r.name]));
  const ownerOf = (/** @type {string} */ name) => {
    for (const v of virtual) if (FTS_SHADOWS.some((s) => name === `${v}${s}`)) return v;
    return owner.get(name) ?? name;
  };
  const kinds = new Map(master.map((r) => [r.name, r.type]));
  const [{ page_size: pageSize }] = sqlite(file, 'PRAGMA page_size');
  const [{ page_count: pageCount }] = sqlite(file, 'PRAGMA page_count');
  // Pages freed by deletes and updates: SQLite reuses them before it grows the file.
  const [{ freelist_count: freePages }] = sqlite(file, 'PRAGMA freelist_count');
  /** @type {Record<string, { table: number, indexes: Record<string, number>, rows: number | null }>} */
  const tables = {};
  for (const r of sqlite(file, 'SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name')) {
    const t = ownerOf(r.name);
    const entry = (tables[t] ??= { table: 0, indexes: {}, rows: null });
    if (kinds.get(r.name) === 'index') entry.indexes[r.name] = r.bytes;
    else entry.table += r.bytes;
  }
  for (const name of Object.keys(tables)) {
    if (virtual.has(name) || !kinds.has(name) || name.startsWith('sqlite_')) continue;
    tables[name].rows = sqlite(file, `SELECT count(*) AS n FROM "${name}"`)[0].n;
  }
  const [source] = sqlite(file, 'SELECT count(*) AS blobs, coalesce(sum(size), 0) AS bytes FROM blobs');
  const [indexed] = sqlite(file, 'SELECT count(*) AS files, coalesce(sum(size), 0) AS bytes FROM files');
  return { page_size: pageSize, database_bytes: pageSize * pageCount, free_bytes: pageSize * freePages, source_bytes: source.bytes, blobs: source.blobs, files: indexed.files, file_bytes: indexed.bytes, tables };
}

/**
 * @param {object} o
 * @param {{ root: string, devServer: any }} o.code
 * @param {string} o.tmp
 * @param {string} o.cache quality corpora cache (its `projects/<id>` folders)
 * @param {string[] | null} o.projects
 * @param {number | null} o.concurrency
 * @param {string | null} [o.keep] copy the measured SQLite file here (to study it afterwards)
 * @param {boolean} [o.eachProject] also push and measure each project alone (the target is per project)
 * @param {{ server: any, proxy: any }} o.live
 * @param {(line: string) => void} o.log
 */
export async function runStorage({ code, tmp, cache, projects, keep = null, eachProject = true, concurrency, live, log }) {
  const dirs = await copyProjects({ ids: projects ?? STORAGE_PROJECTS, cache, tmp: path.join(tmp, 'storage'), log });
  const ids = dirs.map((d) => d.id);

  log('storage: parse-only (web-tree-sitter in Node) over the projects’ TypeScript, JavaScript and Python files…');
  const texts = [];
  let walkedBytes = 0;
  let walkedFiles = 0;
  for (const { id, dir } of dirs) {
    for (const f of (await walk(dir)).files) {
      const abs = path.join(dir, f.path);
      const bytes = await readFile(abs);
      walkedBytes += bytes.length;
      walkedFiles++;
      const language = languageOf(f.path);
      if (language) texts.push({ path: `${id}/${f.path}`, language, bytes: bytes.length, text: bytes.toString('utf8') });
    }
  }
  const parse = await parseWasm({ root: code.root, files: texts, withQuery: false });
  // The extractor itself (parse + tags query + outline) over the same files: the ceiling a push can reach.
  const listFile = path.join(tmp, 'storage-files.json');
  await writeFile(listFile, JSON.stringify(texts.map(({ path: p, language, bytes }) => ({ path: p, language, bytes }))));
  texts.length = 0;
  log(`  ${parse.overall.files} files, ${(parse.overall.bytes / 1e6).toFixed(2)} MB: ${parse.overall.parse_mbps} MB/s`);
  const extract = await runExtractNode({ root: code.root, dir: path.join(tmp, 'storage'), listFile });
  log(extract.ok ? `  extract-only (Node): ${extract.overall.mbps} MB/s` : `  extract-only unavailable: ${extract.reason}`);

  const persistTo = path.join(tmp, 'd1-storage');
  const pushes = await pushInto({ code, persistTo, dirs, concurrency, live, log });
  const file = await d1File(persistTo);
  if (keep) {
    await cp(file, keep);
    // The write-ahead log holds the last commits until a checkpoint.
    if (await stat(`${file}-wal`).catch(() => null)) await cp(`${file}-wal`, `${keep}-wal`);
  }
  const db = measureDatabase(file);
  const wallMs = pushes.reduce((a, p) => a + p.wall_ms, 0);
  const pushMbps = mbps(walkedBytes, wallMs);
  const serverCpuS = pushes.reduce((a, p) => a + (p.server_cpu_s ?? 0), 0);
  // The Worker's runtime alone: the group also holds wrangler's Node process, the local
  // server's front proxy and esbuild's watcher, which a deployed Worker does not run.
  const workerdCpuS = pushes.reduce((a, p) => a + (p.server_cpu_by_command?.workerd ?? 0), 0);
  const totals = { symbols: db.tables.symbols?.rows ?? 0, edges: edgeRows(db) };
  const each = eachProject ? await measureEach({ code, tmp, dirs, concurrency, live, log }) : null;
  return {
    projects: ids,
    sources: dirs.map(({ id, from }) => ({ id, from })),
    walked: { files: walkedFiles, bytes: walkedBytes },
    parse_only: parse.overall,
    extract_only: extract.ok ? extract.overall : { error: extract.reason },
    pushes,
    push: {
      wall_ms: wallMs,
      mbps: round(pushMbps, 2),
      ratio_to_parse: ratioOf(pushMbps, parse.overall.parse_mbps),
      // Load-independent: source MB per CPU-second of the server against parse MB per CPU-second.
      server_cpu_s: round(serverCpuS, 2),
      server_cpu_mbps: round(mbps(walkedBytes, serverCpuS * 1000), 2),
      ratio_to_parse_cpu: ratioOf(mbps(walkedBytes, serverCpuS * 1000), parse.overall.parse_cpu_mbps),
      workerd_cpu_s: round(workerdCpuS, 2),
      workerd_cpu_mbps: round(mbps(walkedBytes, workerdCpuS * 1000), 2),
      workerd_ratio_to_parse_cpu: ratioOf(mbps(walkedBytes, workerdCpuS * 1000), parse.overall.parse_cpu_mbps),
    },
    totals,
    database: db,
    amplification: round(db.database_bytes / db.source_bytes, 2),
    amplification_target: AMPLIFICATION_TARGET,
    each,
  };
}

/**
 * Pushes `dirs` cold, one after the other, to a local server on a fresh D1 at `persistTo`.
 * @param {{ code: { root: string, devServer: any }, persistTo: string, dirs: { id: string, dir: string }[], concurrency: number | null, live: { server: any, proxy: any }, log: (line: string) => void, quiet?: boolean, from?: string }} o
 *   `from`: a migrated empty D1 folder to copy instead of applying the migrations again (wrangler takes seconds per shard)
 */
async function pushInto({ code, persistTo, dirs, concurrency, live, log, quiet = false, from }) {
  if (from) await cp(from, persistTo, { recursive: true });
  else {
    await mkdir(persistTo, { recursive: true });
    code.devServer.applyLocalMigrations(persistTo);
  }
  const key = `bench-${randomBytes(16).toString('hex')}`;
  // One database measured: every project on the primary (docs/capacity.md turns the figures into a shard's capacity).
  const server = await code.devServer.startDevServer({ persistTo, vars: { PINCHER_HTTP_KEY: key, PINCHER_PLACE_SHARDS: '0' } });
  live.server = server;
  const proxy = await startProxy(server.url);
  live.proxy = proxy;
  const pushes = [];
  try {
    for (const { id, dir } of dirs) {
      const r = await cliPush({ root: code.root, dir, url: proxy.url, key, project: `s-${id}`, ref: 'bench', commit: 'storage', serverPgid: server.pid, proxy, concurrency });
      const s = r.summary;
      pushes.push({ id, wall_ms: r.wallMs, server_cpu_s: r.serverCpuS, server_cpu_by_command: r.serverCpuByCommand, files: s.files, symbols: s.symbols?.total ?? null, commit_ms: r.phases.commit_ms, batches_ms: r.phases.batches_ms });
      if (!quiet) log(`  pushed ${id}: ${(r.wallMs / 1000).toFixed(1)} s, ${s.files.new} files, ${s.symbols?.total} symbols`);
    }
  } finally {
    live.server = null;
    live.proxy = null;
    await Promise.allSettled([server.stop(), proxy.close()]);
    killGroup(server.pid, 'SIGKILL');
  }
  return pushes;
}

/**
 * The target is per project: each project pushed alone to a fresh D1 and measured, its index being
 * the database's pages in use over those of the same database before the push (the schema's own
 * pages: every table and index takes a page even when empty, which would weigh on a small project);
 * free pages, left by the push's deleted staging rows and reused before the file grows, are not counted.
 * @param {{ code: { root: string, devServer: any }, tmp: string, dirs: { id: string, dir: string }[], concurrency: number | null, live: { server: any, proxy: any }, log: (line: string) => void }} o
 */
async function measureEach({ code, tmp, dirs, concurrency, live, log }) {
  log('  each project alone, on a fresh D1…');
  const emptyAt = path.join(tmp, 'd1-storage-empty');
  await mkdir(emptyAt, { recursive: true });
  code.devServer.applyLocalMigrations(emptyAt);
  const empty = measureDatabase(await d1File(emptyAt));
  const out = [];
  for (const d of dirs) {
    const persistTo = path.join(tmp, `d1-storage-${d.id}`);
    await pushInto({ code, persistTo, dirs: [d], concurrency, live, log, quiet: true, from: emptyAt });
    const db = measureDatabase(await d1File(persistTo));
    // Free pages (a push deletes its staging rows) are reused before the file grows: not the index's.
    const index = db.database_bytes - db.free_bytes - (empty.database_bytes - empty.free_bytes);
    /** @type {Record<string, number>} bytes per table with its indexes, over the empty database's */
    const tables = {};
    for (const [name, t] of Object.entries(db.tables)) {
      const e = empty.tables[name];
      tables[name] = t.table + sum(t.indexes) - (e ? e.table + sum(e.indexes) : 0);
    }
    const symbols = db.tables.symbols?.rows ?? 0;
    const row = {
      id: d.id,
      files: db.files,
      source_bytes: db.source_bytes,
      index_bytes: index,
      // Free pages over the empty database's: what the push's own deletes left.
      free_bytes: Math.max(0, db.free_bytes - empty.free_bytes),
      amplification: round(index / db.source_bytes, 2),
      symbols,
      edges: edgeRows(db),
      ...symbolDensity(tables, symbols, db.source_bytes),
      tables,
    };
    out.push(row);
    log(`  ${d.id}: ${mbs(db.source_bytes)} MB source, index ${mbs(index)} MB = ${row.amplification}×`);
  }
  return { empty_database_bytes: empty.database_bytes, projects: out };
}

/** What a symbol costs wherever it is stored: its row with its indexes, its search entry and its name's row. */
const SYMBOL_TABLES = ['symbols', 'symbols_fts', 'symbol_names'];

/**
 * How symbol-dense a project is and what each symbol costs: symbols per MB of stored source, and the bytes of
 * SYMBOL_TABLES (over the empty database's) per symbol. Their product is the symbols' share of the amplification,
 * which grows with density: declaration files (`.d.ts`) hold several times the symbols per MB of other code.
 * @param {Record<string, number>} tables bytes per table with its indexes @param {number} symbols @param {number} sourceBytes
 */
export function symbolDensity(tables, symbols, sourceBytes) {
  const bytes = SYMBOL_TABLES.reduce((a, t) => a + (tables[t] ?? 0), 0);
  return {
    symbols_per_source_mb: sourceBytes > 0 ? Math.round(symbols / (sourceBytes / 1e6)) : null,
    bytes_per_symbol: symbols > 0 ? Math.round(bytes / symbols) : null,
  };
}

/**
 * What one entry of `--storage-projects` names: a folder (an absolute path, one starting with `.` or
 * `~`, or any entry holding a path separator), measured as the CLI would push it; else a project id
 * of the quality corpora cache. A folder's id is its name, made a valid project name (characters
 * other than letters, digits, `.`, `_` and `-` become `-`), suffixed `-2`, `-3`… when `taken` holds it.
 * @param {string} entry @param {Set<string>} taken ids already given (the new one is added)
 * @param {string} [cwd] @returns {{ id: string, folder: string | null }}
 */
export function storageEntry(entry, taken, cwd = process.cwd()) {
  const isFolder = path.isAbsolute(entry) || entry.startsWith('.') || entry.startsWith('~') || entry.includes('/') || entry.includes(path.sep);
  const folder = isFolder ? path.resolve(cwd, entry.replace(/^~(?=$|[/\\])/, os.homedir())) : null;
  const base = folder ? path.basename(folder).replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[.-]+/, '').slice(0, 80) || 'checkout' : entry;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return { id, folder };
}

/**
 * Copies the projects to `tmp/<id>`: outside the repository, since the cache may sit in a
 * gitignored folder the CLI's walk skips. A folder entry (see storageEntry) is copied as the
 * CLI's walk sees it (copyWalked).
 * @param {{ ids: string[], cache: string, tmp: string, log?: (line: string) => void }} o
 * @returns {Promise<{ id: string, dir: string, from: string }[]>}
 */
export async function copyProjects({ ids, cache, tmp, log = () => {} }) {
  const dirs = [];
  const taken = new Set();
  for (const entry of ids) {
    const { id, folder } = storageEntry(entry, taken);
    const dir = path.join(tmp, id);
    if (folder) {
      const { files, skipped } = await copyWalked(folder, dir);
      log(`  ${id}: ${files} files from ${folder}${skipped ? ` (the CLI's walk ${skipped})` : ''}`);
      dirs.push({ id, dir, from: folder });
      continue;
    }
    const from = path.join(cache, 'projects', id);
    if (!(await stat(from).catch(() => null))?.isDirectory()) throw new Error(`${from} is missing: install the corpora first (npm run bench -- --only quality --quality-projects ${id}), or give a folder path`);
    await cp(from, dir, { recursive: true });
    dirs.push({ id, dir, from });
  }
  return dirs;
}

/** a / b to three decimals; null when there is no b (no file parse-only covers). @param {number} a @param {number} b */
function ratioOf(a, b) {
  return b > 0 ? round(a / b, 3) : null;
}

/** @param {Awaited<ReturnType<typeof runStorage>>} s @param {typeof import('./table.mjs').renderTable} renderTable */
export function formatStorage(s, renderTable) {
  const db = s.database;
  const perMb = (/** @type {number} */ bytes) => Math.round(bytes / (db.source_bytes / 1e6) / 1e3) / 1e3;
  const rows = [['table', 'rows', 'table MB', 'indexes MB', 'MB per source MB', 'indexes (MB per source MB)']];
  const entries = Object.entries(db.tables).sort((a, b) => b[1].table + sum(b[1].indexes) - (a[1].table + sum(a[1].indexes)));
  for (const [name, t] of entries) {
    const idx = sum(t.indexes);
    if (t.table + idx < db.page_size * 4) continue;
    rows.push([name, t.rows, mbs(t.table), mbs(idx), perMb(t.table + idx), Object.entries(t.indexes).map(([n, b]) => `${n} ${perMb(b)}`).join(', ') || null]);
  }
  if (db.free_bytes > 0) rows.push(['(free pages, reused before the file grows)', null, mbs(db.free_bytes), null, perMb(db.free_bytes), null]);
  rows.push(['all', null, null, null, perMb(db.database_bytes), null]);
  const out = [renderTable(rows, { title: `Storage: ${s.projects.join(', ')} — ${db.files} files, ${mbs(db.source_bytes)} MB stored source in ${db.blobs} blobs; database ${mbs(db.database_bytes)} MB = ${s.amplification}× (target ≤ ${s.amplification_target}×); ${s.totals.symbols} symbols, ${s.totals.edges} edges` })];
  if (s.each) {
    const shown = ['blobs', 'symbols', 'edges', 'extractions', 'symbols_fts', 'blob_grams'];
    const each = [['project', 'files', 'source MB', 'index MB', '× source', 'verdict', ...shown.map((t) => `${t} /MB`), 'rest /MB', 'symbols /MB', 'B /symbol', 'free /MB']];
    const tablesOf = (/** @type {string} */ t) => SHOWN_AS[t] ?? [t];
    const inShown = new Set(shown.flatMap(tablesOf));
    for (const p of s.each.projects) {
      const per = (/** @type {number} */ b) => round(b / p.source_bytes, 3);
      const bytes = (/** @type {string} */ t) => tablesOf(t).reduce((a, n) => a + (p.tables[n] ?? 0), 0);
      const rest = Object.entries(p.tables).filter(([t]) => !inShown.has(t)).reduce((a, [, b]) => a + b, 0);
      each.push([p.id, p.files, mbs(p.source_bytes), mbs(p.index_bytes), p.amplification, p.amplification <= s.amplification_target ? 'met' : 'missed', ...shown.map((t) => per(bytes(t))), per(rest), p.symbols_per_source_mb ?? null, p.bytes_per_symbol ?? null, per(p.free_bytes)]);
    }
    out.push('', renderTable(each, { title: `Each project alone on a fresh D1 (the target is per project): its index = the pages in use over the empty database's (${mbs(s.each.empty_database_bytes)} MB of schema pages), free pages not counted, target ≤ ${s.amplification_target}×` }));
    out.push(`  symbols /MB: symbols per MB of stored source; B /symbol: bytes of ${SYMBOL_TABLES.join(', ')} (indexes included) per symbol; free /MB: pages the push freed (its staged symbols, docs/capacity.md "Symbol-dense code"), in the file until a later push reuses them`);
  }
  const gb = db.database_bytes / 1e9;
  out.push(`per GB of database: ${Math.round(db.source_bytes / 1e6 / gb)} MB source, ${Math.round(s.totals.symbols / gb)} symbols, ${Math.round(s.totals.edges / gb)} edges`);
  const pushed = `cold push ${s.push.mbps} MB/s (${s.walked.files} files, ${mbs(s.walked.bytes)} MB in ${(s.push.wall_ms / 1000).toFixed(1)} s over ${s.pushes.length} pushes)`;
  if (s.push.ratio_to_parse === null) {
    // Parse-only and extract-only run over TypeScript, JavaScript and Python files alone.
    out.push(`${pushed}; no ratio to parse-only: no TypeScript, JavaScript or Python file among the projects`);
    return out.join('\n');
  }
  out.push(`${pushed} / parse-only ${s.parse_only.parse_mbps} MB/s (${s.parse_only.files} files) = ${(s.push.ratio_to_parse * 100).toFixed(0)} % (target ≥ 50 %); per CPU-second: server ${s.push.server_cpu_mbps} MB/s (${s.push.server_cpu_s} s) / parse ${s.parse_only.parse_cpu_mbps} MB/s = ${(s.push.ratio_to_parse_cpu * 100).toFixed(0)} %`);
  if (s.parse_only.files < s.walked.files) {
    out.push(`  (parse-only covers the ${s.parse_only.files} TypeScript, JavaScript and Python files of the ${s.walked.files} pushed: its MB/s is of other files, so these ratios compare different code; the default projects are all in those languages)`);
  }
  if (s.push.workerd_cpu_s) out.push(`  of which the Worker's runtime (workerd) alone: ${s.push.workerd_cpu_mbps} MB/s (${s.push.workerd_cpu_s} s) / parse = ${(s.push.workerd_ratio_to_parse_cpu * 100).toFixed(0)} %; the rest is wrangler's Node process, the local server's proxy and esbuild's file watcher`);
  const ex = s.extract_only;
  if (ex && !ex.error) out.push(`extract-only (the project's extractor in Node) over the same files: ${ex.mbps} MB/s, per CPU-second ${ex.cpu_mbps} MB/s = ${Math.round((ex.cpu_mbps / s.parse_only.parse_cpu_mbps) * 100)} % of parse-only: the most a push that extracts every file can reach`);
  return out.join('\n');
}

/** @param {Record<string, number>} o */
const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
/** @param {number} b */
const mbs = (b) => (b / 1e6).toFixed(2);
