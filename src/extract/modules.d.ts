// Module shapes produced by the wrangler bundling rules (see wrangler.toml): `.wasm` files use
// the default CompiledWasm rule. The `.scm` (Text) and `.tgz` (Data) shapes are generated with
// the Env in src/worker-configuration.d.ts.
declare module '*.wasm' {
  const wasmModule: WebAssembly.Module;
  export default wasmModule;
}

// Grammar parse tables, zstd-compressed (wrangler.toml's Data rule for `.zst`; see packed-grammar.ts).
declare module '*.zst' {
  const bytes: ArrayBuffer;
  export default bytes;
}
