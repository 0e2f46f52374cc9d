/**
 * How extraction output is stored in `extractions.symbols_json` and
 * `extractions.refs_json`: one JSON array per file whose items are positional
 * arrays, not objects, so the field names are not repeated in every row (they
 * were about 40 % of the bytes). The positions below are the only place that
 * knows the layout: the commit reads symbols with `SYMBOL_FIELD`; the `refs`
 * view (migration 0024) reads references with the `REF_*` positions in SQL,
 * and `decodeRefs` reads a whole file's the same way here (resolution's read
 * of every reference of the files it resolves).
 * Booleans are 0/1; absent values are null.
 */
import type { ExtractedReference, ExtractedSymbol } from '../extract/types';

/** A symbol as extracted, plus the identifier words search indexes. */
export type StoredSymbol = ExtractedSymbol & { words: string };

/** Position of each symbol field; `key` is null when it is `${qualified_name}#${kind}`. */
export const SYMBOL_FIELD = {
  key: 0,
  name: 1,
  qualifiedName: 2,
  kind: 3,
  signature: 4,
  docstring: 5,
  parent: 6,
  isExported: 7,
  isTest: 8,
  startLine: 9,
  endLine: 10,
  startByte: 11,
  endByte: 12,
  confidence: 13,
  words: 14,
  declaration: 15,
} as const;

/**
 * Position of each reference field within its stored item, as the `refs` view (migration 0024) reads them.
 * A file's references are stored in runs of the same enclosing symbol, in extraction order: each run is
 * `[enclosing, ref, ref, …]` (the enclosing key, or null at module level, stated once per run: it was
 * about half of the bytes when repeated on every reference). Within a ref, the kind is its index in
 * REF_KINDS; the target is the number 1 when it equals the name, a negative number -k when it is the
 * name less its first k characters (`t.Errorf` → `Errorf`: -2), otherwise itself; trailing nulls are
 * left out (a missing position reads as null). The view also reads rows written before migration 0024,
 * one item per reference (`[kind, line, name, target, enclosing, imported_names]`): the migration rewrites
 * none, and such a row stays until its file's extraction is written again.
 */
export const REF_FIELD = { kind: 0, line: 1, name: 2, target: 3, importedNames: 4 } as const;

/** Reference kinds by their stored number. */
export const REF_KINDS = ['call', 'import', 'inherit'] as const satisfies readonly ExtractedReference['kind'][];

const bit = (b: boolean | undefined): 0 | 1 => (b ? 1 : 0);

/** Characters (code points, as SQLite's length() and substr() count them) in `text`. */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The stored form of a reference's target (see REF_FIELD). */
function storedTarget(name: string, target: string | null): string | number | null {
  if (target === null) return null;
  if (target === name) return 1;
  if (target.length < name.length && name.endsWith(target)) return -(codePoints(name) - codePoints(target));
  return target;
}

/** The stored form of a file's symbols. */
export function encodeSymbols(symbols: readonly StoredSymbol[]): string {
  return JSON.stringify(
    symbols.map((s) => [
      s.key === `${s.qualified_name}#${s.kind}` ? null : s.key,
      s.name,
      s.qualified_name,
      s.kind,
      s.signature,
      s.docstring,
      s.parent,
      bit(s.is_exported),
      bit(s.is_test),
      s.start_line,
      s.end_line,
      s.start_byte,
      s.end_byte,
      s.extraction_confidence,
      s.words,
      bit(s.declaration),
    ]),
  );
}

/** The stored form of a file's references: runs of the same enclosing symbol (see REF_FIELD). */
export function encodeRefs(refs: readonly ExtractedReference[]): string {
  const runs: unknown[][] = [];
  let run: unknown[] | null = null;
  for (const r of refs) {
    if (run === null || run[0] !== r.enclosing) runs.push((run = [r.enclosing]));
    const row: unknown[] = [REF_KINDS.indexOf(r.kind), r.line, r.name, storedTarget(r.name, r.target), r.imported_names];
    while (row.length > REF_FIELD.target && row[row.length - 1] === null) row.pop();
    run.push(row);
  }
  return JSON.stringify(runs);
}

/** A stored reference as the `refs` view reads it, less its file: `enclosingKey` is the enclosing symbol's key (the view's `enclosing` is `{path}::{key}`). */
export interface DecodedRef {
  kind: ExtractedReference['kind'] | null;
  name: string | null;
  target: string | null;
  importedNames: string[] | null;
  enclosingKey: string | null;
  line: number | null;
}

/**
 * A file's references from its stored `refs_json`, in stored order, with the values the `refs` view gives
 * (migration 0024): both layouts (runs of one enclosing symbol, and the older one item per reference, whose
 * first element is the kind), the kind by its number, the target rebuilt from its stored form. Malformed text
 * reads as no references (the view's JSON functions would fail the whole statement instead).
 */
export function decodeRefs(refsJson: string): DecodedRef[] {
  let items: unknown;
  try {
    items = JSON.parse(refsJson);
  } catch {
    return [];
  }
  if (!Array.isArray(items)) return [];
  const out: DecodedRef[] = [];
  for (const item of items) {
    if (!Array.isArray(item)) continue;
    if (Number.isInteger(item[0])) {
      // Before migration 0024: [kind, line, name, target, enclosing, imported_names].
      out.push(decodeRef([item[0], item[1], item[2], item[3], item[5]], item[4]));
      continue;
    }
    for (let i = 1; i < item.length; i++) if (Array.isArray(item[i])) out.push(decodeRef(item[i] as unknown[], item[0]));
  }
  return out;
}

function decodeRef(r: readonly unknown[], enclosing: unknown): DecodedRef {
  const kind = r[REF_FIELD.kind];
  const name = text(r[REF_FIELD.name]);
  const stored = r[REF_FIELD.target];
  const imported = r[REF_FIELD.importedNames];
  return {
    kind: typeof kind === 'number' ? (REF_KINDS[kind] ?? null) : null,
    name,
    target: Number.isInteger(stored) ? (stored === 1 ? name : sqlSubstr(name, 1 - (stored as number))) : text(stored),
    importedNames: Array.isArray(imported) ? imported.filter((x): x is string => typeof x === 'string') : null,
    enclosingKey: text(enclosing),
    line: typeof r[REF_FIELD.line] === 'number' ? (r[REF_FIELD.line] as number) : null,
  };
}

/** A JSON value as SQLite's `->>` gives it for the kinds stored here: strings as they are, numbers as their text, anything else null. */
function text(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return null;
}

/** SQLite's two-argument `substr(x, start)` (1-based, in code points; a start of 0 or less counts from before the first character). */
function sqlSubstr(x: string | null, start: number): string | null {
  if (x === null) return null;
  const chars = [...x];
  if (start > 0) return chars.slice(start - 1).join('');
  if (start === 0) return chars.join('');
  return chars.slice(Math.max(0, chars.length + start)).join('');
}

/** SQL reading symbol field `f` of the JSON array `value` (a `json_each` row of symbols_json). */
export function symbolField(value: string, f: keyof typeof SYMBOL_FIELD | 'storedKey'): string {
  // `symbols.key` has the same convention: null when the id is `{path}::{qualified_name}#{kind}`.
  if (f === 'storedKey') return `(${value} ->> ${SYMBOL_FIELD.key})`;
  if (f === 'key') return `coalesce(${value} ->> ${SYMBOL_FIELD.key}, (${value} ->> ${SYMBOL_FIELD.qualifiedName}) || '#' || (${value} ->> ${SYMBOL_FIELD.kind}))`;
  return `${value} ->> ${SYMBOL_FIELD[f]}`;
}
