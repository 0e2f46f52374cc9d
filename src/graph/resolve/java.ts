/**
 * Java packages, found by path suffix (source roots are not declared):
 * `com.x.Y` is any file ending in `com/x/Y.java`, `com.x` any directory ending
 * in `com/x`; when several match (multi-module builds), the one sharing the
 * most directories with the importing file wins, then the first by path.
 * `import com.x.Y` binds `Y` (IMPORTS → Y.java); `import com.x.Outer.Inner`
 * and `import static com.x.Util.max` bind a member of the longest prefix
 * that is a class file; `import com.x.*` puts the package's classes in scope
 * (IMPORTS → the package directory); `import static com.x.Util.*` puts
 * Util's members in scope. Classes of the same directory (same package) are
 * visible without an import (under a `java` source folder, main and test
 * folders of one package count as one). A fully qualified call (`com.x.Y.m()`) resolves
 * through the class file as well.
 */
import type { RefInput } from '../types';
import { isIdentifier } from './callee';
import type { LayoutIndex } from './layout';
import { basename, dirname, sharedDepth } from './paths';
import { EXTERNAL, emptyScope, type FileScope, type Head, type ModuleEntity, type ModuleResolver } from './scope';

export class JavaModules implements ModuleResolver {
  private dirsByName: Map<string, string[]> | null = null;
  private byPackage: Map<string, string[]> | null = null;

  constructor(private readonly layout: LayoutIndex) {}

  scope(file: string, refs: readonly RefInput[]): FileScope {
    const scope = emptyScope();
    scope.packageFiles = this.packageFiles(dirname(file)).filter((f) => f !== file);
    for (const ref of refs) {
      if (ref.kind !== 'import') continue;
      const source = ref.name.split('.');
      const dst: string[] = [];
      for (const name of ref.importedNames ?? []) {
        if (name === '*') {
          const dir = this.packageDir(file, source);
          if (dir !== null) {
            scope.wildcards.push({ t: 'module', files: this.javaFiles(dir), prefix: '' });
            dst.push(dir);
            continue;
          }
          const cls = this.classOf(file, source);
          if (cls && cls.members.length === 0) {
            scope.wildcards.push({ t: 'module', files: [cls.file], prefix: source[source.length - 1] });
            dst.push(cls.file);
          }
          continue;
        }
        const cls = this.classOf(file, [...source, name]);
        if (!cls) {
          scope.bindings.set(name, { t: 'entity', entity: EXTERNAL });
          continue;
        }
        const module: ModuleEntity = { t: 'module', files: [cls.file], prefix: '' };
        scope.bindings.set(name, { t: 'member', module, path: [cls.name, ...cls.members] });
        dst.push(cls.file);
      }
      scope.imports.push({ ref, dst: [...new Set(dst)] });
    }
    return scope;
  }

  /** `com.x.Y.m()` written in full: the class file of the longest prefix. */
  head(file: string, _ref: RefInput, segs: readonly string[], scope: FileScope): Head | null {
    if (segs.length < 3 || !/^\p{Ll}/u.test(segs[0]) || scope.bindings.has(segs[0]) || !segs.every(isIdentifier)) return null;
    for (let k = segs.length - 1; k >= 2; k--) {
      const f = this.classFile(file, segs.slice(0, k));
      if (f) return { entity: { t: 'module', files: [f], prefix: '' }, used: k - 1, provenance: 'import' };
    }
    return null;
  }

  /** The longest prefix of `dotted` that is a class file, with the class name and the members after it. */
  private classOf(from: string, dotted: readonly string[]): { file: string; name: string; members: string[] } | null {
    for (let k = dotted.length; k >= 1; k--) {
      const f = this.classFile(from, dotted.slice(0, k));
      if (f) return { file: f, name: dotted[k - 1], members: dotted.slice(k) };
    }
    return null;
  }

  private classFile(from: string, dotted: readonly string[]): string | null {
    const path = `${dotted.join('/')}.java`;
    return nearest(from, this.layout.named(basename(path)).filter((p) => p === path || p.endsWith(`/${path}`)));
  }

  private packageDir(from: string, dotted: readonly string[]): string | null {
    if (!this.dirsByName) {
      this.dirsByName = new Map();
      const seen = new Set<string>();
      for (const f of this.layout.files) {
        if (!f.endsWith('.java')) continue;
        const dir = dirname(f);
        if (seen.has(dir)) continue;
        seen.add(dir);
        const list = this.dirsByName.get(basename(dir)) ?? [];
        list.push(dir);
        this.dirsByName.set(basename(dir), list);
      }
    }
    const suffix = dotted.join('/');
    const dirs = this.dirsByName.get(dotted[dotted.length - 1]) ?? [];
    return nearest(from, dirs.filter((d) => d === suffix || d.endsWith(`/${suffix}`)));
  }

  /**
   * Files of the package a directory holds. Under a Maven/Gradle root (a `java`
   * folder: `src/main/java`, `src/test/java`) the package is the path after it,
   * so main and test sources of one package see each other; elsewhere, the directory.
   */
  private packageFiles(dir: string): string[] {
    if (!this.byPackage) {
      this.byPackage = new Map();
      for (const f of [...this.layout.files].sort()) {
        if (!f.endsWith('.java')) continue;
        const key = packageKey(dirname(f));
        const list = this.byPackage.get(key) ?? [];
        list.push(f);
        this.byPackage.set(key, list);
      }
    }
    return this.byPackage.get(packageKey(dir)) ?? [];
  }

  private javaFiles(dir: string): string[] {
    return this.layout.filesIn(dir).filter((f) => f.endsWith('.java'));
  }
}

function packageKey(dir: string): string {
  const parts = dir.split('/');
  const root = parts.lastIndexOf('java');
  return root < 0 ? `/${dir}` : parts.slice(root + 1).join('/');
}

function nearest(from: string, paths: readonly string[]): string | null {
  let best: string | null = null;
  let depth = -1;
  for (const p of [...paths].sort()) {
    const d = sharedDepth(from, `${p}/`);
    if (d > depth) {
      best = p;
      depth = d;
    }
  }
  return best;
}
