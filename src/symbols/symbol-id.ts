import { SYMBOL_KINDS } from '../extract';
import { splitQualified } from '../util/qualified-ref';

/** The closed kind list of symbol ids (src/extract/types.ts). */
export { SYMBOL_KINDS };

const KIND_SET: ReadonlySet<string> = new Set(SYMBOL_KINDS);

/** The id shape, spelled for diagnoses. */
export const ID_SHAPE = '{file_path}::{qualified_name}#{Kind} (plus ~N for the Nth repeat in a file)';

export interface ParsedId {
  id: string;
  path: string;
  qualifiedName: string;
  kind: string;
  /** `~N` suffix of a repeated symbol, '' when absent. */
  repeat: string;
}

/**
 * Splits `{file_path}::{qualified_name}#{Kind}[~N]`. The path ends at the
 * first `::`; the kind starts after the last `#` (qualified names may hold
 * `#`, e.g. Markdown headings). Null when the id is not of that shape.
 */
export function parseSymbolId(id: string): ParsedId | null {
  const sep = id.indexOf('::');
  const hash = id.lastIndexOf('#');
  if (sep <= 0 || hash <= sep + 2) return null;
  const m = /^([A-Za-z]+)(~\d+)?$/.exec(id.slice(hash + 1));
  if (!m || !KIND_SET.has(m[1])) return null;
  const qualifiedName = id.slice(sep + 2, hash);
  if (!qualifiedName.trim()) return null;
  return { id, path: id.slice(0, sep), qualifiedName, kind: m[1], repeat: m[2] ?? '' };
}

/** The most name-like part of a malformed id, for a search suggestion. */
export function namePart(id: string): string {
  let rest = id.includes('::') ? id.slice(id.indexOf('::') + 2) : id;
  const hash = rest.lastIndexOf('#');
  if (hash > 0) rest = rest.slice(0, hash);
  const last = rest.split(/\.|::| > |\//).filter((p) => p.trim()).pop() ?? rest;
  return last.trim().slice(0, 100);
}

/**
 * Values `symbols.name` can take for a qualified name: every suffix after a
 * `.` or ` > ` boundary (names may themselves contain dots, e.g. config keys),
 * and the member of `Type::method`, `Class#method` or `Type method`, so
 * lookups by qualified name can seek the name index.
 */
export function nameCandidates(qualifiedName: string): string[] {
  const out = new Set<string>([qualifiedName]);
  const member = splitQualified(qualifiedName);
  if (member?.owner) out.add(member.name);
  const re = /\.| > /g;
  for (let m = re.exec(qualifiedName); m; m = re.exec(qualifiedName)) {
    const tail = qualifiedName.slice(m.index + m[0].length);
    if (tail) out.add(tail);
  }
  return [...out];
}

export interface SymbolRef {
  /** `Name` or `Class.method` as given. */
  name: string;
  /** From `Name@line`: a line the wanted symbol spans. */
  line?: number;
}

/** Parses `Name`, `Class.method` or `Name@line`. */
export function parseSymbolRef(text: string): SymbolRef {
  const t = text.trim();
  const m = /^(.+)@(\d+)$/.exec(t);
  return m ? { name: m[1].trim(), line: Number(m[2]) } : { name: t };
}
