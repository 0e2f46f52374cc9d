/**
 * The grammars the language table uses, each as its code module and its deflated parse tables
 * (written by scripts/pack-grammars.mjs from @vscode/tree-sitter-wasm; loaded by
 * `../packed-grammar.ts`).
 */
import type { PackedGrammar } from '../packed-grammar';
import bashCode from './tree-sitter-bash.code.wasm';
import bashData from './tree-sitter-bash.data.deflate';
import csharpCode from './tree-sitter-c-sharp.code.wasm';
import csharpData from './tree-sitter-c-sharp.data.deflate';
import cppCode from './tree-sitter-cpp.code.wasm';
import cppData from './tree-sitter-cpp.data.deflate';
import goCode from './tree-sitter-go.code.wasm';
import goData from './tree-sitter-go.data.deflate';
import javaCode from './tree-sitter-java.code.wasm';
import javaData from './tree-sitter-java.data.deflate';
import javascriptCode from './tree-sitter-javascript.code.wasm';
import javascriptData from './tree-sitter-javascript.data.deflate';
import phpCode from './tree-sitter-php.code.wasm';
import phpData from './tree-sitter-php.data.deflate';
import pythonCode from './tree-sitter-python.code.wasm';
import pythonData from './tree-sitter-python.data.deflate';
import rubyCode from './tree-sitter-ruby.code.wasm';
import rubyData from './tree-sitter-ruby.data.deflate';
import rustCode from './tree-sitter-rust.code.wasm';
import rustData from './tree-sitter-rust.data.deflate';
import tsxCode from './tree-sitter-tsx.code.wasm';
import tsxData from './tree-sitter-tsx.data.deflate';
import typescriptCode from './tree-sitter-typescript.code.wasm';
import typescriptData from './tree-sitter-typescript.data.deflate';

export const bashWasm: PackedGrammar = { code: bashCode, data: bashData };
export const csharpWasm: PackedGrammar = { code: csharpCode, data: csharpData };
export const cppWasm: PackedGrammar = { code: cppCode, data: cppData };
export const goWasm: PackedGrammar = { code: goCode, data: goData };
export const javaWasm: PackedGrammar = { code: javaCode, data: javaData };
export const javascriptWasm: PackedGrammar = { code: javascriptCode, data: javascriptData };
export const phpWasm: PackedGrammar = { code: phpCode, data: phpData };
export const pythonWasm: PackedGrammar = { code: pythonCode, data: pythonData };
export const rubyWasm: PackedGrammar = { code: rubyCode, data: rubyData };
export const rustWasm: PackedGrammar = { code: rustCode, data: rustData };
export const tsxWasm: PackedGrammar = { code: tsxCode, data: tsxData };
export const typescriptWasm: PackedGrammar = { code: typescriptCode, data: typescriptData };
