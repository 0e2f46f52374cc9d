// Oracle for Python callers: scip-python (pyright's resolver and type evaluator) for what each
// name refers to, and Python's own `ast` for where the calls are. A call site is a caller of the
// function or method whose SCIP definition the callee's name refers to. The SCIP index is read
// with the project's own decoder (src/graph/scip/decode.ts, loaded through tsx).
//
//   oraclePy({ root, dir, files, scipPython }) → { tool, targets: [...] } (same shape as oracle-ts)
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { run } from '../proc.mjs';
import { MODULE, sample } from './oracle-ts.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * @param {{ root: string, dir: string, files: string[], scipPython: { bin: string, version: string }, maxTargets?: number, log?: (l: string) => void }} o
 */
export async function oraclePy({ root, dir, files, scipPython, maxTargets = 300, log = () => {} }) {
  const ast = await run('python3', [path.join(HERE, 'py_calls.py'), dir, ...files], { cwd: dir, timeoutMs: 5 * 60_000 });
  if (ast.code !== 0) throw new Error(`py_calls.py failed: ${ast.stderr.slice(-400)}`);
  const { defs, calls } = JSON.parse(ast.stdout);

  const out = path.join(dir, '..', `${path.basename(dir)}.scip`);
  const env = path.join(dir, '..', `${path.basename(dir)}.env.json`);
  await import('node:fs/promises').then((fs) => fs.writeFile(env, '[]'));
  const t0 = performance.now();
  const idx = await run(scipPython.bin, ['index', '--project-name', 'corpus', '--project-version', '1', '--environment', env, '--output', out, '.'], { cwd: dir, timeoutMs: 20 * 60_000 });
  if (idx.code !== 0) throw new Error(`scip-python failed (exit ${idx.code}): ${idx.stdout.slice(-300)} ${idx.stderr.slice(-300)}`);
  log(`  scip-python indexed ${files.length} files in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const { register } = await import('tsx/esm/api');
  const unregister = register();
  const { decodeScip } = await import(pathToFileURL(path.join(root, 'src', 'graph', 'scip', 'decode.ts')).href);
  await unregister();
  const scip = decodeScip(new Uint8Array(await readFile(out)));

  // Definitions of corpus symbols, and what each position refers to.
  /** @type {Map<string, string>} `file:line` (1-based) of a definition → symbol */
  const defAt = new Map();
  /** @type {Map<string, string>} `file:line:col` (0-based col) → referenced symbol */
  const refAt = new Map();
  for (const doc of scip.documents) {
    for (const o of doc.occurrences) {
      const [l, c] = o.range;
      if (o.roles & 1) defAt.set(`${doc.relativePath}:${l + 1}:${o.symbol.endsWith('().') ? 'f' : 'x'}`, o.symbol);
      else refAt.set(`${doc.relativePath}:${l + 1}:${c}`, o.symbol);
    }
  }
  /** symbol → target index */
  const bySymbol = new Map();
  const targets = [];
  for (const d of defs) {
    const sym = defAt.get(`${d.file}:${d.line}:f`);
    const t = { file: d.file, name: d.name, line: d.line, kind: d.kind, callers: [], symbol: sym ?? null };
    targets.push(t);
    if (sym) bySymbol.set(sym, t);
  }
  const seen = new Set();
  for (const c of calls) {
    const sym = refAt.get(`${c.file}:${c.line}:${c.col}`);
    const t = sym ? bySymbol.get(sym) : undefined;
    if (!t) continue;
    const nearest = `${c.file}::${c.nearest ?? MODULE}`;
    const outer = `${c.file}::${c.outer ?? MODULE}`;
    const alts = [...new Set([nearest, outer, ...c.decls.map((d) => `${c.file}::${d}`), ...(c.nearest === null ? [`${c.file}::${MODULE}`] : [])])];
    const k = `${t.file}:${t.line}\0${nearest}\0${outer}\0${c.line}`;
    if (seen.has(k)) continue;
    seen.add(k);
    t.callers.push({ nearest, outer, alts, line: c.line });
  }
  return { tool: `${scip.toolName} ${scip.toolVersion} (SCIP) + python ${'ast'}`, targets: sample(targets.filter((t) => t.symbol), maxTargets).map(({ symbol, ...t }) => t) };
}
