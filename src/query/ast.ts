/**
 * The pinchQL syntax tree (docs/pinchql.md). Every node keeps its source
 * span `[start, end)` in UTF-16 offsets of the query text, so errors and lints
 * point at the exact place.
 */
export type Span = readonly [number, number];

export interface Name {
  name: string;
  span: Span;
}

/** `key: literal` inside `{…}` of a node or relationship pattern. */
export interface PropEntry {
  key: Name;
  value: Expr;
  span: Span;
}

export interface NodePattern {
  variable?: Name;
  /** `:A|B` — any of these symbol kinds. */
  labels: Name[];
  props: PropEntry[];
  span: Span;
}

export interface RelPattern {
  variable?: Name;
  /** `:CALLS|IMPORTS` — any of these edge kinds; empty means every kind. */
  types: Name[];
  props: PropEntry[];
  /** `out`: left → right (`-[]->`); `in`: right → left (`<-[]-`). */
  direction: 'out' | 'in';
  /** Present on variable-length relationships (`*min..max`). */
  range?: { min: number; max: number; span: Span };
  span: Span;
}

/** A node, or a node, one relationship and a node. */
export interface Pattern {
  left: NodePattern;
  rel?: RelPattern;
  right?: NodePattern;
  span: Span;
}

export type BinaryOp =
  | 'OR'
  | 'XOR'
  | 'AND'
  | '='
  | '<>'
  | '<'
  | '<='
  | '>'
  | '>='
  | '=~'
  | 'IN'
  | 'CONTAINS'
  | 'STARTS WITH'
  | 'ENDS WITH'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%';

export type Literal = string | number | boolean | null;

export type Expr =
  | { type: 'literal'; value: Literal; float?: true; span: Span }
  | { type: 'list'; items: Expr[]; span: Span }
  | { type: 'var'; name: string; span: Span }
  | { type: 'prop'; object: Expr; key: Name; span: Span }
  | { type: 'not'; operand: Expr; span: Span }
  | { type: 'neg'; operand: Expr; span: Span }
  | { type: 'binary'; op: BinaryOp; left: Expr; right: Expr; span: Span }
  | { type: 'isnull'; operand: Expr; negated: boolean; span: Span }
  | { type: 'call'; name: Name; args: Expr[]; star: boolean; distinct: boolean; span: Span }
  | { type: 'pattern'; pattern: Pattern; span: Span }
  /** `a:Function|Method` (a node's kind) or `r:CALLS` (a single-hop relationship's type). */
  | { type: 'label'; operand: Expr; labels: Name[]; span: Span };

export interface ReturnItem {
  expr: Expr;
  alias?: Name;
  span: Span;
}

export interface OrderItem {
  expr: Expr;
  descending: boolean;
  span: Span;
}

export interface Count {
  value: number;
  span: Span;
}

export interface Query {
  match: Pattern;
  where?: Expr;
  distinct: boolean;
  /** `RETURN *`: every named variable of the pattern. */
  star: boolean;
  items: ReturnItem[];
  order: OrderItem[];
  skip?: Count;
  limit?: Count;
  span: Span;
}
