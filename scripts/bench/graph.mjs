// `npm run bench -- --only graph`: pincher-edge's call graph on real code, measured against
// compiler-grade oracles. Per cross-file language: a real corpus (bench/graph/corpora.mjs) is
// pushed through the CLI to `wrangler dev`; every sampled function's callers at depth 1
// (`trace`, direction in) are compared with the oracle's — the TypeScript language service
// (findReferences) for TypeScript/JavaScript, scip-python + Python's `ast` for Python, the Go
// type checker (go/types) for Go, javac's attribution (compiler Tree API) for Java, a nightly
// rustc's MIR (-Zunpretty=mir) for Rust —
// at the default view and at each confidence floor (bench/graph/score.mjs).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { killGroup, run } from './proc.mjs';
import { buildGraphCorpora } from './graph/corpora.mjs';
import { oracleGo } from './graph/oracle-go.mjs';
import { oracleJava } from './graph/oracle-java.mjs';
import { oraclePy } from './graph/oracle-py.mjs';
import { oracleRust } from './graph/oracle-rust.mjs';
import { oracleTs, MODULE } from './graph/oracle-ts.mjs';
import { FLOORS, scoreTarget, total } from './graph/score.mjs';

export const GRAPH_TARGETS = { precision: 0.9, recall: 0.8 };
/** Languages whose SCIP index the bench produces (--graph-scip). */
const SCIP_LANGUAGES = new Set(['typescript', 'javascript', 'python']);
const ORACLE_PACKAGES = { 'scip-python': '@sourcegraph/scip-python@0.6.6', 'scip-typescript': '@sourcegraph/scip-typescript@0.4.0' };

/** Installs a SCIP indexer into the bench cache (once), by the ordinary npm client. */
async function ensureIndexer(cache, name, log) {
  const dir = path.join(cache, 'oracles');
  const bin = path.join(dir, 'node_modules', '.bin', name);
  const spec = ORACLE_PACKAGES[name];
  if (!existsSync(bin)) {
    await mkdir(dir, { recursive: true });
    log(`  installing ${spec} into ${dir}…`);
    await run('sh', ['-c', `[ -f package.json ] || echo '{"private":true}' > package.json`], { cwd: dir });
    const r = await run('npm', ['install', '--no-audit', '--no-fund', '--save-exact', spec], { cwd: dir, timeoutMs: 600_000 });
    if (r.code !== 0 || !existsSync(bin)) throw new Error(`installing ${name} failed: ${r.stderr.slice(-300)}`);
  }
  return { bin, version: spec.slice(spec.lastIndexOf('@') + 1) };
}

const ensureScipPython = (cache, log) => ensureIndexer(cache, 'scip-python', log);

/**
 * The SCIP index CI would push with the corpus: scip-typescript (--infer-tsconfig) for
 * TypeScript/JavaScript; for Python, the scip-python index the oracle already wrote (the same
 * tool: its figure measures how faithfully the index becomes edges, not an independent oracle).
 */
async function scipFor(language, dir, cache, log) {
  const out = path.join(dir, '..', `${path.basename(dir)}.scip`);
  if (language === 'python') return out;
  const { bin } = await ensureIndexer(cache, 'scip-typescript', log);
  const t0 = performance.now();
  const r = await run(bin, ['index', '--infer-tsconfig', '--output', out], { cwd: dir, timeoutMs: 20 * 60_000 });
  if (r.code !== 0 || !existsSync(out)) throw new Error(`scip-typescript failed (exit ${r.code}): ${r.stderr.slice(-300)}`);
  log(`  scip-typescript indexed ${language} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return out;
}

async function call(url, key, tool, args) {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(`${url}/v1/tools/${tool}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify(args) });
      const body = await res.json();
      if (!res.ok) throw new Error(`${tool}: HTTP ${res.status} ${JSON.stringify(body.error)}`);
      return body;
    } catch (err) {
      if (attempt >= 2 || String(err?.message).startsWith(tool)) throw err;
    }
  }
}

/** Every function and method pincher-edge holds for the project. */
async function pincherSymbols(url, key, project) {
  const out = [];
  for (let skip = 0; ; skip += 10_000) {
    const q = `MATCH (s) WHERE s.kind = 'Function' OR s.kind = 'Method' RETURN s.id, s.name, s.file, s.line, s.end_line ORDER BY s.id SKIP ${skip} LIMIT 10000`;
    const { result } = await call(url, key, 'query', { project, query: q, max_rows: 10_000 });
    for (const [id, name, file, line, end] of result.rows) out.push({ id, name, file, line, end });
    if (result.rows.length < 10_000) return out;
  }
}

/** The pincher-edge symbol for an oracle declaration: same file and name, nearest start line (±3). */
function match(target, byFileName) {
  const list = byFileName.get(`${target.file}\0${target.name}`) ?? [];
  let best = null;
  for (const s of list) {
    const d = Math.abs(s.line - target.line);
    if (d <= 3 && (!best || d < Math.abs(best.line - target.line))) best = s;
  }
  return best;
}

const callerKey = (h) => `${h.file}::${h.id === null ? MODULE : h.name}`;

/**
 * @param {{ root: string, devServer: { applyLocalMigrations: Function, startDevServer: Function }, cli: string, tmp: string, cache: string, live: { server: any }, languages?: string[], maxTargets?: number, scip?: boolean, log: (l: string) => void }} o
 *   scip: also push each corpus with its SCIP index (as a second project) and score it as `<language> + scip`
 */
export async function runGraphBench({ root, devServer, cli, tmp, cache, live, languages, maxTargets = 300, scip = false, log }) {
  const corpora = await buildGraphCorpora({ root, outDir: path.join(tmp, 'graph-corpus'), cache, languages, log });
  const oracles = new Map();
  for (const [language, c] of corpora) {
    log(`oracle for ${language} (${c.files.length} files: ${c.sources.map((s) => s.name).join(', ')})…`);
    const t0 = performance.now();
    const o = language === 'python'
      ? await oraclePy({ root, dir: c.dir, files: c.files, scipPython: await ensureScipPython(cache, log), maxTargets, log })
      : language === 'go'
        ? await oracleGo({ dir: c.dir, files: c.files, cache, maxTargets, log })
        : language === 'java'
          ? await oracleJava({ dir: c.dir, files: c.files, maxTargets })
          : language === 'rust'
            ? await oracleRust({ dir: c.dir, files: c.files, maxTargets })
            : oracleTs({ root, dir: c.dir, files: c.files, maxTargets });
    oracles.set(language, { ...o, ms: Math.round(performance.now() - t0) });
    log(`  ${o.targets.length} targets, ${o.targets.reduce((a, t) => a + t.callers.length, 0)} call sites (${o.tool}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  const persistTo = path.join(tmp, 'd1-graph');
  await mkdir(persistTo, { recursive: true });
  devServer.applyLocalMigrations(persistTo);
  const key = `bench-${randomBytes(16).toString('hex')}`;
  // A loaded machine starts workerd slowly: wait longer than the default before giving up.
  const server = await devServer.startDevServer({ persistTo, vars: { PINCHER_HTTP_KEY: key }, timeoutMs: 300_000 });
  live.server = server;
  const languagesOut = {};
  try {
    const runs = [];
    for (const [language, c] of corpora) {
      runs.push({ language, label: language, c, scipFile: null });
      if (scip && SCIP_LANGUAGES.has(language)) runs.push({ language, label: `${language} + scip`, c, scipFile: await scipFor(language, c.dir, cache, log) });
      else if (scip) log(`  no SCIP run for ${language}: its indexer does not install from npm or Debian (docs/graph.md, "Precise graph from CI")`);
    }
    for (const { language, label, c, scipFile } of runs) {
      const project = `graph-${language}${scipFile ? '-scip' : ''}`;
      log(`push ${project} (${c.files.length} files${scipFile ? ', with its SCIP index' : ''})…`);
      const pushed = await run(process.execPath, [cli, 'push', c.dir, '--url', server.url, '--project', project, '--ref', 'bench', '--commit', 'graph', '--json', ...(scipFile ? ['--scip', scipFile] : ['--no-scip'])], { cwd: root, env: { ...process.env, PINCHER_HTTP_KEY: key }, timeoutMs: 20 * 60_000 });
      if (pushed.code !== 0) throw new Error(`push of ${project} failed: ${pushed.stdout.slice(-300)} ${pushed.stderr.slice(-300)}`);
      const pushSummary = JSON.parse(pushed.stdout);
      const syms = await pincherSymbols(server.url, key, project);
      const byFileName = new Map();
      for (const s of syms) {
        const k = `${s.file}\0${s.name}`;
        byFileName.set(k, [...(byFileName.get(k) ?? []), s]);
      }
      const oracle = oracles.get(language);
      const perTarget = [];
      let unmatched = 0;
      const hidden = [];
      for (const t of oracle.targets) {
        const sym = match(t, byFileName);
        if (!sym) {
          unmatched++;
          continue;
        }
        const base = { project, id: sym.id, direction: 'inbound', depth: 1, max_hops: 200 };
        const all = await call(server.url, key, 'trace', { ...base, min_confidence: 0 });
        const def = await call(server.url, key, 'trace', base);
        const hops = all.result.hops.filter((h) => h.depth === 1 && h.edge === 'CALLS');
        const defaultKeys = [...new Set(def.result.hops.filter((h) => h.depth === 1 && h.edge === 'CALLS').map(callerKey))];
        const hiddenHint = (def._meta.next_steps ?? []).some((s) => s.tool === 'trace' && s.args?.min_confidence !== undefined);
        if (hiddenHint) hidden.push(sym.id);
        perTarget.push({ target: t, id: sym.id, hops: hops.map((h) => ({ key: callerKey(h), confidence: h.confidence, provenance: h.provenance, line: h.call_line })), defaultKeys });
      }
      const view = (pick) => total(perTarget.map((p) => scoreTarget(p.target, pick(p))));
      const floors = {};
      for (const f of FLOORS) floors[f] = view((p) => [...new Set(p.hops.filter((h) => h.confidence >= f).map((h) => h.key))]);
      const byProvenance = {};
      const wrongEdges = [];
      for (const p of perTarget) {
        const ok = new Set(p.target.callers.flatMap((c) => c.alts ?? [c.nearest, c.outer]));
        for (const h of p.hops) {
          const b = (byProvenance[h.provenance] ??= { edges: 0, correct: 0 });
          b.edges++;
          if (ok.has(h.key)) b.correct++;
          else if (wrongEdges.length < 400) wrongEdges.push({ target: p.id, caller: h.key, line: h.line, confidence: h.confidence, provenance: h.provenance });
        }
      }
      // The oracle's call sites no caller of the default view accounts for, with their lines.
      const missedCallers = [];
      for (const p of perTarget) {
        const mine = new Set(p.defaultKeys);
        for (const c of p.target.callers) {
          if (missedCallers.length >= 600) break;
          const alts = c.alts ?? [c.nearest, c.outer];
          if (alts.some((k) => mine.has(k))) continue;
          // The same caller below the default floor, if pincher-edge has it at all: what hid it.
          const below = p.hops.filter((h) => alts.includes(h.key)).sort((a, b) => b.confidence - a.confidence)[0];
          missedCallers.push({ target: p.id, caller: c.nearest, line: c.line, ...(below ? { below: { confidence: below.confidence, provenance: below.provenance } } : {}) });
        }
      }
      const worst = perTarget
        .map((p) => ({ id: p.id, ...scoreTarget(p.target, p.defaultKeys) }))
        .filter((s) => s.wrong.length || s.missed.length)
        .sort((a, b) => b.wrong.length + b.missed.length - (a.wrong.length + a.missed.length))
        .slice(0, 25);
      languagesOut[label] = {
        ...(scipFile ? { scip: pushSummary.scip } : {}),
        corpus: c.sources,
        files: c.files.length,
        oracle: oracle.tool,
        oracle_ms: oracle.ms,
        targets: oracle.targets.length,
        targets_without_symbol: unmatched,
        targets_scored: perTarget.length,
        targets_with_hidden_edges_hint: hidden.length,
        default: view((p) => p.defaultKeys),
        floors,
        by_provenance: byProvenance,
        errors: worst,
        wrong_edges: wrongEdges,
        missed_callers: missedCallers,
      };
      log(`  ${label}: default precision ${languagesOut[label].default.precision}, recall ${languagesOut[label].default.recall} over ${perTarget.length} functions`);
    }
  } finally {
    live.server = null;
    await server.stop();
    killGroup(server.pid, 'SIGKILL');
  }
  return { targets: GRAPH_TARGETS, floors: FLOORS, languages: languagesOut };
}

/** @param {Record<string, any>} g @param {Function} renderTable */
export function formatGraph(g, renderTable) {
  const out = [];
  const fmt = (x) => (x === null || x === undefined ? '—' : x.toFixed(3));
  const rows = [['language', 'corpus', 'oracle', 'functions', 'default P', 'default R', ...g.floors.map((f) => `≥${f} P/R`)]];
  for (const [lang, r] of Object.entries(g.languages)) {
    rows.push([lang, r.corpus.map((c) => c.name).join(' + '), r.oracle.split(' (')[0], `${r.targets_scored}${r.targets_without_symbol ? ` (+${r.targets_without_symbol} no symbol)` : ''}`, fmt(r.default.precision), fmt(r.default.recall), ...g.floors.map((f) => `${fmt(r.floors[f].precision)}/${fmt(r.floors[f].recall)}`)]);
  }
  out.push('', renderTable(rows, { title: `Callers at depth 1 vs the oracle (targets: precision ≥ ${g.targets.precision}, recall ≥ ${g.targets.recall} at the default view; unit: distinct (function, caller) pairs, a caller being the nearest or outermost named enclosing function; test files left out)` }));
  const prov = [['language', 'provenance', 'edges', 'correct', 'precision']];
  for (const [lang, r] of Object.entries(g.languages)) for (const [p, b] of Object.entries(r.by_provenance)) prov.push([lang, p, b.edges, b.correct, fmt(b.correct / b.edges)]);
  out.push('', renderTable(prov, { title: 'Caller edges by provenance (min_confidence 0)' }));
  return out.join('\n');
}
