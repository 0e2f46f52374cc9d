/**
 * Reference resolution: extracted references (calls, imports, inherits) →
 * graph edges. Pure, synchronous and deterministic: the same refs, symbols
 * and layout give the same edges in the same order. A file is the unit: the
 * edges of a file depend only on its own refs, the layout and the symbols
 * `plan()` asked for, never on which other files are resolved in the batch.
 *
 * Confidence and provenance (docs/graph.md has the full rules):
 *
 * | provenance    | confidence | found through                                                       |
 * |---------------|-----------:|---------------------------------------------------------------------|
 * | `module`      | 1.0        | IMPORTS: the import resolved to a project file or package directory |
 * | `import`      | 1.0        | an imported name / module path defined in the resolved target       |
 * | `import`      | 0.9        | …re-exported: found by name under the imported index/package folder |
 * | `same_file`   | 0.95       | a definition in the calling file                                    |
 * | `receiver`    | 0.95       | `this`/`self`/`super` (or an implicit receiver) → a member defined in the calling file |
 * | `receiver`    | 0.9        | …→ a member of the enclosing type or its bases defined in another file |
 * | `receiver`    | 0.95 / 0.9 | Java, Go: a receiver whose declaration (parameter, field, method result) states a project type → its member |
 * | `receiver`    | 0.85       | Java, Go: the one same-named method of a type whose name ends with the receiver's name |
 * | `package`     | 0.85       | same Go package / Java package (same directory), no import           |
 * | `unique_name` | 0.7        | the only method of that name among the file's visible files (itself, its imports, its package), else project-wide |
 * | `ambiguous`   | 0.5 / k    | k > 1 candidates: the 3 sharing most directories with the caller (then by id), each 0.5 / k (3 decimals) |
 *
 * A qualified reference takes the provenance of its head (`ns.f()` through
 * an import is `import`, `Local.m()` on a same-file class is `same_file`).
 * INHERITS becomes IMPLEMENTS when the base is an Interface or Trait and the
 * inheriting symbol is not (Go embedding is always INHERITS).
 */
import { LANGUAGE_RULES, MODULE_RESOLVERS, type ModuleResolverFactory } from './languages';
import { FileResolution, type GuessCache } from './resolve/engine';
import { parseCallee, isIdentifier } from './resolve/callee';
import { LayoutIndex } from './resolve/layout';
import { emptyScope, type ModuleEntity, type ModuleResolver } from './resolve/scope';
import { SymbolIndex } from './resolve/symbols';
import type { GraphEdge, ProjectLayout, RefInput, SymbolInput } from './types';

export interface Resolver {
  /**
   * What resolving these refs needs besides the refs' own files' symbols:
   * files whose symbols are needed (import targets, same-package files,
   * module files) and bare names for project-wide name matching.
   */
  plan(refs: readonly RefInput[]): { files: Set<string>; names: Set<string> };
  /**
   * Edges for `refs` (all refs of each file resolved). `symbols` holds at
   * least every symbol of the refs' files, of `plan().files`, and every symbol
   * named in `plan().names`. Unresolvable refs produce no edge.
   */
  resolve(refs: readonly RefInput[], symbols: readonly SymbolInput[]): GraphEdge[];
}

function familyOf(language: string): string {
  return LANGUAGE_RULES.get(language)?.family ?? language;
}

function byFile(refs: readonly RefInput[]): Map<string, RefInput[]> {
  const out = new Map<string, RefInput[]>();
  for (const ref of refs) {
    const list = out.get(ref.file);
    if (list) list.push(ref);
    else out.set(ref.file, [ref]);
  }
  return out;
}

/** Identifier parts of a name as written (`a as b`, `e::f`, `type X`). */
function nameParts(text: string): string[] {
  return text.split(/\s+as\s+|::|\.|\s+/).filter(isIdentifier);
}

export function createResolver(layout: ProjectLayout): Resolver {
  const index = new LayoutIndex(layout);
  const instances = new Map<ModuleResolverFactory, ModuleResolver>();
  const resolverFor = (language: string): ModuleResolver | null => {
    const factory = MODULE_RESOLVERS.get(language);
    if (!factory) return null;
    let r = instances.get(factory);
    if (!r) instances.set(factory, (r = factory(index)));
    return r;
  };

  return {
    plan(refs) {
      const files = new Set<string>();
      const names = new Set<string>();
      const addModule = (m: ModuleEntity) => m.files.forEach((f) => files.add(f));
      /** Nested modules a path may walk into (Python submodules, Rust child modules). */
      const walk = (m: ModuleEntity, path: readonly string[]) => {
        addModule(m);
        let cur: ModuleEntity | null = m;
        for (const seg of path) {
          cur = cur.child?.(seg, null) ?? null;
          if (!cur) return;
          addModule(cur);
        }
      };
      for (const [file, group] of byFile(refs)) {
        const resolver = resolverFor(group[0].language);
        if (!resolver) continue;
        const scope = resolver.scope(file, group);
        for (const f of scope.packageFiles) files.add(f);
        for (const imp of scope.imports) for (const d of imp.dst) if (index.has(d)) files.add(d);
        for (const b of scope.bindings.values()) {
          if (b.t === 'member') walk(b.module, b.path);
          else if (b.entity.t === 'module') addModule(b.entity);
        }
        scope.wildcards.forEach(addModule);
        scope.anonymous.forEach(addModule);
        for (const f of resolver.planFiles?.(file, group, scope) ?? []) files.add(f);
        const enclosing = new Set<string>();
        for (const ref of group) {
          if (ref.enclosing !== null && !enclosing.has(ref.enclosing)) {
            // Owner types of methods (Go, Rust) are looked up by name.
            enclosing.add(ref.enclosing);
            const key = ref.enclosing.slice(ref.enclosing.indexOf('::') + 2);
            for (const part of key.slice(0, key.lastIndexOf('#')).split('.')) names.add(part);
          }
          if (ref.kind === 'import') {
            for (const n of ref.importedNames ?? []) for (const part of nameParts(n)) names.add(part);
            continue;
          }
          if (ref.target) names.add(ref.target);
          const { segs } = parseCallee(ref.name);
          for (const seg of segs) if (isIdentifier(seg)) names.add(seg);
          if (segs.length < 2) continue;
          const b = scope.bindings.get(segs[0]);
          if (b?.t === 'member') walk(b.module, [...b.path, ...segs.slice(1)]);
          else if (b?.t === 'entity' && b.entity.t === 'module') walk(b.entity, segs.slice(1));
          const head = resolver.head?.(file, ref, segs, scope, null);
          if (head?.entity.t === 'module') walk(head.entity, segs.slice(head.used));
        }
      }
      return { files, names };
    },

    resolve(refs, symbols) {
      const lookup = new SymbolIndex(symbols);
      const shared: GuessCache = { pools: new Map(), closest: new Map() };
      const edges: GraphEdge[] = [];
      for (const [file, group] of byFile(refs)) {
        const language = group[0].language;
        const rule = LANGUAGE_RULES.get(language);
        if (!rule) continue;
        const resolver = resolverFor(language);
        const scope = resolver ? resolver.scope(file, group) : emptyScope();
        for (const e of new FileResolution(file, rule, resolver, scope, lookup, familyOf, shared).run(group)) edges.push(e);
      }
      return edges;
    },
  };
}
