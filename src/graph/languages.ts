/**
 * The graph half of the language table: one row per language of
 * src/extract/languages/table.ts, keyed by its id — the compiler refuses a
 * language without a row here. A row says how the language's references
 * resolve (`rules`) and whether they resolve across files (`modules`, its
 * module resolver). Its graph reach follows from the row:
 *
 * - `cross_file`: a module resolver — imports and packages resolve to files;
 * - `same_file`: rules only — references resolve inside their file;
 * - `none`: no rules — the tags query captures no references (no graph).
 *
 * Every other list of languages in src/graph/ is derived from this table.
 */
import type { LanguageId } from '../extract/languages/table';
import type { DeclarationSyntax } from './resolve/declared';
import type { LanguageRules } from './resolve/engine';
import { GoModules } from './resolve/go';
import { JavaModules } from './resolve/java';
import type { LayoutIndex } from './resolve/layout';
import { PythonModules } from './resolve/python';
import { RustModules } from './resolve/rust';
import type { ModuleResolver } from './resolve/scope';
import { JsModules } from './resolve/typescript';

export type ModuleResolverFactory = (layout: LayoutIndex) => ModuleResolver;

/** Resolution rules as a row declares them; `crossFile` follows from the row's module resolver. */
export type ResolutionRules = Omit<LanguageRules, 'crossFile'>;

export type GraphLanguage =
  | {
      /** How references resolve. */
      rules: ResolutionRules;
      /** Resolves imports and packages to project files; null: references stay within their file. */
      modules: ModuleResolverFactory | null;
    }
  /** The tags query captures no references: no graph. */
  | { rules: null; modules: null };

export type GraphReach = 'cross_file' | 'same_file' | 'none';

const set = (...items: string[]): ReadonlySet<string> => new Set(items);
const NONE = set();
const JS_GLOBALS = set(
  'console', 'window', 'document', 'globalThis', 'process', 'navigator', 'location', 'history',
  'localStorage', 'sessionStorage', 'module', 'exports', 'require', 'crypto', 'performance',
);

/** Rules of a language family, defaults overridden by `over`. */
function rules(family: string, over: Partial<ResolutionRules> = {}): ResolutionRules {
  return {
    family,
    selfWords: NONE,
    superWords: NONE,
    implicitReceiver: false,
    globals: NONE,
    typeHeads: true,
    receiverByType: false,
    constructors: NONE,
    namedConstructors: false,
    receiverNames: false,
    declarations: null,
    embedding: false,
    ...over,
  };
}

const JS = rules('js', { selfWords: set('this'), superWords: set('super'), globals: JS_GLOBALS });
const jsModules: ModuleResolverFactory = (layout) => new JsModules(layout);
const NO_GRAPH: GraphLanguage = { rules: null, modules: null };

export const GRAPH_LANGUAGES: Readonly<Record<LanguageId, GraphLanguage>> = {
  typescript: { rules: JS, modules: jsModules },
  tsx: { rules: JS, modules: jsModules },
  javascript: { rules: JS, modules: jsModules },
  python: { rules: rules('python', { selfWords: set('self', 'cls'), superWords: set('super()') }), modules: (layout) => new PythonModules(layout) },
  go: { rules: rules('go', { receiverByType: true, embedding: true, receiverNames: true, declarations: 'go' }), modules: (layout) => new GoModules(layout) },
  rust: { rules: rules('rust', { selfWords: set('self', 'Self'), declarations: 'rust' }), modules: (layout) => new RustModules(layout) },
  java: { rules: rules('java', { selfWords: set('this'), superWords: set('super'), implicitReceiver: true, namedConstructors: true, receiverNames: true, declarations: 'java' }), modules: (layout) => new JavaModules(layout) },
  c: { rules: rules('c', { typeHeads: false }), modules: null },
  cpp: { rules: rules('c', { selfWords: set('this'), implicitReceiver: true }), modules: null },
  csharp: { rules: rules('csharp', { selfWords: set('this'), superWords: set('base'), implicitReceiver: true, namedConstructors: true }), modules: null },
  ruby: { rules: rules('ruby', { selfWords: set('self'), implicitReceiver: true, constructors: set('new') }), modules: null },
  php: { rules: rules('php', { selfWords: set('$this', 'self', 'static'), superWords: set('parent') }), modules: null },
  bash: { rules: rules('bash'), modules: null },
  markdown: NO_GRAPH,
  json: NO_GRAPH,
  yaml: NO_GRAPH,
  toml: NO_GRAPH,
};

const ROWS: ReadonlyMap<string, GraphLanguage> = new Map(Object.entries(GRAPH_LANGUAGES));

/** The graph row of a language id; null for an id outside the table (unknown files). */
export function graphLanguage(language: string): GraphLanguage | null {
  return ROWS.get(language) ?? null;
}

/** How far a language's edges reach (`none` for an unknown language). */
export function graphReach(language: string): GraphReach {
  const row = graphLanguage(language);
  if (!row?.rules) return 'none';
  return row.modules ? 'cross_file' : 'same_file';
}

/** Per-language resolution rules: every language whose tags query captures references. */
export const LANGUAGE_RULES: ReadonlyMap<string, LanguageRules> = new Map(
  [...ROWS].flatMap(([id, row]) => (row.rules ? [[id, { ...row.rules, crossFile: row.modules !== null }] as const] : [])),
);

/** Module resolvers of the cross-file languages. */
export const MODULE_RESOLVERS: ReadonlyMap<string, ModuleResolverFactory> = new Map(
  [...ROWS].flatMap(([id, row]) => (row.modules ? [[id, row.modules] as const] : [])),
);

/** Languages whose references resolve across files (imports, packages, modules). */
export const CROSS_FILE_LANGUAGES: ReadonlySet<string> = new Set([...ROWS.keys()].filter((id) => graphReach(id) === 'cross_file'));

/** Languages whose functions, methods and fields carry their `signature` into resolution (rules.declarations). */
export const DECLARED_TYPE_LANGUAGES: readonly string[] = [...ROWS].flatMap(([id, row]) => (row.rules?.declarations ? [id] : []));

/** The declaration syntax of a language, null when its declarations are not read. */
export function declarationSyntax(language: string): DeclarationSyntax | null {
  return LANGUAGE_RULES.get(language)?.declarations ?? null;
}
