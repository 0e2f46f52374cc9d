// Module hooks for running the project's extractor (src/extract/) in plain Node: wrangler's
// bundling rules turn `.wasm` imports into a WebAssembly.Module, `.scm` imports into text and
// `.deflate` imports (grammar parse tables; `.zst` in older checkouts, which the benches' `--against`
// loads) into an ArrayBuffer; these hooks do the same so the unmodified TypeScript sources load
// under tsx.
import { readFile } from 'node:fs/promises';

/** @type {import('node:module').LoadHook} */
export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && url.endsWith('.wasm')) {
    return {
      format: 'module',
      shortCircuit: true,
      source: `import { readFileSync } from 'node:fs';\nexport default new WebAssembly.Module(readFileSync(new URL(${JSON.stringify(url)})));\n`,
    };
  }
  if (url.startsWith('file:') && (url.endsWith('.deflate') || url.endsWith('.zst'))) {
    return {
      format: 'module',
      shortCircuit: true,
      source: `import { readFileSync } from 'node:fs';\nconst b = readFileSync(new URL(${JSON.stringify(url)}));\nexport default b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);\n`,
    };
  }
  if (url.startsWith('file:') && url.endsWith('.scm')) {
    const text = await readFile(new URL(url), 'utf8');
    return { format: 'module', shortCircuit: true, source: `export default ${JSON.stringify(text)};\n` };
  }
  return nextLoad(url, context);
}
