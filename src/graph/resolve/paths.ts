/** Repository paths: `/`-separated, relative to the project root (`''`), no leading `./`. */

export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The file name without its last extension (`index` for `a/index.ts`). */
export function stem(path: string): string {
  const base = basename(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** Resolves `.` and `..` segments; null when the path climbs above the project root. */
export function normalize(path: string): string | null {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

/** Joins and normalizes; null when the result leaves the project. */
export function join(...parts: string[]): string | null {
  return normalize(parts.filter((p) => p !== '').join('/'));
}

/** True when `path` is `dir` itself or inside it (`''` contains everything). */
export function within(path: string, dir: string): boolean {
  return dir === '' || path === dir || path.startsWith(`${dir}/`);
}

/** Number of leading directory segments two paths share. */
export function sharedDepth(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  const n = Math.min(x.length, y.length) - 1;
  let i = 0;
  while (i < n && x[i] === y[i]) i++;
  return i;
}
