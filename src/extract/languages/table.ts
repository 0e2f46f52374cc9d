/**
 * The language table: one row per language. A tree-sitter language is a row here,
 * a tags query in this folder, a fixture under test/fixtures/extract/ and its
 * graph row in src/graph/languages.ts (keyed by `LanguageId`: the compiler asks
 * for it) — the engine has no per-language code. Structured formats point at
 * their scanner. README "Adding a language" has the whole list.
 */
import type { GrammarLanguage } from '../engine';
import {
  bashWasm,
  csharpWasm,
  cppWasm,
  goWasm,
  javaWasm,
  javascriptWasm,
  phpWasm,
  pythonWasm,
  rubyWasm,
  rustWasm,
  tsxWasm,
  typescriptWasm,
} from '../grammars';
import { scanJson } from '../json';
import { maskMacros, maskOnError } from '../macros';
import { scanMarkdown } from '../markdown';
import type { Scanner } from '../scanned';
import { scanToml } from '../toml';
import type { LanguageInfo } from '../types';
import { scanYaml } from '../yaml';
import bashQuery from './bash.scm';
import ecmascriptQuery from './ecmascript.scm';
import cQuery from './c.scm';
import cppQuery from './cpp.scm';
import csharpQuery from './csharp.scm';
import goQuery from './go.scm';
import javaQuery from './java.scm';
import javascriptQuery from './javascript.scm';
import jsxQuery from './jsx.scm';
import phpQuery from './php.scm';
import pythonQuery from './python.scm';
import rubyQuery from './ruby.scm';
import rustQuery from './rust.scm';
import typescriptQuery from './typescript.scm';

interface RowBase extends LanguageInfo {
  /** Well-known file names (lower case) that carry no telling extension. */
  filenames?: readonly string[];
}
export interface GrammarRow extends RowBase, GrammarLanguage {
  tier: 'ast';
}
export interface ScannerRow extends RowBase {
  tier: 'structured';
  scan: Scanner;
}
export type LanguageRow = GrammarRow | ScannerRow;

const JS_TESTS = [/\.(?:test|spec)\.[cm]?[jt]sx?$/, /(?:^|\/)__tests__\//, /(?:^|\/)tests?\//];
const TEST_DIRS = /(?:^|\/)tests?\//;

/** Keeps each row's `id` literal, so `LanguageId` is the union of the table's ids. */
function rows<const T extends readonly LanguageRow[]>(table: T): T {
  return table;
}

const ROWS = rows([
  {
    id: 'typescript', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.ts', '.mts', '.cts'],
    grammar: { name: 'typescript', wasm: typescriptWasm }, query: typescriptQuery + ecmascriptQuery, shallowQuery: true, testPaths: JS_TESTS,
    nestedDefinitions: true, overloadSignatures: true,
  },
  {
    id: 'tsx', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.tsx'],
    grammar: { name: 'tsx', wasm: tsxWasm }, query: typescriptQuery + ecmascriptQuery + jsxQuery, shallowQuery: true, testPaths: JS_TESTS,
    nestedDefinitions: true, overloadSignatures: true,
  },
  {
    id: 'javascript', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.js', '.jsx', '.mjs', '.cjs'],
    grammar: { name: 'javascript', wasm: javascriptWasm }, query: javascriptQuery + ecmascriptQuery + jsxQuery, testPaths: JS_TESTS,
    nestedDefinitions: true,
  },
  {
    id: 'python', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.py', '.pyi'],
    grammar: { name: 'python', wasm: pythonWasm }, query: pythonQuery,
    testPaths: [/(?:^|\/)test_[^/]*\.py$/, /_test\.py$/, /(?:^|\/)conftest\.py$/, TEST_DIRS],
    testNames: /^(?:test|Test)/,
    // Public unless `_private`; dunder names (`__init__`) are public.
    exportedNames: /^(?:[^_]|__\w+__$)/,
    // Closures and classes defined in a function are definitions too (`outer.inner`).
    nestedInFunctions: ['Function', 'Class'],
  },
  {
    id: 'go', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.go'],
    grammar: { name: 'go', wasm: goWasm }, query: goQuery,
    testPaths: [/_test\.go$/], testNames: /^(?:Test|Benchmark|Fuzz|Example)/, exportedNames: /^\p{Lu}/u,
  },
  {
    id: 'rust', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.rs'],
    grammar: { name: 'rust', wasm: rustWasm }, query: rustQuery,
    testPaths: [/(?:^|\/)tests\//, /(?:^|\/)benches\//],
    // Items declared in a `fn` body (helper fns, visitor structs and their impls) are items too.
    nestedInFunctions: ['Function', 'Method', 'Struct', 'Enum', 'Trait', 'Type'],
  },
  {
    id: 'java', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.java'],
    grammar: { name: 'java', wasm: javaWasm }, query: javaQuery, docComments: ['block_comment', 'line_comment'],
    testPaths: [/(?:^|\/)src\/test\//, /Tests?\.java$/, TEST_DIRS],
  },
  {
    id: 'c', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.c', '.h'],
    // No C grammar is bundled: the C++ grammar reads C, and C++ headers named `.h` read as C++.
    grammar: { name: 'cpp', wasm: cppWasm }, query: cQuery + cppQuery, shallowQuery: true, prepare: maskMacros, localTypes: true, declarations: true,
    blankOnError: maskOnError,
    testPaths: [/(?:^|\/)test_[^/]*\.c$/, /_test\.c$/, TEST_DIRS],
  },
  {
    id: 'cpp', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.cpp', '.cc', '.cxx', '.hpp', '.hh', '.hxx'],
    grammar: { name: 'cpp', wasm: cppWasm }, query: cQuery + cppQuery, shallowQuery: true, prepare: maskMacros, localTypes: true, declarations: true,
    blankOnError: maskOnError,
    testPaths: [/_(?:unit)?test\.(?:cc|cpp|cxx)$/, TEST_DIRS],
  },
  {
    id: 'csharp', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.cs'],
    grammar: { name: 'c-sharp', wasm: csharpWasm }, query: csharpQuery,
    testPaths: [/Tests?\.cs$/, /(?:^|\/)[^/]*\.Tests?\//, TEST_DIRS],
    // The grammar cannot place some `#if` lines (inside a base list, around a whole file).
    blankOnError: /^[ \t]*#[ \t]*(?:if|elif|else|endif|region|endregion)\b.*$/m,
  },
  {
    id: 'ruby', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.rb', '.rake', '.gemspec'],
    filenames: ['gemfile', 'rakefile'],
    grammar: { name: 'ruby', wasm: rubyWasm }, query: rubyQuery,
    testPaths: [/_spec\.rb$/, /_test\.rb$/, /(?:^|\/)(?:spec|test)\//], testNames: /^test_/,
    // Ruby has no export syntax: everything is reachable (private sections are not tracked).
    exportedNames: /(?:)/,
  },
  {
    id: 'php', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.php'],
    grammar: { name: 'php', wasm: phpWasm }, query: phpQuery,
    testPaths: [/Test\.php$/, TEST_DIRS], testNames: /^test/,
  },
  {
    id: 'bash', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.sh', '.bash'],
    filenames: ['.bashrc', '.bash_profile', '.profile'],
    grammar: { name: 'bash', wasm: bashWasm }, query: bashQuery,
    testPaths: [/\.bats$/, TEST_DIRS], exportedNames: /(?:)/,
  },
  { id: 'markdown', corpus: 'docs', tier: 'structured', confidence: 0.95, extensions: ['.md', '.mdx', '.markdown'], scan: scanMarkdown },
  { id: 'json', corpus: 'config', tier: 'structured', confidence: 1, extensions: ['.json', '.jsonc'], scan: scanJson },
  { id: 'yaml', corpus: 'config', tier: 'structured', confidence: 0.95, extensions: ['.yml', '.yaml'], scan: scanYaml },
  { id: 'toml', corpus: 'config', tier: 'structured', confidence: 0.95, extensions: ['.toml'], filenames: ['pipfile'], scan: scanToml },
]);

export const TABLE: readonly LanguageRow[] = ROWS;

/**
 * A language of the table. Tables keyed by it (src/graph/languages.ts) must
 * have a row for every language: the compiler refuses one that is missing.
 */
export type LanguageId = (typeof ROWS)[number]['id'];

const byExtension = new Map<string, LanguageRow>();
const byFilename = new Map<string, LanguageRow>();
for (const row of TABLE) {
  for (const ext of row.extensions) byExtension.set(ext, row);
  for (const name of row.filenames ?? []) byFilename.set(name, row);
}

/** The row for a repository path, by well-known file name, then by extension. */
export function rowForPath(path: string): LanguageRow | null {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const named = byFilename.get(base);
  if (named) return named;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? (byExtension.get(base.slice(dot)) ?? null) : null;
}
