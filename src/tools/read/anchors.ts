/**
 * Line anchors `LINE:HASH`. LINE is 1-based; HASH is 4 lowercase hex digits:
 * the 32-bit FNV-1a hash of the line's UTF-8 bytes after whitespace
 * normalisation (trimmed, every whitespace run collapsed to one space, a
 * trailing CR dropped), xor-folded to 16 bits. Re-indenting a line keeps its
 * anchor; changing any other character changes it (with odds 1 in 65536 of
 * a collision).
 */

export const ANCHOR_PATTERN = /^[1-9]\d{0,8}:[0-9a-fA-F]{4}$/;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The whitespace-normalised form of a line that the hash covers. */
export function normaliseLine(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

/** Whether UTF-16 unit `c` is one JavaScript's `\s` matches (what normaliseLine collapses and trims). */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

function mix(h: number, byte: number): number {
  return Math.imul(h ^ byte, FNV_PRIME) >>> 0;
}

/**
 * HASH of one line (see the module comment): the hash of normaliseLine(line),
 * computed in one pass over the line without building the normalised text.
 */
export function lineHash(line: string): string {
  let h = FNV_OFFSET;
  // A whitespace run between two other characters counts as one space; leading and trailing runs count nothing.
  let started = false;
  let space = false;
  for (let i = 0; i < line.length; i++) {
    let c = line.charCodeAt(i);
    if (isSpace(c)) {
      space = started;
      continue;
    }
    if (space) {
      h = mix(h, 0x20);
      space = false;
    }
    started = true;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < line.length) {
      const low = line.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) h = mix(h, c);
    else if (c < 0x800) {
      h = mix(h, 0xc0 | (c >> 6));
      h = mix(h, 0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      h = mix(h, 0xe0 | (c >> 12));
      h = mix(h, 0x80 | ((c >> 6) & 0x3f));
      h = mix(h, 0x80 | (c & 0x3f));
    } else {
      h = mix(h, 0xf0 | (c >> 18));
      h = mix(h, 0x80 | ((c >> 12) & 0x3f));
      h = mix(h, 0x80 | ((c >> 6) & 0x3f));
      h = mix(h, 0x80 | (c & 0x3f));
    }
  }
  return (((h >>> 16) ^ h) & 0xffff).toString(16).padStart(4, '0');
}

export function anchorOf(lineNumber: number, line: string): string {
  return `${lineNumber}:${lineHash(line)}`;
}

/** Lines `from`..`to` (1-based, inclusive) as `LINE:HASH|text`, one per line. */
export function anchoredText(lines: readonly string[], from: number, to: number): string {
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(`${anchorOf(n, lines[n - 1])}|${lines[n - 1]}`);
  return out.join('\n');
}

export interface StaleAnchor {
  anchor: string;
  /** The anchor of the line now at that number; null past the end. */
  current: string | null;
  /** Where a line with the anchor's hash now is (the nearest one to the old number); null when no line has it (the line changed). */
  moved_to: number | null;
}

export interface AnchorCheck {
  matched: string[];
  stale: StaleAnchor[];
}

/**
 * Which anchors still match `lines`. A stale one carries the line's current
 * anchor (null past the end) and, when its text is still in the file, where
 * it moved (content-hash relocation: the line with the same hash nearest to
 * the old number).
 */
export function checkAnchors(lines: readonly string[], anchors: readonly string[]): AnchorCheck {
  const result: AnchorCheck = { matched: [], stale: [] };
  let byHash: Map<string, number[]> | undefined;
  for (const anchor of anchors) {
    const [lineText, rawHash] = anchor.split(':');
    const hash = rawHash.toLowerCase();
    const n = Number(lineText);
    const line = lines[n - 1];
    if (line !== undefined && lineHash(line) === hash) {
      result.matched.push(anchor);
      continue;
    }
    byHash ??= hashIndex(lines);
    const at = byHash.get(hash) ?? [];
    const moved = at.length ? at.reduce((best, k) => (Math.abs(k - n) < Math.abs(best - n) ? k : best)) : null;
    result.stale.push({ anchor, current: line === undefined ? null : anchorOf(n, line), moved_to: moved });
  }
  return result;
}

/** Line numbers (1-based) by hash. */
function hashIndex(lines: readonly string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  lines.forEach((l, i) => {
    const h = lineHash(l);
    const at = out.get(h);
    if (at) at.push(i + 1);
    else out.set(h, [i + 1]);
  });
  return out;
}

/** A file's text as lines: split on LF, a trailing CR dropped, no phantom line after a final newline. */
export function splitLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return content.includes('\r') ? lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)) : lines;
}
