/** The bounds of pinchQL, in one place (docs/pinchql.md § Limits mirrors them). */

/** Longest query text, in characters. */
export const MAX_QUERY_CHARS = 4000;
/** Deepest variable-length relationship (`*1..10`). */
export const MAX_DEPTH = 10;
/** What a bare `*` means. */
export const DEFAULT_RANGE: readonly [number, number] = [1, 3];
export const DEFAULT_MAX_ROWS = 200;
export const MAX_ROWS = 10_000;
/** (start, node, depth) steps a variable-length walk may visit before it stops (the answer is then partial). */
export const WALK_CAP = 100_000;
/** Distinct values one `=~` may be tested against. */
export const REGEX_CANDIDATES = 50_000;
/** Wall time for testing every `=~` of one query against its candidates. */
export const REGEX_BUDGET_MS = 1_500;
/** Values bound to one SQL statement (D1 allows 100). */
export const MAX_PARAMS = 100;
/** Items in one IN [...] list. */
export const MAX_LIST_ITEMS = 1_000;
