// Module hooks: inside @modelcontextprotocol/conformance only, `fs` resolves to node20-fs.mjs.
const SHIM = new URL('./node20-fs.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}
