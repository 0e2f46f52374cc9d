// Module shapes produced by the wrangler bundling rules (see wrangler.toml): `.wasm` files use
// the default CompiledWasm rule. The `.scm` (Text), `.tgz` and `.deflate` (Data) shapes are generated
// with the Env in src/worker-configuration.d.ts.
declare module '*.wasm' {
  const wasmModule: WebAssembly.Module;
  export default wasmModule;
}
