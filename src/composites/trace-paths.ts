/**
 * Mapping trace paths onto project files. Traces carry absolute paths
 * (`/home/ci/app/src/x.py`), package paths (`com/x/Y.java`) or bundler URLs;
 * the index holds project-relative paths (`src/x.py`). A trace path matches
 * a project file when they end in the same segments: the file with the
 * longest common suffix wins, and the file name alone must at least agree.
 */

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A path's segments, without empty ones and `.`. */
export function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '' && s !== '.');
}

/** Trailing segments `a` and `b` share. */
function commonSuffix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

export interface PathMatch {
  path: string;
  /** Trailing segments shared with the trace path. */
  matched: number;
  /** Other project files that match equally well (the choice between them is a guess). */
  alternatives: string[];
}

/**
 * The project file a frame points at, from its path hints (most specific
 * first) and the project files sharing its file name; null when none does.
 * Ties go to the shortest path, with the others listed as alternatives.
 */
export function matchPath(hints: readonly string[], candidates: readonly string[]): PathMatch | null {
  let best: { path: string; matched: number; hint: number }[] = [];
  hints.forEach((hint, h) => {
    const want = segments(hint);
    for (const path of candidates) {
      const matched = commonSuffix(want, segments(path));
      if (matched === 0) continue;
      const top = best[0];
      if (!top || matched > top.matched || (matched === top.matched && h < top.hint)) best = [{ path, matched, hint: h }];
      else if (matched === top.matched && h === top.hint && !best.some((b) => b.path === path)) best.push({ path, matched, hint: h });
    }
  });
  if (best.length === 0) return null;
  best.sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path));
  return { path: best[0].path, matched: best[0].matched, alternatives: best.slice(1, 6).map((b) => b.path) };
}
