import { TABLE } from '../../extract/languages/table';

export type EdgeKind = 'call' | 'import' | 'inherit';

/**
 * Reference kinds each language's extractor emits, read from its tags query
 * (`@reference.call|import|inherit`). Structured formats (Markdown, JSON,
 * YAML, TOML) and unknown languages emit none. Which of them resolve across
 * files is src/graph/languages.ts.
 */
const EDGE_KINDS: ReadonlyMap<string, ReadonlySet<EdgeKind>> = new Map(
  TABLE.map((row) => {
    const kinds = new Set<EdgeKind>();
    if (row.tier === 'ast') for (const m of row.query.matchAll(/@reference\.(call|import|inherit)\b/g)) kinds.add(m[1] as EdgeKind);
    return [row.id, kinds] as const;
  }),
);

const NONE: ReadonlySet<EdgeKind> = new Set();

export function edgeKinds(language: string): ReadonlySet<EdgeKind> {
  return EDGE_KINDS.get(language) ?? NONE;
}
