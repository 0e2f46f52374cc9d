/**
 * What the graph tools (`trace`, `plan_change`, `changes`) show when no `min_confidence` is
 * given. Name guesses are the graph's least certain edges: `ambiguous` ones (≤ 0.25, one of
 * k same-named methods) and guesses on a built-in method name (0.3, `x.push()` on a value of
 * unknown type) fall under this floor; resolved edges (imports, same file, receivers,
 * packages: ≥ 0.85) and unique name guesses (0.7) stay. Measured on real corpora against
 * compiler oracles by `npm run bench -- --only graph` (docs/graph.md).
 */
export const DEFAULT_MIN_CONFIDENCE = 0.5;
