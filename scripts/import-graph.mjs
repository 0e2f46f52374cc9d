#!/usr/bin/env node
// The house drawn from src/: files are rooms, relative imports (type-only ones
// included) are arrows. `node scripts/import-graph.mjs` prints the import
// circles and the arrows that run back up from the lower floors into tools/,
// and exits 1 when there is any. test/node/architecture/imports.test.ts runs the same check.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Folders below tools/: nothing in them may import from src/tools/. */
export const BELOW_TOOLS = ['db', 'graph', 'query', 'composites', 'extract', 'symbols', 'regex', 'envelope', 'util'];

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full));
    else if (/\.ts$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

function resolveSpecifier(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Map of src-relative file → src-relative files it imports. */
export function importGraph(srcDir = path.join(ROOT, 'src')) {
  const graph = new Map();
  for (const file of walk(srcDir)) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set();
    for (const m of text.matchAll(IMPORT)) {
      const target = resolveSpecifier(file, m[1]);
      if (target) targets.add(path.relative(srcDir, target));
    }
    graph.set(path.relative(srcDir, file), [...targets].sort());
  }
  return graph;
}

/** Strongly connected components of more than one file (or a file importing itself): the import circles. */
export function circles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

const folder = (file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '');

/** Arrows from a folder below tools/ into tools/. */
export function upwardArrows(graph) {
  const out = [];
  for (const [from, targets] of graph) {
    if (!BELOW_TOOLS.includes(folder(from))) continue;
    for (const to of targets) if (folder(to) === 'tools') out.push(`${from} -> ${to}`);
  }
  return out.sort();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const graph = importGraph();
  const found = circles(graph);
  const up = upwardArrows(graph);
  const arrows = [...graph.values()].reduce((n, t) => n + t.length, 0);
  console.log(`${graph.size} files, ${arrows} imports, ${found.length} circles, ${up.length} upward arrows into tools/`);
  for (const c of found) console.log(`circle: ${c.join(' ')}`);
  for (const a of up) console.log(`upward: ${a}`);
  process.exit(found.length || up.length ? 1 : 0);
}
