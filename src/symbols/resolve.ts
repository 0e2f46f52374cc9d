import { lastPart, pathNamesOwner, splitQualified } from '../util/qualified-ref';
import type { SymbolRef } from './symbol-id';

interface Named {
  name: string;
  qualified_name: string;
  start_line: number;
  end_line: number;
  file_path?: string;
}

/**
 * The order a name's matches are given to resolveRef in, so that within a kind of match the choice is non-test,
 * then exported, then path (locale order) and position.
 */
export function resolutionOrder(
  a: { is_test: number; is_exported: number; file_path: string; start_byte: number },
  b: { is_test: number; is_exported: number; file_path: string; start_byte: number },
): number {
  return a.is_test - b.is_test || b.is_exported - a.is_exported || a.file_path.localeCompare(b.file_path) || a.start_byte - b.start_byte;
}

export interface RefMatch<T> {
  /** The symbol the reference resolves to, if any. */
  chosen: T | null;
  /** Every symbol the name matched (before the @line filter), in the given order. */
  matches: T[];
}

/**
 * Resolves `Name`, `Class.method` or `Name@line` among `rows`; the member
 * forms `Type::method`, `Class#method` and `Type method` read as `Type.method`.
 * Matches are an exact qualified name, then a bare name, then a
 * qualified-name suffix (`Box.open` for `ns.Box.open`), then a top-level
 * name whose folder or module file is the owner (`pkg.Func`, `module.func`),
 * in that order of preference and the given order within each. Without
 * `@line` the best match wins; `@line` keeps the matches spanning that line
 * and picks the innermost.
 */
export function resolveRef<T extends Named>(rows: readonly T[], ref: SymbolRef): RefMatch<T> {
  const split = splitQualified(ref.name);
  const member = split?.owner ? { ...split, owner: split.owner, dotted: `${split.owner}.${split.name}` } : null;
  const quality = (r: T): number => {
    if (r.qualified_name === ref.name || r.qualified_name === member?.dotted) return 0;
    if (r.name === ref.name) return 1;
    if (r.qualified_name.endsWith(`.${ref.name}`) || r.qualified_name.endsWith(` > ${ref.name}`)) return 2;
    if (member && r.qualified_name.endsWith(`.${member.dotted}`)) return 2;
    const byPath = member && (member.separator === '.' || member.separator === '::') && r.file_path !== undefined;
    if (byPath && r.name === member.name && r.qualified_name === r.name && pathNamesOwner(r.file_path as string, lastPart(member.owner))) return 3;
    return 4;
  };
  const matches = rows
    .map((r, i) => ({ r, q: quality(r), i }))
    .filter((m) => m.q < 4)
    .sort((a, b) => a.q - b.q || a.i - b.i)
    .map((m) => m.r);
  if (ref.line === undefined) return { chosen: matches[0] ?? null, matches };
  const line = ref.line;
  const spanning = matches.filter((r) => r.start_line <= line && line <= r.end_line);
  spanning.sort((a, b) => a.end_line - a.start_line - (b.end_line - b.start_line) || b.start_line - a.start_line);
  return { chosen: spanning[0] ?? null, matches };
}

/** `Name@line` labels that tell the matches apart. */
export function refLabels(matches: readonly Named[], name: string): string[] {
  return matches.map((m) => `${name}@${m.start_line}`);
}
