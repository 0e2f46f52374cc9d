// Which ignore rules apply where: each walked folder's .gitignore and .pincherignore, and the
// rules of the git work tree above the walked root. Matching itself is the `ignore` package's
// (gitignore semantics, `!` negation); this file only decides which rule set sees which path.
import { lstat, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import ignore from 'ignore';

/**
 * One directory's ignore rules. `local` turns a root-relative path into a path relative to the
 * directory holding the rules (ancestors of the root prepend, descendants strip).
 * @typedef {{ local: (path: string) => string, git: import('ignore').Ignore | null, pincher: import('ignore').Ignore | null }} Layer
 */

/**
 * The last word of one family of ignore files on a path: deeper layers override shallower ones.
 * @param {Layer[]} layers
 * @param {'git' | 'pincher'} family
 * @param {string} path root-relative, with a trailing `/` for folders
 * @returns {'ignored' | 'unignored' | null}
 */
export function verdictOf(layers, family, path) {
  /** @type {'ignored' | 'unignored' | null} */
  let verdict = null;
  for (const layer of layers) {
    const rules = layer[family];
    if (!rules) continue;
    const result = rules.test(layer.local(path));
    if (result.ignored) verdict = 'ignored';
    else if (result.unignored) verdict = 'unignored';
  }
  return verdict;
}

/**
 * The rules held by one walked folder, or null when it has none.
 * @param {string} abs
 * @param {import('node:fs').Dirent<Buffer>[]} entries
 * @param {string} rel
 * @returns {Promise<Layer | null>}
 */
export async function layerFor(abs, entries, rel) {
  const has = (/** @type {string} */ name) => entries.some((e) => e.isFile() && e.name.equals(Buffer.from(name)));
  const git = has('.gitignore') ? rulesFrom(await readFile(join(abs, '.gitignore'), 'utf8')) : null;
  const pincher = has('.pincherignore') ? rulesFrom(await readFile(join(abs, '.pincherignore'), 'utf8')) : null;
  if (!git && !pincher) return null;
  const prefix = rel ? `${rel}/` : '';
  return { local: (path) => path.slice(prefix.length), git, pincher };
}

/**
 * Rules that apply to the walked root from above it: when the root sits inside a git work tree,
 * the .gitignore files between the work tree's top and the root, and .git/info/exclude.
 * @param {string} root
 * @returns {Promise<Layer[]>}
 */
export async function ancestorLayers(root) {
  /** @type {Layer[]} */
  const layers = [];
  let dir = root;
  let below = '';
  for (;;) {
    const gitignore = await readIfFile(join(dir, '.gitignore'));
    if (below && gitignore !== null) {
      const prefix = below;
      layers.unshift({ local: (path) => `${prefix}/${path}`, git: rulesFrom(gitignore), pincher: null });
    }
    if (await exists(join(dir, '.git'))) {
      const exclude = await readIfFile(join(dir, '.git', 'info', 'exclude'));
      if (exclude !== null) {
        const prefix = below;
        layers.unshift({ local: (path) => (prefix ? `${prefix}/${path}` : path), git: rulesFrom(exclude), pincher: null });
      }
      return layers;
    }
    const parent = dirname(dir);
    if (parent === dir) return []; // not inside a work tree: nothing above the root applies
    below = below ? `${basename(dir)}/${below}` : basename(dir);
    dir = parent;
  }
}

/** @param {string} text */
function rulesFrom(text) {
  // Git matches case-sensitively unless core.ignorecase is set; CI file systems are.
  return ignore({ ignorecase: false }).add(text);
}

/** @param {string} file */
async function readIfFile(file) {
  try {
    return (await stat(file)).isFile() ? await readFile(file, 'utf8') : null;
  } catch {
    return null;
  }
}

/** @param {string} file */
async function exists(file) {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}
