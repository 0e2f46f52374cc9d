/**
 * A grammar shipped as two modules (see scripts/pack-grammars.mjs): its code as a compiled
 * `WebAssembly.Module` without a data section, and that data section (the parse tables),
 * zstd-compressed. zstd's long window compresses the tables ~40 % better than the gzip
 * Cloudflare's upload limit counts, and workerd cannot compile a module from bytes at run
 * time, so the data cannot simply be put back into a module: it is written into the module's
 * memory instead, where the data segment would have put it.
 *
 * web-tree-sitter instantiates the module inside `Language.loadSync` and, right after, applies
 * the data relocations and runs the constructors, which read that memory; so the bytes are
 * written by a `WebAssembly.Instance` stand-in that lives only for that synchronous call.
 */
import { decompress } from 'fzstd';

export interface PackedGrammar {
  /** The grammar module without its data section. */
  code: WebAssembly.Module;
  /** Its one data segment (placed at `__memory_base`), zstd-compressed. */
  data: ArrayBuffer;
}

interface SideModuleImports {
  env: { memory: WebAssembly.Memory; __memory_base: number };
}

type InstanceConstructor = typeof WebAssembly.Instance;

/**
 * Runs `load` (which must instantiate `grammar.code` synchronously, once) with the grammar's
 * data written into its memory as soon as the instance exists.
 */
export function withGrammarData<T>(grammar: PackedGrammar, load: () => T): T {
  const data = decompress(new Uint8Array(grammar.data));
  const scope = WebAssembly as { Instance: InstanceConstructor };
  const original = scope.Instance;
  let written = false;
  const standIn = function Instance(module: WebAssembly.Module, imports?: WebAssembly.Imports) {
    const instance = new original(module, imports);
    if (module === grammar.code) {
      const { memory, __memory_base: base } = (imports as unknown as SideModuleImports).env;
      new Uint8Array(memory.buffer, base, data.length).set(data);
      written = true;
    }
    return instance;
  } as unknown as InstanceConstructor;
  standIn.prototype = original.prototype;
  scope.Instance = standIn;
  let result: T;
  try {
    result = load();
  } finally {
    scope.Instance = original;
  }
  if (!written) throw new Error('the grammar module was not instantiated while loading it; its data was not written');
  return result;
}
