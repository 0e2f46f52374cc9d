/**
 * What a module resolver tells the engine about one file: its imports, the
 * names they bind, the modules whose members are in scope, and the files of
 * its own package. Everything here is computed from the layout alone, so the
 * same scope serves `plan()` (before symbols are loaded) and `resolve()`.
 */
import type { Provenance, RefInput, SymbolInput } from '../types';
import type { SymbolIndex } from './symbols';

/** A module, package or namespace whose members are symbols of `files` under `prefix`. */
export interface ModuleEntity {
  t: 'module';
  files: readonly string[];
  /** Qualified-name prefix of the members inside `files`: '' at file level, `io` for a Rust inline `mod io {}`. */
  prefix: string;
  /**
   * A nested module by name (Python submodule, Rust child module). `lookup` is
   * null while planning: the answer then comes from the layout only.
   */
  child?: (name: string, lookup: SymbolIndex | null) => ModuleEntity | null;
  /** Where a name the module does not define itself is looked for (re-exports of an index file or package). */
  reexportDir?: string;
  /** An imported name may be the module's default export (JavaScript family). */
  defaultExport?: boolean;
  /** Reached as a namespace an index file re-exports (found by file name, not by its own import). */
  viaReexport?: boolean;
}

export interface SymbolEntity {
  t: 'symbol';
  sym: SymbolInput;
}

/** Something outside the project (a library, the standard library): nothing is guessed for it. */
export interface ExternalEntity {
  t: 'external';
}

export type Entity = ModuleEntity | SymbolEntity | ExternalEntity;

export const EXTERNAL: ExternalEntity = { t: 'external' };

export type Binding =
  /** A local name for a module (`import * as ns`, `import a.b as c`, a Go package) or for something outside. */
  | { t: 'entity'; entity: Entity }
  /** A local name for a member of a module (`import { a as b }`, `from m import x`, `use a::b::f`). */
  | { t: 'member'; module: ModuleEntity; path: readonly string[] };

export interface ImportTarget {
  ref: RefInput;
  /** Files or package directories the import reaches (IMPORTS edge targets). */
  dst: string[];
}

export interface FileScope {
  imports: ImportTarget[];
  bindings: Map<string, Binding>;
  /** Modules whose members are in scope unqualified (`from m import *`, `import a.*`, Go dot imports, `use m::*`). */
  wildcards: ModuleEntity[];
  /** Other files of the same package (Go, Java), visible without an import. */
  packageFiles: readonly string[];
  /** Modules imported without a local name the extractor can see (CommonJS `require`, side-effect imports). */
  anonymous: ModuleEntity[];
}

export function emptyScope(): FileScope {
  return { imports: [], bindings: new Map(), wildcards: [], packageFiles: [], anonymous: [] };
}

/** A path head a language resolves itself (Rust `crate`/`self`/`super`, a Java fully qualified class name). */
export interface Head {
  entity: Entity;
  /** How many leading segments the head consumed. */
  used: number;
  provenance: Provenance;
}

export interface ModuleResolver {
  /** The file's scope, from its refs (imports) and the layout. */
  scope(file: string, refs: readonly RefInput[]): FileScope;
  /** Resolves language-specific path heads; `lookup` is null while planning. */
  head?(file: string, ref: RefInput, segs: readonly string[], scope: FileScope, lookup: SymbolIndex | null): Head | null;
  /** Methods of a type may live in other files of the same unit (Go package, Rust crate). */
  sameUnit?(a: string, b: string): boolean;
  /** Files planning must add beyond the scope's modules (crate roots, parent modules). */
  planFiles?(file: string, refs: readonly RefInput[], scope: FileScope): Iterable<string>;
}
