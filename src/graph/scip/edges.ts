/**
 * Turns the checked documents of a SCIP index into exact graph edges over our symbol rows.
 *
 * A SCIP definition maps onto the symbol row of its file with the same name whose lines hold
 * it (the innermost one). Each reference occurrence to a mapped symbol becomes an edge from
 * the innermost symbol row around it (the module level when none): CALLS where the extractor
 * saw a call of that name on that line, INHERITS/IMPLEMENTS where it saw a base type, and
 * REFERENCES for every other use (reads, type annotations, imports, a function passed as a
 * value). Confidence 1.0, provenance `scip`. A reference to a contract — an interface or trait
 * member, an abstract method — also reaches the members that implement it (SCIP
 * `is_implementation` relationships), at 0.9: the call dispatches to one of them. A reference
 * to a concrete method reaches its overrides (indexers mark them as implementations too) only
 * at 0.5, under the default view: the method itself runs as often as any override. Locals,
 * parameters and symbols defined outside the index (dependencies, the standard library)
 * produce no edge.
 */
import { CONTRACT_KINDS, isAbstractSignature } from '../contract';
import type { EdgeKind, GraphEdge } from '../types';
import { SCIP_ROLE, type ScipDocument, type ScipOccurrence } from './decode';
import { definedName, isLocalSymbol } from './symbol-name';

/** A symbol row of a covered file (lines 1-based, inclusive). */
export interface ScipTargetRow {
  id: string;
  file: string;
  name: string;
  kind: string;
  startLine: number;
  endLine: number;
  /** Declaration head (abstract modifiers, decorators); absent when unknown. */
  signature?: string | null;
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

/** Confidence of an edge into an implementation reached through an interface member or an abstract method. */
export const IMPLEMENTATION_CONFIDENCE = 0.9;
/** Confidence of an edge into an override reached through a concrete method (under the default view). */
export const OVERRIDE_CONFIDENCE = 0.5;

/** Whether a member row is a contract: abstract, or declared in an interface or trait. */
function isContract(row: ScipTargetRow, fileRows: readonly ScipTargetRow[] | undefined): boolean {
  if (isAbstractSignature(row.name, row.signature)) return true;
  let owner: ScipTargetRow | null = null;
  for (const r of fileRows ?? []) {
    if (r === row || r.startLine > row.startLine || r.endLine < row.endLine) continue;
    if (!owner || r.endLine - r.startLine < owner.endLine - owner.startLine) owner = r;
  }
  return owner !== null && CONTRACT_KINDS.has(owner.kind);
}

/** Kinds a function-local SCIP symbol may map onto (nested functions, classes, callable constants). */
const LOCAL_CALLABLE_KINDS: ReadonlySet<string> = new Set(['Function', 'Method', 'Class', 'Constant', 'Variable']);

/** Local symbols are unique within their document only. */
const rowKey = (file: string, symbol: string) => (isLocalSymbol(symbol) ? `${file}\0${symbol}` : symbol);

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
  // SCIP symbol → our row, from definitions (a local symbol keyed by its document, rowKey).
  const rows = new Map<string, ScipTargetRow>();
  /** Local symbol key → the name of the row it maps onto. */
  const locals = new Map<string, string>();
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
  // Functions nested in functions are document-local symbols (`local 7`): the first local
  // definition on the first line of a nested callable row that no global symbol took is its name.
  const taken = new Set([...rows.values()].map((r) => r.id));
  for (const doc of documents) {
    const file = doc.relativePath;
    const nested = new Map<number, ScipTargetRow>();
    const fileRows = byFile.get(file) ?? [];
    for (const r of fileRows) {
      if (taken.has(r.id) || !LOCAL_CALLABLE_KINDS.has(r.kind)) continue;
      if (!fileRows.some((o) => o !== r && o.startLine <= r.startLine && o.endLine >= r.endLine && o.endLine - o.startLine > r.endLine - r.startLine)) continue;
      const held = nested.get(r.startLine);
      if (!held || r.endLine - r.startLine < held.endLine - held.startLine) nested.set(r.startLine, r);
    }
    if (nested.size === 0) continue;
    const first = new Map<number, ScipOccurrence>();
    for (const o of doc.occurrences) {
      if (!(o.roles & SCIP_ROLE.definition) || !isLocalSymbol(o.symbol) || !nested.has(o.range[0] + 1)) continue;
      const held = first.get(o.range[0] + 1);
      if (!held || o.range[1] < held.range[1]) first.set(o.range[0] + 1, o);
    }
    for (const [line, o] of first) {
      const row = nested.get(line)!;
      rows.set(rowKey(file, o.symbol), row);
      locals.set(rowKey(file, o.symbol), row.name);
    }
  }
  // Interface member → the members implementing it. A member the index defines outside the
  // covered files (a dependency's) is not known to be a contract: its overrides stay 0.5.
  const implementations = new Map<string, string[]>();
  const contracts = new Map<string, boolean>();
  const contract = (symbol: string) => {
    let c = contracts.get(symbol);
    if (c === undefined) {
      const row = rows.get(symbol);
      c = row !== undefined && isContract(row, byFile.get(row.file));
      contracts.set(symbol, c);
    }
    return c;
  };
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
      if (o.roles & SCIP_ROLE.definition) continue;
      const local = isLocalSymbol(o.symbol);
      const direct = rows.get(local ? rowKey(file, o.symbol) : o.symbol);
      const impls = local ? [] : (implementations.get(o.symbol) ?? []).map((s) => rows.get(s)).filter((r): r is ScipTargetRow => r !== undefined && r !== direct);
      if (!direct && impls.length === 0) continue;
      const implConfidence = contract(o.symbol) ? IMPLEMENTATION_CONFIDENCE : OVERRIDE_CONFIDENCE;
      const named = local ? { name: locals.get(rowKey(file, o.symbol))!, owner: null } : definedName(o.symbol);
      if (!named) continue;
      const line = o.range[0] + 1;
      // `new Service()` references the constructor; the extractor records a call of `Service`.
      const written = named.name === 'constructor' && named.owner ? named.owner : named.name;
      const seenRef = extracted.get(`${file}\0${line}\0${written}`);
      const src = seenRef ? seenRef.enclosing : (innermost(byFile.get(file), line)?.id ?? null);
      for (const [target, confidence] of [...(direct ? [[direct, 1] as const] : []), ...impls.map((r) => [r, implConfidence] as const)]) {
        const kind: EdgeKind = !seenRef ? 'REFERENCES' : seenRef.kind === 'call' ? 'CALLS' : target.kind === 'Interface' ? 'IMPLEMENTS' : 'INHERITS';
        add({ kind, srcId: src, srcFile: file, dstId: target.id, dstFile: target.file, name: written, line, confidence, provenance: 'scip' });
      }
    }
  }
  return { edges, stats };
}
