#!/usr/bin/env node
// `npm run bench`: measures pincher-edge's indexing speed on a real multi-language corpus and
// reports it (no timing assertions). Steps:
//   1. corpus: TS/JS from installed npm packages + the python3 standard library, in a temp dir
//   2. parse-only with web-tree-sitter in Node (same grammar .wasm), + the project's queries
//   3. extract-only in Node with the project's own extractor (src/extract/)
//   4. native tree-sitter parse-only, when its packages install (node-gyp, time-limited)
//   5. a real `wrangler dev` (fresh D1): cold push through the CLI, no-change re-push,
//      one-file-changed re-push; MCP tools/list size for the core and full toolsets
//   6. query latency per tool (p50/p99, server and client) on a project of ≥ 50k symbols:
//      the push stage's project when it is big enough, else a larger corpus tier pushed to a
//      fresh server (bench/latency.mjs); `--only latency` runs this stage alone
//   7. `--only quality` (a stage of its own, bench/quality.mjs): real projects from npm and
//      Debian packages pushed through the CLI, every universal-ctags definition looked up by
//      exact-name search: coverage, recall@1/5/k, token ratio against grep + reading the file
//   8. a table on stdout; JSON in bench/results/bench-<timestamp>.json and latest.json
// The server and every child run in their own process groups and are stopped, and temp dirs
// removed, on success, failure and Ctrl-C.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { walk } from '../cli/walk.mjs';
import { buildCorpus, corpusFromFolder, tally } from './bench/corpus.mjs';
import { runExtractNode } from './bench/extract-node.mjs';
import { ensureNative, NATIVE_PACKAGES, runNativeParse } from './bench/parse-native.mjs';
import { mbps, parseWasm, round } from './bench/parse-wasm.mjs';
import { killAllChildren, killGroup } from './bench/proc.mjs';
import { codeFilesOf, formatLatency, runLatency } from './bench/latency.mjs';
import { formatQuality, runQuality } from './bench/quality.mjs';
import { cliBaseline, cliPush, startProxy, toolsListSize } from './bench/push.mjs';
import { fmt, mb, rate, renderTable, secs } from './bench/table.mjs';
import { snapshot } from './bench/snapshot.mjs';
import { formatGraph, runGraphBench } from './bench/graph.mjs';
import { formatBundle, runBundle } from './bench/bundle.mjs';
import { formatShardsBench, runShardsBench, SHARDS_PROJECTS } from './bench/shards.mjs';
import { formatStorage, runStorage, STORAGE_PROJECTS } from './bench/storage.mjs';
import * as liveDevServer from './dev-server.mjs';

const { ROOT } = liveDevServer;

const HELP = `Usage: npm run bench -- [options]

Options:
  --files <n>             corpus size in files (default 1500, at least 1)
  --quick                 smoke run: about 300 files
  --no-native             skip native tree-sitter (no npm install)
  --native-timeout <s>    limit for installing/compiling native tree-sitter (default 420)
  --native-fresh          reinstall native tree-sitter even when cached
  --concurrency <n>       CLI upload concurrency (default: the CLI's, 4)
  --live                  serve and extract from the working tree instead of a snapshot
                          taken at start (wrangler dev rebuilds when src/ is edited)

Query latency (step 6):
  --only latency          run only the latency stage (corpus tier, push, calls)
  --no-latency            skip the latency stage
  --latency-files <n>     files of the latency corpus tier when the push stage's project has
                          fewer symbols than --latency-min-symbols (default 3000; --quick 300)
  --latency-min-symbols <n>
                          smallest project the latency stage reuses, and its size target
                          (default 50000)
  --latency-calls <n>     measured calls per tool (default 200; --quick 30)
  --latency-warmup <n>    warm-up calls per tool before measuring (default 20; --quick 5)
  --latency-seed <n>      seed of the query mix (default 1)
  --latency-d1 <dir>      keep the latency tier's local D1 in <dir> (created when missing);
                          a later run with the same dir re-pushes nothing new
  --latency-dir <folder>  measure on this checkout instead of a built tier: its files as the
                          CLI's walk sees them (copied first; the query mix samples its files
                          in every language the server extracts with a tags query)

Quality (real code against a universal-ctags oracle; see scripts/bench/quality.mjs):
  --only quality          run only the quality stage: installs its corpora (npm packs and Debian
                          packages, cached in .tmp/bench-corpora/), pushes each project through
                          the CLI to wrangler dev, and measures exact-name search per definition
  --quality-projects <a,b>
                          only these projects or languages (ids as printed; e.g. go,js-express)
  --quality-names <n>     most distinct names measured per project (default 200; --quick 100)
  --quality-token-names <n>
                          names per project for the token ratio (default 20; --quick 10)
  --quality-seed <n>      seed of the name samples (default 1)
  --quality-cache <dir>   corpus cache (default .tmp/bench-corpora)

Call graph vs compiler oracles (bench/graph.mjs):
  --only graph            run only the graph stage (real corpora per language, TypeScript
                          language service, scip-python, go/types and javac as oracles,
                          callers at depth 1)
  --graph-languages <l,…> languages of the graph stage (typescript,javascript,python,go,java,rust)
  --graph-targets <n>     functions sampled per language (default 300)
  --graph-scip            also push each corpus with its SCIP index (scip-typescript; for Python
                          the oracle's own scip-python index) and score it as "<language> + scip"

Upload size and startup (bench/bundle.mjs; also part of the full run):
  --only bundle           run only this stage: \`wrangler deploy --dry-run\` of the default build and
                          of the exact-accounting build (upload and gzip KiB, largest modules), and
                          \`wrangler check startup\` three times (startup CPU ms, median), and the
                          decode time of each grammar's compressed parse tables
  --bundle-baseline <ref> the same sizes and startup for a git ref, printed as before/after
                          (default main; \`none\` skips it)
Index size and cold push on real repositories (bench/storage.mjs):
  --only storage          run only this stage: push real projects from the quality corpora cache
                          (--quality-cache) cold to a fresh local D1, then measure each table and
                          index in bytes per MB of stored source (sqlite3's dbstat) and the cold
                          push against parse-only over the same files
  --storage-projects <a,b>
                          projects to push: ids of the cache, or folder paths (absolute, or
                          starting with . or ~, or holding a /), each pushed as the CLI's walk
                          sees it (default ${STORAGE_PROJECTS.join(',')})
  --storage-keep <file>   copy the measured SQLite file to <file>
  --storage-combined-only skip pushing and measuring each project alone on a fresh D1
                          (the amplification target is per project; by default each is measured)
Two D1 databases (bench/shards.mjs):
  --only shards           run only this stage: push real projects from the quality corpora cache
                          to a local server with two shards (placement by stored bytes); per
                          shard: bytes, projects, its one-round-trip floor and search/read/find
                          as a ratio to it; then move the largest project to the other shard
                          through the admin route (rows/s, answers compared before and after)
  --shards-projects <a,b> projects to push: cache ids or folder paths, as --storage-projects
                          (default ${SHARDS_PROJECTS.join(',')})
  --shards-calls <n>      measured calls per tool and shard (default 60)
  --shards-move-queries <n>
                          D1 queries per move step (PINCHER_MOVE_STEP_QUERIES; default the server's 400)
  -h, --help              show this help
`;

const INCREMENTAL_TARGET_MS = 2_000;
const RATIO_TARGET = 0.5;
const PROJECT = 'bench-corpus';
const LATENCY_PROJECT = 'bench-latency';

/* ------------------------------------------------------------------ cleanup */

/** @type {{ tempDirs: string[], server: { stop(): Promise<void>, pid: number } | null, proxy: { close(): Promise<void> } | null }} */
const live = { tempDirs: [], server: null, proxy: null };
let cleaning = null;

async function cleanup() {
  cleaning ??= (async () => {
    killAllChildren();
    const { server, proxy } = live;
    live.server = null;
    live.proxy = null;
    await Promise.race([
      Promise.allSettled([server?.stop(), proxy?.close()]),
      new Promise((r) => setTimeout(r, 10_000).unref()),
    ]);
    if (server) killGroup(server.pid, 'SIGKILL');
    for (const dir of live.tempDirs.splice(0)) await rm(dir, { recursive: true, force: true }).catch(() => {});
  })();
  return cleaning;
}

// Last resort when the process exits without the async cleanup (an uncaught throw).
process.on('exit', () => {
  killAllChildren();
  if (live.server) killGroup(live.server.pid, 'SIGKILL');
  for (const dir of live.tempDirs) rmSync(dir, { recursive: true, force: true });
});

for (const [signal, code] of /** @type {const} */ ([['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]])) {
  process.on(signal, () => {
    process.stderr.write(`\nbench: ${signal}: stopping the server and removing temp dirs…\n`);
    cleanup().finally(() => process.exit(code));
  });
}

/* -------------------------------------------------------------------- utils */

const started = performance.now();
/** @param {string} line */
const log = (line) => process.stderr.write(`bench [${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
const load = () => os.loadavg().map((x) => round(x, 2));

function gitFacts() {
  const git = (/** @type {string[]} */ args) => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  };
  const status = git(['status', '--porcelain']);
  return { commit: git(['rev-parse', 'HEAD']), dirty: status === null ? null : status.length > 0 };
}

/** @param {string[]} argv */
function options(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      files: { type: 'string' },
      quick: { type: 'boolean' },
      'no-native': { type: 'boolean' },
      'native-timeout': { type: 'string' },
      'native-fresh': { type: 'boolean' },
      concurrency: { type: 'string' },
      live: { type: 'boolean' },
      only: { type: 'string' },
      'no-latency': { type: 'boolean' },
      'latency-files': { type: 'string' },
      'latency-min-symbols': { type: 'string' },
      'latency-calls': { type: 'string' },
      'latency-warmup': { type: 'string' },
      'latency-seed': { type: 'string' },
      'latency-d1': { type: 'string' },
      'latency-dir': { type: 'string' },
      'quality-projects': { type: 'string' },
      'quality-names': { type: 'string' },
      'quality-token-names': { type: 'string' },
      'quality-seed': { type: 'string' },
      'quality-cache': { type: 'string' },
      'graph-languages': { type: 'string' },
      'graph-targets': { type: 'string' },
      'graph-scip': { type: 'boolean' },
      'bundle-baseline': { type: 'string' },
      'storage-projects': { type: 'string' },
      'storage-keep': { type: 'string' },
      'storage-combined-only': { type: 'boolean', default: false },
      'shards-projects': { type: 'string' },
      'shards-move-queries': { type: 'string' },
      'shards-calls': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  const int = (/** @type {string | undefined} */ text, /** @type {string} */ flag, /** @type {number} */ fallback, min = 1) => {
    if (text === undefined) return fallback;
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(n >= min)) throw new Error(`${flag} must be a whole number ≥ ${min}`);
    return n;
  };
  const opts = {
    help: Boolean(values.help),
    files: int(values.files, '--files', values.quick ? 300 : 1500),
    quick: Boolean(values.quick),
    native: !values['no-native'],
    nativeTimeoutMs: int(values['native-timeout'], '--native-timeout', 420) * 1000,
    nativeFresh: Boolean(values['native-fresh']),
    concurrency: values.concurrency === undefined ? null : int(values.concurrency, '--concurrency', 4),
    live: Boolean(values.live),
    only: values.only ?? null,
    latency: !values['no-latency'],
    latencyFiles: int(values['latency-files'], '--latency-files', values.quick ? 300 : 3000),
    latencyMinSymbols: int(values['latency-min-symbols'], '--latency-min-symbols', 50_000, 0),
    latencyCalls: int(values['latency-calls'], '--latency-calls', values.quick ? 30 : 200),
    latencyWarmup: int(values['latency-warmup'], '--latency-warmup', values.quick ? 5 : 20, 0),
    latencySeed: int(values['latency-seed'], '--latency-seed', 1, 0),
    latencyD1: values['latency-d1'] === undefined ? null : path.resolve(values['latency-d1']),
    latencyDir: values['latency-dir'] === undefined ? null : path.resolve(values['latency-dir']),
    qualityProjects: values['quality-projects'] === undefined ? null : values['quality-projects'].split(',').map((s) => s.trim()).filter(Boolean),
    qualityNames: int(values['quality-names'], '--quality-names', values.quick ? 100 : 200),
    qualityTokenNames: int(values['quality-token-names'], '--quality-token-names', values.quick ? 10 : 20, 0),
    qualitySeed: int(values['quality-seed'], '--quality-seed', 1, 0),
    qualityCache: path.resolve(ROOT, values['quality-cache'] ?? path.join('.tmp', 'bench-corpora')),
    graphLanguages: values['graph-languages']?.split(',').map((l) => l.trim()).filter(Boolean) ?? null,
    graphTargets: int(values['graph-targets'], '--graph-targets', 300),
    graphScip: Boolean(values['graph-scip']),
    storageProjects: values['storage-projects']?.split(',').map((p) => p.trim()).filter(Boolean) ?? null,
    storageKeep: values['storage-keep'] ? path.resolve(values['storage-keep']) : null,
    storageEach: !values['storage-combined-only'],
    shardsProjects: values['shards-projects']?.split(',').map((p) => p.trim()).filter(Boolean) ?? null,
    shardsCalls: int(values['shards-calls'], '--shards-calls', 60),
    shardsMoveQueries: values['shards-move-queries'] === undefined ? null : int(values['shards-move-queries'], '--shards-move-queries', 400),
    bundleBaseline: values['bundle-baseline'] === undefined ? 'main' : values['bundle-baseline'] === 'none' ? null : values['bundle-baseline'],
  };
  const stages = ['latency', 'quality', 'graph', 'bundle', 'storage', 'shards'];
  if (opts.only !== null && !stages.includes(opts.only)) throw new Error(`--only takes one stage name: ${stages.join(', ')} (got '${opts.only}')`);
  if (opts.only === 'latency' && !opts.latency) throw new Error('--only latency and --no-latency exclude each other');
  return opts;
}

/* --------------------------------------------------------------------- main */

async function main() {
  const opts = options(process.argv.slice(2));
  if (opts.help) {
    process.stdout.write(HELP);
    return;
  }
  const machine = {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? null,
    memory_gb: round(os.totalmem() / 2 ** 30, 1),
    loadavg_start: load(),
  };
  log(`node ${machine.node}, ${machine.cpus} CPUs, load average ${machine.loadavg_start.join(' ')}`);

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'pincher-bench-'));
  live.tempDirs.push(tmp);
  /** @type {Record<string, any>} */
  const results = { started_at: new Date().toISOString(), stages: opts.only ? [opts.only] : ['indexing', ...(opts.latency ? ['latency'] : [])], options: opts, machine, git: gitFacts() };

  // The code under test: a snapshot of the working tree (see bench/snapshot.mjs) unless --live.
  const code = opts.live ? { root: ROOT, devServer: liveDevServer } : await snapshot(ROOT, path.join(tmp, 'code'));
  log(opts.live ? 'code under test: the working tree (--live)' : `code under test: snapshot of the working tree in ${code.root}`);

  if (opts.only === 'quality') {
    // The figures so far, after each project (bench/results/quality-progress.json).
    const progressFile = path.join(ROOT, 'bench', 'results', 'quality-progress.json');
    await mkdir(path.dirname(progressFile), { recursive: true });
    results.quality = await runQuality({ opts, code, tmp, log, live, progressFile });
  }
  if (opts.only === 'graph') {
    log('graph stage: callers at depth 1 against compiler oracles…');
    results.graph = await runGraphBench({ root: code.root, devServer: code.devServer, cli: path.join(code.root, 'cli', 'bin.mjs'), tmp, cache: path.join(ROOT, '.tmp', 'graph-bench'), live, languages: opts.graphLanguages, maxTargets: opts.graphTargets, scip: opts.graphScip, log });
  }
  if (opts.only === 'storage') {
    log('storage stage: real projects pushed cold, bytes per table and index…');
    results.storage = await runStorage({ code, tmp, cache: opts.qualityCache, projects: opts.storageProjects, keep: opts.storageKeep, eachProject: opts.storageEach, concurrency: opts.concurrency, live, log });
  }
  if (opts.only === 'shards') {
    log('shards stage: real projects across two local databases, per-shard floor and calls, a move…');
    results.shards = await runShardsBench({ code, tmp, cache: opts.qualityCache, projects: opts.shardsProjects, concurrency: opts.concurrency, calls: opts.shardsCalls, moveQueries: opts.shardsMoveQueries, live, log });
  }
  if (opts.only === null) await indexingStages({ opts, code, tmp, results });
  if (opts.latency && !results.latency && (opts.only === null || opts.only === 'latency')) {
    // A failed tier (corpus, push) is reported in the latency section; the other figures stand.
    results.latency = await latencyTier({ opts, code, tmp }).catch((err) => {
      if (opts.only === 'latency') throw err;
      log(`latency stage failed: ${err?.message ?? err}`);
      return { error: String(err?.message ?? err) };
    });
  }
  if (opts.only === null || opts.only === 'bundle') {
    if (opts.only === null) results.stages.push('bundle');
    results.bundle = await runBundle({ root: code.root, repo: ROOT, baseline: opts.bundleBaseline, tmp, log });
  }
  Object.assign(results, { loadavg_end: load(), run_ms: Math.round(performance.now() - started) });

  const report = formatReport(results);
  process.stdout.write(`${report}\n`);

  const outDir = path.join(ROOT, 'bench', 'results');
  await mkdir(outDir, { recursive: true });
  const stamp = results.started_at.replace(/[:.]/g, '-');
  const file = path.join(outDir, `bench-${stamp}.json`);
  const json = `${JSON.stringify(results, null, 2)}\n`;
  await writeFile(file, json);
  await writeFile(path.join(outDir, 'latest.json'), json);
  process.stdout.write(`\nJSON: ${path.relative(ROOT, file)} (and bench/results/latest.json); run time ${secs(results.run_ms)}\n`);
}

/**
 * Steps 1–5: corpus, parse-only, extract-only, native, pushes and tools/list; step 6 on the same
 * server when the pushed project is big enough. Fills `results`.
 * @param {{ opts: ReturnType<typeof options>, code: { root: string, devServer: typeof liveDevServer }, tmp: string, results: Record<string, any> }} o
 */
async function indexingStages({ opts, code, tmp, results }) {
  const corpusDir = path.join(tmp, 'corpus');
  const { applyLocalMigrations, startDevServer } = code.devServer;

  // 1. Corpus ---------------------------------------------------------------
  log(`building a ~${opts.files}-file corpus…`);
  const corpus = await buildCorpus({ root: ROOT, outDir: corpusDir, files: opts.files, log });
  if (corpus.totals.files === 0) throw new Error('the corpus is empty: are node_modules installed (npm ci)?');
  const walked = await walk(corpusDir);
  const walkMismatch = walked.files.length !== corpus.totals.files;
  if (walkMismatch) log(`warning: the CLI walk sees ${walked.files.length} files, the corpus has ${corpus.totals.files}`);
  log(`corpus: ${corpus.totals.files} files, ${mb(corpus.totals.bytes)} MB (${Object.entries(corpus.byLanguage).map(([l, r]) => `${l} ${r.files}`).join(', ')}) in ${corpus.buildMs} ms`);
  const listFile = path.join(tmp, 'files.json');
  await writeFile(listFile, JSON.stringify(corpus.files.map(({ path: p, language, bytes }) => ({ path: p, language, bytes }))));

  // 2. Parse-only, web-tree-sitter in Node --------------------------------------
  log('parse-only with web-tree-sitter (WASM) in Node, plus the tags queries…');
  const texts = await Promise.all(corpus.files.map(async (f) => ({ ...f, text: await readFile(path.join(corpusDir, f.path), 'utf8') })));
  const wasm = await parseWasm({ root: code.root, files: texts });
  texts.length = 0;
  log(`  parse ${fmt(wasm.overall.parse_mbps)} MB/s, parse+query ${fmt(wasm.overall.parse_query_mbps)} MB/s (load ${load().join(' ')})`);

  // 3. Extract-only, the project's extractor in Node -----------------------------
  log('extract-only with the project extractor (src/extract) in Node…');
  const extract = await runExtractNode({ root: code.root, dir: corpusDir, listFile });
  log(extract.ok ? `  extract ${fmt(extract.overall.mbps)} MB/s, ${extract.overall.symbols} symbols (load ${load().join(' ')})` : `  extract unavailable: ${extract.reason}`);

  // 4. Native tree-sitter ------------------------------------------------------
  /** @type {Record<string, any>} */
  let native = { ok: false, reason: 'skipped (--no-native)' };
  if (opts.native) {
    log('native tree-sitter…');
    const installed = await ensureNative({ root: ROOT, timeoutMs: opts.nativeTimeoutMs, fresh: opts.nativeFresh, log: (l) => log(`  ${l}`) });
    if (installed.ok) {
      log(installed.cached ? `  using the cached install (${path.relative(ROOT, installed.dir)})` : `  installed in ${secs(installed.installMs)}`);
      const parsed = await runNativeParse({ nativeDir: installed.dir, dir: corpusDir, listFile });
      native = { ...parsed, packages: NATIVE_PACKAGES, cached: installed.cached, install_ms: installed.installMs };
    } else {
      native = { ok: false, reason: installed.reason, packages: NATIVE_PACKAGES, install_ms: installed.installMs };
    }
    log(native.ok ? `  native parse ${fmt(native.overall.parse_mbps)} MB/s` : `  native unavailable: ${native.reason}`);
  }

  // 5. Server: cold push, incremental pushes, tools/list ---------------------------
  const persistTo = path.join(tmp, 'd1');
  await mkdir(persistTo, { recursive: true });
  log('applying migrations to a fresh local D1 and starting wrangler dev…');
  applyLocalMigrations(persistTo);
  const key = `bench-${randomBytes(16).toString('hex')}`;
  const serverStarted = performance.now();
  const server = await startDevServer({ persistTo, vars: { PINCHER_HTTP_KEY: key } });
  live.server = server;
  const serverStartMs = Math.round(performance.now() - serverStarted);
  log(`  wrangler dev on ${server.url} (ready in ${secs(serverStartMs)}, pgid ${server.pid})`);
  const proxy = await startProxy(server.url);
  live.proxy = proxy;

  const serverFailure = (/** @type {unknown} */ err) => {
    const tail = server.logs.join('').split('\n').filter(Boolean).slice(-15).join('\n');
    return new Error(`${/** @type {Error} */ (err)?.message ?? err}\n--- wrangler dev log (tail) ---\n${tail}`);
  };
  const push = async (/** @type {string} */ label, /** @type {string} */ commit) => {
    const loadBefore = load();
    log(`push (${label})…`);
    const r = await cliPush({ root: code.root, dir: corpusDir, url: proxy.url, key, project: PROJECT, ref: 'bench', commit, serverPgid: server.pid, proxy, concurrency: opts.concurrency }).catch((err) => {
      throw serverFailure(err);
    });
    const f = r.summary.files;
    log(`  ${secs(r.wallMs)}: ${f.new} new, ${f.changed} changed, ${f.unchanged} unchanged, ${r.summary.sent.batches} batches, ${r.summary.symbols.total} symbols (load ${load().join(' ')})`);
    return { label, loadavg_before: loadBefore, loadavg_after: load(), ...r };
  };

  const loadBeforeCold = load();
  const cold = await push('cold', 'cold');
  const noChange = await push('no change', 'nochange');
  // Change one file's content (the first Python file, else the first file) and push again.
  const target = corpus.files.find((f) => f.language === 'python') ?? corpus.files[0];
  await appendFile(path.join(corpusDir, target.path), `\n${target.language === 'python' ? '#' : '//'} pincher-bench: one changed file\n`);
  const oneChange = await push('one file changed', 'onechange');

  log('MCP tools/list size (core, full)…');
  const toolsCore = await toolsListSize({ url: server.url, key }).catch((err) => ({ error: String(err?.message ?? err) }));
  const toolsFull = await toolsListSize({ url: server.url, key, query: '?toolset=full' }).catch((err) => ({ error: String(err?.message ?? err) }));

  // 6. Query latency on this project when it is big enough (else on a larger tier, later).
  const coldSymbols = cold.summary.symbols.total ?? 0;
  if (opts.latency && opts.latencyDir === null && coldSymbols >= opts.latencyMinSymbols) {
    log(`query latency on the pushed project (${coldSymbols} symbols ≥ ${opts.latencyMinSymbols})…`);
    const figures = { reused: true, requested: corpus.requested, files: corpus.totals.files, bytes: corpus.totals.bytes, symbols: coldSymbols, min_symbols: opts.latencyMinSymbols, by_language: corpus.byLanguage, push_ms: null };
    results.latency = await measure({ opts, url: server.url, key, project: PROJECT, corpus, dir: corpusDir, serverPgid: server.pid, figures });
  } else if (opts.latency && opts.latencyDir !== null) {
    log(`query latency runs on ${opts.latencyDir} after this stage (--latency-dir)`);
  } else if (opts.latency) {
    log(`the pushed project has ${coldSymbols} symbols < ${opts.latencyMinSymbols}: query latency runs on a ${opts.latencyFiles}-file tier after this stage`);
  }

  log('stopping wrangler dev…');
  live.server = null;
  live.proxy = null;
  await Promise.allSettled([server.stop(), proxy.close()]);
  killGroup(server.pid, 'SIGKILL');

  log('CLI fixed costs (--version, --dry-run; median of 3)…');
  const cliCosts = await cliBaseline({ root: code.root, dir: corpusDir });

  // 6. Report ----------------------------------------------------------------
  const coldMbps = mbps(corpus.totals.bytes, cold.wallMs);
  const wasmMbps = wasm.overall.parse_mbps;
  const ratio = wasmMbps > 0 ? coldMbps / wasmMbps : null;
  // Load-independent view: corpus bytes per CPU-second the server spent, against parse CPU rate.
  const coldServerCpuMbps = cold.serverCpuS ? mbps(corpus.totals.bytes, cold.serverCpuS * 1000) : null;
  const ratioCpu = coldServerCpuMbps !== null && wasm.overall.parse_cpu_mbps > 0 ? coldServerCpuMbps / wasm.overall.parse_cpu_mbps : null;
  const endToEnd = {
    cold: {
      wall_ms: cold.wallMs,
      cli_duration_ms: cold.summary.duration_ms,
      mbps: round(coldMbps, 2),
      files_per_s: Math.round(corpus.totals.files / (cold.wallMs / 1000)),
      symbols: cold.summary.symbols.total,
      symbols_per_s: Math.round((cold.summary.symbols.total ?? 0) / (cold.wallMs / 1000)),
      server_cpu_s: cold.serverCpuS,
      cli_cpu_s: cold.cliCpuS,
      server_cpu_mbps: coldServerCpuMbps === null ? null : round(coldServerCpuMbps, 2),
      ratio_to_wasm_parse: ratio === null ? null : round(ratio, 3),
      ratio_to_wasm_parse_cpu: ratioCpu === null ? null : round(ratioCpu, 3),
      ratio_target: RATIO_TARGET,
      loadavg_before: loadBeforeCold,
    },
    incremental: {
      no_change_ms: noChange.wallMs,
      one_change_ms: oneChange.wallMs,
      changed_file: target.path,
      target_ms: INCREMENTAL_TARGET_MS,
    },
  };
  Object.assign(results, {
    corpus: { ...corpus, dir: undefined, files: undefined, cli_walk_files: walked.files.length, cli_walk_skipped: walked.counts },
    corpus_files: corpus.files.map(({ path: p, language, bytes }) => ({ path: p, language, bytes })),
    parse_wasm: wasm,
    extract_node: extract,
    parse_native: native,
    server: { start_ms: serverStartMs, log_tail: server.logs.join('').split('\n').filter(Boolean).slice(-60) },
    cli_fixed_costs: cliCosts,
    end_to_end: endToEnd,
    pushes: { cold, no_change: noChange, one_change: oneChange },
    mcp_tools_list: { core: toolsCore, full: toolsFull },
    loadavg_end_indexing: load(),
  });
}

/**
 * Step 6 on its own server: the latency corpus tier pushed through the CLI to a fresh local D1
 * (or the one of --latency-d1), then the calls. Errors become the section's `error`.
 * @param {{ opts: ReturnType<typeof options>, code: { root: string, devServer: typeof liveDevServer }, tmp: string }} o
 */
async function latencyTier({ opts, code, tmp }) {
  const { applyLocalMigrations, startDevServer } = code.devServer;
  const dir = path.join(tmp, 'corpus-latency');
  const fromFolder = opts.latencyDir !== null;
  log(fromFolder ? `latency corpus: the checkout ${opts.latencyDir}…` : `latency corpus tier: ~${opts.latencyFiles} files…`);
  const corpus = fromFolder ? await corpusFromFolder({ folder: opts.latencyDir, outDir: dir, log }) : await buildCorpus({ root: ROOT, outDir: dir, files: opts.latencyFiles, log });
  if (corpus.totals.files === 0) throw new Error('the corpus is empty: are node_modules installed (npm ci)?');
  if (!fromFolder) log(`  ${corpus.totals.files} files, ${mb(corpus.totals.bytes)} MB (${Object.entries(corpus.byLanguage).map(([l, r]) => `${l} ${r.files}`).join(', ')})`);

  const persistTo = opts.latencyD1 ?? path.join(tmp, 'd1-latency');
  await mkdir(persistTo, { recursive: true });
  log(`applying migrations to the local D1 in ${persistTo} and starting wrangler dev…`);
  applyLocalMigrations(persistTo);
  const key = `bench-${randomBytes(16).toString('hex')}`;
  const server = await startDevServer({ persistTo, vars: { PINCHER_HTTP_KEY: key } });
  live.server = server;
  const proxy = await startProxy(server.url);
  live.proxy = proxy;
  try {
    log(`push of the latency tier (project ${LATENCY_PROJECT})…`);
    const pushed = await cliPush({ root: code.root, dir, url: proxy.url, key, project: LATENCY_PROJECT, ref: 'bench', commit: fromFolder ? 'latency-dir' : `latency-${opts.latencyFiles}`, serverPgid: server.pid, proxy, concurrency: opts.concurrency }).catch((err) => {
      const tail = server.logs.join('').split('\n').filter(Boolean).slice(-15).join('\n');
      throw new Error(`${err?.message ?? err}\n--- wrangler dev log (tail) ---\n${tail}`);
    });
    const s = pushed.summary;
    log(`  ${secs(pushed.wallMs)}: ${s.files.new} new, ${s.files.unchanged} unchanged, ${s.symbols.total} symbols (load ${load().join(' ')})`);
    if (fromFolder) {
      // The query mix samples the checkout's files in every language the server extracts, by the server's own ids.
      corpus.files = await codeFilesOf(server.url, key, LATENCY_PROJECT);
      corpus.byLanguage = tally(corpus.files, (f) => f.language);
      log(`  sampled by the query mix: ${Object.entries(corpus.byLanguage).map(([l, r]) => `${l} ${r.files}`).join(', ')}`);
    }
    const figures = {
      reused: false,
      requested: corpus.requested,
      ...(fromFolder ? { folder: opts.latencyDir } : {}),
      files: corpus.totals.files,
      bytes: corpus.totals.bytes,
      symbols: s.symbols.total,
      min_symbols: opts.latencyMinSymbols,
      by_language: corpus.byLanguage,
      by_source: corpus.bySource,
      push_ms: pushed.wallMs,
      push_files: s.files,
      push_failures: s.failures ?? [],
      d1: opts.latencyD1 ?? 'temporary',
    };
    if ((s.symbols.total ?? 0) < opts.latencyMinSymbols) log(`  warning: ${s.symbols.total} symbols, below the ${opts.latencyMinSymbols} target (${fromFolder ? 'a smaller project than the target tier' : 'raise --latency-files'})`);
    const lat = await measure({ opts, url: server.url, key, project: LATENCY_PROJECT, corpus, dir, serverPgid: server.pid, figures });
    return { ...lat, server_log_tail: server.logs.join('').split('\n').filter(Boolean).slice(-40) };
  } finally {
    log('stopping wrangler dev…');
    live.server = null;
    live.proxy = null;
    await Promise.allSettled([server.stop(), proxy.close()]);
    killGroup(server.pid, 'SIGKILL');
  }
}

/**
 * The latency calls against a server holding `project`; a failure is recorded, not thrown.
 * @param {{ opts: ReturnType<typeof options>, url: string, key: string, project: string, corpus: Awaited<ReturnType<typeof buildCorpus>>, dir: string, serverPgid: number, figures: Record<string, any> }} o
 */
async function measure({ opts, url, key, project, corpus, dir, serverPgid, figures }) {
  const files = corpus.files.map(({ path: p, language, bytes }) => ({ path: p, language, bytes }));
  try {
    const lat = await runLatency({ url, key, project, files, dir, calls: opts.latencyCalls, warmup: opts.latencyWarmup, seed: opts.latencySeed, serverPgid, log });
    log(`  ${lat.measured_calls} calls in ${secs(lat.measure_ms)} (load ${load().join(' ')})`);
    return { corpus: figures, ...lat };
  } catch (err) {
    log(`  latency stage failed: ${err?.message ?? err}`);
    return { corpus: figures, error: String(err?.message ?? err) };
  }
}

/* ------------------------------------------------------------------- report */

/** @param {Record<string, any>} r */
function formatReport(r) {
  const out = [];
  out.push('', `pincher-edge bench — ${r.started_at} — node ${r.machine.node}, ${r.machine.cpus} CPUs (${r.machine.cpu_model}), git ${r.git.commit?.slice(0, 12) ?? '?'}${r.git.dirty ? ' (dirty)' : ''}`);
  const during = [
    r.end_to_end ? `before cold push ${r.end_to_end.cold.loadavg_before.join(' ')}` : null,
    r.latency?.loadavg_start ? `latency stage ${r.latency.loadavg_start.join(' ')} → ${r.latency.loadavg_end.join(' ')}` : null,
  ].filter(Boolean);
  out.push(`load average (1/5/15 min): start ${r.machine.loadavg_start.join(' ')}, ${[...during, `end ${r.loadavg_end.join(' ')}`].join(', ')}; stages run: ${r.stages.join(', ')}`);
  out.push(`code under test: ${r.options.live ? 'the working tree (--live)' : 'a snapshot of the working tree taken at start'}; corpus and temp dirs removed after the run`);
  if (r.end_to_end) out.push(formatIndexing(r));
  if (r.latency) out.push(formatLatency(r.latency, renderTable));
  if (r.quality) out.push(formatQuality(r.quality, renderTable));
  if (r.graph) out.push(formatGraph(r.graph, renderTable));
  if (r.bundle) out.push(formatBundle(r.bundle, renderTable));
  if (r.storage) out.push('', formatStorage(r.storage, renderTable));
  if (r.shards) out.push('', formatShardsBench(r.shards, renderTable));
  return out.join('\n');
}

/** @param {Record<string, any>} r */
function formatIndexing(r) {
  const { corpus, parse_wasm: wasm, extract_node: extract, parse_native: native, end_to_end: e2e, pushes, mcp_tools_list: tools } = r;
  const out = [];
  const langs = Object.keys(corpus.byLanguage);
  out.push(`MB = 10^6 bytes. Rates are wall-clock; (…) is the same rate per CPU-second, which the shared machine's load disturbs less.`);

  const srcRows = [['corpus source', 'files', 'MB']];
  for (const [src, v] of Object.entries(corpus.bySource)) srcRows.push([src, v.files, mb(v.bytes)]);
  for (const s of corpus.sources.filter((x) => !x.available)) srcRows.push([`${s.source} (unavailable${s.reason ? `: ${s.reason}` : ''})`, 0, mb(0)]);
  out.push('', renderTable(srcRows, { title: `Corpus: ${corpus.totals.files} files, ${mb(corpus.totals.bytes)} MB (requested ${corpus.requested}; .d.ts files: ${corpus.typescriptDeclarations.files}, ${mb(corpus.typescriptDeclarations.bytes)} MB; CLI walk sees ${corpus.cli_walk_files})` }));

  const nat = (/** @type {string} */ l) => (native.ok ? native.byLanguage[l] : null);
  const ext = (/** @type {string} */ l) => (extract.ok ? extract.byLanguage[l] : null);
  const rows = [['language', 'files', 'MB', 'parse WASM', 'parse+query WASM', 'extract (Node)', 'parse native', 'end-to-end cold']];
  for (const l of langs) {
    const w = wasm.byLanguage[l];
    rows.push([l, corpus.byLanguage[l].files, mb(corpus.byLanguage[l].bytes), rate(w?.parse_mbps, w?.parse_cpu_mbps), rate(w?.parse_query_mbps, w?.parse_query_cpu_mbps), rate(ext(l)?.mbps, ext(l)?.cpu_mbps), rate(nat(l)?.parse_mbps, nat(l)?.parse_cpu_mbps), null]);
  }
  const w = wasm.overall;
  rows.push(['all', corpus.totals.files, mb(corpus.totals.bytes), rate(w.parse_mbps, w.parse_cpu_mbps), rate(w.parse_query_mbps, w.parse_query_cpu_mbps), rate(extract.ok ? extract.overall.mbps : null, extract.ok ? extract.overall.cpu_mbps : null), rate(native.ok ? native.overall.parse_mbps : null, native.ok ? native.overall.parse_cpu_mbps : null), rate(e2e.cold.mbps, e2e.cold.server_cpu_mbps)]);
  out.push('', renderTable(rows, { title: 'Throughput, MB/s (end-to-end (…) = corpus MB per CPU-second of wrangler/workerd)' }));
  if (!extract.ok) out.push(`extract (Node): unavailable: ${extract.reason}`);
  if (!native.ok) out.push(`parse native: unavailable: ${native.reason}`);
  else out.push(`parse native: tree-sitter ${native.version}${native.cached ? ' (cached install)' : ` (installed in ${secs(native.install_ms)})`}`);

  const pct = (/** @type {number | null} */ x) => (x === null ? '—' : `${(x * 100).toFixed(0)} %`);
  const verdict = (/** @type {boolean} */ ok) => (ok ? 'met' : 'NOT met');
  const kv = [['figure', 'value', 'target', '']];
  kv.push(['cold push, end to end (CLI wall)', secs(e2e.cold.wall_ms), null, `${pushes.cold.summary.files.new} new files, ${pushes.cold.summary.sent.batches} batches`]);
  kv.push(['cold push MB/s', fmt(e2e.cold.mbps), null, null]);
  kv.push(['cold push files/s', e2e.cold.files_per_s, null, null]);
  kv.push(['cold push symbols/s', e2e.cold.symbols_per_s, null, `${e2e.cold.symbols} symbols`]);
  kv.push(['end-to-end cold / parse-only WASM', pct(e2e.cold.ratio_to_wasm_parse), '≥ 50 %', e2e.cold.ratio_to_wasm_parse === null ? null : verdict(e2e.cold.ratio_to_wasm_parse >= RATIO_TARGET)]);
  kv.push(['  same, per CPU-second (server vs parse)', pct(e2e.cold.ratio_to_wasm_parse_cpu), null, e2e.cold.server_cpu_s === null ? null : `server ${e2e.cold.server_cpu_s} CPU-s, CLI ${e2e.cold.cli_cpu_s} CPU-s`]);
  kv.push(['re-push, no change', secs(e2e.incremental.no_change_ms), '≤ 2 s', verdict(e2e.incremental.no_change_ms <= INCREMENTAL_TARGET_MS)]);
  kv.push(['re-push, one file changed', secs(e2e.incremental.one_change_ms), '≤ 2 s', verdict(e2e.incremental.one_change_ms <= INCREMENTAL_TARGET_MS)]);
  for (const t of [tools.core, tools.full]) {
    kv.push(t.error ? [`MCP tools/list`, 'error', null, t.error] : [`MCP tools/list, ${t.toolset} (${t.tools} tools)`, `${t.tokens} tokens`, null, `${t.result_chars} chars / 4${t.tokens_cl100k ? `; cl100k ${t.tokens_cl100k}` : ''}`]);
  }
  kv.push(['wrangler dev ready', secs(r.server.start_ms), null, null]);
  out.push('', renderTable(kv, { title: 'End to end (wrangler dev, local D1, real CLI)' }));

  const ph = [['push', 'wall', 'walk+hash', 'open (server)', 'batches', 'batch mean/max', 'Σ batch server', 'commit (server)', 'exit', 'refused', 'server CPU', 'CLI CPU']];
  for (const p of [pushes.cold, pushes.no_change, pushes.one_change]) {
    const x = p.phases;
    ph.push([
      p.label,
      secs(p.wallMs),
      secs(x.walk_ms),
      `${secs(x.open_ms)} (${x.open_server_ms ?? '—'} ms)`,
      x.batches ? `${x.batches} in ${secs(x.batches_ms)}` : '0',
      x.batch_latency_ms ? `${x.batch_latency_ms.mean}/${x.batch_latency_ms.max} ms` : null,
      x.batches ? `${secs(x.batch_server_ms_sum)}` : null,
      `${secs(x.commit_ms)} (${x.commit_server_ms ?? '—'} ms)`,
      secs(x.exit_ms),
      x.refused.length ? x.refused.map((/** @type {{ step: string, status: number }} */ f) => `${f.step} ${f.status}`).join(', ') : '0',
      p.serverCpuS === null ? null : `${p.serverCpuS} s`,
      p.cliCpuS === null ? null : `${p.cliCpuS} s`,
    ]);
  }
  out.push('', renderTable(ph, { title: `Where the pushes spend their time (recording proxy between CLI and server; walk+hash = CLI start to manifest request, incl. node start-up; exit = commit answered to CLI exit; concurrency ${r.options.concurrency ?? 4})` }));
  for (const p of [pushes.cold, pushes.no_change, pushes.one_change]) {
    for (const f of p.phases.refused) out.push(`refused during "${p.label}": ${f.step} HTTP ${f.status} after ${f.ms} ms (the CLI retried): ${String(f.body ?? '').replace(/\s+/g, ' ').slice(0, 160)}`);
  }
  const byCmd = pushes.cold.serverCpuByCommand;
  if (byCmd) out.push(`server CPU during the cold push by process: ${Object.entries(byCmd).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v} s`).join(', ')}`);
  const cc = r.cli_fixed_costs;
  out.push(`CLI fixed costs (no server): start-up + module load ${secs(cc.version_ms)} (--version); start-up + git + walk + hash of ${corpus.totals.files} files ${secs(cc.dry_run_ms)} (--dry-run); median of ${cc.runs}`);
  return out.join('\n');
}

main().then(
  () => cleanup(),
  async (err) => {
    await cleanup();
    process.stderr.write(`\nbench: failed: ${err?.message ?? err}\n`);
    process.exitCode = 1;
  },
);
