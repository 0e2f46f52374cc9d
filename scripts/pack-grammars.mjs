// `npm run grammars:pack`: writes src/extract/grammars/ from the grammar .wasm files of
// @vscode/tree-sitter-wasm. Each grammar becomes two files:
//   tree-sitter-<name>.code.wasm      the module without its data section (compiled at upload, as before)
//   tree-sitter-<name>.data.deflate   that data section as two byte planes (`toPlanes`), raw deflate
// A grammar's data section (its parse tables, mostly 16-bit entries) is ~95 % of the file. Split
// into planes (the low bytes of the 16-bit words, then the high bytes) and deflated by zopfli, it
// takes ~17 % less than the gzip Cloudflare's size limit counts makes of the plain tables, and the
// Worker inflates it with the runtime's native DecompressionStream in a few milliseconds;
// src/extract/packed-grammar.ts puts the data back in the module's memory when the grammar is
// first loaded. Rerun after bumping @vscode/tree-sitter-wasm (needs the `zopfli` command, e.g.
// `apt-get install zopfli`; a few minutes); test/node/extract/packed-grammars.test.ts checks that
// the committed files rebuild the package's .wasm files byte for byte.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The grammars src/extract/grammars/index.ts imports (file stems in @vscode/tree-sitter-wasm/wasm). */
export const PACKED_GRAMMARS = ['bash', 'c-sharp', 'cpp', 'go', 'java', 'javascript', 'php', 'python', 'ruby', 'rust', 'tsx', 'typescript'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SOURCE_DIR = path.join(root, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');
export const PACKED_DIR = path.join(root, 'src', 'extract', 'grammars');

const DATA_SECTION = 11;
const DATA_COUNT_SECTION = 12;

/**
 * Splits a tree-sitter grammar (an Emscripten side module) into the module without its data
 * section and the bytes of its one data segment. Refuses any other shape: the loader writes the
 * bytes at the module's `__memory_base`, which is only right for one active segment placed there.
 * @param {Uint8Array} wasm
 * @returns {{ code: Uint8Array, data: Uint8Array }}
 */
export function splitGrammar(wasm) {
  const bytes = Buffer.from(wasm.buffer, wasm.byteOffset, wasm.byteLength);
  let p = 8;
  const leb = () => {
    let result = 0;
    let shift = 0;
    let byte;
    do {
      byte = bytes[p++];
      result |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return result >>> 0;
  };
  const kept = [bytes.subarray(0, 8)];
  /** @type {Uint8Array | null} */
  let data = null;
  while (p < bytes.length) {
    const sectionStart = p;
    const id = bytes[p++];
    const size = leb();
    const bodyStart = p;
    if (id === DATA_COUNT_SECTION) throw new Error('a data count section (bulk memory) is not supported');
    if (id === DATA_SECTION) {
      if (leb() !== 1) throw new Error('expected exactly one data segment');
      if (leb() !== 0) throw new Error('expected an active segment in memory 0');
      // Offset expression: global.get <the imported __memory_base>; end.
      if (bytes[p++] !== 0x23) throw new Error('expected the segment offset to be global.get __memory_base');
      leb();
      if (bytes[p++] !== 0x0b) throw new Error('expected the segment offset to be global.get __memory_base');
      const length = leb();
      data = bytes.subarray(p, p + length);
      if (p + length !== bodyStart + size) throw new Error('unexpected bytes after the data segment');
    } else {
      kept.push(bytes.subarray(sectionStart, bodyStart + size));
    }
    p = bodyStart + size;
  }
  if (!data) throw new Error('no data section');
  return { code: Buffer.concat(kept), data };
}

/**
 * The bytes at even offsets, then those at odd offsets (an odd length ends with its last byte):
 * the low and high bytes of the tables' 16-bit entries each compress better among their own kind.
 * `fromPlanes` in src/extract/packed-grammar.ts is the inverse.
 * @param {Uint8Array} data
 */
export function toPlanes(data) {
  const half = data.length >> 1;
  const planes = new Uint8Array(data.length);
  for (let i = 0; i < half; i++) {
    planes[i] = data[2 * i];
    planes[half + i] = data[2 * i + 1];
  }
  if (data.length & 1) planes[data.length - 1] = data[data.length - 1];
  return planes;
}

function main() {
  mkdirSync(PACKED_DIR, { recursive: true });
  // zopfli reads a named file only.
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'pack-grammars-'));
  const planesFile = path.join(tmp, 'planes');
  try {
    for (const name of PACKED_GRAMMARS) packOne(name, planesFile);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** @param {string} name @param {string} planesFile */
function packOne(name, planesFile) {
  const { code, data } = splitGrammar(readFileSync(path.join(SOURCE_DIR, `tree-sitter-${name}.wasm`)));
  writeFileSync(path.join(PACKED_DIR, `tree-sitter-${name}.code.wasm`), code);
  // Raw deflate (what DecompressionStream('deflate-raw') reads); zopfli's 5 iterations come
  // within 1 % of its default 15 in a third of the time.
  writeFileSync(planesFile, toPlanes(data));
  const deflated = execFileSync('zopfli', ['--i5', '--deflate', '-c', planesFile], { maxBuffer: 1 << 28 });
  writeFileSync(path.join(PACKED_DIR, `tree-sitter-${name}.data.deflate`), deflated);
  console.log(`${name}: code ${(code.length / 1024).toFixed(0)} KiB, data ${(data.length / 1024).toFixed(0)} KiB → ${(deflated.length / 1024).toFixed(0)} KiB deflate`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
