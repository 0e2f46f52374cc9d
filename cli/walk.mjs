// The walker: which files of a tree make up the index, with their size and hash, and why every
// other entry was left out. It never follows symlinks and its output does not depend on the
// order the file system lists entries in.
//
// Precedence for each entry, first answer wins:
//   1. .pincherignore files (deeper files override shallower ones, last match wins):
//      a match excludes (`ignored`); a `!` match re-includes past 2. and 3. (for a folder, its
//      whole content is then walked without .gitignore rules, the blocklist still applying);
//   2. the built-in blocklist (`blocked`); version-control folders stay blocked regardless;
//   3. .gitignore files, plus .git/info/exclude of the repository (`ignored`).
// Included files are then read: over the size cap (`too_large`), NUL in the first 8 KiB
// (`binary`), not UTF-8 (`encoding`), generated or minified content (`blocked`, unless a
// .pincherignore re-included the file).
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { VCS_DIRS, blockedByContent, blockedByName } from './blocklist.mjs';
import { ancestorLayers, layerFor, verdictOf } from './ignore-rules.mjs';

/** @typedef {'ignored' | 'blocked' | 'binary' | 'encoding' | 'too_large' | 'symlink'} SkipReason */
/** @typedef {{ path: string, size: number, hash: string }} WalkedFile */
/** @typedef {{ path: string, reason: SkipReason, detail?: string }} SkippedEntry */
/**
 * @typedef {object} WalkResult
 * @property {WalkedFile[]} files included files, sorted by path
 * @property {SkippedEntry[]} skipped left-out entries, sorted by path; a pruned folder is one
 *   entry whose path ends in `/`
 * @property {Record<SkipReason, number>} counts skipped entries by reason
 */

/** Every skip reason, in the order summaries list them. */
export const SKIP_REASONS = /** @type {const} */ (['ignored', 'blocked', 'binary', 'encoding', 'too_large', 'symlink']);

export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;
const MAX_PATH_BYTES = 1024;
const BINARY_SNIFF_BYTES = 8192;
const READ_CONCURRENCY = 16;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Walk a tree and hash the files that belong in the index.
 * @param {string} root directory to walk
 * @param {{ maxFileSize?: number }} [options]
 * @returns {Promise<WalkResult>}
 * @example
 *   const { files, counts } = await walk('.', { maxFileSize: 512 * 1024 });
 */
export async function walk(root, { maxFileSize = DEFAULT_MAX_FILE_SIZE } = {}) {
  /** @type {SkippedEntry[]} */
  const skipped = [];
  /** @type {{ path: string, abs: string, reincluded: boolean }[]} */
  const candidates = [];

  /**
   * @param {string} abs
   * @param {string} rel
   * @param {import('./ignore-rules.mjs').Layer[]} layers
   * @param {boolean} optedIn inside a folder a .pincherignore re-included: .gitignore set aside
   */
  async function visit(abs, rel, layers, optedIn) {
    const entries = await readdir(abs, { withFileTypes: true, encoding: 'buffer' });
    const own = await layerFor(abs, entries, rel);
    const scope = own ? [...layers, own] : layers;
    for (const entry of entries) {
      let name;
      try {
        name = utf8.decode(entry.name);
      } catch {
        skipped.push({ path: join2(rel, entry.name.toString('utf8')), reason: 'encoding', detail: 'file name is not UTF-8' });
        continue;
      }
      const path = join2(rel, name);
      if (name.includes('\\')) {
        // The protocol's separator is `/`; a backslash inside a name would read as one.
        skipped.push({ path, reason: 'encoding', detail: 'backslash in the name' });
        continue;
      }
      const isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        skipped.push({ path, reason: 'symlink' });
        continue;
      }
      if (!isDir && !entry.isFile()) continue; // sockets, fifos, devices: not source
      const shown = isDir ? `${path}/` : path;
      if (Buffer.byteLength(path) > MAX_PATH_BYTES) {
        skipped.push({ path: shown, reason: 'too_large', detail: `path over ${MAX_PATH_BYTES} bytes` });
        continue;
      }
      const verdict = decide(scope, path, name, isDir, optedIn);
      if (verdict.skip) {
        skipped.push({ path: shown, ...verdict.skip });
      } else if (isDir) {
        await visit(join(abs, name), path, scope, optedIn || verdict.reincluded);
      } else {
        candidates.push({ path, abs: join(abs, name), reincluded: verdict.reincluded });
      }
    }
  }

  const top = resolve(root);
  await visit(top, '', await ancestorLayers(top), false);

  /** @type {WalkedFile[]} */
  const files = [];
  await eachLimit(candidates, READ_CONCURRENCY, async (candidate) => {
    const result = await inspect(candidate, maxFileSize);
    if (!result) return;
    if ('reason' in result) skipped.push(result);
    else files.push(result);
  });

  files.sort(byPath);
  skipped.sort(byPath);
  const counts = /** @type {Record<SkipReason, number>} */ (Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])));
  for (const entry of skipped) counts[entry.reason]++;
  return { files, skipped, counts };
}

/**
 * @param {import('./ignore-rules.mjs').Layer[]} layers
 * @param {string} path
 * @param {string} name
 * @param {boolean} isDir
 * @param {boolean} optedIn
 * @returns {{ skip?: { reason: SkipReason, detail?: string }, reincluded: boolean }}
 */
function decide(layers, path, name, isDir, optedIn) {
  const tested = isDir ? `${path}/` : path;
  const pincher = verdictOf(layers, 'pincher', tested);
  if (pincher === 'ignored') return { skip: { reason: 'ignored', detail: '.pincherignore' }, reincluded: false };
  if (isDir && VCS_DIRS.has(name)) return { skip: { reason: 'blocked', detail: 'folder' }, reincluded: false };
  if (pincher === 'unignored') return { reincluded: true };
  const family = blockedByName(name, isDir);
  if (family) return { skip: { reason: 'blocked', detail: family }, reincluded: false };
  if (!optedIn && verdictOf(layers, 'git', tested) === 'ignored') return { skip: { reason: 'ignored', detail: '.gitignore' }, reincluded: false };
  return { reincluded: false };
}

/**
 * Read and classify one candidate file; null when it vanished since it was listed.
 * @param {{ path: string, abs: string, reincluded: boolean }} candidate
 * @param {number} maxFileSize
 * @returns {Promise<WalkedFile | SkippedEntry | null>}
 */
async function inspect({ path, abs, reincluded }, maxFileSize) {
  const tooLarge = { path, reason: /** @type {const} */ ('too_large'), detail: `over ${maxFileSize} bytes` };
  let bytes;
  try {
    if ((await lstat(abs)).size > maxFileSize) return tooLarge;
    bytes = await readFile(abs);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return null;
    throw error;
  }
  if (bytes.length > maxFileSize) return tooLarge;
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { path, reason: 'binary' };
  let text;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { path, reason: 'encoding', detail: 'not valid UTF-8' };
  }
  const family = reincluded ? null : blockedByContent(text, bytes.length);
  if (family) return { path, reason: 'blocked', detail: family };
  return { path, size: bytes.length, hash: sha256(bytes) };
}

/**
 * Lowercase hex SHA-256 of raw bytes, the content address the server uses.
 * @param {Uint8Array} bytes
 */
export function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/** @param {string} rel @param {string} name */
function join2(rel, name) {
  return rel ? `${rel}/${name}` : name;
}

/** @param {{ path: string }} a @param {{ path: string }} b */
function byPath(a, b) {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * Run `task` over `items` with at most `limit` at a time.
 * @template T
 * @param {T[]} items
 * @param {number} limit
 * @param {(item: T) => Promise<void>} task
 */
async function eachLimit(items, limit, task) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
