// A seeded PRNG (mulberry32) so that a fuzz or soak run can be replayed from its seed.

/** @param {number} seed */
export function createRng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** Integer in [lo, hi]. */
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    /** @template T @param {readonly T[]} list @returns {T} */
    pick: (list) => list[Math.floor(next() * list.length)],
    /** Picks a key of `weights` with probability proportional to its value. */
    weighted(weights) {
      const total = Object.values(weights).reduce((s, w) => s + w, 0);
      let r = next() * total;
      for (const [k, w] of Object.entries(weights)) if ((r -= w) < 0) return k;
      return Object.keys(weights)[0];
    },
  };
}
