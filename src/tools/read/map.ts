import * as z from 'zod';
import type { FileSymbol } from '../../db/source';

/** Most entries one map carries; deeper levels go first when a file has more. */
export const MAX_MAP_ENTRIES = 400;

export const mapEntry = z.object({
  name: z.string().describe('qualified name'),
  kind: z.string(),
  start_line: z.number(),
  end_line: z.number(),
});
export type MapEntry = z.infer<typeof mapEntry>;

export interface StructuralMap {
  entries: MapEntry[];
  /** Symbols in scope, shown or not. */
  total: number;
  /** Deepest nesting level shown (0 = top level), when levels were dropped. */
  depth?: number;
}

/**
 * A structural outline from symbols in source order (`fileSymbols` order),
 * optionally only those inside `within`. Over `max` entries, the deepest
 * nesting levels are dropped first, then the top level is cut to `max`.
 */
export function structuralMap(rows: readonly FileSymbol[], within?: Pick<FileSymbol, 'start_byte' | 'end_byte'>, max = MAX_MAP_ENTRIES): StructuralMap {
  const inScope = rows.filter((r) => !within || (r.start_byte >= within.start_byte && r.end_byte <= within.end_byte));
  const stack: FileSymbol[] = [];
  const depths = inScope.map((r) => {
    while (stack.length > 0 && !(r.start_byte >= stack[stack.length - 1].start_byte && r.end_byte <= stack[stack.length - 1].end_byte)) stack.pop();
    stack.push(r);
    return stack.length - 1;
  });
  const entry = (r: FileSymbol): MapEntry => ({ name: r.qualified_name, kind: r.kind, start_line: r.start_line, end_line: r.end_line });
  if (inScope.length <= max) return { entries: inScope.map(entry), total: inScope.length };
  let depth = Math.max(...depths);
  while (depth > 0 && depths.filter((d) => d <= depth).length > max) depth--;
  const kept = inScope.filter((_, i) => depths[i] <= depth).slice(0, max);
  return { entries: kept.map(entry), total: inScope.length, depth };
}
