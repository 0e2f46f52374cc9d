/**
 * Rust modules. Crates come from every `Cargo.toml` (`[package] name`, `[lib]
 * path`, `[[bin]] path`; defaults `src/lib.rs`, `src/main.rs`,
 * `src/bin/*.rs`); without one, a folder holding `lib.rs` or `main.rs` is a
 * crate's `src/`. A file's module path follows the file tree, as `mod foo;`
 * declarations do by default: `src/a/b.rs` and `src/a/b/mod.rs` are
 * `crate::a::b`; crate roots (`lib.rs`, `main.rs`, binaries, and top-level
 * files of `tests/`, `examples/`, `benches/`) are `crate`. A child module
 * `foo` of a module is `foo.rs` or `foo/mod.rs` in the module's folder (the
 * root's own folder for crate roots and `mod.rs`), else an inline `mod foo {}`
 * of the same file. `#[path]` attributes are not read.
 *
 * Paths (`use` and calls): `crate::`, `self::`, `super::` (repeatable),
 * `Self::` (the impl type), a workspace crate by its package name (`-` read as
 * `_`), a name bound by `use`, a child module of the current module (the
 * file's module, plus the inline modules around the reference). Anything else
 * (std, dependencies) is outside the project. `use a::b::{c, d::e as f, self,
 * *}` binds each name, nested groups (`use crate::{a, b::{c, d}}`) included; a
 * name that is a child module file binds that module. IMPORTS edges go to the
 * module files the `use` reaches. Methods of an `impl` may live in any file of the crate.
 */
import type { RefInput } from '../types';
import type { LayoutIndex } from './layout';
import { basename, dirname, join, stem, within } from './paths';
import { EXTERNAL, emptyScope, type Binding, type FileScope, type Head, type ModuleEntity, type ModuleResolver } from './scope';
import type { SymbolIndex } from './symbols';

interface Crate {
  dir: string;
  name: string | null;
  /** Folder of the library / main module tree (`src`). */
  src: string;
  lib: string | null;
  main: string | null;
  bins: Set<string>;
}

/** Where a module lives: the file holding it and the inline `mod` path inside that file. */
interface Place {
  file: string;
  prefix: string;
  /** Crate root file (`crate::`), null when unknown. */
  root: string | null;
  /** Logical module path below the crate root. */
  segs: readonly string[];
}

const STD_CRATES = new Set(['std', 'core', 'alloc', 'proc_macro', 'test']);

export class RustModules implements ModuleResolver {
  private readonly crates: Crate[] = [];
  private readonly byName = new Map<string, Crate>();
  private readonly places = new WeakMap<ModuleEntity, Place>();
  private readonly entities = new Map<string, ModuleEntity>();
  private readonly fileModules = new Map<string, Place | null>();

  constructor(private readonly layout: LayoutIndex) {
    for (const [path, text] of layout.configsNamed('Cargo.toml')) {
      const dir = dirname(path);
      const toml = readCargo(text);
      const at = (p: string) => join(dir, p);
      const lib = toml.lib ? at(toml.lib) : at('src/lib.rs');
      const main = at('src/main.rs');
      const crate: Crate = {
        dir,
        name: toml.name ? toml.name.replace(/-/g, '_') : null,
        src: at('src') ?? dir,
        lib: lib !== null && layout.has(lib) ? lib : null,
        main: main !== null && layout.has(main) ? main : null,
        bins: new Set(toml.bins.map(at).filter((b): b is string => b !== null && layout.has(b))),
      };
      if (!crate.lib && !crate.main && crate.bins.size === 0 && !toml.name) continue; // a bare [workspace]
      this.crates.push(crate);
      if (crate.name && !this.byName.has(crate.name)) this.byName.set(crate.name, crate);
    }
    const cargo = [...this.crates];
    for (const path of [...layout.files].sort()) {
      const base = basename(path);
      if (base !== 'lib.rs' && base !== 'main.rs') continue;
      const src = dirname(path);
      if (cargo.some((c) => within(path, c.dir)) || this.crates.some((c) => c.src === src)) continue;
      const has = (n: string) => layout.has(`${src ? `${src}/` : ''}${n}`);
      this.crates.push({ dir: dirname(src), name: null, src, lib: has('lib.rs') ? `${src ? `${src}/` : ''}lib.rs` : null, main: has('main.rs') ? `${src ? `${src}/` : ''}main.rs` : null, bins: new Set() });
    }
    this.crates.sort((a, b) => b.src.length - a.src.length || (a.src < b.src ? -1 : 1));
  }

  // ---- the module tree ------------------------------------------------------

  /** The crate of a file: the deepest crate folder holding it (crates are sorted deepest `src` first). */
  private crateOf(file: string): Crate | null {
    let best: Crate | null = null;
    for (const c of this.crates) if (within(file, c.dir) && (!best || c.dir.length > best.dir.length)) best = c;
    return best;
  }

  /** The module a file is (memoized). */
  private fileModule(file: string): Place | null {
    let hit = this.fileModules.get(file);
    if (hit === undefined) {
      hit = this.fileModuleUncached(file);
      this.fileModules.set(file, hit);
    }
    return hit;
  }

  private fileModuleUncached(file: string): Place | null {
    const crate = this.crateOf(file);
    if (!crate) return null;
    if (file === crate.lib || file === crate.main || crate.bins.has(file)) return { file, prefix: '', root: file, segs: [] };
    const rel = crate.dir === '' ? file : file.slice(crate.dir.length + 1);
    const parts = rel.replace(/\.rs$/, '').split('/');
    if (parts[0] === 'src' && parts[1] === 'bin' && parts.length >= 3) {
      if (parts.length === 3) return { file, prefix: '', root: file, segs: [] };
      const root = `${crate.dir ? `${crate.dir}/` : ''}src/bin/${parts[2]}/main.rs`;
      const segs = parts.slice(3).filter((p, i, all) => !(p === 'mod' && i === all.length - 1));
      return { file, prefix: '', root: this.layout.has(root) ? root : null, segs: segs[0] === 'main' ? [] : segs };
    }
    if (['tests', 'examples', 'benches'].includes(parts[0])) {
      if (parts.length === 2) return { file, prefix: '', root: file, segs: [] };
      const segs = parts.slice(1).filter((p, i, all) => !(p === 'mod' && i === all.length - 1));
      return { file, prefix: '', root: null, segs };
    }
    if (!within(file, crate.src)) return null;
    const inSrc = (crate.src === '' ? file : file.slice(crate.src.length + 1)).replace(/\.rs$/, '').split('/');
    if (inSrc[inSrc.length - 1] === 'mod') inSrc.pop();
    return { file, prefix: '', root: crate.lib ?? crate.main, segs: inSrc };
  }

  private entity(place: Place): ModuleEntity {
    const key = `${place.file}\0${place.prefix}`;
    let e = this.entities.get(key);
    if (!e) {
      e = { t: 'module', files: [place.file], prefix: place.prefix, child: (name, lookup) => this.child(place, name, lookup) };
      this.entities.set(key, e);
      this.places.set(e, place);
    }
    return e;
  }

  /** Folder holding the child module files of a module. */
  private childDir(place: Place): string {
    const own = this.fileModule(place.file);
    const isRoot = own !== null && own.segs.length === 0;
    const base = isRoot || basename(place.file) === 'mod.rs' ? dirname(place.file) : `${dirname(place.file) ? `${dirname(place.file)}/` : ''}${stem(place.file)}`;
    return place.prefix === '' ? base : `${base ? `${base}/` : ''}${place.prefix.replace(/\./g, '/')}`;
  }

  /** Child module `name`: a file, else an inline `mod` (assumed while planning, checked against symbols after). */
  private child(place: Place, name: string, lookup: SymbolIndex | null): ModuleEntity | null {
    const dir = this.childDir(place);
    const segs = [...place.segs, name];
    for (const f of [`${dir ? `${dir}/` : ''}${name}.rs`, `${dir ? `${dir}/` : ''}${name}/mod.rs`]) {
      if (this.layout.has(f)) return this.entity({ file: f, prefix: '', root: place.root, segs });
    }
    const prefix = place.prefix === '' ? name : `${place.prefix}.${name}`;
    if (lookup && !lookup.inFile(place.file, prefix).some((s) => s.kind === 'Module')) return null;
    return this.entity({ file: place.file, prefix, root: place.root, segs });
  }

  private parent(place: Place): Place | null {
    if (place.prefix !== '') {
      const cut = place.prefix.lastIndexOf('.');
      return { ...place, prefix: cut < 0 ? '' : place.prefix.slice(0, cut), segs: place.segs.slice(0, -1) };
    }
    if (place.segs.length === 0) return null;
    if (place.root === null) {
      // tests/common/mod.rs and friends: the parent is the folder's crate root, if one file is there.
      return null;
    }
    return this.at(place.root, place.segs.slice(0, -1));
  }

  /** The module at `segs` below a crate root, following files only. */
  private at(root: string, segs: readonly string[]): Place | null {
    let place: Place = { file: root, prefix: '', root, segs: [] };
    for (const seg of segs) {
      const e = this.child(place, seg, null);
      const next = e ? this.places.get(e) : undefined;
      if (!next) return null;
      place = next;
    }
    return place;
  }

  /** The module around a reference: the file's module plus the inline modules enclosing it. */
  private current(file: string, ref: RefInput, lookup: SymbolIndex | null): Place | null {
    const own = this.fileModule(file);
    if (!own || ref.enclosing === null) return own;
    const key = ref.enclosing.slice(ref.enclosing.indexOf('::') + 2);
    const hash = key.lastIndexOf('#');
    const qn = key.slice(0, hash);
    const kind = key.slice(hash + 1).replace(/~\d+$/, '');
    const parts = qn.split('.');
    // The longest leading chain of inline modules.
    let depth = 0;
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join('.');
      const isModule = lookup ? lookup.inFile(file, prefix).some((s) => s.kind === 'Module') : i < parts.length || kind === 'Module';
      if (!isModule) break;
      depth = i;
    }
    if (depth === 0) return own;
    return { ...own, prefix: parts.slice(0, depth).join('.'), segs: [...own.segs, ...parts.slice(0, depth)] };
  }

  // ---- paths ----------------------------------------------------------------

  /** The module a `use` source or a call path starts at, and how many segments that took. */
  private start(file: string, ref: RefInput, segs: readonly string[], lookup: SymbolIndex | null, forUse: boolean): { place: Place | null; used: number } | null {
    const cur = this.current(file, ref, lookup);
    const s0 = segs[0];
    if (s0 === 'crate') {
      const root = cur?.root ?? null;
      return { place: root ? { file: root, prefix: '', root, segs: [] } : null, used: 1 };
    }
    if (s0 === 'self') return { place: cur, used: 1 };
    if (s0 === 'super') {
      let place = cur;
      let i = 0;
      while (i < segs.length && segs[i] === 'super') {
        place = place ? this.parent(place) : null;
        i++;
      }
      return { place, used: i };
    }
    if (STD_CRATES.has(s0)) return { place: null, used: 1 };
    if (cur) {
      const child = this.child(cur, s0, lookup);
      // While building a scope (no symbols) only a child module file counts: an inline module cannot be told from a library.
      if (child && (!forUse || child.files[0] !== file)) return { place: this.places.get(child) ?? null, used: 1 };
    }
    const crate = this.byName.get(s0);
    if (crate && (crate.lib || crate.main)) {
      const root = (crate.lib ?? crate.main) as string;
      return { place: { file: root, prefix: '', root, segs: [] }, used: 1 };
    }
    return null;
  }

  head(file: string, ref: RefInput, segs: readonly string[], scope: FileScope, lookup: SymbolIndex | null): Head | null {
    if (segs.length < 2 || scope.bindings.has(segs[0])) return null;
    // `cart.total()`: a field access on a value, not a path through a module named `cart`.
    if (ref.name === segs.join('.')) return null;
    const s = this.start(file, ref, segs, lookup, false);
    if (!s) return null;
    return { entity: s.place ? this.entity(s.place) : EXTERNAL, used: s.used, provenance: 'import' };
  }

  scope(file: string, refs: readonly RefInput[]): FileScope {
    const scope = emptyScope();
    for (const ref of refs) {
      if (ref.kind !== 'import') continue;
      const source = ref.name.split('::').filter((s) => s !== '');
      const names = ref.importedNames ?? [];
      const dst: string[] = [];
      if (names.length === 0) {
        // `use foo;`: the path itself is the binding.
        const s = this.start(file, ref, source, null, true);
        const place = s && s.used === source.length ? s.place : null;
        scope.bindings.set(source[source.length - 1], s ? { t: 'entity', entity: place ? this.entity(place) : EXTERNAL } : { t: 'entity', entity: EXTERNAL });
        if (place && place.file !== file) dst.push(place.file);
        scope.imports.push({ ref, dst });
        continue;
      }
      const base = this.base(file, ref, source);
      for (const written of names.flatMap(flattenUseTree)) {
        if (written === '*' || written.endsWith('::*')) {
          // `*`, or `b::*` inside a group: every name of that module.
          const all = written === '*' ? base : base && this.fileModuleAt(base, written.slice(0, -3).split('::').filter((x) => x !== ''));
          if (all) scope.wildcards.push(all);
          if (all && all.files[0] !== file) dst.push(all.files[0]);
          continue;
        }
        const alias = /^(.+?)\s+as\s+(\S+)$/.exec(written);
        const path = (alias ? alias[1] : written).split('::').filter((s) => s !== '');
        const last = path[path.length - 1];
        const local = alias ? alias[2] : last !== 'self' ? last : path.length > 1 ? path[path.length - 2] : source[source.length - 1];
        if (local === '_') continue;
        let binding: Binding;
        const module = base ? this.fileModuleAt(base, last === 'self' ? path.slice(0, -1) : path) : null;
        if (!base) binding = { t: 'entity', entity: EXTERNAL };
        else if (module) binding = { t: 'entity', entity: module };
        else if (last === 'self') binding = path.length === 1 ? { t: 'entity', entity: base } : { t: 'member', module: base, path: path.slice(0, -1) };
        else binding = { t: 'member', module: base, path };
        scope.bindings.set(local, binding);
        if (!base) continue;
        // IMPORTS: the deepest module file the name reaches.
        let place = this.places.get(base) ?? null;
        for (const seg of path) {
          if (seg === 'self' || !place) break;
          const child = this.child(place, seg, null);
          const next = child ? this.places.get(child) : undefined;
          if (!next || next.file === place.file) break;
          place = next;
        }
        if (place && place.file !== file) dst.push(place.file);
      }
      scope.imports.push({ ref, dst: [...new Set(dst)] });
    }
    return scope;
  }

  /** The module file `path` reaches from `base` when each segment is a child module file (`use crate::{util}`), else null. */
  private fileModuleAt(base: ModuleEntity, path: readonly string[]): ModuleEntity | null {
    let place = this.places.get(base) ?? null;
    for (const seg of path) {
      const child = place ? this.child(place, seg, null) : null;
      const next = child ? this.places.get(child) : undefined;
      if (!place || !next || next.file === place.file) return null;
      place = next;
    }
    return place ? this.entity(place) : null;
  }

  /** The module a `use` source names, walked through child modules; null outside the project. */
  private base(file: string, ref: RefInput, source: readonly string[]): ModuleEntity | null {
    const s = this.start(file, ref, source, null, true);
    if (!s || !s.place) return null;
    let place = s.place;
    for (const seg of source.slice(s.used)) {
      const child = this.child(place, seg, null);
      const next = child ? this.places.get(child) : undefined;
      if (!next) return null;
      place = next;
    }
    return this.entity(place);
  }

  sameUnit(a: string, b: string): boolean {
    const ca = this.crateOf(a);
    return ca !== null && ca === this.crateOf(b);
  }

  *planFiles(file: string, refs: readonly RefInput[], scope: FileScope): Iterable<string> {
    const own = this.fileModule(file);
    if (!own) return;
    if (own.root) yield own.root;
    for (let p = this.parent(own); p; p = this.parent(p)) yield p.file;
    for (const ref of refs) {
      if (ref.kind === 'import') continue;
      const segs = ref.name.split('::');
      if (segs.length < 2) continue;
      const h = this.head(file, ref, segs, scope, null);
      const place = h && h.entity.t === 'module' ? this.places.get(h.entity) : undefined;
      if (!place) continue;
      if (place.root) yield place.root;
      yield place.file;
      for (let p = this.parent(place); p; p = this.parent(p)) yield p.file;
      let at: Place | undefined = place;
      for (const seg of segs.slice(h!.used)) {
        const child = this.child(at, seg, null);
        at = child ? this.places.get(child) : undefined;
        if (!at) break;
        yield at.file;
      }
    }
  }
}

/**
 * The flat paths of one item of a `use` list: `b::{c, d::{e as f, self}}` → `b::c`,
 * `b::d::e as f`, `b::d::self`; an item without braces is itself.
 */
export function flattenUseTree(written: string): string[] {
  const text = written.replace(/\s+/g, ' ').trim();
  const open = text.indexOf('{');
  if (open < 0) return text ? [text] : [];
  if (!text.endsWith('}')) return [];
  const prefix = text.slice(0, open).replace(/\s*::\s*$/, '').trim();
  const inner = text.slice(open + 1, -1);
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '{') depth++;
    else if (inner[i] === '}') depth--;
    else if (inner[i] === ',' && depth === 0) {
      items.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  items.push(inner.slice(start));
  return items.flatMap((item) => flattenUseTree(item.trim())).map((p) => (prefix ? `${prefix}::${p}` : p));
}

/** `[package] name`, `[lib] path`, `[[bin]] path` of a Cargo.toml (enough TOML for that). */
export function readCargo(text: string): { name: string | null; lib: string | null; bins: string[] } {
  const out = { name: null as string | null, lib: null as string | null, bins: [] as string[] };
  let table = '';
  for (const line of text.split(/\r?\n/)) {
    const t = line.replace(/\s+#.*$/, '').trim();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(t);
    if (header) {
      table = t.startsWith('[[') ? `[[${header[1]}]]` : header[1];
      continue;
    }
    const kv = /^([A-Za-z0-9_-]+)\s*=\s*["']([^"']*)["']/.exec(t);
    if (!kv) continue;
    if (table === 'package' && kv[1] === 'name') out.name = kv[2];
    else if (table === 'lib' && kv[1] === 'path') out.lib = kv[2];
    else if (table === '[[bin]]' && kv[1] === 'path') out.bins.push(kv[2]);
  }
  return out;
}
