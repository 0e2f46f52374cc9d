/**
 * The symbols handed to one `resolve()` call, indexed once: by id, by file and
 * qualified name, by name, and by name then file. Every list is sorted by id so
 * that every choice made from it is deterministic.
 */
import type { SymbolInput } from '../types';

const byId = (a: SymbolInput, b: SymbolInput) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Kinds that have members (methods, nested types). */
export const TYPE_KINDS: ReadonlySet<string> = new Set(['Class', 'Interface', 'Struct', 'Trait', 'Enum']);
/** Kinds an inheritance reference may name. */
export const BASE_KINDS: ReadonlySet<string> = new Set(['Class', 'Interface', 'Struct', 'Trait', 'Enum', 'Type']);
/** Kinds a call may reach: functions and methods, constructors (classes, structs), callable values. */
export const CALL_KINDS: ReadonlySet<string> = new Set(['Function', 'Method', 'Class', 'Struct', 'Constant', 'Variable']);

export class SymbolIndex {
  private readonly ids = new Map<string, SymbolInput>();
  private readonly qualified = new Map<string, Map<string, SymbolInput[]>>();
  private readonly names = new Map<string, SymbolInput[]>();
  private readonly namesByFile = new Map<string, Map<string, SymbolInput[]>>();
  private readonly topLevel = new Map<string, SymbolInput[]>();

  constructor(symbols: readonly SymbolInput[]) {
    for (const s of symbols) {
      if (this.ids.has(s.id)) continue;
      this.ids.set(s.id, s);
      let inFile = this.qualified.get(s.file);
      if (!inFile) this.qualified.set(s.file, (inFile = new Map()));
      push(inFile, s.qualifiedName, s);
      push(this.names, s.name, s);
      let perFile = this.namesByFile.get(s.name);
      if (!perFile) this.namesByFile.set(s.name, (perFile = new Map()));
      push(perFile, s.file, s);
      if (s.parent === null) push(this.topLevel, s.file, s);
    }
    for (const m of this.qualified.values()) for (const list of m.values()) list.sort(byId);
    for (const list of this.names.values()) list.sort(byId);
    for (const m of this.namesByFile.values()) for (const list of m.values()) list.sort(byId);
    for (const list of this.topLevel.values()) list.sort(byId);
  }

  byId(id: string | null): SymbolInput | null {
    return id === null ? null : (this.ids.get(id) ?? null);
  }

  /** Symbols of `file` with this qualified name (overloads and same-named kinds). */
  inFile(file: string, qualifiedName: string): readonly SymbolInput[] {
    return this.qualified.get(file)?.get(qualifiedName) ?? EMPTY;
  }

  /** Every symbol with this name, project-wide (as far as the caller loaded them). */
  named(name: string): readonly SymbolInput[] {
    return this.names.get(name) ?? EMPTY;
  }

  /** Symbols with this name in one file. */
  namedIn(name: string, file: string): readonly SymbolInput[] {
    return this.namesByFile.get(name)?.get(file) ?? EMPTY;
  }

  /** Top-level symbols of a file. */
  topLevelOf(file: string): readonly SymbolInput[] {
    return this.topLevel.get(file) ?? EMPTY;
  }
}

const EMPTY: readonly SymbolInput[] = [];

function push<K>(map: Map<K, SymbolInput[]>, key: K, s: SymbolInput): void {
  const list = map.get(key);
  if (list) list.push(s);
  else map.set(key, [s]);
}
