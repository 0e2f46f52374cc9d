// Scoring pincher-edge's callers (trace, direction in, depth 1) against an oracle's.
// Unit: a distinct (target, caller) pair. A caller is `file::name` of the enclosing function,
// or `file::<module>`. A caller pincher-edge reports is right when it is the nearest or the
// outermost named enclosing function of one of the oracle's call sites of that target, or a
// declaration that call initialises (`const X = f()` at module level: X or the module), so
// granularity differences — a call inside a nested callback — are not errors (`alts`). An
// oracle call site is found when pincher-edge reports any of those names for it.

/** Confidence floors reported besides the default view. */
export const FLOORS = [0, 0.3, 0.5, 0.7, 0.85, 0.9, 0.95, 1];

/**
 * @param {{ callers: { nearest: string, outer: string }[] }} oracle
 * @param {string[]} got distinct caller keys from pincher-edge
 */
export function scoreTarget(oracle, got) {
  const ok = new Set();
  for (const c of oracle.callers) for (const k of c.alts ?? [c.nearest, c.outer]) ok.add(k);
  const mine = new Set(got);
  const tp = [...mine].filter((k) => ok.has(k)).length;
  // Oracle pairs: distinct by nearest caller.
  const pairs = new Map();
  for (const c of oracle.callers) if (!pairs.has(c.nearest)) pairs.set(c.nearest, c);
  let found = 0;
  const missed = [];
  for (const c of pairs.values()) {
    if ((c.alts ?? [c.nearest, c.outer]).some((k) => mine.has(k))) found++;
    else missed.push(c.nearest);
  }
  const wrong = [...mine].filter((k) => !ok.has(k));
  return { reported: mine.size, correct: tp, expected: pairs.size, found, wrong, missed };
}

/** Sums per-target scores into precision and recall. */
export function total(scores) {
  const s = scores.reduce((a, x) => ({ reported: a.reported + x.reported, correct: a.correct + x.correct, expected: a.expected + x.expected, found: a.found + x.found }), { reported: 0, correct: 0, expected: 0, found: 0 });
  return { ...s, precision: s.reported ? round3(s.correct / s.reported) : null, recall: s.expected ? round3(s.found / s.expected) : null };
}

const round3 = (x) => Math.round(x * 1000) / 1000;
