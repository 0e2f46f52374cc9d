// Oracle targets from a compiler's resolved call sites (Go's go/types, javac): every function
// or method the compiler declares, with the call sites whose callee it is — the shape
// oracle-ts.mjs and oracle-py.mjs return (see score.mjs for what `alts` allows).
import { MODULE, sample } from './oracle-ts.mjs';

/**
 * @param {{ file: string, name: string, line: number, kind: string }[]} defs
 * @param {{ file: string, line: number, nearest: string | null, outer: string | null, decls: string[], callee: { file: string, line: number } }[]} calls
 * @param {number} maxTargets
 */
export function targetsFromSites(defs, calls, maxTargets) {
  /** `file:line` of a declaration's name → target (two on one line: neither is a target) */
  const byDecl = new Map();
  const twice = new Set();
  const targets = [];
  for (const d of defs) {
    const k = `${d.file}:${d.line}`;
    if (byDecl.has(k)) twice.add(k);
    const t = { file: d.file, name: d.name, line: d.line, kind: d.kind, callers: [] };
    byDecl.set(k, t);
    targets.push(t);
  }
  const seen = new Set();
  for (const c of calls) {
    const k = `${c.callee.file}:${c.callee.line}`;
    const t = byDecl.get(k);
    if (!t || twice.has(k)) continue;
    const nearest = `${c.file}::${c.nearest ?? MODULE}`;
    const outer = `${c.file}::${c.outer ?? MODULE}`;
    const alts = [...new Set([nearest, outer, ...c.decls.map((d) => `${c.file}::${d}`), ...(c.nearest === null ? [`${c.file}::${MODULE}`] : [])])];
    const s = `${k}\0${nearest}\0${outer}\0${c.line}`;
    if (seen.has(s)) continue;
    seen.add(s);
    t.callers.push({ nearest, outer, alts, line: c.line });
  }
  return sample(targets.filter((t) => !twice.has(`${t.file}:${t.line}`)), maxTargets);
}
