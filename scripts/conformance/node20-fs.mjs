// `fs` as the conformance CLI expects it on Node 22: Node 20 has no fs.globSync.
// The server mode never calls it (only `tier-check` does); it is here so the module loads.
export * from 'node:fs';
export { default } from 'node:fs';

export function globSync() {
  throw new Error('fs.globSync needs Node 22; the conformance `tier-check` command is not supported here');
}
