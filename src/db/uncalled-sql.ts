/**
 * Which symbols dead_code examines: code, not exported, not a test, a function or a method. The partial index
 * `symbols_uncalled` (src/db/schema.ts, migration 0029) holds exactly these rows, in path and source order, so the
 * question seeks them in the order it answers in and stops at its ceiling, instead of reading every symbol of the
 * project and sorting the candidates. A statement uses the index only when its WHERE holds this text as written.
 */

/** The kinds dead_code examines; a question narrows them, never widens them. */
export const CALLABLE_KINDS = ['Function', 'Method'] as const;
export type CallableKind = (typeof CALLABLE_KINDS)[number];

/** The candidate conditions on a symbols row, columns prefixed `alias` (`s.` or ``). */
export const uncalledCandidateSql = (alias: string): string =>
  `${alias}corpus = 'code' AND ${alias}is_exported = 0 AND ${alias}is_test = 0 AND ${alias}kind IN (${CALLABLE_KINDS.map((k) => `'${k}'`).join(', ')})`;

/** The condition of the partial index `symbols_uncalled`. */
export const UNCALLED_CANDIDATE_SQL = uncalledCandidateSql('');
