/**
 * Turns the checked documents of a SCIP index into exact graph edges over our symbol rows.
 *
 * A SCIP definition maps onto the symbol row of its file with the same name whose lines hold
 * it (the innermost one). Each reference occurrence to a mapped symbol becomes an edge from
 * the innermost symbol row around it (the module level when none): CALLS where the extractor
 * saw a call of that name on that line, INHERITS/IMPLEMENTS where it saw a base type, and
 * REFERENCES for every other use (reads, type annotations, imports, a function passed as a
 * value). Confidence 1.0, provenance `scip`. A reference to an interface member also reaches
 * the members that implement it (SCIP `is_implementation` relationships), at 0.9: the call
 * dispatches to one of them. Locals, parameters and symbols defined outside the index
 * (dependencies, the standard library) produce no edge.
 */
import type { EdgeKind, GraphEdge } from '../types';
import { SCIP_ROLE, type ScipDocument } from './decode';
import { definedName, isLocalSymbol } from './symbol-name';

/** A symbol row of a covered file (lines 1-based, inclusive). */
export interface ScipTargetRow {
  id: string;
  file: string;
  name: string;
  kind: string;
  startLine: number;
  endLine: number;
}

/** A call or inherit reference the extractor stored for a covered file. */
export interface ScipRefRow {
  file: string;
  kind: 'call' | 'inherit';
  target: string;
  enclosing: string | null;
  line: number;
}

export interface ScipEdgeStats {
  /** Definitions in covered documents that name a symbol row. */
  definitions: number;
  /** Definitions that matched no symbol row (their references produce no edge). */
  unmapped: number;
  /** Edges by kind. */
  edges: Partial<Record<EdgeKind, number>>;
}

/** Confidence of an edge into an implementation reached through an interface member. */
export const IMPLEMENTATION_CONFIDENCE = 0.9;

function innermost(rows: readonly ScipTargetRow[] | undefined, line: number, name?: string): ScipTargetRow | null {
  let best: ScipTargetRow | null = null;
  for (const r of rows ?? []) {
    if (r.startLine > line || r.endLine < line || (name !== undefined && r.name !== name)) continue;
    if (!best || r.endLine - r.startLine < best.endLine - best.startLine) best = r;
  }
  return best;
}

export function scipEdges(documents: readonly ScipDocument[], symbols: readonly ScipTargetRow[], refs: readonly ScipRefRow[]): { edges: GraphEdge[]; stats: ScipEdgeStats } {
  const byFile = new Map<string, ScipTargetRow[]>();
  for (const s of symbols) {
    const list = byFile.get(s.file);
    if (list) list.push(s);
    else byFile.set(s.file, [s]);
  }
  const stats: ScipEdgeStats = { definitions: 0, unmapped: 0, edges: {} };
  // SCIP symbol → our row, from definitions.
  const rows = new Map<string, ScipTargetRow>();
  for (const doc of documents) {
    for (const o of doc.occurrences) {
      if (!(o.roles & SCIP_ROLE.definition) || isLocalSymbol(o.symbol) || rows.has(o.symbol)) continue;
      const named = definedName(o.symbol);
      if (!named) continue;
      stats.definitions++;
      const row = innermost(byFile.get(doc.relativePath), o.range[0] + 1, named.name) ?? (named.name === 'constructor' && named.owner ? innermost(byFile.get(doc.relativePath), o.range[0] + 1, named.owner) : null);
      if (row) rows.set(o.symbol, row);
      else stats.unmapped++;
    }
  }
  // Interface member → the members implementing it.
  const implementations = new Map<string, string[]>();
  for (const doc of documents) {
    for (const info of doc.symbols) {
      for (const rel of info.relationships) {
        if (!rel.isImplementation || !rows.has(info.symbol)) continue;
        const list = implementations.get(rel.symbol);
        if (list) list.push(info.symbol);
        else implementations.set(rel.symbol, [info.symbol]);
      }
    }
  }
  const extracted = new Map<string, ScipRefRow>();
  for (const r of refs) extracted.set(`${r.file}\0${r.line}\0${r.target}`, r);

  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  const add = (edge: GraphEdge) => {
    const key = `${edge.kind}\0${edge.srcId ?? edge.srcFile}\0${edge.dstId}\0${edge.line}`;
    if (seen.has(key)) return;
    seen.add(key);
    edges.push(edge);
    stats.edges[edge.kind] = (stats.edges[edge.kind] ?? 0) + 1;
  };
  for (const doc of documents) {
    const file = doc.relativePath;
    for (const o of doc.occurrences) {
      if (o.roles & SCIP_ROLE.definition || isLocalSymbol(o.symbol)) continue;
      const direct = rows.get(o.symbol);
      const impls = (implementations.get(o.symbol) ?? []).map((s) => rows.get(s)).filter((r): r is ScipTargetRow => r !== undefined && r !== direct);
      if (!direct && impls.length === 0) continue;
      const named = definedName(o.symbol);
      if (!named) continue;
      const line = o.range[0] + 1;
      // `new Service()` references the constructor; the extractor records a call of `Service`.
      const written = named.name === 'constructor' && named.owner ? named.owner : named.name;
      const seenRef = extracted.get(`${file}\0${line}\0${written}`);
      const src = seenRef ? seenRef.enclosing : (innermost(byFile.get(file), line)?.id ?? null);
      for (const [target, confidence] of [...(direct ? [[direct, 1] as const] : []), ...impls.map((r) => [r, IMPLEMENTATION_CONFIDENCE] as const)]) {
        const kind: EdgeKind = !seenRef ? 'REFERENCES' : seenRef.kind === 'call' ? 'CALLS' : target.kind === 'Interface' ? 'IMPLEMENTS' : 'INHERITS';
        add({ kind, srcId: src, srcFile: file, dstId: target.id, dstFile: target.file, name: written, line, confidence, provenance: 'scip' });
      }
    }
  }
  return { edges, stats };
}
