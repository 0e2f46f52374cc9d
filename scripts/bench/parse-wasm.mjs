// Parse-only throughput of web-tree-sitter in Node on the corpus, with the very grammars the
// Worker runs (@vscode/tree-sitter-wasm's .wasm files; the Worker ships them packed,
// scripts/pack-grammars.mjs, byte-identical once loaded), plus the time of the project's tags
// query (src/extract/languages/*.scm) over each tree.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Language, Parser, Query } from 'web-tree-sitter';

/** Language id → grammar file and query files, as in src/extract/languages/table.ts. */
export const GRAMMARS = {
  typescript: { wasm: 'tree-sitter-typescript.wasm', queries: ['typescript.scm'] },
  javascript: { wasm: 'tree-sitter-javascript.wasm', queries: ['javascript.scm', 'jsx.scm'] },
  python: { wasm: 'tree-sitter-python.wasm', queries: ['python.scm'] },
};

/**
 * @typedef {{ path: string, language: string, bytes: number, text: string }} LoadedFile
 * @typedef {{ files: number, bytes: number, parseMs: number, parseCpuMs: number, queryMs: number, queryCpuMs: number, errorTrees: number, matches: number }} ParseTally
 */

/** CPU milliseconds (user + system) of this process since `start`. @param {NodeJS.CpuUsage} start */
export function cpuMsSince(start) {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

/** @param {number} bytes @param {number} ms */
export function mbps(bytes, ms) {
  return ms > 0 ? bytes / 1e6 / (ms / 1000) : 0;
}

/**
 * @param {{ root: string, files: LoadedFile[], withQuery?: boolean, warmupFiles?: number }} options
 */
export async function parseWasm({ root, files, withQuery = true, warmupFiles = 10 }) {
  const initStarted = performance.now();
  await Parser.init();
  const parser = new Parser();
  /** @type {Map<string, { language: Language, query: Query | null }>} */
  const loaded = new Map();
  for (const lang of new Set(files.map((f) => f.language))) {
    const grammar = GRAMMARS[lang];
    if (!grammar) continue;
    const bytes = await readFile(path.join(root, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm', grammar.wasm));
    const language = await Language.load(bytes);
    let query = null;
    if (withQuery) {
      const source = (await Promise.all(grammar.queries.map((q) => readFile(path.join(root, 'src', 'extract', 'languages', q), 'utf8')))).join('');
      query = new Query(language, source);
    }
    loaded.set(lang, { language, query });
  }
  const initMs = performance.now() - initStarted;

  // Warm the JIT on a few files per language (untimed).
  for (const lang of loaded.keys()) {
    parser.setLanguage(loaded.get(lang).language);
    for (const f of files.filter((x) => x.language === lang).slice(0, warmupFiles)) parser.parse(f.text)?.delete();
  }

  /** @type {Record<string, ParseTally>} */
  const per = {};
  for (const f of files) {
    const entry = loaded.get(f.language);
    if (!entry) continue;
    const row = (per[f.language] ??= { files: 0, bytes: 0, parseMs: 0, parseCpuMs: 0, queryMs: 0, queryCpuMs: 0, errorTrees: 0, matches: 0 });
    parser.setLanguage(entry.language);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const tree = parser.parse(f.text);
    const t1 = performance.now();
    row.parseMs += t1 - t0;
    row.parseCpuMs += cpuMsSince(c0);
    row.files++;
    row.bytes += f.bytes;
    if (!tree) continue;
    if (tree.rootNode.hasError) row.errorTrees++;
    if (entry.query) {
      const c2 = process.cpuUsage();
      const t2 = performance.now();
      const matches = entry.query.matches(tree.rootNode);
      row.queryMs += performance.now() - t2;
      row.queryCpuMs += cpuMsSince(c2);
      row.matches += matches.length;
    }
    tree.delete();
  }
  for (const { query } of loaded.values()) query?.delete();
  parser.delete();

  return summarize(per, initMs, withQuery);
}

/**
 * @param {Record<string, ParseTally>} per
 * @param {number} initMs
 * @param {boolean} withQuery
 */
function summarize(per, initMs, withQuery) {
  const byLanguage = {};
  const total = { files: 0, bytes: 0, parseMs: 0, parseCpuMs: 0, queryMs: 0, queryCpuMs: 0, errorTrees: 0, matches: 0 };
  for (const [lang, r] of Object.entries(per)) {
    byLanguage[lang] = rates(r, withQuery);
    for (const k of Object.keys(total)) total[k] += r[k];
  }
  return { initMs: round(initMs), byLanguage, overall: rates(total, withQuery) };
}

/** @param {ParseTally} r @param {boolean} withQuery */
function rates(r, withQuery) {
  return {
    files: r.files,
    bytes: r.bytes,
    parse_ms: round(r.parseMs),
    parse_mbps: round(mbps(r.bytes, r.parseMs), 2),
    parse_cpu_ms: round(r.parseCpuMs),
    parse_cpu_mbps: round(mbps(r.bytes, r.parseCpuMs), 2),
    error_trees: r.errorTrees,
    ...(withQuery && {
      query_ms: round(r.queryMs),
      parse_query_mbps: round(mbps(r.bytes, r.parseMs + r.queryMs), 2),
      query_cpu_ms: round(r.queryCpuMs),
      parse_query_cpu_mbps: round(mbps(r.bytes, r.parseCpuMs + r.queryCpuMs), 2),
      matches: r.matches,
    }),
  };
}

/** @param {number} x @param {number} [digits] */
export function round(x, digits = 1) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
