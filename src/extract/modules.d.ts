// Module shapes produced by the wrangler bundling rules (see wrangler.toml):
// `.wasm` files use the default CompiledWasm rule, `.scm` query files the Text rule.
declare module '*.wasm' {
  const wasmModule: WebAssembly.Module;
  export default wasmModule;
}
declare module '*.scm' {
  const source: string;
  export default source;
}
