/**
 * Parser lifecycle: the only importer of web-tree-sitter. One runtime per isolate,
 * one Parser reused for every file, one Language per grammar, loaded on first use
 * (`ensureLanguage`).
 *
 * workerd forbids compiling WASM from bytes, so the core runtime and every grammar's code
 * arrive as `WebAssembly.Module` imports (see `grammars/index.ts`); a grammar's parse tables
 * arrive compressed beside it and inflate asynchronously (see `packed-grammar.ts`).
 */
import { Language, Parser, Query } from 'web-tree-sitter';
import type { Node, QueryCapture, QueryMatch, Tree } from 'web-tree-sitter';
import coreWasm from 'web-tree-sitter/web-tree-sitter.wasm';
import { inflateGrammarData, type PackedGrammar, withGrammarData } from './packed-grammar';
import { shallowQuery, TYPE_CHECK_PREFIX } from './shallow-query';

export type { Node as SyntaxNode, Query, QueryCapture, QueryMatch, Tree };

export interface Grammar {
  /** Cache key, e.g. 'cpp' (shared by the c and cpp languages). */
  name: string;
  wasm: PackedGrammar;
}

/**
 * A parse budget. Wall-clock time is checked when the progress callback runs, but a
 * deployed Worker's clock stands still during synchronous work, so the number of
 * callbacks (one per ~100 parser operations) is capped as well. ≈14 callbacks/ms
 * were measured under workerd; the cap allows about three times that rate.
 */
export class Deadline {
  static readonly CALLBACKS_PER_MS = 40;
  private readonly endsAt: number;
  private readonly maxTicks: number;
  private ticks = 0;
  private readonly parent: Deadline | null;
  expired = false;

  constructor(budgetMs: number, parent: Deadline | null = null, maxTicks?: number) {
    this.endsAt = performance.now() + budgetMs;
    this.maxTicks = Math.max(1, maxTicks ?? budgetMs * Deadline.CALLBACKS_PER_MS);
    this.parent = parent;
  }

  /**
   * A share of what is left, for work the caller can do without (a second parse): when the
   * share is spent only this part is cancelled, and the rest stays for what must still run.
   * Its callbacks count against this budget too.
   */
  slice(share: number): Deadline {
    const ms = Math.max(0, (this.endsAt - performance.now()) * share);
    return new Deadline(ms, this, Math.floor((this.maxTicks - this.ticks) * share));
  }

  /** Wall-clock time left (the budget's callbacks may run out first). */
  remainingMs(): number {
    return Math.max(0, this.endsAt - performance.now());
  }

  /** Progress callback: returns true (cancel) once the budget is spent. */
  readonly tick = (): boolean => {
    this.ticks++;
    if (this.parent?.tick()) this.expired = true;
    if (this.ticks > this.maxTicks || performance.now() > this.endsAt) this.expired = true;
    return this.expired;
  };
}

interface EmscriptenHooks {
  instantiateWasm(
    imports: WebAssembly.Imports,
    done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ): Record<string, never>;
}

let runtime: Promise<void> | null = null;
let parser: Parser | null = null;
const languages = new Map<string, Language>();
const loadingLanguages = new Map<string, Promise<void>>();

async function initRuntime(): Promise<void> {
  const hooks: EmscriptenHooks = {
    instantiateWasm(imports, done) {
      void WebAssembly.instantiate(coreWasm, imports).then((instance) => done(instance, coreWasm));
      return {};
    },
  };
  // Under nodejs_compat the Emscripten glue sees `process` and takes a Node-only
  // path (createRequire); hide it for the duration of the init.
  const scope = globalThis as { process?: unknown };
  const saved = scope.process;
  scope.process = undefined;
  try {
    await Parser.init(hooks);
  } finally {
    scope.process = saved;
  }
}

/** Loads the tree-sitter runtime once per isolate. */
export function ensureRuntime(): Promise<void> {
  runtime ??= initRuntime().catch((err: unknown) => {
    runtime = null;
    throw err;
  });
  return runtime;
}

/** Loads the runtime and the grammar's Language, once per isolate (a failed load is tried again next time). */
export function ensureLanguage(grammar: Grammar): Promise<void> {
  let loading = loadingLanguages.get(grammar.name);
  if (!loading) {
    loading = Promise.all([ensureRuntime(), inflateGrammarData(grammar.wasm)]).then(([, planes]) => {
      if (!languages.has(grammar.name)) languages.set(grammar.name, withGrammarData(grammar.wasm, planes, () => Language.loadSync(grammar.wasm.code)));
    });
    loadingLanguages.set(grammar.name, loading);
    loading.catch(() => loadingLanguages.delete(grammar.name));
  }
  return loading;
}

/** The grammar's Language (`ensureLanguage` must have loaded it). */
export function loadLanguage(grammar: Grammar): Language {
  const language = languages.get(grammar.name);
  if (!language) throw new Error(`the ${grammar.name} grammar is not loaded: await ensureLanguage first`);
  return language;
}

/**
 * Per compiled query, the node type ids each `@_is.type` capture accepts (see shallow-query.ts):
 * every id named that type, so that the check reads as `node.type === type` did (a node's
 * `typeId` is its public symbol; a grammar lists some names under several ids). None: no checks.
 * `node.type` is `typeId` plus a lookup and a string comparison.
 */
const typeChecks = new WeakMap<Query, ReadonlyMap<string, ReadonlySet<number>>>();

/** tree-sitter's symbol of an error node, `(TSSymbol)-1`. */
const ERROR_SYMBOL = 65535;

/** Every node type id `node.type` reads as `type` (web-tree-sitter names an id without a name `ERROR`). */
function typeIds(language: Language, type: string): Set<number> {
  const ids = new Set<number>();
  for (let id = 0; id < language.types.length; id++) if ((language.types[id] || 'ERROR') === type) ids.add(id);
  if (type === 'ERROR') ids.add(ERROR_SYMBOL);
  return ids;
}

/**
 * Compiles a tags query; the caller caches it per language. `shallow`: rewritten by
 * `shallowQuery` first (its matches are then filtered by `runQuery`).
 */
export function compileQuery(grammar: Grammar, source: string, shallow = false): Query {
  const language = loadLanguage(grammar);
  const query = new Query(language, shallow ? shallowQuery(source) : source);
  const checks = new Map<string, ReadonlySet<number>>();
  for (const name of query.captureNames) {
    if (!name.startsWith(TYPE_CHECK_PREFIX)) continue;
    const type = name.slice(TYPE_CHECK_PREFIX.length);
    if (type === '_') continue;
    // The rewritten query no longer names the type: tree-sitter cannot reject a misspelt one.
    if (language.idForNodeType(type, true) === null) {
      query.delete();
      throw new Error(`unknown node type ${type} in tags query`);
    }
    checks.set(name, typeIds(language, type));
  }
  if (checks.size > 0) typeChecks.set(query, checks);
  return query;
}

function typesHold(match: QueryMatch, checks: ReadonlyMap<string, ReadonlySet<number>>): boolean {
  for (const { name, node } of match.captures) {
    const ids = checks.get(name);
    if (ids !== undefined && !ids.has(node.typeId)) return false;
  }
  return true;
}

/** A half-open span of UTF-16 indexes into a file's text. */
export interface TextRange {
  start: number;
  end: number;
}

/** tree-sitter's range: indexes and row/column points (UTF-16 units, as the parser reads strings). */
function rangeOf(content: string, { start, end }: TextRange) {
  const point = (index: number) => {
    let row = 0;
    for (let i = content.indexOf('\n'); i !== -1 && i < index; i = content.indexOf('\n', i + 1)) row++;
    return { row, column: index - (content.lastIndexOf('\n', index - 1) + 1) };
  };
  return { startIndex: start, endIndex: end, startPosition: point(start), endPosition: point(end) };
}

/**
 * Parses `content` (only `range` of it when given: nodes keep their positions in the whole
 * text); null when the deadline cancelled the parse. The caller must `delete()` the tree.
 */
export function parse(grammar: Grammar, content: string, deadline: Deadline, range?: TextRange): Tree | null {
  parser ??= new Parser();
  parser.setLanguage(loadLanguage(grammar));
  const includedRanges = range ? [rangeOf(content, range)] : undefined;
  const tree = parser.parse(content, null, { progressCallback: deadline.tick, includedRanges });
  // A cancelled parse would otherwise resume on the next call.
  if (!tree) parser.reset();
  return tree;
}

/**
 * Runs a query over a tree. When the deadline cancels it, the matches found so far
 * (in document order) come back with `complete: false`.
 */
export function runQuery(query: Query, root: Node, deadline: Deadline): { matches: QueryMatch[]; complete: boolean } {
  const all = query.matches(root, { progressCallback: deadline.tick });
  const checks = typeChecks.get(query);
  const matches = checks ? all.filter((m) => typesHold(m, checks)) : all;
  return { matches, complete: !deadline.expired };
}
