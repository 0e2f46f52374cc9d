/**
 * Shapes shared by the resolver (src/graph/resolve*.ts), the commit-time
 * resolution pass (src/db/resolution.ts) and the graph tools. Lines are
 * 1-based; symbol ids are `{file_path}::{qualified_name}#{kind}`.
 */

/** REFERENCES (any other use of a symbol: reads, type annotations, imports, a function passed as a value) comes only from a pushed SCIP index. */
export type EdgeKind = 'CALLS' | 'IMPORTS' | 'INHERITS' | 'IMPLEMENTS' | 'REFERENCES';

/**
 * How an edge's target was found, from most to least certain:
 * `import` (through a resolved import / use / package path), `same_file`
 * (a definition in the calling file), `receiver` (a method of the enclosing
 * class or of the receiver type), `package` (same Go package / Java package /
 * Rust module without an import), `unique_name` (the only callable with that
 * name in the project), `ambiguous` (one of several same-named candidates),
 * `module` (an IMPORTS edge to a file or package directory). `scip`: from a SCIP index pushed
 * with the project (a compiler-grade indexer's own resolution).
 */
export type Provenance = 'scip' | 'import' | 'same_file' | 'receiver' | 'package' | 'unique_name' | 'ambiguous' | 'module';

export interface GraphEdge {
  kind: EdgeKind;
  /** Symbol id of the innermost enclosing symbol of the reference; null at module level. */
  srcId: string | null;
  srcFile: string;
  /** Target symbol id; null for IMPORTS of a whole file or package. */
  dstId: string | null;
  /** File of the target symbol, or the imported file / package directory. */
  dstFile: string | null;
  /** The reference text as written (callee, module specifier, base type). */
  name: string;
  line: number;
  /** 0..1, see Provenance: import 1.0, same_file 0.95, receiver 0.9, package 0.85, unique_name 0.7, ambiguous ≤ 0.5. */
  confidence: number;
  provenance: Provenance;
}

/** One stored reference (refs table / extraction output), with its file's language. */
export interface RefInput {
  file: string;
  language: string;
  kind: 'call' | 'import' | 'inherit';
  /** Callee text as written (`obj.bar`), module specifier, or base type text. */
  name: string;
  /** Bare identifier called or inherited (`bar`); null for imports. */
  target: string | null;
  /** Imports only: names brought in (`*` for a wildcard, `a as b` kept as written by the extractor). */
  importedNames: string[] | null;
  /** Full symbol id of the innermost enclosing symbol; null at module level. */
  enclosing: string | null;
  line: number;
}

/** The symbol fields resolution needs. */
export interface SymbolInput {
  id: string;
  file: string;
  language: string;
  name: string;
  qualifiedName: string;
  kind: string;
  /** qualified_name of the enclosing symbol, null at top level. */
  parent: string | null;
  isExported: boolean;
  /** An abstract method (`abstract`, `@abstractmethod`): a call to it runs an override. */
  abstract?: boolean;
  /** Declaration head of a function, method or field in a language whose declarations state types (resolve/declared.ts). */
  signature?: string;
}

/** What resolution knows about the project as a whole. */
export interface ProjectLayout {
  /** Every file path of the index being resolved (all languages). */
  paths: readonly string[];
  /**
   * Contents of the project's build/config files that steer module resolution,
   * by path: every `tsconfig.json`, `jsconfig.json`, `package.json`, `go.mod`,
   * `Cargo.toml` (any depth). Missing when not in the index.
   */
  configs: ReadonlyMap<string, string>;
}

/** File names whose content resolution reads (basename match, any depth). */
export const LAYOUT_CONFIG_FILES: readonly string[] = ['tsconfig.json', 'jsconfig.json', 'package.json', 'go.mod', 'Cargo.toml'];
