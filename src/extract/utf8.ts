/**
 * Coordinates inside one file's text. JavaScript strings (and web-tree-sitter's
 * indexes) count UTF-16 code units; the public schema counts UTF-8 bytes. The map
 * keeps a checkpoint every 64 code units, so a lookup scans at most 63 units and
 * an ASCII-only file costs nothing.
 */

const BLOCK_SHIFT = 6;
const BLOCK = 1 << BLOCK_SHIFT;
const NON_ASCII = /[^\x00-\x7f]/;

/** UTF-8 length of the code unit at `i` (a surrogate pair counts 4 on its high half). */
function unitBytes(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 4 : 3;
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const prev = text.charCodeAt(i - 1);
    return prev >= 0xd800 && prev <= 0xdbff ? 0 : 3;
  }
  return 3;
}

/** UTF-8 byte length of a string, without allocating the encoded bytes. */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i++) n += unitBytes(text, i);
  return n;
}

export class ByteMap {
  private readonly checkpoints: Uint32Array | null;

  constructor(private readonly text: string) {
    if (!NON_ASCII.test(text)) {
      this.checkpoints = null;
      return;
    }
    const marks = new Uint32Array((text.length >> BLOCK_SHIFT) + 1);
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
      if ((i & (BLOCK - 1)) === 0) marks[i >> BLOCK_SHIFT] = bytes;
      bytes += unitBytes(text, i);
    }
    if ((text.length & (BLOCK - 1)) === 0) marks[text.length >> BLOCK_SHIFT] = bytes;
    this.checkpoints = marks;
  }

  /** UTF-8 byte offset of the UTF-16 index `index` (0 ≤ index ≤ length). */
  byteAt(index: number): number {
    if (this.checkpoints === null) return index;
    const block = index >> BLOCK_SHIFT;
    let bytes = this.checkpoints[block];
    for (let i = block << BLOCK_SHIFT; i < index; i++) bytes += unitBytes(this.text, i);
    return bytes;
  }
}

/** Line starts of a text, split on '\n' like tree-sitter's rows. */
export class LineIndex {
  readonly lines: string[];
  /** UTF-16 index where each line starts; one extra entry for the end of the text. */
  readonly starts: number[];

  constructor(text: string) {
    this.lines = text.split('\n');
    this.starts = new Array<number>(this.lines.length + 1);
    let at = 0;
    for (let i = 0; i < this.lines.length; i++) {
      this.starts[i] = at;
      at += this.lines[i].length + 1;
    }
    this.starts[this.lines.length] = text.length;
  }

  /** UTF-16 index just past the last character of 0-based line `row` (before its '\n' or '\r\n'). */
  lineEnd(row: number): number {
    const line = this.lines[row];
    const trimmed = line.endsWith('\r') ? line.length - 1 : line.length;
    return this.starts[row] + trimmed;
  }
}
