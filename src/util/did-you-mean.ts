/** Levenshtein distance, small inputs only (names and parameters). */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

/** The closest candidate when it is plausibly a typo (distance ≤ max(2, len/3)) or a prefix. */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  const lower = input.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const cl = c.toLowerCase();
    // A prefix of a longer candidate ('sear' → 'search') is a near miss; a candidate that
    // is merely a prefix of the input ('ls' in 'lsit') is not.
    const d = lower.length >= 3 && cl.startsWith(lower) ? 1 : editDistance(lower, cl);
    if (d < bestScore) {
      best = c;
      bestScore = d;
    }
  }
  return best !== undefined && bestScore <= Math.max(2, Math.floor(input.length / 3)) ? best : undefined;
}

/**
 * Up to `n` candidates plausibly meant by `input` (the didYouMean rule:
 * distance ≤ max(2, len/3), or a longer candidate it prefixes), closest
 * first; ties keep the candidates' order.
 */
export function nearest(input: string, candidates: readonly string[], n: number): string[] {
  const lower = input.toLowerCase();
  const max = Math.max(2, Math.floor(input.length / 3));
  return candidates
    .map((c, i) => {
      const cl = c.toLowerCase();
      return { c, i, d: lower.length >= 3 && cl.startsWith(lower) ? 1 : editDistance(lower, cl) };
    })
    .filter((x) => x.d <= max && x.c !== input)
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .slice(0, n)
    .map((x) => x.c);
}
