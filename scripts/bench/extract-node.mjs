// Extract-only throughput in Node: the project's own extractor (src/extract/index.ts:
// parse + tags query + outline, exactly the code the Worker runs per file) over the corpus.
// It runs in a child process that loads the TypeScript sources through tsx, with module
// hooks (extract-hooks.mjs) standing in for wrangler's .wasm and .scm bundling rules.
//
//   parent: runExtractNode({ root, dir, listFile })   child: node extract-node.mjs --child …
import { readFile } from 'node:fs/promises';
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { run } from './proc.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SELF = fileURLToPath(import.meta.url);
/** The server's per-file limits (src/upload/service.ts). */
const MAX_FILE_BYTES = 1024 * 1024;
const PARSE_BUDGET_MS = 2_000;

/**
 * @param {{ root: string, dir: string, listFile: string, timeoutMs?: number }} options
 *   listFile: JSON array of { path, language, bytes } relative to dir
 */
export async function runExtractNode({ root, dir, listFile, timeoutMs = 15 * 60_000 }) {
  const res = await run(process.execPath, [SELF, '--child', root, dir, listFile], { cwd: root, timeoutMs });
  const last = res.stdout.trim().split('\n').pop() ?? '';
  if (res.code !== 0 || !last.startsWith('{')) {
    const why = res.timedOut ? `timed out after ${Math.round(timeoutMs / 1000)} s` : `exit ${res.code ?? res.signal}: ${res.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 400)}`;
    return { ok: false, reason: why };
  }
  return { ok: true, ...JSON.parse(last) };
}

/** @param {number} bytes @param {number} ms */
const mbps = (bytes, ms) => (ms > 0 ? bytes / 1e6 / (ms / 1000) : 0);
/** @param {number} x @param {number} [d] */
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

async function child([root, dir, listFile]) {
  const { register: tsx } = await import('tsx/esm/api');
  tsx();
  register(pathToFileURL(path.join(HERE, 'extract-hooks.mjs')));
  const initStarted = performance.now();
  const { extractFile } = await import(pathToFileURL(path.join(root, 'src', 'extract', 'index.ts')).href);
  /** @type {{ path: string, language: string, bytes: number }[]} */
  const list = JSON.parse(await readFile(listFile, 'utf8'));
  const files = await Promise.all(list.map(async (f) => ({ ...f, text: await readFile(path.join(dir, f.path), 'utf8') })));
  const opts = { maxBytes: MAX_FILE_BYTES, timeoutMs: PARSE_BUDGET_MS };
  // First call per language loads the runtime, grammar and query: keep that out of the rate.
  for (const lang of new Set(files.map((f) => f.language))) {
    for (const f of files.filter((x) => x.language === lang).slice(0, 10)) await extractFile(f.path, f.text, opts);
  }
  const initMs = performance.now() - initStarted;

  /** @type {Record<string, { files: number, bytes: number, ms: number, cpuMs: number, symbols: number, references: number, failures: Record<string, number> }>} */
  const per = {};
  for (const f of files) {
    const row = (per[f.language] ??= { files: 0, bytes: 0, ms: 0, cpuMs: 0, symbols: 0, references: 0, failures: {} });
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await extractFile(f.path, f.text, opts);
    row.ms += performance.now() - t0;
    const c = process.cpuUsage(c0);
    row.cpuMs += (c.user + c.system) / 1000;
    row.files++;
    row.bytes += f.bytes;
    row.symbols += result.symbols.length;
    row.references += result.references.length;
    if (result.failure) row.failures[result.failure.reason] = (row.failures[result.failure.reason] ?? 0) + 1;
  }
  const total = { files: 0, bytes: 0, ms: 0, cpuMs: 0, symbols: 0, references: 0, failures: {} };
  const shape = (/** @type {typeof total} */ r) => ({
    files: r.files,
    bytes: r.bytes,
    ms: round(r.ms),
    mbps: round(mbps(r.bytes, r.ms), 2),
    cpu_ms: round(r.cpuMs),
    cpu_mbps: round(mbps(r.bytes, r.cpuMs), 2),
    symbols: r.symbols,
    references: r.references,
    symbols_per_s: Math.round(r.symbols / (r.ms / 1000 || 1)),
    failures: r.failures,
  });
  const byLanguage = {};
  for (const [lang, r] of Object.entries(per)) {
    byLanguage[lang] = shape(r);
    for (const k of ['files', 'bytes', 'ms', 'cpuMs', 'symbols', 'references']) total[k] += r[k];
    for (const [reason, n] of Object.entries(r.failures)) total.failures[reason] = (total.failures[reason] ?? 0) + n;
  }
  process.stdout.write(`${JSON.stringify({ initMs: round(initMs), byLanguage, overall: shape(total) })}\n`);
}

if (process.argv[1] === SELF && process.argv[2] === '--child') {
  child(process.argv.slice(3)).catch((err) => {
    process.stderr.write(`extract-node: ${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
