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
  return best !== undefined && bestScore <= nearestDistance(input) ? best : undefined;
}

/**
 * Up to `n` candidates plausibly meant by `input` (the didYouMean rule:
 * distance ≤ max(2, len/3), or a longer candidate it prefixes), closest
 * first; ties keep the candidates' order.
 */
export function nearest(input: string, candidates: readonly string[], n: number): string[] {
  const lower = input.toLowerCase();
  const max = nearestDistance(input);
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

/** The largest distance didYouMean and nearest accept for `input`. */
function nearestDistance(input: string): number {
  return Math.max(2, Math.floor(input.length / 3));
}

/** What an ASCII candidate must meet for `nearest` to offer it (see nearestBounds). */
export interface NearestBounds {
  minLength: number;
  maxLength: number;
  /** A longer candidate starting with it (ignoring ASCII case) is near whatever its length. */
  prefix: string;
}

/**
 * Bounds that every ASCII candidate `nearest(input, …)` can offer meets: a
 * length within its distance of the input's (an edit distance is at least the
 * difference in length), or starting with the input. For an ASCII input only
 * (null otherwise): then case folding keeps lengths, and SQL's length(),
 * lower() and JavaScript's agree on ASCII text. A store can filter its
 * candidates by them before `nearest` ranks what is left.
 */
export function nearestBounds(input: string): NearestBounds | null {
  if (!/^[\x20-\x7e]*$/.test(input)) return null;
  const max = nearestDistance(input);
  return { minLength: input.length - max, maxLength: input.length + max, prefix: input.toLowerCase() };
}
