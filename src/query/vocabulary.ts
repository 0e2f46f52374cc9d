import { SYMBOL_KINDS, type SymbolKind } from '../extract/types';
import type { EdgeKind } from '../graph/types';

/**
 * What pinchQL can name: node labels (symbol kinds), relationship types (edge
 * kinds) and the properties of each, mapped to fixed columns. User text never
 * reaches SQL as an identifier: a name either maps here or compiles to NULL.
 */
export const NODE_LABELS: readonly SymbolKind[] = SYMBOL_KINDS;

export const REL_TYPES = ['CALLS', 'IMPORTS', 'INHERITS', 'IMPLEMENTS', 'REFERENCES'] as const satisfies readonly EdgeKind[];
const _allEdges: Exclude<EdgeKind, (typeof REL_TYPES)[number]> extends never ? true : never = true;
void _allEdges;

/** Static types of pinchQL values. `path` is a variable-length relationship; `any` is unknown until run time. */
export type ValueType = 'string' | 'int' | 'float' | 'bool' | 'null' | 'node' | 'rel' | 'path' | 'list' | 'any';

export interface PropertyDef {
  /** Column of `symbols`, `edges` or the walk. */
  column: string;
  type: ValueType;
}

/** Symbol properties; `file`/`path` and `line` are short forms of `file_path` and `start_line`. */
export const NODE_PROPERTIES: Readonly<Record<string, PropertyDef>> = {
  id: { column: 'id', type: 'string' },
  name: { column: 'name', type: 'string' },
  qualified_name: { column: 'qualified_name', type: 'string' },
  kind: { column: 'kind', type: 'string' },
  file: { column: 'file_path', type: 'string' },
  file_path: { column: 'file_path', type: 'string' },
  path: { column: 'file_path', type: 'string' },
  line: { column: 'start_line', type: 'int' },
  start_line: { column: 'start_line', type: 'int' },
  end_line: { column: 'end_line', type: 'int' },
  signature: { column: 'signature', type: 'string' },
  docstring: { column: 'docstring', type: 'string' },
  parent: { column: 'parent', type: 'string' },
  language: { column: 'language', type: 'string' },
  corpus: { column: 'corpus', type: 'string' },
  is_exported: { column: 'is_exported', type: 'bool' },
  is_test: { column: 'is_test', type: 'bool' },
  confidence: { column: 'confidence', type: 'float' },
};

/** Edge properties of a single-hop relationship. */
export const REL_PROPERTIES: Readonly<Record<string, PropertyDef>> = {
  kind: { column: 'kind', type: 'string' },
  line: { column: 'line', type: 'int' },
  confidence: { column: 'confidence', type: 'float' },
  provenance: { column: 'provenance', type: 'string' },
  name: { column: 'name', type: 'string' },
};

/** A variable-length relationship exposes only its hop count. */
export const PATH_PROPERTIES: Readonly<Record<string, PropertyDef>> = {
  depth: { column: 'depth', type: 'int' },
};

export function propertiesOf(kind: 'node' | 'rel' | 'path'): Readonly<Record<string, PropertyDef>> {
  return kind === 'node' ? NODE_PROPERTIES : kind === 'rel' ? REL_PROPERTIES : PATH_PROPERTIES;
}

/** The fields `RETURN a` shows for a node and for a relationship. */
export const NODE_VIEW: readonly (readonly [string, string])[] = [
  ['id', 'id'], ['name', 'name'], ['kind', 'kind'], ['file', 'file_path'], ['line', 'start_line'], ['end_line', 'end_line'], ['signature', 'signature'],
];
export const REL_VIEW: readonly (readonly [string, string])[] = [
  ['kind', 'kind'], ['src', 'src_id'], ['dst', 'dst_id'], ['line', 'line'], ['confidence', 'confidence'], ['provenance', 'provenance'],
];
