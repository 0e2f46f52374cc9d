/** The project's file tree, indexed once per resolver: lookups are O(1). */
import type { ProjectLayout } from '../types';
import { basename, dirname } from './paths';

export class LayoutIndex {
  readonly files: ReadonlySet<string>;
  readonly configs: ReadonlyMap<string, string>;
  /** Directory → files directly inside it, sorted. */
  private readonly children = new Map<string, string[]>();
  /** Every directory that holds a file at some depth ('' included). */
  private readonly dirs = new Set<string>();
  /** File name → paths, sorted. */
  private readonly byBase = new Map<string, string[]>();

  constructor(layout: ProjectLayout) {
    this.files = new Set(layout.paths);
    this.configs = layout.configs;
    for (const path of [...this.files].sort()) {
      const dir = dirname(path);
      let list = this.children.get(dir);
      if (!list) this.children.set(dir, (list = []));
      list.push(path);
      const base = basename(path);
      let named = this.byBase.get(base);
      if (!named) this.byBase.set(base, (named = []));
      named.push(path);
      for (let d = dir; ; d = dirname(d)) {
        if (this.dirs.has(d)) break;
        this.dirs.add(d);
        if (d === '') break;
      }
    }
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  isDir(path: string): boolean {
    return this.dirs.has(path);
  }

  /** Files directly inside `dir` (sorted). */
  filesIn(dir: string): readonly string[] {
    return this.children.get(dir) ?? [];
  }

  /** Paths whose file name is `base` (sorted). */
  named(base: string): readonly string[] {
    return this.byBase.get(base) ?? [];
  }

  /** Config files named `base`, by path (sorted). */
  configsNamed(base: string): [string, string][] {
    const out: [string, string][] = [];
    for (const [path, text] of this.configs) if (basename(path) === base) out.push([path, text]);
    return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
}
