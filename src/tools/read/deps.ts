import type { RefRow, SymbolRow } from '../../db/source';

/**
 * Dependencies of a symbol from its extracted references, matched by name
 * (there is no cross-file resolver yet):
 * - calls and inherits inside the symbol's lines name a target identifier;
 *   it resolves to a symbol of the same file first, else to the closest
 *   symbol of that name elsewhere in the project;
 * - a name the file imports (`import {pad} from './util'`) and the symbol
 *   uses resolves only in the file whose path best matches the module
 *   specifier; an import from a module the project does not hold (a
 *   library) stays unresolved rather than matching a stranger by name.
 */

export type Relation = 'call' | 'import' | 'inherit';
export type Resolution = 'same_file' | 'import' | 'name';

export interface PlannedDependency {
  row: SymbolRow;
  relation: Relation;
  resolution: Resolution;
  /** First line of the symbol that references it. */
  line: number;
}

export interface Wanted {
  name: string;
  relation: Relation;
  line: number;
  /** Module specifiers the file imports this name from. */
  from: string[];
}

const RESOLUTION_ORDER: Record<Resolution, number> = { same_file: 0, import: 1, name: 2 };
const CALLABLE = new Set(['Function', 'Method', 'Class', 'Struct']);
const TYPES = new Set(['Class', 'Interface', 'Trait', 'Struct', 'Type', 'Enum']);

function parseNames(json: string | null): string[] {
  if (!json) return [];
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function lastIdentifier(text: string): string {
  const m = /([\p{L}_$][\p{L}\p{N}_$]*)\W*$/u.exec(text);
  return m ? m[1] : text;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The names a symbol depends on: what it calls or inherits, and the imported names its source uses. */
export function wantedNames(root: Pick<SymbolRow, 'name' | 'start_line' | 'end_line'>, source: string, refs: readonly RefRow[]): Wanted[] {
  const wanted = new Map<string, Wanted>();
  const add = (name: string, relation: Relation, line: number) => {
    const w = wanted.get(name);
    if (!w) wanted.set(name, { name, relation, line, from: [] });
    else if (relation === 'inherit' && w.relation !== 'inherit') w.relation = 'inherit';
  };
  const imports = new Map<string, { spec: string; line: number }[]>();
  for (const r of refs) {
    if (r.kind === 'import') {
      for (const n of parseNames(r.imported_names)) {
        if (n !== '*') imports.set(n, [...(imports.get(n) ?? []), { spec: r.name, line: r.line }]);
      }
    } else if (r.line >= root.start_line && r.line <= root.end_line) {
      const target = r.target ?? lastIdentifier(r.name);
      if (target) add(target, r.kind, r.line);
    }
  }
  for (const [name, specs] of imports) {
    const used = wanted.has(name) || new RegExp(`(?<![\\p{L}\\p{N}_$])${escapeRegExp(name)}(?![\\p{L}\\p{N}_$])`, 'u').test(source);
    if (!used) continue;
    add(name, 'import', specs[0].line);
    const w = wanted.get(name);
    if (w) w.from = specs.map((s) => s.spec);
  }
  return [...wanted.values()];
}

function stem(path: string): string {
  return path.replace(/\.[^./]*$/, '');
}

function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function joinPath(base: string, rel: string): string {
  const out = base ? base.split('/') : [];
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return out.join('/');
}

const MODULE_FILES = new Set(['index', '__init__', 'mod', 'main', 'lib']);

/**
 * How well a module specifier names a file: 1000 for a relative specifier
 * (`./util`, `../db/x.js`, Python `.models`) that resolves to it, else the
 * number of trailing path segments shared by the specifier (`app.db`,
 * `crate::db::source`, `github.com/x/pkg`) and the file or its folder; 0
 * when unrelated.
 */
export function moduleScore(spec: string, fromPath: string, candidatePath: string): number {
  const s = spec.trim().replace(/^['"<]|['">]$/g, '');
  const candidate = stem(candidatePath);
  const segs = candidate.split('/');
  const stems = new Set([candidate]);
  if (MODULE_FILES.has(segs[segs.length - 1])) stems.add(segs.slice(0, -1).join('/'));
  if (s.startsWith('.')) {
    let target: string;
    if (/^\.\.?(\/|$)/.test(s)) {
      target = joinPath(dirname(fromPath), s);
    } else {
      const m = /^(\.+)(.*)$/.exec(s) ?? ['', '.', s];
      let base = dirname(fromPath);
      for (let up = 1; up < m[1].length; up++) base = dirname(base);
      target = joinPath(base, m[2].replace(/\./g, '/'));
    }
    return stems.has(target) || stems.has(stem(target)) ? 1000 : 0;
  }
  const specSegs = s.replace(/::/g, '/').split(/[/.\\:]/).filter(Boolean);
  const suffix = (path: string[]) => {
    let n = 0;
    while (n < specSegs.length && n < path.length && specSegs[specSegs.length - 1 - n] === path[path.length - 1 - n]) n++;
    return n;
  };
  return Math.max(suffix(segs), suffix(dirname(candidatePath).split('/')), ...[...stems].map((p) => suffix(p.split('/'))));
}

function commonPrefix(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < x.length - 1 && n < y.length - 1 && x[n] === y[n]) n++;
  return n;
}

function kindRank(kind: string, relation: Relation): number {
  if (relation === 'inherit') return TYPES.has(kind) ? 0 : 1;
  if (relation === 'call') return CALLABLE.has(kind) ? 0 : 1;
  return 0;
}

/**
 * Resolves wanted names against candidate symbols (the name lookup's rows),
 * never to the root itself or to symbols nested in it. Returns the
 * dependencies in reading order (same file, imports, other files; then by
 * line) and the names nothing resolved.
 */
export function resolveDependencies(
  root: Pick<SymbolRow, 'id' | 'file_path' | 'start_byte' | 'end_byte'>,
  wanted: readonly Wanted[],
  candidates: readonly SymbolRow[],
): { deps: PlannedDependency[]; unresolved: string[] } {
  const byName = new Map<string, SymbolRow[]>();
  // Names that only match the root or what it contains (recursion, own members) are neither deps nor unresolved.
  const selfNames = new Set<string>();
  for (const c of candidates) {
    const inside = c.file_path === root.file_path && c.start_byte >= root.start_byte && c.end_byte <= root.end_byte;
    if (c.id === root.id || inside) {
      selfNames.add(c.name);
      continue;
    }
    byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  }
  const deps = new Map<string, PlannedDependency>();
  const unresolved: string[] = [];
  for (const w of wanted) {
    const cands = byName.get(w.name) ?? [];
    let pick: { row: SymbolRow; resolution: Resolution } | undefined;
    if (w.from.length > 0) {
      let best = 0;
      for (const c of cands) {
        const score = Math.max(...w.from.map((spec) => moduleScore(spec, root.file_path, c.file_path)));
        if (score > best) {
          best = score;
          pick = { row: c, resolution: 'import' };
        }
      }
    } else {
      const ranked = [...cands].sort(
        (a, b) =>
          Number(b.file_path === root.file_path) - Number(a.file_path === root.file_path) ||
          kindRank(a.kind, w.relation) - kindRank(b.kind, w.relation) ||
          commonPrefix(b.file_path, root.file_path) - commonPrefix(a.file_path, root.file_path) ||
          a.file_path.localeCompare(b.file_path) ||
          a.start_byte - b.start_byte,
      );
      if (ranked[0]) pick = { row: ranked[0], resolution: ranked[0].file_path === root.file_path ? 'same_file' : 'name' };
    }
    if (!pick) {
      if (!selfNames.has(w.name) || cands.length > 0) unresolved.push(w.name);
      continue;
    }
    if (!deps.has(pick.row.id)) deps.set(pick.row.id, { ...pick, relation: w.relation, line: w.line });
  }
  // A dependency nested in another one (a method of a class also depended on) is already in that source.
  const all = [...deps.values()];
  const nested = (d: PlannedDependency, i: number) =>
    all.some((o, j) => {
      const contains = o.row.file_path === d.row.file_path && o.row.start_byte <= d.row.start_byte && d.row.end_byte <= o.row.end_byte;
      const same = o.row.start_byte === d.row.start_byte && o.row.end_byte === d.row.end_byte;
      return j !== i && contains && (!same || j < i);
    });
  const ordered = all.filter((d, i) => !nested(d, i)).sort((a, b) => RESOLUTION_ORDER[a.resolution] - RESOLUTION_ORDER[b.resolution] || a.line - b.line);
  return { deps: ordered, unresolved };
}
