// A frozen copy of the code under test. `wrangler dev` watches every file of its bundle and
// rebuilds when one changes, and the working tree may be edited while a benchmark runs: the
// benchmark therefore serves, extracts and pushes from a snapshot taken at its start (src/,
// cli/, the dev-server launchers, migrations/, configs; node_modules linked, not copied).
// Importing the snapshot's own dev-server.mjs makes its ROOT the snapshot, so the project's
// launcher is used unchanged.
import { cp, mkdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const COPIED = ['src', 'cli', 'migrations', 'wrangler.toml', 'package.json', 'tsconfig.json'];
/** The launchers; the scripts they import (relative `./…mjs`) are copied with them. */
const LAUNCHERS = ['scripts/dev-server.mjs', 'scripts/local-server.mjs', 'scripts/wrangler-dev.mjs'];

/** `files` (paths under `root`) and every script they import by a relative path, transitively. */
export async function withLocalImports(root, files) {
  const seen = new Set();
  const queue = [...files];
  while (queue.length) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(path.join(root, file), 'utf8');
    for (const m of text.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]+\.mjs)['"]/g)) queue.push(path.posix.join(path.posix.dirname(file), m[1]));
  }
  return [...seen].sort();
}

/**
 * @param {string} root the working tree
 * @param {string} dest an empty folder
 * @returns {Promise<{ root: string, devServer: typeof import('../dev-server.mjs') }>}
 */
export async function snapshot(root, dest) {
  await mkdir(path.join(dest, 'scripts'), { recursive: true });
  for (const item of [...COPIED, ...(await withLocalImports(root, LAUNCHERS))]) {
    await cp(path.join(root, item), path.join(dest, item), { recursive: true, errorOnExist: false, force: true }).catch((err) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
  await symlink(path.join(root, 'node_modules'), path.join(dest, 'node_modules'), 'dir');
  const devServer = await import(pathToFileURL(path.join(dest, 'scripts', 'dev-server.mjs')).href);
  return { root: dest, devServer };
}
