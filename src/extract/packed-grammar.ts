/**
 * A grammar shipped as two modules (see scripts/pack-grammars.mjs): its code as a compiled
 * `WebAssembly.Module` without a data section, and that data section (the parse tables) as two
 * byte planes, raw-deflated. The planes deflate ~17 % smaller than the gzip Cloudflare's upload
 * limit counts makes of the plain tables, the runtime's native `DecompressionStream` inflates
 * them in a few milliseconds, and workerd cannot compile a module from bytes at run time, so the data
 * cannot simply be put back into a module: it is written into the module's memory instead, where
 * the data segment would have put it.
 *
 * Inflating is asynchronous (`inflateGrammarData`, before the load); web-tree-sitter instantiates
 * the module inside `Language.loadSync` and, right after, applies the data relocations and runs
 * the constructors, which read that memory; so the bytes are written by a
 * `WebAssembly.Instance` stand-in that lives only for that synchronous call.
 */

export interface PackedGrammar {
  /** The grammar module without its data section. */
  code: WebAssembly.Module;
  /** Its one data segment (placed at `__memory_base`) as byte planes (`fromPlanes`), raw deflate. */
  data: ArrayBuffer;
}

/** A grammar's data segment inflated, still as byte planes (`fromPlanes` restores it). */
export type GrammarPlanes = Uint8Array;

/** Inflates the grammar's parse tables with the runtime's native decompressor. */
export async function inflateGrammarData(grammar: PackedGrammar): Promise<GrammarPlanes> {
  try {
    const inflated = new Response(grammar.data).body!.pipeThrough(new DecompressionStream('deflate-raw'));
    return new Uint8Array(await new Response(inflated).arrayBuffer());
  } catch (err) {
    throw new Error(`the grammar's parse tables did not inflate: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Writes the bytes of `planes` (the even offsets' bytes, then the odd ones', as
 * `toPlanes` in scripts/pack-grammars.mjs lays them out) back in order into `out`.
 */
export function fromPlanes(planes: Uint8Array, out: Uint8Array): void {
  const length = planes.length;
  const half = length >> 1;
  if ((out.byteOffset & 1) === 0) {
    // One 16-bit store per pair (wasm memory is little-endian, as is every host workerd runs on).
    const words = new Uint16Array(out.buffer, out.byteOffset, half);
    for (let i = 0; i < half; i++) words[i] = planes[i]! | (planes[half + i]! << 8);
  } else {
    for (let i = 0; i < half; i++) {
      out[2 * i] = planes[i]!;
      out[2 * i + 1] = planes[half + i]!;
    }
  }
  if (length & 1) out[length - 1] = planes[length - 1]!;
}

interface SideModuleImports {
  env: { memory: WebAssembly.Memory; __memory_base: number };
}

type InstanceConstructor = typeof WebAssembly.Instance;

/**
 * Runs `load` (which must instantiate `grammar.code` synchronously, once) with the grammar's
 * data (`planes`, from `inflateGrammarData`) written into its memory as soon as the instance exists.
 */
export function withGrammarData<T>(grammar: PackedGrammar, planes: GrammarPlanes, load: () => T): T {
  const scope = WebAssembly as { Instance: InstanceConstructor };
  const original = scope.Instance;
  let written = false;
  const standIn = function Instance(module: WebAssembly.Module, imports?: WebAssembly.Imports) {
    const instance = new original(module, imports);
    if (module === grammar.code) {
      const { memory, __memory_base: base } = (imports as unknown as SideModuleImports).env;
      fromPlanes(planes, new Uint8Array(memory.buffer, base, planes.length));
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
