import type { ReferenceKind } from './captures';
import { TABLE } from './languages/table';

/**
 * Reference kinds each language's extractor emits, read from its tags query
 * (`@reference.call|import|inherit`). Structured formats (Markdown, JSON,
 * YAML, TOML) and unknown languages emit none. How far their references
 * resolve is the language's row in src/graph/languages.ts.
 */
const EDGE_KINDS: ReadonlyMap<string, ReadonlySet<ReferenceKind>> = new Map(
  TABLE.map((row) => {
    const kinds = new Set<ReferenceKind>();
    if (row.tier === 'ast') for (const m of row.query.matchAll(/@reference\.(call|import|inherit)\b/g)) kinds.add(m[1] as ReferenceKind);
    return [row.id, kinds] as const;
  }),
);

const NONE: ReadonlySet<ReferenceKind> = new Set();

export function edgeKinds(language: string): ReadonlySet<ReferenceKind> {
  return EDGE_KINDS.get(language) ?? NONE;
}
