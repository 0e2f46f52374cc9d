/**
 * Public shapes of the extractor. Coordinate conventions are written on the fields:
 * lines are 1-based and inclusive, bytes are UTF-8 offsets into the file and half-open.
 */

/** Which index a file feeds: source code, configuration, or prose documentation. */
export type Corpus = 'code' | 'config' | 'docs';

/** The closed list of symbol kinds; query captures map onto it in `captures.ts`. */
export const SYMBOL_KINDS = [
  'Function', 'Method', 'Class', 'Interface', 'Enum', 'Type', 'Struct', 'Trait', 'Module', 'Field', 'Variable', 'Constant',
  'Section', 'Setting',
] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

export interface ExtractedSymbol {
  /** `${qualified_name}#${kind}`, unique within the file; repeats get `~2`, `~3`… in source order. */
  key: string;
  name: string;
  /** Enclosing names joined by '.' (code, config) or ' > ' (Markdown headings). */
  qualified_name: string;
  kind: SymbolKind;
  /** Declaration head: one line, whitespace collapsed, no body, at most 300 characters. */
  signature: string;
  /** Doc comment or docstring with comment markers removed; null when there is none. */
  docstring: string | null;
  /** qualified_name of the enclosing symbol, null at the top level. */
  parent: string | null;
  is_exported: boolean;
  is_test: boolean;
  /** 1-based, inclusive. */
  start_line: number;
  /** 1-based, inclusive. */
  end_line: number;
  /** UTF-8 byte offset into the file, inclusive. */
  start_byte: number;
  /** UTF-8 byte offset into the file, exclusive. */
  end_byte: number;
  /** 0..1: the language's clean-extraction confidence, lowered when the parse had errors. */
  extraction_confidence: number;
  /**
   * A function or method declared without a body (a C prototype, a C++ member declared in its
   * class and defined out of line, a pure virtual or deleted member), in a language whose
   * declarations and definitions are apart (C, C++): search ranks a definition with a body above
   * it. Absent otherwise.
   */
  declaration?: true;
}

export interface ExtractedReference {
  kind: 'call' | 'import' | 'inherit';
  /** Callee text as written (whitespace removed), module specifier, or base type text. */
  name: string;
  /** The bare identifier called or inherited (`bar` for `obj.bar()`); null for imports. */
  target: string | null;
  /** Imports only: the names brought in (`*` for a wildcard); null for calls and inherits. */
  imported_names: string[] | null;
  /** key of the innermost enclosing symbol; null at module level. */
  enclosing: string | null;
  /** 1-based line of the referenced name. */
  line: number;
}

export type FailureReason =
  | 'parse_error'
  | 'timeout'
  /** More definitions and references than one stored extraction row holds: the first ones are kept (src/upload/extract-rows.ts). */
  | 'too_many_symbols'
  | 'file_too_large'
  | 'binary'
  | 'encoding'
  | 'unsupported_language';

export interface ExtractionFailure {
  reason: FailureReason;
  message: string;
}

export interface ExtractionResult {
  /** Language table id, e.g. 'typescript'; '' when the language is unknown. */
  language: string;
  corpus: Corpus;
  symbols: ExtractedSymbol[];
  references: ExtractedReference[];
  failure: ExtractionFailure | null;
  /** True when the parser or scanner met syntax it could not read. */
  had_errors: boolean;
  parse_ms: number;
}

export interface LanguageInfo {
  id: string;
  corpus: Corpus;
  extensions: string[];
  tier: 'ast' | 'structured' | 'heuristic';
  /** extraction_confidence given to symbols of a clean file. */
  confidence: number;
}

export interface ExtractOptions {
  /** Parse budget in milliseconds (default 2000). */
  timeoutMs?: number;
  /** Largest accepted file, in UTF-8 bytes (default 1 MiB). */
  maxBytes?: number;
}
