import { graphReach, type GraphReach } from './languages';

/**
 * How far a language's edges reach: `cross_file` (imports and packages
 * resolved), `same_file` (references resolved only inside their file),
 * `none` (the extractor emits no references: no graph at all). The
 * language's row in src/graph/languages.ts declares it.
 */
export type GraphCoverage = GraphReach;

export function graphCoverage(language: string): GraphCoverage {
  return graphReach(language);
}

/**
 * The empty reason a graph answer with no edges carries for a symbol of
 * `language`, or null when the language is fully resolved (an empty answer
 * then means the symbol really has no such edges).
 */
export function emptyGraphReason(language: string): 'same_file_only' | 'cross_file_unavailable' | null {
  const c = graphCoverage(language);
  return c === 'none' ? 'cross_file_unavailable' : c === 'same_file' ? 'same_file_only' : null;
}
