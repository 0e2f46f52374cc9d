/**
 * Query matches → plain records. Several patterns may match the same definition
 * (an exported and a plain pattern, a doc pattern…): records are merged by node so
 * each definition and reference appears once. Texts are copied out here; the
 * definition node is kept for work done only on symbols that survive the outline.
 */
import { captureRole, KIND_PRECEDENCE, TOP_LEVEL_ONLY_KINDS } from './captures';
import type { CaptureRole, ReferenceKind } from './captures';
import type { QueryCapture, QueryMatch, SyntaxNode } from './parser';
import type { SymbolKind } from './types';
import { referenceName, unquote } from './text';

export interface Span {
  /** UTF-16 indexes into the file text, half-open. */
  start: number;
  end: number;
  /** 0-based rows, inclusive. */
  startRow: number;
  endRow: number;
}

export interface RawDefinition extends Span {
  kind: SymbolKind;
  name: string;
  /** The definition node; valid only until the tree is deleted. */
  node: SyntaxNode;
  docs: (Span & { text: string })[];
  exported: boolean;
  test: boolean;
  owner: string | null;
  hasError: boolean;
  /** Also captured as a variable or constant (e.g. a function-valued `const`). */
  variable: boolean;
}

export interface RawReference {
  kind: ReferenceKind;
  /** Position used to order references and find the enclosing symbol. */
  at: number;
  line: number;
  name: string;
  /** Imported names with their positions, ordered by position at the end. */
  importNames: { at: number; name: string }[];
  owner: string | null;
}

export interface Collected {
  definitions: RawDefinition[];
  references: RawReference[];
  /** Anonymous local scopes (`@scope`) that are no module wrapper (`@wrapper`), in match order. */
  scopes: Span[];
  /** Parameter lists of function types (`@parameters`): nothing defined inside one is a symbol. */
  parameters: Span[];
}

function span(node: SyntaxNode, content: string): Span {
  const startRow = node.startPosition.row;
  const end = node.endPosition;
  // Some nodes (preprocessor lines, Rust line comments) swallow their final newline
  // and end at column 0 of the next row: end them on their own line instead.
  if (end.column === 0 && end.row > startRow) {
    let endIndex = node.endIndex - 1;
    if (content[endIndex - 1] === '\r') endIndex--;
    return { start: node.startIndex, end: endIndex, startRow, endRow: end.row - 1 };
  }
  return { start: node.startIndex, end: node.endIndex, startRow, endRow: end.row };
}

const BODY_TYPE = /(?:^|_)(?:body|block)$|declaration_list$|^compound_statement$/;
const HEAD_WINDOW = 600;
const PARAMETER_LIST = /parameter_list$|^parameters$|^formal_parameters$/;

/**
 * Start of a definition's body: its `body` field, or the first body-like node a
 * few levels down (e.g. the block of an arrow function assigned to a constant).
 */
export function headEnd(node: SyntaxNode): number {
  const body = node.childForFieldName('body');
  if (body) return body.startIndex;
  let limit = node.startIndex + HEAD_WINDOW;
  let level: SyntaxNode[] = [node];
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    const next: SyntaxNode[] = [];
    for (const parent of level) {
      // One lookup per parent instead of a field-name query per child (the node itself has none).
      const body = depth === 0 ? null : parent.childForFieldName('body');
      for (let i = 0, count = parent.namedChildCount; i < count; i++) {
        const child = parent.namedChild(i);
        if (!child || child.startIndex > limit) break;
        if (BODY_TYPE.test(child.type) || (body !== null && child.id === body.id)) return child.startIndex;
        // A long parameter list (a C++ `template <…>` with constraints) is all head: the window
        // starts after it.
        if (PARAMETER_LIST.test(child.type)) limit = Math.max(limit, child.endIndex + HEAD_WINDOW);
        next.push(child);
      }
    }
    level = next;
  }
  return node.endIndex;
}

interface Parts {
  definition?: { node: SyntaxNode; kind: SymbolKind };
  reference?: { node: SyntaxNode; kind: ReferenceKind };
  name?: SyntaxNode;
  docs: SyntaxNode[];
  exported?: SyntaxNode;
  test: boolean;
  owner?: SyntaxNode;
  receiver?: SyntaxNode;
  source?: SyntaxNode;
  importNames: SyntaxNode[];
  scope?: SyntaxNode;
  parameters?: SyntaxNode;
  wrapper?: SyntaxNode;
}

/**
 * The run of comments right before `node` (siblings of a type in `comments`), in source order, as
 * `(comment)* @doc . (node)` captures it: anonymous nodes may stand between the last comment and
 * the node (`.`), but nothing between two comments of the run (a repetition is of adjacent
 * siblings: a comment on an `#if 0` line is no doc of what follows the line).
 */
export function commentsBefore(node: SyntaxNode, comments: ReadonlySet<string>): SyntaxNode[] {
  const run: SyntaxNode[] = [];
  for (let s = node.previousNamedSibling; s !== null && comments.has(s.type); s = s.previousSibling) run.push(s);
  return run.reverse();
}

function partsOf(captures: readonly QueryCapture[], roles: Map<string, CaptureRole>, docComments: ReadonlySet<string>): Parts {
  const parts: Parts = { docs: [], test: false, importNames: [] };
  for (const capture of captures) {
    let role = roles.get(capture.name);
    if (!role) {
      role = captureRole(capture.name);
      roles.set(capture.name, role);
    }
    const node = capture.node;
    switch (role.role) {
      case 'definition': parts.definition = { node, kind: role.kind }; break;
      case 'reference': parts.reference = { node, kind: role.kind }; break;
      case 'name': parts.name = node; break;
      case 'doc': parts.docs.push(node); break;
      case 'documented': parts.docs.push(...commentsBefore(node, docComments)); break;
      case 'export': parts.exported = node; break;
      case 'test': parts.test = true; break;
      case 'owner': parts.owner = node; break;
      case 'receiver': parts.receiver = node; break;
      case 'import.source': parts.source = node; break;
      case 'import.name': parts.importNames.push(node); break;
      case 'scope': parts.scope = node; break;
      case 'parameters': parts.parameters = node; break;
      case 'wrapper': parts.wrapper = node; break;
      case 'ignored': break;
    }
  }
  return parts;
}

/**
 * `A::B` → `A.B`; an owner captured with the name at its end (`A::B::f`, `A::operator<<`) loses
 * it, and template arguments (`Foo<T>::bar`) are left out.
 */
function ownerText(content: string, node: SyntaxNode | undefined, name?: SyntaxNode): string | null {
  if (!node) return null;
  const inside = name !== undefined && name.startIndex > node.startIndex && name.endIndex <= node.endIndex;
  let owner = content.slice(node.startIndex, inside ? name.startIndex : node.endIndex).replace(/\s+/g, '');
  for (let prev = ''; prev !== owner; ) {
    prev = owner;
    owner = owner.replace(/<[^<>]*>/g, '');
  }
  owner = owner.replace(/::/g, '.').replace(/\.$/, '');
  return owner === '' ? null : owner;
}

/**
 * The defined name. A name written as a symbol literal (Ruby `attr_reader :size`) is the bare
 * name; a C++ operator is written as ctags and debuggers do: `operator ()`, `operator <<`,
 * `operator ""_json`, and a conversion `operator Matcher<const::std::tuple<T1,T2>&>` (no blank
 * next to punctuation, its parameter list left out).
 */
/**
 * Where an operator's parameter list starts: a conversion's declarator may hold the `&` or `*`
 * of its type before it (`operator const std::locale&() const`).
 */
function parameterListStart(node: SyntaxNode): number | undefined {
  let declarator = node.childForFieldName('declarator');
  while (declarator && declarator.type !== 'abstract_function_declarator') {
    declarator = declarator.childForFieldName('declarator') ?? declarator.namedChildren.find((c) => c.type.startsWith('abstract_')) ?? null;
  }
  return declarator?.startIndex ?? node.childForFieldName('declarator')?.startIndex;
}

function nameText(node: SyntaxNode, content: string): string {
  if (node.type === 'operator_name' || node.type === 'operator_cast') {
    const end = parameterListStart(node) ?? node.endIndex;
    const rest = content.slice(node.startIndex, end).replace(/^operator\b/, '').trim().replace(/\s+/g, ' ');
    return `operator ${rest.replace(/\s*([^\w\s])\s*/g, '$1')}`;
  }
  return content.slice(node.startIndex, node.endIndex).replace(/^:(?=\w)/, '');
}

function stronger(a: SymbolKind, b: SymbolKind): SymbolKind {
  return KIND_PRECEDENCE.indexOf(a) <= KIND_PRECEDENCE.indexOf(b) ? a : b;
}

function addDefinition(map: Map<string, RawDefinition>, parts: Parts, content: string): void {
  const def = parts.definition;
  const name = parts.name;
  if (!def || !name) return;
  const node = def.node;
  const key = `${node.startIndex}:${node.endIndex}:${name.startIndex}`;
  let record = map.get(key);
  if (!record) {
    // Fields spelled out: spreading the span into a literal that is later written to
    // (`record.start`) made V8 build every record the slow way.
    const { start, end, startRow, endRow } = span(node, content);
    record = {
      start,
      end,
      startRow,
      endRow,
      kind: def.kind,
      name: nameText(name, content),
      node,
      docs: [],
      exported: false,
      test: false,
      owner: null,
      hasError: node.hasError,
      variable: false,
    };
    map.set(key, record);
  } else {
    record.kind = stronger(record.kind, def.kind);
  }
  record.variable ||= TOP_LEVEL_ONLY_KINDS.has(def.kind);
  for (const doc of parts.docs) {
    if (!record.docs.some((d) => d.start === doc.startIndex)) {
      const { start, end, startRow, endRow } = span(doc, content);
      record.docs.push({ start, end, startRow, endRow, text: content.slice(doc.startIndex, doc.endIndex) });
    }
  }
  const exported = parts.exported;
  if (exported) {
    record.exported = true;
    // `export …`, `pub …`: the keyword node encloses the declaration; widen the symbol to it.
    if (exported.startIndex < record.start && exported.endIndex >= record.end) {
      record.start = exported.startIndex;
      record.startRow = exported.startPosition.row;
    }
  }
  record.test ||= parts.test;
  record.owner ??= ownerText(content, parts.owner, name);
}

function addReference(map: Map<string, RawReference>, parts: Parts, content: string): void {
  const ref = parts.reference;
  if (!ref) return;
  const anchor = ref.kind === 'import' ? parts.source ?? parts.name : parts.name;
  if (!anchor) return;
  const key = `${ref.kind}:${ref.node.startIndex}:${ref.node.endIndex}:${anchor.startIndex}`;
  let record = map.get(key);
  if (!record) {
    const from = parts.receiver ? parts.receiver.startIndex : anchor.startIndex;
    const text = content.slice(from, anchor.endIndex);
    record = {
      kind: ref.kind,
      at: ref.kind === 'import' ? ref.node.startIndex : anchor.startIndex,
      // Imports point at their statement; calls at the called name (the end of a chain).
      line: (ref.kind === 'import' ? ref.node.startPosition.row : ref.kind === 'call' ? anchor.endPosition.row : anchor.startPosition.row) + 1,
      name: ref.kind === 'import' ? unquote(text) : referenceName(text),
      importNames: [],
      owner: ownerText(content, parts.owner),
    };
    map.set(key, record);
  }
  for (const n of parts.importNames) {
    if (!record.importNames.some((i) => i.at === n.startIndex)) {
      record.importNames.push({ at: n.startIndex, name: content.slice(n.startIndex, n.endIndex) });
    }
  }
}

/**
 * Folds the matches of one file into definitions and references. `docComments`: the node types
 * whose run right before a `@documented` node is its doc comments.
 */
export function collect(matches: readonly QueryMatch[], content: string, roles: Map<string, CaptureRole>, docComments: ReadonlySet<string>): Collected {
  const definitions = new Map<string, RawDefinition>();
  const references = new Map<string, RawReference>();
  const scopes: Span[] = [];
  const parameters: Span[] = [];
  const wrappers = new Set<string>();
  for (const match of matches) {
    const parts = partsOf(match.captures, roles, docComments);
    addDefinition(definitions, parts, content);
    addReference(references, parts, content);
    if (parts.scope) scopes.push(span(parts.scope, content));
    if (parts.parameters) parameters.push(span(parts.parameters, content));
    if (parts.wrapper) wrappers.add(`${parts.wrapper.startIndex}:${parts.wrapper.endIndex}`);
  }
  const local = wrappers.size === 0 ? scopes : scopes.filter((s) => !wrappers.has(`${s.start}:${s.end}`));
  return { definitions: [...definitions.values()], references: [...references.values()], scopes: local, parameters };
}
