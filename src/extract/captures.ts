/**
 * The capture vocabulary of the tags queries (`languages/*.scm`) and the one place
 * where capture names map to symbol kinds. A query using any other name is rejected
 * when it is compiled. Names starting with `_` are private to a query's predicates.
 *
 * Definitions and references (one per match):
 *   @definition.function|method|class|interface|enum|type|struct|trait|module|field|constant|variable
 *   @reference.call|import|inherit
 * Parts of a match:
 *   @name           the defined name; for a call the callee expression; for inherit the base type
 *   @doc            a comment before the definition or a docstring inside it (cleaned generically)
 *   @documented     the node whose comments right before it document the definition: the run of
 *                   named siblings just before it that are comments (the row's `docComments`), as
 *                   `(comment)* @doc . (node)` would capture them. The engine reads them: a query
 *                   pattern that starts with a quantified sibling costs a whole-grammar analysis
 *                   when the query is compiled, once per pattern.
 *   @export         the definition is exported; when this node encloses the definition node
 *                   (e.g. `export_statement`) the symbol's range starts at it
 *   @test           the definition is a test (e.g. under `#[test]` or `@Test`)
 *   @owner          the type a definition belongs to outside of lexical nesting (Go receiver,
 *                   Rust `impl` type, C++ `A::f`); on an inherit, the type that inherits
 *   @receiver       a call's receiver when the callee is not one node (Java, Ruby, PHP)
 *   @import.source  the module specifier of an import
 *   @import.name    one name brought in by an import (`*` for a wildcard)
 * Alone in a match:
 *   @scope          an anonymous local scope (a callback, an IIFE): variables, constants and
 *                   fields defined inside it are not symbols
 *   @parameters     the parameter list of a function type (`(opts: { a: T }) => R`): what it
 *                   defines (the fields of an inline parameter type) is not a symbol
 *   @wrapper        a function wrapping a whole module (a top-level IIFE, a UMD factory): not a
 *                   local scope even when also captured as @scope; what it defines at its top
 *                   level is defined at the file's top level
 */
import type { SymbolKind } from './types';

export type ReferenceKind = 'call' | 'import' | 'inherit';
export type PartRole = 'name' | 'doc' | 'documented' | 'export' | 'test' | 'owner' | 'receiver' | 'import.source' | 'import.name' | 'scope' | 'parameters' | 'wrapper';

export type CaptureRole =
  | { role: 'definition'; kind: SymbolKind }
  | { role: 'reference'; kind: ReferenceKind }
  | { role: PartRole }
  | { role: 'ignored' };

const VOCABULARY: ReadonlyMap<string, CaptureRole> = new Map<string, CaptureRole>([
  ['definition.function', { role: 'definition', kind: 'Function' }],
  ['definition.method', { role: 'definition', kind: 'Method' }],
  ['definition.class', { role: 'definition', kind: 'Class' }],
  ['definition.interface', { role: 'definition', kind: 'Interface' }],
  ['definition.enum', { role: 'definition', kind: 'Enum' }],
  ['definition.type', { role: 'definition', kind: 'Type' }],
  ['definition.struct', { role: 'definition', kind: 'Struct' }],
  ['definition.trait', { role: 'definition', kind: 'Trait' }],
  ['definition.module', { role: 'definition', kind: 'Module' }],
  ['definition.field', { role: 'definition', kind: 'Field' }],
  ['definition.constant', { role: 'definition', kind: 'Constant' }],
  ['definition.variable', { role: 'definition', kind: 'Variable' }],
  ['reference.call', { role: 'reference', kind: 'call' }],
  ['reference.import', { role: 'reference', kind: 'import' }],
  ['reference.inherit', { role: 'reference', kind: 'inherit' }],
  ['name', { role: 'name' }],
  ['doc', { role: 'doc' }],
  ['documented', { role: 'documented' }],
  ['export', { role: 'export' }],
  ['test', { role: 'test' }],
  ['owner', { role: 'owner' }],
  ['receiver', { role: 'receiver' }],
  ['import.source', { role: 'import.source' }],
  ['import.name', { role: 'import.name' }],
  ['scope', { role: 'scope' }],
  ['parameters', { role: 'parameters' }],
  ['wrapper', { role: 'wrapper' }],
]);

const IGNORED: CaptureRole = { role: 'ignored' };

/** When one node is captured under several kinds, the earlier kind here wins. */
export const KIND_PRECEDENCE: readonly SymbolKind[] = [
  'Method', 'Function', 'Class', 'Struct', 'Interface', 'Trait', 'Enum', 'Module', 'Type', 'Field', 'Constant', 'Variable',
];

/** Kinds whose members are methods. */
export const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>(['Class', 'Interface', 'Struct', 'Trait', 'Enum']);

/** Kinds whose bodies are local scopes: definitions inside them are not symbols. */
export const CALLABLE_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>(['Function', 'Method']);

/** Kinds that are local when defined inside an anonymous scope (`@scope`). */
export const SCOPED_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>(['Variable', 'Constant', 'Field']);

/** Kinds that are symbols only at the top level of a file. */
export const TOP_LEVEL_ONLY_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>(['Variable', 'Constant']);

/**
 * Kinds that are symbols only inside a type (or with an @owner): a field of an anonymous top-level
 * struct is not. References inside one (an initializer's call, a Go embedded type) belong to the type.
 */
export const MEMBER_ONLY_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>(['Field']);

/** The role of a capture name; throws on a name outside the vocabulary. */
export function captureRole(name: string): CaptureRole {
  if (name.startsWith('_')) return IGNORED;
  const role = VOCABULARY.get(name);
  if (!role) throw new Error(`unknown capture @${name} in tags query`);
  return role;
}

/** Validates every capture of a compiled query (throws on the first unknown one). */
export function assertVocabulary(captureNames: readonly string[]): void {
  for (const name of captureNames) captureRole(name);
}
