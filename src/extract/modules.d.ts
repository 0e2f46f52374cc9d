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
// The CLI tarball (cli/dist/*.tgz) uses the Data rule: its bytes as an ArrayBuffer.
declare module '*.tgz' {
  const bytes: ArrayBuffer;
  export default bytes;
}
