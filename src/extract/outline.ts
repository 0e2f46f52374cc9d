/**
 * Plain definitions → the file's symbol outline, generically for every language:
 * parents come from range containment (one sort and a stack), kinds are adjusted
 * by their container, local definitions are dropped, keys are made unique.
 */
import { CALLABLE_KINDS, MEMBER_ONLY_KINDS, SCOPED_KINDS, TOP_LEVEL_ONLY_KINDS, TYPE_KINDS } from './captures';
import { headEnd } from './collect';
import type { RawDefinition, RawReference, Span } from './collect';
import { KeyAllocator } from './keys';
import { cleanDocstring, lastIdentifier, signatureOf } from './text';
import type { ExtractedReference, ExtractedSymbol, SymbolKind } from './types';
import type { ByteMap } from './utf8';

export interface OutlineRules {
  /** The whole file is a test file (by path). */
  testFile: boolean;
  /** Names of test definitions (e.g. Go `Test*`, Python `test_*`). */
  testNames?: RegExp;
  /** Names exported without a marker (e.g. Go capitalised names). */
  exportedNames?: RegExp;
  /** Confidence of a clean extraction. */
  confidence: number;
  hadErrors: boolean;
  /**
   * Functions and classes nested in a function, and the members of an object that
   * initializes a module-level variable, are symbols too (qualified by their container).
   */
  nestedDefinitions?: boolean;
  /**
   * Kinds that stay symbols when defined inside a function or method body, qualified by it
   * (Python's closures, Rust's items inside a `fn`).
   */
  nestedInFunctions?: readonly SymbolKind[];
  /**
   * Body-less signatures of a function or method (TypeScript overloads) and the definition right
   * after them are one symbol, from the first signature to the end of the definition.
   */
  overloadSignatures?: boolean;
  /**
   * Functions and methods without a body are declarations (`declaration: true`): prototypes,
   * members declared in a class and defined out of line. Only where a declaration and its
   * definition live apart (C, C++): not TypeScript, whose declaration files hold nothing else,
   * nor Ruby, whose empty `def` has no body node.
   */
  declarations?: boolean;
  /** Anonymous local scopes: variables, constants and fields defined inside one are not symbols. */
  scopes?: readonly Span[];
  /** Parameter lists of function types: definitions inside one (an inline parameter type's fields) are not symbols. */
  parameters?: readonly Span[];
  /**
   * Types and type aliases defined inside a function are symbols (C++ local classes, `using`), and
   * so are the fields of an anonymous struct inside a function or a variable's declaration.
   */
  localTypes?: boolean;
}

/** Definitions inside these are local to a body or an initializer, not symbols. */
const LOCAL_SCOPE_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>(['Function', 'Method', 'Variable', 'Constant']);

/** With `nestedDefinitions`: what stays a symbol inside a function, and inside an initializer. */
const NESTED_IN_CALLABLE: ReadonlySet<SymbolKind> = new Set<SymbolKind>(['Function', 'Method', 'Class']);
const NESTED_IN_INITIALIZER: ReadonlySet<SymbolKind> = new Set<SymbolKind>(['Function', 'Method', 'Class', 'Field']);

/** With `localTypes`: what stays a symbol inside a function. */
const LOCAL_TYPES: ReadonlySet<SymbolKind> = new Set<SymbolKind>(['Class', 'Struct', 'Interface', 'Enum', 'Type']);

const BLANK_LINE = /\n[ \t]*\r?\n/;

interface Frame {
  def: RawDefinition;
  /** Null when the definition is local (dropped): so is everything inside it. */
  symbol: ExtractedSymbol | null;
}

function contains(outer: RawDefinition, inner: RawDefinition): boolean {
  const same = outer.start === inner.start && outer.end === inner.end;
  return !same && outer.start <= inner.start && inner.end <= outer.end;
}

/** A wrapper captured whole and the definition right under it (or one level down) with the same name. */
function isWrapped(frame: Frame | undefined, def: RawDefinition): boolean {
  if (!frame?.symbol || frame.def.name !== def.name) return false;
  const parent = def.node.parent;
  if (parent?.id === frame.def.node.id && frame.def.kind === def.kind) return true;
  // A function assigned to a same-named member or variable (parenthesized or not); never a type's constructor.
  if (TYPE_KINDS.has(frame.def.kind) || !CALLABLE_KINDS.has(def.kind)) return false;
  const id = frame.def.node.id;
  return parent?.id === id || parent?.parent?.id === id || parent?.parent?.parent?.id === id;
}

const BETWEEN_OVERLOADS = /^(?:[\s;,]|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*$/;

/** `def` follows the body-less signature `previous` of the same function, with only comments and separators between. */
function isOverload(previous: ExtractedSymbol, previousDef: RawDefinition, def: RawDefinition, kind: SymbolKind, qualifiedName: string, content: string): boolean {
  if (!CALLABLE_KINDS.has(kind) || previous.kind !== kind || previous.qualified_name !== qualifiedName) return false;
  if (previousDef.end > def.start || previousDef.node.childForFieldName('body') !== null) return false;
  return BETWEEN_OVERLOADS.test(content.slice(previousDef.end, def.start));
}

/** The definition has a body: its head ends before the node does, or it has a value (a function-like macro's). */
function hasBody(def: RawDefinition, head = headEnd(def.node)): boolean {
  return head < def.node.endIndex || def.node.childForFieldName('value') !== null;
}

/** The stack index of the type named `name` around position `at` (through its functions), or -1. */
function enclosingType(stack: readonly Frame[], at: number, name: string): number {
  for (let i = at; i >= 0; i--) {
    const symbol = stack[i].symbol;
    if (!symbol) return -1;
    if (TYPE_KINDS.has(symbol.kind)) return symbol.name === name ? i : -1;
  }
  return -1;
}

function isNested(rules: OutlineRules, container: ExtractedSymbol | null, def: RawDefinition, kind: SymbolKind): boolean {
  if (container === null) return false;
  if (rules.localTypes) {
    if (CALLABLE_KINDS.has(container.kind) && LOCAL_TYPES.has(kind)) return true;
    if (kind === 'Field' && (CALLABLE_KINDS.has(container.kind) || TOP_LEVEL_ONLY_KINDS.has(container.kind))) return true;
  }
  if (CALLABLE_KINDS.has(container.kind) && rules.nestedInFunctions?.includes(kind)) return true;
  if (!rules.nestedDefinitions) return false;
  // A function-valued local variable (`const onClick = () => …`) stays local.
  if (CALLABLE_KINDS.has(container.kind)) return NESTED_IN_CALLABLE.has(kind) && !def.variable;
  return LOCAL_SCOPE_KINDS.has(container.kind) && NESTED_IN_INITIALIZER.has(kind);
}

/**
 * Walks definitions in source order alongside the anonymous scopes and tells, for each,
 * the innermost scope strictly around it (scopes are tree nodes: nested or disjoint).
 */
class ScopeWalk {
  private readonly sorted: Span[];
  private readonly open: Span[] = [];
  private next = 0;

  constructor(scopes: readonly Span[]) {
    this.sorted = [...scopes].sort((a, b) => a.start - b.start || b.end - a.end);
  }

  innermost(def: RawDefinition): Span | null {
    while (this.next < this.sorted.length && this.sorted[this.next].start <= def.start) {
      const scope = this.sorted[this.next++];
      while (this.open.length > 0 && this.open[this.open.length - 1].end <= scope.start) this.open.pop();
      this.open.push(scope);
    }
    while (this.open.length > 0 && this.open[this.open.length - 1].end <= def.start) this.open.pop();
    for (let i = this.open.length - 1; i >= 0; i--) {
      const scope = this.open[i];
      if (scope.end >= def.end && (scope.start < def.start || scope.end > def.end)) return scope;
    }
    return null;
  }
}

function adjustKind(kind: SymbolKind, container: SymbolKind | null, owned: boolean): SymbolKind {
  const inType = container !== null && TYPE_KINDS.has(container);
  if (kind === 'Function' && (inType || owned)) return 'Method';
  if (kind === 'Method' && !inType && !owned && container !== 'Module') return 'Function';
  return kind;
}

/**
 * A docstring inside the definition wins; otherwise the comments right before it,
 * up to the first blank line (attributes or decorators in between are fine).
 */
function docstringOf(def: RawDefinition, content: string): string | null {
  if (def.docs.length === 0) return null;
  const inside = def.docs.filter((d) => d.start >= def.start && d.end <= def.end);
  if (inside.length > 0) return cleanDocstring(inside.sort((a, b) => a.start - b.start).map((d) => d.text));
  const before = def.docs.filter((d) => d.end <= def.start).sort((a, b) => b.start - a.start);
  const chain: string[] = [];
  let next = def.start;
  for (const doc of before) {
    if (BLANK_LINE.test(content.slice(doc.end, next))) break;
    chain.unshift(doc.text);
    next = doc.start;
  }
  return cleanDocstring(chain);
}

export interface Outline {
  symbols: ExtractedSymbol[];
  /** Kept symbols with their UTF-16 spans, in source order, for reference attribution. */
  spans: { symbol: ExtractedSymbol; start: number; end: number }[];
}

/** Runs while the tree is alive: signatures read the definition nodes. */
export function buildOutline(defs: RawDefinition[], rules: OutlineRules, content: string, bytes: ByteMap): Outline {
  const sorted = [...defs].sort((a, b) => a.start - b.start || b.end - a.end);
  const keys = new KeyAllocator();
  const byQualifiedName = new Map<string, ExtractedSymbol>();
  const stack: Frame[] = [];
  const outline: Outline = { symbols: [], spans: [] };
  const scale = rules.hadErrors ? 0.8 : 1;
  const scopes = new ScopeWalk(rules.scopes ?? []);
  const parameterLists = new ScopeWalk(rules.parameters ?? []);
  let lastDef: RawDefinition | null = null;

  for (const def of sorted) {
    while (stack.length > 0 && !contains(stack[stack.length - 1].def, def)) stack.pop();
    // A field holds only fields (a nested struct's members): what its initializer defines (Java's
    // anonymous class methods) belongs to the enclosing type.
    let at = stack.length - 1;
    while (at > 0 && !MEMBER_ONLY_KINDS.has(def.kind) && MEMBER_ONLY_KINDS.has(stack[at].symbol?.kind ?? 'Variable')) at--;
    // A member declared inside a function of its type (a TypeScript constructor's parameter
    // property): its @owner names the enclosing type, which holds it.
    const typeAt = MEMBER_ONLY_KINDS.has(def.kind) && def.owner !== null ? enclosingType(stack, at, def.owner) : -1;
    if (typeAt >= 0) {
      if (byQualifiedName.has(`${stack[typeAt].symbol?.qualified_name}.${def.name}`)) continue;
      at = typeAt;
    }
    const owner = typeAt >= 0 ? null : def.owner;
    const frame = stack[at];
    const scope = scopes.innermost(def);
    const inParameters = parameterLists.innermost(def) !== null;
    // A wrapper captured whole (Python's decorated_definition, `res.send = function send…`) and the
    // definition right under it with the same name are one symbol. What lies inside belongs to the wrapper.
    if (isWrapped(frame, def)) continue;
    const container = frame?.symbol ?? null;
    const kind = adjustKind(def.kind, container?.kind ?? null, owner !== null);
    const local = frame !== undefined && (container === null || LOCAL_SCOPE_KINDS.has(container.kind)) && !isNested(rules, container, def, kind);
    const orphan = container === null && owner === null && MEMBER_ONLY_KINDS.has(kind);
    // Inside a callback or an IIFE (a scope closer than the container): a local, unless exported.
    const scoped = scope !== null && SCOPED_KINDS.has(kind) && !def.exported && (frame === undefined || scope.start > frame.def.start);
    if (local || orphan || scoped || inParameters || (frame !== undefined && TOP_LEVEL_ONLY_KINDS.has(kind))) {
      stack.push({ def, symbol: null });
      continue;
    }

    const prefix = container?.qualified_name ?? null;
    const parent = owner !== null ? (prefix ? `${prefix}.${owner}` : owner) : prefix;
    const qualifiedName = parent ? `${parent}.${def.name}` : def.name;
    const parentSymbol = container ?? (parent ? byQualifiedName.get(parent) : undefined);
    const ownerSegment = owner !== null ? (lastIdentifier(owner) ?? owner) : null;
    // An owner defined in another file: judge it by its name where the language can.
    const parentExported = parentSymbol
      ? parentSymbol.is_exported
      : ownerSegment !== null && rules.exportedNames
        ? rules.exportedNames.test(ownerSegment)
        : true;
    const ownExported = def.exported || (rules.exportedNames?.test(def.name) ?? false);

    // Overload signatures and the implementation right after them are one symbol, starting at the
    // first signature.
    const last = rules.overloadSignatures ? outline.spans.at(-1) : undefined;
    if (last && lastDef && isOverload(last.symbol, lastDef, def, kind, qualifiedName, content)) {
      last.symbol.end_line = def.endRow + 1;
      last.symbol.end_byte = bytes.byteAt(def.end);
      last.end = def.end;
      if (rules.declarations && hasBody(def)) delete last.symbol.declaration;
      lastDef = def;
      stack.push({ def, symbol: last.symbol });
      continue;
    }

    const head = headEnd(def.node);
    const symbol: ExtractedSymbol = {
      key: keys.next(qualifiedName, kind),
      name: def.name,
      qualified_name: qualifiedName,
      kind,
      signature: signatureOf(content.slice(def.start, head)),
      docstring: docstringOf(def, content),
      parent,
      is_exported: ownExported && parentExported,
      is_test: rules.testFile || def.test || (rules.testNames?.test(def.name) ?? false) || (parentSymbol?.is_test ?? false),
      start_line: def.startRow + 1,
      end_line: def.endRow + 1,
      start_byte: bytes.byteAt(def.start),
      end_byte: bytes.byteAt(def.end),
      extraction_confidence: Math.round(rules.confidence * scale * (def.hasError ? 0.75 : 1) * 100) / 100,
    };
    if (rules.declarations && CALLABLE_KINDS.has(kind) && !hasBody(def, head)) symbol.declaration = true;
    outline.symbols.push(symbol);
    if (!MEMBER_ONLY_KINDS.has(kind)) outline.spans.push({ symbol, start: def.start, end: def.end });
    lastDef = def;
    if (!byQualifiedName.has(qualifiedName)) byQualifiedName.set(qualifiedName, symbol);
    stack.push({ def, symbol });
  }
  return outline;
}

/** Imported names in source order, each once. */
function importedNames(ref: RawReference): string[] {
  const names = ref.importNames.sort((a, b) => a.at - b.at).map((i) => i.name);
  return [...new Set(names)];
}

/**
 * Attributes each reference to the innermost kept symbol around it (a merge walk
 * over both position-sorted lists), or to the symbol named by its `@owner`.
 */
export function attributeReferences(refs: RawReference[], outline: Outline): ExtractedReference[] {
  const sorted = [...refs].sort((a, b) => a.at - b.at);
  const byQualifiedName = new Map<string, ExtractedSymbol>();
  for (const s of outline.symbols) if (!byQualifiedName.has(s.qualified_name)) byQualifiedName.set(s.qualified_name, s);
  const spans = outline.spans;
  const stack: Outline['spans'] = [];
  const out: ExtractedReference[] = [];
  let next = 0;
  for (const ref of sorted) {
    while (next < spans.length && spans[next].start <= ref.at) {
      const span = spans[next++];
      while (stack.length > 0 && stack[stack.length - 1].end <= span.start) stack.pop();
      stack.push(span);
    }
    while (stack.length > 0 && stack[stack.length - 1].end <= ref.at) stack.pop();
    let enclosing = stack.length > 0 ? stack[stack.length - 1].symbol : null;
    if (ref.owner !== null) {
      const scoped = enclosing ? `${enclosing.qualified_name}.${ref.owner}` : ref.owner;
      enclosing = byQualifiedName.get(scoped) ?? byQualifiedName.get(ref.owner) ?? enclosing;
    }
    out.push({
      kind: ref.kind,
      name: ref.name,
      target: ref.kind === 'import' ? null : lastIdentifier(ref.name),
      imported_names: ref.kind === 'import' ? importedNames(ref) : null,
      enclosing: enclosing?.key ?? null,
      line: ref.line,
    });
  }
  return out;
}
