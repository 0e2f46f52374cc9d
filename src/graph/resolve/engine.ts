/**
 * The language-neutral half of resolution: given a file's scope (from its
 * module resolver, or an empty one) and the symbols, turns each call and
 * inherit reference into edges. The order of attempts and the confidence of
 * each outcome are documented in ../resolve.ts.
 */
import type { EdgeKind, GraphEdge, Provenance, RefInput, SymbolInput } from '../types';
import { BUILTIN_NAME_CONFIDENCE, builtinReceiver, isBuiltinHead, isBuiltinMethodName } from './builtins';
import { constructedType, isIdentifier, parseCallee } from './callee';
import { declaredType, returnType, type DeclarationSyntax } from './declared';
import { dirname, within } from './paths';
import type { Binding, Entity, FileScope, ModuleEntity, ModuleResolver } from './scope';
import { BASE_KINDS, CALL_KINDS, SymbolIndex, TYPE_KINDS } from './symbols';

export const CONFIDENCE: Readonly<Record<Exclude<Provenance, 'ambiguous' | 'scip'>, number>> = {
  import: 1,
  module: 1,
  same_file: 0.95,
  receiver: 0.9,
  package: 0.85,
  unique_name: 0.7,
};
/** `this.store.put()` where the class constructs one project class named like the field (`new MemoryStore()`). */
export const FIELD_RECEIVER_CONFIDENCE = 0.85;
/** `plugin.onPause()` → the one onPause of a type whose name ends with `plugin` (LanguageRules.receiverNames). */
export const RECEIVER_NAME_CONFIDENCE = 0.85;
/** `this.m()` on an abstract method → the override in a subclass of the same file (one of them runs). */
export const OVERRIDE_CONFIDENCE = 0.85;
/** An imported name found by name under the imported module's directory (a re-export). */
export const REEXPORT_CONFIDENCE = 0.9;
/** Ambiguous candidates: at most this many edges, each with confidence AMBIGUOUS_TOTAL / k. */
export const AMBIGUOUS_MAX_EDGES = 3;
export const AMBIGUOUS_TOTAL = 0.5;

/** AMBIGUOUS_TOTAL / k, 3 decimals, at least 0.001. */
export function ambiguousConfidence(k: number): number {
  return Math.max(0.001, Math.round((AMBIGUOUS_TOTAL / k) * 1000) / 1000);
}

export interface LanguageRules {
  /** Languages whose symbols can be each other's targets (`js` for TypeScript, TSX, JavaScript). */
  family: string;
  /** Receivers that mean the enclosing type (`this`, `self`, `$this`). */
  selfWords: ReadonlySet<string>;
  /** Receivers that mean the enclosing type's bases (`super`, `super()`, `base`, `parent`). */
  superWords: ReadonlySet<string>;
  /** A bare call may be a method of the enclosing type (Java, C#, C++, Ruby). */
  implicitReceiver: boolean;
  /** Unbound receivers that are language globals (`console`, `window`): no project method is guessed. */
  globals: ReadonlySet<string>;
  /** An unbound capitalised receiver is a type outside the project (`JSON.parse`, `Math.max`): no guess. */
  typeHeads: boolean;
  /** `x.M()` inside a method of T is T.M when T has M (Go names its receiver variable freely). */
  receiverByType: boolean;
  /**
   * `plugin.onPause()` with `plugin` of unknown type: the one project method of that name whose
   * type's name ends with the receiver's name (`CordovaPlugin`) is the likely callee (Java, Go).
   */
  receiverNames: boolean;
  /** Declarations state types (resolve/declared.ts): parameters, fields and results give receivers their type. */
  declarations: DeclarationSyntax | null;
  /** Constructors are methods named after their class (Java, C#): constructing a class calls its one constructor. */
  namedConstructors: boolean;
  /** Members that construct their type when the type does not define them (`Foo.new` in Ruby). */
  constructors: ReadonlySet<string>;
  /** Edges may leave the file (the language has a module resolver). */
  crossFile: boolean;
  /** Base types are embedded, never implemented (Go): INHERITS only. */
  embedding: boolean;
}

/** Caches shared by the files of one `resolve()` call. */
export interface GuessCache {
  /** Methods of a family by name, with their ids. */
  pools: Map<string, { list: SymbolInput[]; ids: Set<string> }>;
  /** The closest candidates of a pool, per directory of the caller. */
  closest: Map<string, SymbolInput[]>;
}

/** A type known by qualified name; `sym` is null when it is defined outside the file (Go, Rust methods). */
interface TypeRef {
  qn: string;
  name: string;
  file: string;
  sym: SymbolInput | null;
}

interface Found {
  sym: SymbolInput;
  provenance: Provenance;
  confidence: number;
}

interface Reached {
  entity: Entity;
  reexport: boolean;
}

type Want = ReadonlySet<string> | 'any';

const lastSegment = (qn: string) => qn.slice(qn.lastIndexOf('.') + 1);
const CALLABLE_MEMBER: ReadonlySet<string> = new Set(['Method', 'Function']);
const VALUE_KINDS: ReadonlySet<string> = new Set(['Constant', 'Variable']);

function choose(syms: readonly SymbolInput[], want: Want): SymbolInput | null {
  if (syms.length === 0) return null;
  if (want === 'any') return syms.find((s) => s.kind !== 'Module') ?? syms[0];
  return syms.find((s) => want.has(s.kind)) ?? null;
}

/** A name compared without case or underscores (`db_conn` reads as `DBConn`). */
const normName = (x: string) => x.replace(/_/g, '').toLowerCase();

/** A call whose callee is a path of plain identifiers (see `FileResolution.plainCalls`). */
interface PlainCall {
  ref: RefInput & { enclosing: string };
  segs: string[];
  name: string;
}

/** Resolves the refs of one file. */
export class FileResolution {
  readonly edges: GraphEdge[] = [];
  private readonly visible: Set<string>;
  private readonly inherits = new Map<string, RefInput[]>();
  private readonly bases = new Map<string, TypeRef[]>();
  private readonly fieldClasses = new Map<string, SymbolInput | null>();
  private fileRefs: readonly RefInput[] = [];
  private plainCallList: readonly PlainCall[] | null = null;

  constructor(
    private readonly file: string,
    private readonly rules: LanguageRules,
    private readonly resolver: ModuleResolver | null,
    private readonly scope: FileScope,
    private readonly lookup: SymbolIndex,
    private readonly familyOf: (language: string) => string,
    private readonly shared: GuessCache,
  ) {
    this.visible = new Set([file, ...scope.packageFiles]);
    for (const imp of scope.imports) for (const d of imp.dst) this.visible.add(d);
    const addModule = (m: ModuleEntity) => m.files.forEach((f) => this.visible.add(f));
    for (const b of scope.bindings.values()) {
      if (b.t === 'member') addModule(b.module);
      else if (b.entity.t === 'module') addModule(b.entity);
    }
    scope.wildcards.forEach(addModule);
    scope.anonymous.forEach(addModule);
  }

  run(refs: readonly RefInput[]): GraphEdge[] {
    this.fileRefs = refs;
    this.plainCallList = null;
    for (const ref of refs) {
      if (ref.kind === 'inherit' && ref.enclosing !== null) {
        const list = this.inherits.get(ref.enclosing);
        if (list) list.push(ref);
        else this.inherits.set(ref.enclosing, [ref]);
      }
    }
    for (const imp of this.scope.imports) {
      for (const dst of imp.dst) this.emit(imp.ref, 'IMPORTS', null, dst, 'module', CONFIDENCE.module);
    }
    for (const ref of refs) {
      if (ref.kind === 'call') this.call(ref);
      else if (ref.kind === 'inherit') this.inherit(ref);
    }
    return this.edges;
  }

  // ---- emission -------------------------------------------------------------

  private emit(ref: RefInput, kind: EdgeKind, dstId: string | null, dstFile: string | null, provenance: Provenance, confidence: number): void {
    this.edges.push({ kind, srcId: ref.enclosing, srcFile: ref.file, dstId, dstFile, name: ref.name, line: ref.line, confidence, provenance });
  }

  private emitFound(ref: RefInput, kind: EdgeKind, found: Found): void {
    this.emit(ref, kind, found.sym.id, found.sym.file, found.provenance, found.confidence);
    if (kind === 'CALLS' && this.rules.namedConstructors && found.sym.kind === 'Class') {
      // `new Foo(…)` also calls Foo's constructor; with overloads the one called is not known here.
      const ctors = this.lookup.inFile(found.sym.file, `${found.sym.qualifiedName}.${found.sym.name}`).filter((m) => m.kind === 'Method');
      if (ctors.length === 1) this.emit(ref, kind, ctors[0].id, ctors[0].file, found.provenance, found.confidence);
    }
  }

  /** One candidate: unique_name; several: the closest AMBIGUOUS_MAX_EDGES, each AMBIGUOUS_TOTAL / k. */
  private emitGuess(ref: RefInput, kind: EdgeKind, pool: readonly SymbolInput[], cap = 1): void {
    if (pool.length === 0) return;
    if (pool.length === 1) {
      this.emit(ref, kind, pool[0].id, pool[0].file, 'unique_name', Math.min(cap, CONFIDENCE.unique_name));
      return;
    }
    const confidence = Math.min(cap, ambiguousConfidence(pool.length));
    for (const s of closest(this.file, pool, AMBIGUOUS_MAX_EDGES)) this.emit(ref, kind, s.id, s.file, 'ambiguous', confidence);
  }

  private found(sym: SymbolInput, provenance: Provenance, reexport = false): Found {
    if (reexport && provenance === 'import') return { sym, provenance, confidence: REEXPORT_CONFIDENCE };
    // A receiver landing in the calling file (`self.m()` on the enclosing class) is as sure as a same-file definition.
    if (provenance === 'receiver' && sym.file === this.file) return { sym, provenance, confidence: CONFIDENCE.same_file };
    return { sym, provenance, confidence: CONFIDENCE[provenance as Exclude<Provenance, 'ambiguous' | 'scip'>] };
  }

  // ---- calls ----------------------------------------------------------------

  private call(ref: RefInput): void {
    const callee = parseCallee(ref.name);
    const { segs, raw } = callee;
    if (segs.length === 0) return;
    if (segs.length === 1) {
      this.bareCall(ref, segs[0]);
      return;
    }
    const target = segs[segs.length - 1];
    const head = segs[0];
    // `"a".split()`, `[x].map()`, `s.split(',').map()`: a built-in value's method.
    if (builtinReceiver(this.rules.family, raw)) return;

    if (this.rules.selfWords.has(head)) {
      const type = this.enclosingType(ref);
      if (type && segs.length === 2 && isIdentifier(target)) {
        const m = this.receiverMember(type, target, false);
        if (m) {
          this.emitFound(ref, 'CALLS', this.found(m, 'receiver'));
          if (m.abstract) this.overrides(ref, m);
          return;
        }
        // Every base is known (in the project or outside it): the method is inherited from outside.
        if (this.basesKnown(type)) return;
      }
      if (type && segs.length >= 3 && isIdentifier(target) && segs.slice(1, -1).every(isMiddle)) {
        const m = this.declaredMember(ref, type, segs.slice(1, -1), target);
        if (m) return this.emitFound(ref, 'CALLS', m);
      }
      if (type && segs.length === 3 && isIdentifier(segs[1]) && isIdentifier(target)) {
        const cls = this.fieldClass(type, segs[1]);
        const m = cls ? this.receiverMember({ qn: cls.qualifiedName, name: cls.name, file: cls.file, sym: cls }, target, false) : null;
        if (m) return this.emit(ref, 'CALLS', m.id, m.file, 'receiver', FIELD_RECEIVER_CONFIDENCE);
      }
      return this.guess(ref, target);
    }
    if (this.rules.superWords.has(head) || this.rules.superWords.has(raw[0])) {
      const type = this.enclosingType(ref);
      if (type && segs.length === 2 && isIdentifier(target)) {
        for (const base of this.basesOf(type)) {
          const m = this.receiverMember(base, target, false);
          if (m) return this.emitFound(ref, 'CALLS', this.found(m, 'receiver'));
        }
        // `super().__init__()` on a base outside the project: no project method to guess.
        if (this.basesKnown(type)) return;
      }
      return this.guess(ref, target);
    }

    const constructed = constructedType(raw[0]);
    if (constructed !== null) {
      const type = this.typeByPath(ref, constructed.split('.'));
      if (type) {
        const r = this.walk({ t: 'symbol', sym: type.sym }, segs.slice(1), CALL_KINDS);
        if (r && r !== 'guess') this.emitFound(ref, 'CALLS', { sym: r.sym, provenance: type.provenance, confidence: Math.min(type.confidence, r.confidence) });
        else if (r === 'guess') this.declaredOrGuess(ref, type.sym, segs.slice(1, -1), target);
        return;
      }
      return this.guess(ref, target);
    }

    if (isIdentifier(head)) {
      // A parameter shadows a module or type of the same name (`fn report(cart: &Cart)` beside `mod cart`).
      if (!callee.path && isIdentifier(target) && segs.slice(1, -1).every(isMiddle)) {
        const param = this.declaredParamOf(ref, head);
        const m = param ? this.declaredMember(ref, param, segs.slice(1, -1), target) : null;
        if (m) return this.emitFound(ref, 'CALLS', m);
      }
      const h = this.head(ref, segs);
      if (h) {
        if (h.entity.t === 'external') return;
        const rest = segs.slice(h.used);
        const r = this.walk(h.entity, rest, CALL_KINDS);
        if (r === 'guess' && h.entity.t === 'symbol' && h.used === 1) return this.declaredOrGuess(ref, h.entity.sym, rest.slice(0, -1), target);
        if (r === 'guess') return this.guess(ref, target);
        if (r) this.emitFound(ref, 'CALLS', this.throughHead(h, r));
        return;
      }
      // A parameter or field whose declaration states its type: a member of that type.
      if (isIdentifier(target) && segs.slice(1, -1).every(isMiddle)) {
        const declared = this.declaredTypeOf(ref, head);
        const m = declared ? this.declaredMember(ref, declared, segs.slice(1, -1), target) : null;
        if (m) return this.emitFound(ref, 'CALLS', m);
      }
      // An unbound head: a path (`std::fs::read`), a global or an outside type needs no guess.
      if (callee.path || this.rules.globals.has(head) || isBuiltinHead(this.rules.family, head)) return;
      if (this.rules.typeHeads && /^\p{Lu}/u.test(head)) return;
      if (segs.length === 2 && this.anonymousMember(ref, target)) return;
    }
    this.guess(ref, target);
  }

  private bareCall(ref: RefInput, name: string): void {
    if (!isIdentifier(name)) return;
    if (this.rules.selfWords.has(name)) {
      // `cls(...)` in a Python classmethod, `Self(...)` in Rust: the enclosing type is constructed.
      const type = this.enclosingType(ref);
      if (type?.sym) this.emitFound(ref, 'CALLS', this.found(type.sym, 'receiver'));
      return;
    }
    const type = this.rules.implicitReceiver ? this.enclosingType(ref) : null;
    for (let t = type; t; t = this.outerType(t)) {
      const m = this.receiverMember(t, name, true);
      if (m) return this.emitFound(ref, 'CALLS', this.found(m, 'receiver'));
    }
    const local = this.sameFile(ref, name, CALL_KINDS);
    // A constant bound by an import (`const f = require('./f')`) is the imported value, not a same-file definition.
    const bound = local !== null && VALUE_KINDS.has(local.kind) && local.parent === null && this.scope.bindings.has(name);
    if (local && !bound) return this.emitFound(ref, 'CALLS', this.found(local, 'same_file'));
    const scoped = this.inScope(name, CALL_KINDS);
    if (scoped === 'external') return;
    if (scoped) return this.emitFound(ref, 'CALLS', scoped);
    if (this.anonymousMember(ref, name)) return;
    // A bare call in a type with bases may reach an inherited method the file does not show.
    if (type && this.inherits.has(type.sym?.id ?? '')) this.guess(ref, name);
  }

  /** A name bound by an import, a wildcard import or the package, as a symbol of `want` kinds. */
  private inScope(name: string, want: ReadonlySet<string>): Found | 'external' | null {
    const binding = this.scope.bindings.get(name);
    if (binding) {
      const r = this.bound(binding);
      if (r?.entity.t === 'external') return 'external';
      if (r?.entity.t === 'symbol' && want.has(r.entity.sym.kind)) return this.found(r.entity.sym, 'import', r.reexport);
    }
    for (const w of this.scope.wildcards) {
      const r = this.member(w, name, want, true);
      if (r?.entity.t === 'symbol') return this.found(r.entity.sym, 'import', r.reexport);
    }
    const pkg: SymbolInput[] = [];
    for (const f of this.scope.packageFiles) for (const s of this.lookup.inFile(f, name)) if (want.has(s.kind)) pkg.push(s);
    if (pkg.length > 0) return this.found(pkg.sort(byId)[0], 'package');
    return null;
  }

  /** JavaScript `const m = require('./m')`: a name defined at the top of exactly one such module. */
  private anonymousMember(ref: RefInput, name: string): boolean {
    if (this.scope.anonymous.length === 0) return false;
    const hits: SymbolInput[] = [];
    for (const m of this.scope.anonymous) {
      for (const f of m.files) for (const s of this.lookup.inFile(f, name)) if (CALL_KINDS.has(s.kind)) hits.push(s);
    }
    if (hits.length !== 1) return false;
    this.emit(ref, 'CALLS', hits[0].id, hits[0].file, 'unique_name', CONFIDENCE.unique_name);
    return true;
  }

  /**
   * A method by name when the receiver's type is unknown: the visible files
   * first, then the project. The calling method itself is never a candidate:
   * `items.add()` inside `add` delegates to another object (recursion goes
   * through `this`/`self` or a bare call, resolved before any guess).
   */
  private guess(ref: RefInput, target: string): void {
    if (!isIdentifier(target)) return;
    const self = ref.enclosing;
    // `x.push()` with `x` of unknown type is far more often the built-in method than a project one.
    const cap = isBuiltinMethodName(this.rules.family, target) ? BUILTIN_NAME_CONFIDENCE : 1;
    if (this.rules.receiverByType && parseCallee(ref.name).segs.length === 2) {
      // Go: `s.Put()` in a method of Store is most likely Store.Put through the receiver variable.
      const type = this.enclosingType(ref);
      const m = type ? this.typeMembers(type, target).find((s) => s.kind === 'Method' && s.id !== self) : undefined;
      if (m) return this.emitFound(ref, 'CALLS', this.found(m, 'receiver'));
    }
    const family = this.rules.family;
    const key = `${family}\0${target}`;
    let pool = this.shared.pools.get(key);
    if (!pool) {
      const list = this.lookup.named(target).filter((s) => s.kind === 'Method' && this.familyOf(s.language) === family);
      pool = { list, ids: new Set(list.map((s) => s.id)) };
      this.shared.pools.set(key, pool);
    }
    const all = pool.list;
    if (all.length === 0) return;
    const named = this.rules.receiverNames ? this.byReceiverName(ref, all) : null;
    if (named) return this.emit(ref, 'CALLS', named.id, named.file, 'receiver', RECEIVER_NAME_CONFIDENCE);
    let visible: SymbolInput[];
    if (!this.rules.crossFile) visible = this.lookup.namedIn(target, this.file).filter((s) => s.kind === 'Method');
    else if (all.length <= this.visible.size) visible = all.filter((s) => this.visible.has(s.file));
    else {
      visible = [];
      for (const f of this.visible) for (const s of this.lookup.namedIn(target, f)) if (s.kind === 'Method') visible.push(s);
      visible.sort(byId);
    }
    visible = visible.filter((s) => s.id !== self);
    if (visible.length > 0 || !this.rules.crossFile) return this.emitGuess(ref, 'CALLS', visible, cap);
    // Project-wide: k candidates; the closest few are computed once per directory and name.
    const k = all.length - (self !== null && pool.ids.has(self) ? 1 : 0);
    if (k <= 0) return;
    const near = `${dirname(this.file)}\0${key}`;
    let top = this.shared.closest.get(near);
    if (!top) {
      top = closest(this.file, all, AMBIGUOUS_MAX_EDGES + 1);
      this.shared.closest.set(near, top);
    }
    const picked = top.filter((s) => s.id !== self).slice(0, k === 1 ? 1 : AMBIGUOUS_MAX_EDGES);
    if (k === 1) return this.emitGuess(ref, 'CALLS', picked, cap);
    const confidence = Math.min(cap, ambiguousConfidence(k));
    for (const c of picked) this.emit(ref, 'CALLS', c.id, c.file, 'ambiguous', confidence);
  }

  /**
   * The one candidate whose owning type's name ends with the receiver variable's name, ignoring
   * case and underscores (`preferences.contains()` → CordovaPreferences.contains); null when
   * none or several do, or the name is too short to say anything (`s`, `f`).
   */
  private byReceiverName(ref: RefInput, pool: readonly SymbolInput[]): SymbolInput | null {
    const { segs } = parseCallee(ref.name);
    if (segs.length !== 2 || !isIdentifier(segs[0])) return null;
    const want = normName(segs[0]);
    if (want.length < 3) return null;
    const hits = pool.filter((s) => s.id !== ref.enclosing && s.parent !== null && normName(lastSegment(s.parent)).endsWith(want) && !s.abstract);
    return hits.length === 1 ? hits[0] : null;
  }

  /**
   * The type a name is declared with where the reference sits: a parameter of an enclosing
   * function or method, else a field of an enclosing type (resolve/declared.ts).
   */
  private declaredTypeOf(ref: RefInput, name: string): TypeRef | null {
    const syntax = this.rules.declarations;
    if (!syntax) return null;
    for (let s = this.lookup.byId(ref.enclosing); s; ) {
      let written: string | null = null;
      if ((s.kind === 'Function' || s.kind === 'Method') && s.signature) written = declaredType(syntax, s.kind, s.signature, name);
      else if (TYPE_KINDS.has(s.kind)) {
        const field = this.fieldOf({ qn: s.qualifiedName, name: s.name, file: s.file, sym: s }, name);
        if (field?.signature) written = declaredType(syntax, field.kind, field.signature, name);
      }
      if (written) return this.typeNamed(ref, written);
      if (s.parent === null) return null;
      const parents = this.lookup.inFile(this.file, s.parent);
      s = parents.find((x) => TYPE_KINDS.has(x.kind)) ?? parents[0] ?? null;
    }
    return null;
  }

  /** The type a parameter of the innermost enclosing function or method is declared with, or null. */
  private declaredParamOf(ref: RefInput, name: string): TypeRef | null {
    const syntax = this.rules.declarations;
    const fn = syntax ? this.lookup.byId(ref.enclosing) : null;
    if (!syntax || !fn || (fn.kind !== 'Function' && fn.kind !== 'Method') || !fn.signature) return null;
    const written = declaredType(syntax, fn.kind, fn.signature, name);
    return written ? this.typeNamed(ref, written) : null;
  }

  /** `Foo.getInstance().m()`, `new Foo().withX().m()`: through declared result types when they lead somewhere, else a name guess. */
  private declaredOrGuess(ref: RefInput, sym: SymbolInput, middle: readonly string[], target: string): void {
    const m = TYPE_KINDS.has(sym.kind) && isIdentifier(target) && middle.every(isMiddle) ? this.declaredMember(ref, { qn: sym.qualifiedName, name: sym.name, file: sym.file, sym }, middle, target) : null;
    if (m) return this.emitFound(ref, 'CALLS', m);
    this.guess(ref, target);
  }

  /** A field of a type or, for a type of this file, of its bases. */
  private fieldOf(type: TypeRef, name: string, depth = 0): SymbolInput | null {
    const own = this.typeMembers(type, name).find((f) => f.kind === 'Field');
    if (own || depth >= 4) return own ?? null;
    for (const base of this.basesOf(type)) {
      const f = this.fieldOf(base, name, depth + 1);
      if (f) return f;
    }
    return null;
  }

  /** A project type named by a declaration written in this file, or null. */
  private typeNamed(ref: RefInput, written: string): TypeRef | null {
    const t = this.typeByPath(ref, written.split('.'));
    return t && TYPE_KINDS.has(t.sym.kind) ? { qn: t.sym.qualifiedName, name: t.sym.name, file: t.sym.file, sym: t.sym } : null;
  }

  /**
   * `x.a.b.m()` / `x.getA().m()` from the declared type of `x`: each middle segment a field, or a
   * method call, whose declaration (in a file this one sees) states a project type, then the
   * method of the last type.
   */
  private declaredMember(ref: RefInput, start: TypeRef, fields: readonly string[], target: string): Found | null {
    const syntax = this.rules.declarations;
    if (!syntax) return null;
    let type: TypeRef | null = start;
    for (const seg of fields) {
      // `getManager()`: a method of the type, through the type it declares it returns.
      const call = /^([\p{L}_$][\p{L}\p{N}_$]*)\(.*\)$/su.exec(seg);
      const member: SymbolInput | null = call ? this.receiverMember(type, call[1], false) : this.fieldOf(type, seg);
      if (!member?.signature || !this.visible.has(member.file)) return null;
      const written: string | null = call ? returnType(syntax, member.signature, call[1]) : declaredType(syntax, member.kind, member.signature, seg);
      type = written ? this.typeNamed(ref, written) : null;
      if (!type) return null;
    }
    const m = this.receiverMember(type, target, false);
    return m ? this.found(m, 'receiver') : null;
  }

  /**
   * `this.m()` on an abstract method: the call runs an override. Its overrides in the subclasses
   * this file defines (directly or through other classes of the file) get an edge each.
   */
  private overrides(ref: RefInput, abstract: SymbolInput): void {
    const owner = abstract.parent === null ? undefined : this.lookup.inFile(abstract.file, abstract.parent).find((t) => TYPE_KINDS.has(t.kind));
    if (!owner || owner.file !== this.file) return;
    for (const id of this.inherits.keys()) {
      const sub = this.lookup.byId(id);
      if (!sub || sub.id === owner.id || !TYPE_KINDS.has(sub.kind)) continue;
      const type: TypeRef = { qn: sub.qualifiedName, name: sub.name, file: sub.file, sym: sub };
      if (!this.derivesFrom(type, owner.id)) continue;
      const m = this.typeMembers(type, abstract.name).find((x) => x.kind === 'Method' && !x.abstract);
      if (m) this.emit(ref, 'CALLS', m.id, m.file, 'receiver', OVERRIDE_CONFIDENCE);
    }
  }

  /** Whether a type of this file has `base` among its bases, transitively. */
  private derivesFrom(type: TypeRef, base: string, depth = 0): boolean {
    if (depth > 8) return false;
    return this.basesOf(type).some((b) => b.sym?.id === base || this.derivesFrom(b, base, depth + 1));
  }

  /**
   * The file's calls inside a definition whose callee is a path of plain identifiers
   * (`self.db.connect`), with the last one's `normName`, in the file's order: what `fieldClass`
   * reads, worked out once per file instead of once per field it looks up.
   */
  private plainCalls(): readonly PlainCall[] {
    if (this.plainCallList) return this.plainCallList;
    const out: PlainCall[] = [];
    for (const r of this.fileRefs) {
      if (r.kind !== 'call' || r.enclosing === null) continue;
      const { segs, raw } = parseCallee(r.name);
      if (segs.length === 0 || !segs.every(isIdentifier) || raw.some((x) => x.includes('('))) continue;
      out.push({ ref: r as PlainCall['ref'], segs, name: normName(segs[segs.length - 1]) });
    }
    this.plainCallList = out;
    return out;
  }

  /**
   * The class a field of `type` holds, read from the constructor calls inside the type: the one
   * project class constructed there whose name is the field's name or ends with it, ignoring
   * case and underscores (`self.store = Store()`, `private store = new MemoryStore()`).
   */
  private fieldClass(type: TypeRef, field: string): SymbolInput | null {
    if (!type.sym || type.sym.file !== this.file) return null;
    const key = `${type.sym.id}\0${field}`;
    if (this.fieldClasses.has(key)) return this.fieldClasses.get(key) ?? null;
    const want = normName(field);
    const inside = `${this.file}::${type.qn}.`;
    const found = new Map<string, SymbolInput>();
    if (want.length >= 2) {
      for (const { ref: r, segs, name } of this.plainCalls()) {
        if (r.enclosing !== type.sym.id && !r.enclosing.startsWith(inside)) continue;
        if (name !== want && !name.endsWith(want)) continue;
        const t = this.typeByPath(r, segs);
        if (t && (t.sym.kind === 'Class' || t.sym.kind === 'Struct')) found.set(t.sym.id, t.sym);
      }
    }
    const cls = found.size === 1 ? [...found.values()][0] : null;
    this.fieldClasses.set(key, cls);
    return cls;
  }

  // ---- inheritance ----------------------------------------------------------

  private inherit(ref: RefInput): void {
    const found = this.baseOf(ref);
    if (!found) return;
    const src = this.lookup.byId(ref.enclosing);
    const contract = found.sym.kind === 'Interface' || found.sym.kind === 'Trait';
    const srcContract = src !== null && (src.kind === 'Interface' || src.kind === 'Trait');
    this.emitFound(ref, !this.rules.embedding && contract && !srcContract ? 'IMPLEMENTS' : 'INHERITS', found);
  }

  /** The base type an inherit ref names, or null. */
  private baseOf(ref: RefInput): Found | null {
    const { segs } = parseCallee(ref.name);
    if (segs.length === 0 || !segs.every(isIdentifier)) return null;
    const found = this.typeByPath(ref, segs);
    if (!found || found.sym.id === ref.enclosing) return null;
    return found;
  }

  /** A type named by a (possibly qualified) path, as a base or a constructed type. */
  private typeByPath(ref: RefInput, segs: readonly string[]): Found | null {
    if (segs.length === 1) {
      const local = this.sameFile(ref, segs[0], BASE_KINDS, ref.enclosing);
      if (local) return this.found(local, 'same_file');
      const scoped = this.inScope(segs[0], BASE_KINDS);
      return scoped === 'external' ? null : scoped;
    }
    const h = this.head(ref, segs);
    if (!h || h.entity.t === 'external') return null;
    const r = this.walk(h.entity, segs.slice(h.used), BASE_KINDS);
    if (!r || r === 'guess') return null;
    return this.throughHead(h, r);
  }

  /** A qualified reference takes its head's provenance, and the lower confidence of the two steps. */
  private throughHead(h: { provenance: Provenance; reexport: boolean }, r: Found): Found {
    const headConfidence = h.reexport && h.provenance === 'import' ? REEXPORT_CONFIDENCE : this.found(r.sym, h.provenance).confidence;
    return { sym: r.sym, provenance: h.provenance, confidence: Math.min(r.confidence, headConfidence) };
  }

  // ---- heads and walks ------------------------------------------------------

  /** What the first segment(s) of a qualified name denote. */
  private head(ref: RefInput, segs: readonly string[]): { entity: Entity; used: number; provenance: Provenance; reexport: boolean } | null {
    const own = this.resolver?.head?.(this.file, ref, segs, this.scope, this.lookup);
    if (own) return { ...own, reexport: false };
    const name = segs[0];
    const local = this.lookup.namedIn(name, this.file).filter((s) => TYPE_KINDS.has(s.kind) || s.kind === 'Module');
    if (local.length > 0) {
      // Several same-named types (nested, or one class seen twice): the first that has the next member.
      const next = segs[1];
      const ordered = [...local].sort((a, b) => (a.parent === null ? 0 : 1) - (b.parent === null ? 0 : 1) || byId(a, b));
      const s = ordered.find((t) => this.member(this.asEntity(t), next, 'any', segs.length === 2) !== null) ?? preferTop(local);
      return { entity: this.asEntity(s), used: 1, provenance: 'same_file', reexport: false };
    }
    const binding = this.scope.bindings.get(name);
    if (binding) {
      const r = this.bound(binding);
      if (r) return { entity: r.entity, used: 1, provenance: 'import', reexport: r.reexport };
    }
    for (const w of this.scope.wildcards) {
      const r = this.member(w, name, 'any', false);
      if (r && r.entity.t !== 'external') return { entity: r.entity, used: 1, provenance: 'import', reexport: r.reexport };
    }
    for (const f of this.scope.packageFiles) {
      const s = this.lookup.inFile(f, name).find((x) => TYPE_KINDS.has(x.kind) || x.kind === 'Module');
      if (s) return { entity: this.asEntity(s), used: 1, provenance: 'package', reexport: false };
    }
    return null;
  }

  /** A module symbol (TypeScript namespace, Rust inline module) is walked like a module. */
  private asEntity(s: SymbolInput): Entity {
    return s.kind === 'Module' ? { t: 'module', files: [s.file], prefix: s.qualifiedName } : { t: 'symbol', sym: s };
  }

  private bound(b: Binding): Reached | null {
    if (b.t === 'entity') return { entity: b.entity, reexport: false };
    let cur: Entity = b.module;
    let reexport = false;
    for (let i = 0; i < b.path.length; i++) {
      const r = this.member(cur, b.path[i], 'any', i === b.path.length - 1);
      if (!r) return null;
      cur = r.entity;
      reexport ||= r.reexport;
    }
    return { entity: cur, reexport };
  }

  /**
   * Follows `rest` from an entity. Null: nothing to link (a known module lacks
   * the name); 'guess': the receiver became unknown (a field, a call result).
   */
  private walk(start: Entity, rest: readonly string[], want: ReadonlySet<string>): Found | 'guess' | null {
    let cur = start;
    let reexport = false;
    for (let i = 0; i < rest.length; i++) {
      const seg = rest[i];
      const last = i === rest.length - 1;
      // A call result or an index: the receiver's type is unknown from here on.
      if (!isIdentifier(seg)) return 'guess';
      const r = this.member(cur, seg, last ? want : 'any', last);
      if (!r) {
        if (cur.t !== 'symbol') return null;
        if (last && TYPE_KINDS.has(cur.sym.kind)) {
          // `Type.m()` / `Type::m()`: a constructor, an inherited member, else something the
          // project does not define (a derived or trait-provided function): no guess.
          if (this.rules.constructors.has(seg)) return this.found(cur.sym, 'import');
          const type = { qn: cur.sym.qualifiedName, name: cur.sym.name, file: cur.sym.file, sym: cur.sym };
          for (const base of this.basesOf(type)) {
            const m = this.receiverMember(base, seg, false);
            if (m) return this.found(m, 'import');
          }
          return null;
        }
        // A field or a value: its type is unknown.
        return 'guess';
      }
      if (r.entity.t === 'external') return null;
      cur = r.entity;
      reexport ||= r.reexport;
    }
    if (cur.t !== 'symbol' || !want.has(cur.sym.kind)) return null;
    return this.found(cur.sym, 'import', reexport);
  }

  /** A member of a module (symbol, then nested module, then re-export) or of a type. */
  private member(cur: Entity, name: string, want: Want, last: boolean): Reached | null {
    if (cur.t === 'external') return { entity: cur, reexport: false };
    if (cur.t === 'symbol') {
      if (!TYPE_KINDS.has(cur.sym.kind)) return null;
      const s = choose(this.typeMembers({ qn: cur.sym.qualifiedName, name: cur.sym.name, file: cur.sym.file, sym: cur.sym }, name), want);
      return s ? { entity: { t: 'symbol', sym: s }, reexport: false } : null;
    }
    // A namespace an index file re-exports (found by file name) comes after everything else.
    const child = cur.child?.(name, this.lookup) ?? null;
    if (!last && child && !child.viaReexport) return { entity: child, reexport: false };
    const qn = cur.prefix === '' ? name : `${cur.prefix}.${name}`;
    const syms: SymbolInput[] = [];
    for (const f of cur.files) syms.push(...this.lookup.inFile(f, qn));
    const s = choose(syms, want);
    if (s) return { entity: this.asEntity(s), reexport: false };
    if (last && child && !child.viaReexport) return { entity: child, reexport: false };
    if (cur.defaultExport && cur.prefix === '') {
      const d = this.defaultExport(cur, name, want);
      if (d) return { entity: { t: 'symbol', sym: d }, reexport: false };
    }
    if (cur.reexportDir !== undefined) {
      const dir = cur.reexportDir;
      const hits = this.lookup
        .named(name)
        .filter((x) => x.parent === null && x.isExported && within(x.file, dir) && this.familyOf(x.language) === this.rules.family && (want === 'any' || want.has(x.kind)));
      if (hits.length === 1) return { entity: this.asEntity(hits[0]), reexport: true };
    }
    return child ? { entity: child, reexport: true } : null;
  }

  /** `import Foo from './foo'`: the same name in another case, else the module's only exported function or class. */
  private defaultExport(m: ModuleEntity, name: string, want: Want): SymbolInput | null {
    const lower = name.toLowerCase();
    const top: SymbolInput[] = [];
    for (const f of m.files) top.push(...this.lookup.topLevelOf(f));
    const ok = (s: SymbolInput) => want === 'any' || want.has(s.kind);
    const same = top.filter((s) => s.name.toLowerCase() === lower && ok(s));
    if (same.length > 0) return same[0];
    const main = top.filter((s) => s.isExported && (s.kind === 'Function' || s.kind === 'Class') && ok(s));
    return main.length === 1 ? main[0] : null;
  }

  // ---- types and receivers --------------------------------------------------

  /** Members of a type: in its file, else (Go, Rust) methods of the same unit declared elsewhere. */
  private typeMembers(type: TypeRef, name: string): readonly SymbolInput[] {
    const own = this.lookup.inFile(type.file, `${type.qn}.${name}`);
    const resolver = this.resolver;
    if (own.length > 0 || !resolver?.sameUnit) return own;
    return this.lookup
      .named(name)
      .filter((s) => s.parent !== null && (s.parent === type.qn || lastSegment(s.parent) === type.name) && s.file !== type.file && resolver.sameUnit!(s.file, type.file));
  }

  /** A method of the type or of its bases (followed through this file's inherit refs). */
  private receiverMember(type: TypeRef, name: string, implicit: boolean, depth = 0): SymbolInput | null {
    const own = this.typeMembers(type, name).find((s) => CALLABLE_MEMBER.has(s.kind) && !(implicit && s.name === type.name));
    if (own) return own;
    if (depth >= 4) return null;
    for (const base of this.basesOf(type)) {
      const m = this.receiverMember(base, name, implicit, depth + 1);
      if (m) return m;
    }
    return null;
  }

  /**
   * Every base of a type of this file resolves, to a project type or to a name bound outside
   * the project (`class E(Exception)`, `import { Base } from 'lib'`). False for a type whose
   * bases are unknown (defined elsewhere, or a base's own bases unseen): a guess may still hit.
   */
  private basesKnown(type: TypeRef, depth = 0): boolean {
    if (!type.sym || type.sym.file !== this.file || depth > 4) return false;
    for (const ref of this.inherits.get(type.sym.id) ?? []) {
      const { segs } = parseCallee(ref.name);
      if (segs.length === 0) return false;
      const b = this.typeByPath(ref, segs);
      if (b) {
        // A project base in another file: its own bases are not known here.
        if (b.sym.file !== this.file || b.sym.id === type.sym.id || !this.basesKnown({ qn: b.sym.qualifiedName, name: b.sym.name, file: b.sym.file, sym: b.sym }, depth + 1)) return false;
        continue;
      }
      if (!this.externalName(segs[0])) return false;
    }
    return true;
  }

  /** A name bound by an import to something outside the project, or a built-in type. */
  private externalName(name: string): boolean {
    if (isBuiltinHead(this.rules.family, name) || this.rules.globals.has(name) || PYTHON_BUILTIN_BASES.has(name)) return true;
    const b = this.scope.bindings.get(name);
    return b !== undefined && this.bound(b)?.entity.t === 'external';
  }

  /** Base types of a type defined in this file (only this file's inherit refs are known). */
  private basesOf(type: TypeRef): TypeRef[] {
    if (!type.sym || type.sym.file !== this.file) return [];
    const id = type.sym.id;
    let out = this.bases.get(id);
    if (out) return out;
    out = [];
    this.bases.set(id, out);
    for (const ref of this.inherits.get(id) ?? []) {
      const b = this.baseOf(ref);
      if (b && TYPE_KINDS.has(b.sym.kind)) out.push({ qn: b.sym.qualifiedName, name: b.sym.name, file: b.sym.file, sym: b.sym });
    }
    return out;
  }

  /**
   * The type around a reference: its enclosing symbol's nearest type ancestor;
   * a method's owner when the owner is outside the file (Go, Rust) or a module
   * (Ruby `def self.x` in a `module`).
   */
  private enclosingType(ref: RefInput): TypeRef | null {
    let s = this.lookup.byId(ref.enclosing);
    while (s) {
      if (TYPE_KINDS.has(s.kind)) return { qn: s.qualifiedName, name: s.name, file: s.file, sym: s };
      if (s.parent === null) return null;
      const parents = this.lookup.inFile(this.file, s.parent);
      const p = parents.find((x) => TYPE_KINDS.has(x.kind)) ?? parents[0];
      if (s.kind === 'Method' && (!p || p.kind === 'Module')) return { qn: s.parent, name: lastSegment(s.parent), file: this.file, sym: p ?? null };
      if (!p) return null;
      s = p;
    }
    return null;
  }

  /** The type lexically around a nested type (Java inner classes see the outer class's methods). */
  private outerType(type: TypeRef): TypeRef | null {
    const s = type.sym;
    if (!s || s.parent === null) return null;
    const p = this.lookup.inFile(this.file, s.parent).find((x) => TYPE_KINDS.has(x.kind));
    return p ? { qn: p.qualifiedName, name: p.name, file: p.file, sym: p } : null;
  }

  /** A definition in this file: outside types, the closest scope to the reference first. */
  private sameFile(ref: RefInput, name: string, want: ReadonlySet<string>, exclude: string | null = null): SymbolInput | null {
    const enclosing = this.lookup.byId(ref.enclosing)?.qualifiedName ?? '';
    const here = this.lookup.namedIn(name, this.file).filter((s) => want.has(s.kind) && s.id !== exclude && !this.isMember(s) && this.inScopeOf(s, enclosing));
    if (here.length <= 1) return here[0] ?? null;
    let best = here[0];
    let bestDepth = -1;
    for (const s of here) {
      const scope = s.parent ?? '';
      const depth = scope === '' ? 0 : enclosing === scope || enclosing.startsWith(`${scope}.`) ? scope.split('.').length : -1;
      if (depth > bestDepth) {
        best = s;
        bestDepth = depth;
      }
    }
    return best;
  }

  /** A method or nested type (reached through its type, not by a bare name). */
  private isMember(s: SymbolInput): boolean {
    if (s.parent === null) return false;
    if (s.kind === 'Method') return true;
    const parent = this.lookup.inFile(s.file, s.parent);
    return parent.length > 0 && parent.every((p) => p.kind !== 'Module') && !this.localTo(s);
  }

  /** A definition inside a function (a nested function or constant), not inside a type. */
  private localTo(s: SymbolInput): boolean {
    if (s.parent === null) return false;
    const parent = this.lookup.inFile(s.file, s.parent);
    return parent.length > 0 && parent.every((p) => !TYPE_KINDS.has(p.kind) && p.kind !== 'Module');
  }

  /** A definition local to a function is seen by bare name only from inside that function. */
  private inScopeOf(s: SymbolInput, enclosing: string): boolean {
    if (!this.localTo(s)) return true;
    const scope = s.parent ?? '';
    return enclosing === scope || enclosing.startsWith(`${scope}.`);
  }
}

/** A middle segment a declared type can be followed through: a field name or a method call. */
function isMiddle(seg: string): boolean {
  return isIdentifier(seg) || /^[\p{L}_$][\p{L}\p{N}_$]*\(.*\)$/su.test(seg);
}

/** Bases that are always outside a project (Python built-in exceptions and ABCs by their usual names). */
const PYTHON_BUILTIN_BASES: ReadonlySet<string> = new Set(['Exception', 'BaseException', 'ValueError', 'TypeError', 'KeyError', 'RuntimeError', 'Error']);

function byId(a: SymbolInput, b: SymbolInput): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function preferTop(syms: readonly SymbolInput[]): SymbolInput {
  return syms.find((s) => s.parent === null) ?? syms[0];
}

/** The `n` candidates sharing the most directories with `file`, ties by id: one pass, O(k·n). */
export function closest(file: string, pool: readonly SymbolInput[], n: number): SymbolInput[] {
  const dir = `${dirname(file)}/`;
  const out: { s: SymbolInput; d: number }[] = [];
  for (const s of pool) {
    const d = sharedDirs(dir, s.file);
    let i = out.length;
    while (i > 0 && (out[i - 1].d < d || (out[i - 1].d === d && byId(out[i - 1].s, s) > 0))) i--;
    if (i >= n) continue;
    out.splice(i, 0, { s, d });
    if (out.length > n) out.pop();
  }
  return out.map((c) => c.s);
}

/** Directories `dir/` (with its trailing slash) shares with the folder of `file`. */
function sharedDirs(dir: string, file: string): number {
  let depth = 0;
  const n = Math.min(dir.length, file.length);
  for (let i = 0; i < n; i++) {
    if (dir.charCodeAt(i) !== file.charCodeAt(i)) break;
    if (dir.charCodeAt(i) === 47) depth++;
  }
  return depth;
}
