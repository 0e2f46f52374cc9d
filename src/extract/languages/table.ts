/**
 * The language table: one row per language. A tree-sitter language is a row here,
 * a tags query in this folder, a fixture under test/fixtures/extract/ and its
 * graph row in src/graph/languages.ts (keyed by `LanguageId`: the compiler asks
 * for it) — the engine has no per-language code. Structured formats point at
 * their scanner. README "Adding a language" has the whole list.
 */
import bashCode from '../grammars/tree-sitter-bash.code.wasm';
import bashData from '../grammars/tree-sitter-bash.data.zst';
import csharpCode from '../grammars/tree-sitter-c-sharp.code.wasm';
import csharpData from '../grammars/tree-sitter-c-sharp.data.zst';
import cppCode from '../grammars/tree-sitter-cpp.code.wasm';
import cppData from '../grammars/tree-sitter-cpp.data.zst';
import goCode from '../grammars/tree-sitter-go.code.wasm';
import goData from '../grammars/tree-sitter-go.data.zst';
import javaCode from '../grammars/tree-sitter-java.code.wasm';
import javaData from '../grammars/tree-sitter-java.data.zst';
import javascriptCode from '../grammars/tree-sitter-javascript.code.wasm';
import javascriptData from '../grammars/tree-sitter-javascript.data.zst';
import phpCode from '../grammars/tree-sitter-php.code.wasm';
import phpData from '../grammars/tree-sitter-php.data.zst';
import pythonCode from '../grammars/tree-sitter-python.code.wasm';
import pythonData from '../grammars/tree-sitter-python.data.zst';
import rubyCode from '../grammars/tree-sitter-ruby.code.wasm';
import rubyData from '../grammars/tree-sitter-ruby.data.zst';
import rustCode from '../grammars/tree-sitter-rust.code.wasm';
import rustData from '../grammars/tree-sitter-rust.data.zst';
import tsxCode from '../grammars/tree-sitter-tsx.code.wasm';
import tsxData from '../grammars/tree-sitter-tsx.data.zst';
import typescriptCode from '../grammars/tree-sitter-typescript.code.wasm';
import typescriptData from '../grammars/tree-sitter-typescript.data.zst';
import type { GrammarLanguage } from '../engine';
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
    grammar: { name: 'typescript', code: typescriptCode, data: typescriptData }, query: typescriptQuery + ecmascriptQuery, testPaths: JS_TESTS,
    nestedDefinitions: true, overloadSignatures: true,
  },
  {
    id: 'tsx', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.tsx'],
    grammar: { name: 'tsx', code: tsxCode, data: tsxData }, query: typescriptQuery + ecmascriptQuery + jsxQuery, testPaths: JS_TESTS,
    nestedDefinitions: true, overloadSignatures: true,
  },
  {
    id: 'javascript', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.js', '.jsx', '.mjs', '.cjs'],
    grammar: { name: 'javascript', code: javascriptCode, data: javascriptData }, query: javascriptQuery + ecmascriptQuery + jsxQuery, testPaths: JS_TESTS,
    nestedDefinitions: true,
  },
  {
    id: 'python', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.py', '.pyi'],
    grammar: { name: 'python', code: pythonCode, data: pythonData }, query: pythonQuery,
    testPaths: [/(?:^|\/)test_[^/]*\.py$/, /_test\.py$/, /(?:^|\/)conftest\.py$/, TEST_DIRS],
    testNames: /^(?:test|Test)/,
    // Public unless `_private`; dunder names (`__init__`) are public.
    exportedNames: /^(?:[^_]|__\w+__$)/,
    // Closures and classes defined in a function are definitions too (`outer.inner`).
    nestedInFunctions: ['Function', 'Class'],
  },
  {
    id: 'go', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.go'],
    grammar: { name: 'go', code: goCode, data: goData }, query: goQuery,
    testPaths: [/_test\.go$/], testNames: /^(?:Test|Benchmark|Fuzz|Example)/, exportedNames: /^\p{Lu}/u,
  },
  {
    id: 'rust', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.rs'],
    grammar: { name: 'rust', code: rustCode, data: rustData }, query: rustQuery,
    testPaths: [/(?:^|\/)tests\//, /(?:^|\/)benches\//],
    // Items declared in a `fn` body (helper fns, visitor structs and their impls) are items too.
    nestedInFunctions: ['Function', 'Method', 'Struct', 'Enum', 'Trait', 'Type'],
  },
  {
    id: 'java', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.java'],
    grammar: { name: 'java', code: javaCode, data: javaData }, query: javaQuery,
    testPaths: [/(?:^|\/)src\/test\//, /Tests?\.java$/, TEST_DIRS],
  },
  {
    id: 'c', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.c', '.h'],
    // No C grammar is bundled: the C++ grammar reads C, and C++ headers named `.h` read as C++.
    grammar: { name: 'cpp', code: cppCode, data: cppData }, query: cQuery + cppQuery, prepare: maskMacros, localTypes: true, declarations: true,
    blankOnError: maskOnError,
    testPaths: [/(?:^|\/)test_[^/]*\.c$/, /_test\.c$/, TEST_DIRS],
  },
  {
    id: 'cpp', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.cpp', '.cc', '.cxx', '.hpp', '.hh', '.hxx'],
    grammar: { name: 'cpp', code: cppCode, data: cppData }, query: cQuery + cppQuery, prepare: maskMacros, localTypes: true, declarations: true,
    blankOnError: maskOnError,
    testPaths: [/_(?:unit)?test\.(?:cc|cpp|cxx)$/, TEST_DIRS],
  },
  {
    id: 'csharp', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.cs'],
    grammar: { name: 'c-sharp', code: csharpCode, data: csharpData }, query: csharpQuery,
    testPaths: [/Tests?\.cs$/, /(?:^|\/)[^/]*\.Tests?\//, TEST_DIRS],
    // The grammar cannot place some `#if` lines (inside a base list, around a whole file).
    blankOnError: /^[ \t]*#[ \t]*(?:if|elif|else|endif|region|endregion)\b.*$/m,
  },
  {
    id: 'ruby', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.rb', '.rake', '.gemspec'],
    filenames: ['gemfile', 'rakefile'],
    grammar: { name: 'ruby', code: rubyCode, data: rubyData }, query: rubyQuery,
    testPaths: [/_spec\.rb$/, /_test\.rb$/, /(?:^|\/)(?:spec|test)\//], testNames: /^test_/,
    // Ruby has no export syntax: everything is reachable (private sections are not tracked).
    exportedNames: /(?:)/,
  },
  {
    id: 'php', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.php'],
    grammar: { name: 'php', code: phpCode, data: phpData }, query: phpQuery,
    testPaths: [/Test\.php$/, TEST_DIRS], testNames: /^test/,
  },
  {
    id: 'bash', corpus: 'code', tier: 'ast', confidence: 1, extensions: ['.sh', '.bash'],
    filenames: ['.bashrc', '.bash_profile', '.profile'],
    grammar: { name: 'bash', code: bashCode, data: bashData }, query: bashQuery,
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
