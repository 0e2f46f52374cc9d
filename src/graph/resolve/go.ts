/**
 * Go packages. An import path names a directory: the `go.mod` whose `module`
 * path is the longest prefix of it maps the rest onto that module's folder
 * (`replace old => ./local` directives with a local path are honoured); with
 * no matching go.mod, the longest project directory the import path ends
 * with. A package is every `.go` file directly in its directory; the IMPORTS
 * edge goes to the directory (dst_file = the package directory, dst_id null),
 * one per import. The local name is the import's alias, else the last path
 * element (a `/vN` major-version element is skipped, `go-` and `.vN` are
 * trimmed); `.` imports put the package's names in scope; `_` binds nothing.
 * Files of the same directory are one package: their top-level names are
 * visible without a qualifier.
 */
import type { RefInput } from '../types';
import type { LayoutIndex } from './layout';
import { dirname, join } from './paths';
import { EXTERNAL, emptyScope, type FileScope, type ModuleEntity, type ModuleResolver } from './scope';

interface GoModule {
  dir: string;
  path: string;
}

export class GoModules implements ModuleResolver {
  private readonly modules: GoModule[] = [];
  private readonly packages = new Map<string, ModuleEntity>();
  private readonly cache = new Map<string, string | null>();

  constructor(private readonly layout: LayoutIndex) {
    for (const [file, text] of layout.configsNamed('go.mod')) {
      const dir = dirname(file);
      const module = /^\s*module\s+("?)([^\s"]+)\1/m.exec(text);
      if (module) this.modules.push({ dir, path: module[2] });
      for (const m of text.matchAll(/^\s*(?:replace\s+)?([^\s()]+)(?:\s+v\S+)?\s+=>\s+(\.{1,2}\/\S*)\s*$/gm)) {
        const local = join(dir, m[2]);
        if (local !== null) this.modules.push({ dir: local, path: m[1] });
      }
    }
    this.modules.sort((a, b) => b.path.length - a.path.length || (a.dir < b.dir ? -1 : 1));
  }

  scope(file: string, refs: readonly RefInput[]): FileScope {
    const scope = emptyScope();
    const dir = dirname(file);
    scope.packageFiles = this.goFiles(dir).filter((f) => f !== file);
    for (const ref of refs) {
      if (ref.kind !== 'import') continue;
      const target = this.directory(ref.name);
      scope.imports.push({ ref, dst: target === null ? [] : [target] });
      const module = target === null ? null : this.packageAt(target);
      const alias = ref.importedNames?.[0];
      if (alias === '_') continue;
      if (alias === '.') {
        if (module) scope.wildcards.push(module);
        continue;
      }
      scope.bindings.set(alias ?? packageName(ref.name), { t: 'entity', entity: module ?? EXTERNAL });
    }
    return scope;
  }

  sameUnit(a: string, b: string): boolean {
    return dirname(a) === dirname(b);
  }

  /** The project directory an import path names, or null. */
  directory(importPath: string): string | null {
    const hit = this.cache.get(importPath);
    if (hit !== undefined) return hit;
    let out: string | null = null;
    for (const m of this.modules) {
      if (importPath === m.path || importPath.startsWith(`${m.path}/`)) {
        const dir = join(m.dir, importPath.slice(m.path.length));
        if (dir !== null && this.goFiles(dir).length > 0) out = dir;
        break;
      }
    }
    if (out === null && this.modules.length === 0) out = this.bySuffix(importPath);
    this.cache.set(importPath, out);
    return out;
  }

  /** Without go.mod: the longest project directory holding Go files that the import path ends with. */
  private bySuffix(importPath: string): string | null {
    const parts = importPath.split('/');
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(i).join('/');
      if (this.goFiles(dir).length > 0) return dir;
    }
    return null;
  }

  private goFiles(dir: string): string[] {
    return this.layout.filesIn(dir).filter((f) => f.endsWith('.go'));
  }

  private packageAt(dir: string): ModuleEntity {
    let m = this.packages.get(dir);
    if (!m) {
      m = { t: 'module', files: this.goFiles(dir), prefix: '' };
      this.packages.set(dir, m);
    }
    return m;
  }
}

/** The default package name of an import path. */
export function packageName(importPath: string): string {
  const parts = importPath.split('/');
  let last = parts[parts.length - 1];
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2];
  return last.replace(/\.v\d+$/, '').replace(/^go-/, '').replace(/-/g, '');
}
