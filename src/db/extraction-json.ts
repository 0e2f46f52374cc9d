/**
 * How extraction output is stored in `extractions.symbols_json` and
 * `extractions.refs_json`: one JSON array per file whose items are positional
 * arrays, not objects, so the field names are not repeated in every row (they
 * were about 40 % of the bytes). The positions below are the only place that
 * knows the layout: the commit reads symbols with `SYMBOL_FIELD`, and the
 * `refs` view (migration 0013) reads references with the `REF_*` positions.
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
 * Position of each reference field, as the `refs` view (migration 0013) reads them. The kind is
 * its index in REF_KINDS; a target equal to the name is stored as the number 1; trailing nulls
 * are left out (a missing position reads as null).
 */
export const REF_FIELD = { kind: 0, line: 1, name: 2, target: 3, enclosing: 4, importedNames: 5 } as const;

/** Reference kinds by their stored number. */
export const REF_KINDS = ['call', 'import', 'inherit'] as const satisfies readonly ExtractedReference['kind'][];

const bit = (b: boolean | undefined): 0 | 1 => (b ? 1 : 0);

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

/** The stored form of a file's references. */
export function encodeRefs(refs: readonly ExtractedReference[]): string {
  return JSON.stringify(
    refs.map((r) => {
      const row: unknown[] = [REF_KINDS.indexOf(r.kind), r.line, r.name, r.target !== null && r.target === r.name ? 1 : r.target, r.enclosing, r.imported_names];
      while (row.length > REF_FIELD.target && row[row.length - 1] === null) row.pop();
      return row;
    }),
  );
}

/** SQL reading symbol field `f` of the JSON array `value` (a `json_each` row of symbols_json). */
export function symbolField(value: string, f: keyof typeof SYMBOL_FIELD | 'storedKey'): string {
  // `symbols.key` has the same convention: null when the id is `{path}::{qualified_name}#{kind}`.
  if (f === 'storedKey') return `(${value} ->> ${SYMBOL_FIELD.key})`;
  if (f === 'key') return `coalesce(${value} ->> ${SYMBOL_FIELD.key}, (${value} ->> ${SYMBOL_FIELD.qualifiedName}) || '#' || (${value} ->> ${SYMBOL_FIELD.kind}))`;
  return `${value} ->> ${SYMBOL_FIELD[f]}`;
}
