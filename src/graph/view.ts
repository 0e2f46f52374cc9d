/**
 * What the graph tools (`trace`, `plan_change`, `changes`) show when no `min_confidence` is
 * given. Name guesses are the graph's least certain edges and fall under this floor:
 * `unique_name` (0.7, the only method of that name), `ambiguous` (≤ 0.25, one of k same-named
 * methods) and guesses on a built-in method name (0.3, `x.push()` on a value of unknown type).
 * Resolved edges (imports, same file, receivers, packages: ≥ 0.85) stay. Measured on real
 * corpora against compiler oracles by `npm run bench -- --only graph` (docs/graph.md): name
 * guesses were right 8–36 % of the time there, resolved edges 99–100 %.
 */
export const DEFAULT_MIN_CONFIDENCE = 0.8;
