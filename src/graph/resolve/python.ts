/**
 * Python modules. Source roots, searched in this order for an absolute import:
 * the importing file's own directory when it is not inside a package (a
 * script), then every root that contains the importing file (deepest first),
 * then the others by path. A root is the project root, `src/`, or the parent
 * of a top-level package (a directory with `__init__.py` whose parent has
 * none). A dotted name `a.b` is `a/b.py`, `a/b.pyi`, `a/b/__init__.py`, or a
 * namespace package `a/b/` (a directory holding Python files, no
 * `__init__.py`). Relative imports climb one directory per dot after the
 * first from the importing file's directory.
 *
 * Bindings: `import a.b.c` binds `a`; `import a.b as m` binds `m` to `a.b`;
 * `from m import x [as y]` binds `y` to `x` in `m` — a symbol, else the
 * submodule `m.x`, else a name re-exported by a package's `__init__.py` (found
 * by name under the package directory); `from m import *` puts `m`'s names in
 * scope. IMPORTS edges go to the imported module's file, or to each imported
 * submodule's file (`from . import a, b`); a namespace package has no file and
 * no edge.
 */
import type { RefInput } from '../types';
import type { LayoutIndex } from './layout';
import { basename, dirname, join, within } from './paths';
import { EXTERNAL, emptyScope, type FileScope, type ModuleEntity, type ModuleResolver } from './scope';

export class PythonModules implements ModuleResolver {
  private readonly roots: string[];
  private readonly packages = new Set<string>();
  private readonly packageParents = new Set<string>();
  private readonly modules = new Map<string, ModuleEntity | null>();

  constructor(private readonly layout: LayoutIndex) {
    for (const path of layout.files) if (basename(path) === '__init__.py') this.packages.add(dirname(path));
    for (const pkg of this.packages) if (pkg !== '') this.packageParents.add(dirname(pkg));
    const roots = new Set<string>(['']);
    if (layout.isDir('src')) roots.add('src');
    for (const pkg of this.packages) {
      if (pkg === '') continue;
      const parent = dirname(pkg);
      if (!this.packages.has(parent) || parent === '') roots.add(parent);
    }
    this.roots = [...roots].sort();
  }

  scope(file: string, refs: readonly RefInput[]): FileScope {
    const scope = emptyScope();
    for (const ref of refs) {
      if (ref.kind !== 'import') continue;
      const names = ref.importedNames ?? [];
      const spec = ref.name;
      // `import a.b as m` is written `a.b as m`; `from …` always names something.
      const alias = names.length === 1 && !spec.startsWith('.') && names[0].startsWith(`${spec} `) ? /\s+as\s+(\S+)$/.exec(names[0]) : null;
      if (names.length === 0 || alias) {
        // `import a.b.c` / `import a.b as m`
        const module = this.absolute(file, spec.split('.'));
        scope.imports.push({ ref, dst: module ? module.files.slice(0, 1) : [] });
        if (alias) scope.bindings.set(alias[1], { t: 'entity', entity: module ?? EXTERNAL });
        else {
          const top = spec.split('.')[0];
          const head = this.absolute(file, [top]);
          if (!scope.bindings.has(top) || head) scope.bindings.set(top, { t: 'entity', entity: head ?? EXTERNAL });
        }
        continue;
      }
      // `from m import x, y as z, *`
      const module = this.fromModule(file, spec);
      const dst: string[] = [];
      let needsSelf = false;
      for (const written of names) {
        if (written === '*') {
          if (module) scope.wildcards.push(module);
          needsSelf = true;
          continue;
        }
        const alias = /^(\S+)\s+as\s+(\S+)$/.exec(written);
        const remote = alias ? alias[1] : written;
        const local = alias ? alias[2] : written;
        if (!module) {
          scope.bindings.set(local, { t: 'entity', entity: EXTERNAL });
          continue;
        }
        scope.bindings.set(local, { t: 'member', module, path: [remote] });
        const sub = module.child?.(remote, null);
        if (sub && sub.files.length > 0) dst.push(sub.files[0]);
        else needsSelf = true;
      }
      if (module && (needsSelf || names.length === 0) && module.files.length > 0) dst.unshift(module.files[0]);
      scope.imports.push({ ref, dst: [...new Set(dst)] });
    }
    return scope;
  }

  /** `from <spec> import …`: relative (`.`, `..a.b`) or absolute. */
  private fromModule(file: string, spec: string): ModuleEntity | null {
    const dots = /^\.*/.exec(spec)?.[0].length ?? 0;
    const rest = spec.slice(dots).split('.').filter((s) => s !== '');
    if (dots === 0) return this.absolute(file, rest);
    let dir: string | null = dirname(file);
    for (let i = 1; i < dots && dir !== null; i++) dir = dir === '' ? null : dirname(dir);
    return dir === null ? null : this.at(dir, rest);
  }

  /** An absolute dotted module, from the source roots in order. */
  absolute(file: string, dotted: readonly string[]): ModuleEntity | null {
    for (const root of this.rootsFor(file)) {
      const m = this.at(root, dotted);
      if (m) return m;
    }
    return null;
  }

  private rootsFor(file: string): string[] {
    const dir = dirname(file);
    const containing = this.roots.filter((r) => within(file, r)).sort((a, b) => b.length - a.length);
    const others = this.roots.filter((r) => !within(file, r));
    const own = this.packages.has(dir) ? [] : [dir];
    return [...new Set([...own, ...containing, ...others])];
  }

  /** The module `dotted` below directory `dir`. */
  at(dir: string, dotted: readonly string[]): ModuleEntity | null {
    const base = join(dir, ...dotted);
    if (base === null) return null;
    const key = `${dotted.length === 0 ? '.' : ''}${base}`;
    const cached = this.modules.get(key);
    if (cached !== undefined) return cached;
    let out: ModuleEntity | null = null;
    const file = dotted.length > 0 ? [`${base}.py`, `${base}.pyi`].find((p) => this.layout.has(p)) : undefined;
    const init = `${base ? `${base}/` : ''}__init__.py`;
    if (file) out = { t: 'module', files: [file], prefix: '' };
    else if (this.layout.has(init)) out = this.packageModule(base, [init]);
    else if (dotted.length === 0 || this.isNamespacePackage(base)) out = this.packageModule(base, []);
    this.modules.set(key, out);
    return out;
  }

  /** A directory without `__init__.py` that directly holds Python files or packages. */
  private isNamespacePackage(dir: string): boolean {
    if (!this.layout.isDir(dir)) return false;
    if (this.layout.filesIn(dir).some((f) => f.endsWith('.py'))) return true;
    return this.packageParents.has(dir);
  }

  private packageModule(dir: string, files: string[]): ModuleEntity {
    return { t: 'module', files, prefix: '', reexportDir: dir, child: (name) => this.at(dir, [name]) };
  }
}
