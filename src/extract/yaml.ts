/**
 * YAML (config corpus): each top-level mapping key (a key at column 0) is a
 * `Setting` symbol running to the line before the next top-level key or document
 * marker (trailing blank and comment lines excluded). The comment lines right
 * above a key are its docstring. Keys in later documents of a multi-document file
 * count too (a repeat gets `~2`). Nested keys are not symbols.
 */
import { SymbolWriter, trimTrailing } from './scanned';
import type { Scanner } from './scanned';
import { cleanDocstring } from './text';

// A key at column 0: quoted, or plain up to the `:` that is followed by a space or the end.
const TOP_KEY = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#\-?:&*!|>'"%@`{[\],][^#]*?|-[^\s#][^#]*?))[ \t]*:(?:[ \t]|$)/;
const DOC_MARKER = /^(?:---|\.\.\.)(?:\s|$)/;
const COMMENT = /^\s*#/;

export const scanYaml: Scanner = (content, confidence) => {
  const writer = new SymbolWriter(content, confidence);
  const lines = writer.lines.lines;
  const keys: { name: string; row: number; doc: string | null }[] = [];
  const boundaries: number[] = [];

  for (let row = 0; row < lines.length; row++) {
    const line = lines[row].replace(/\r$/, '');
    if (DOC_MARKER.test(line)) {
      boundaries.push(row);
      continue;
    }
    const m = TOP_KEY.exec(line);
    if (!m) continue;
    const name = m[1] !== undefined ? m[1] : m[2] !== undefined ? m[2].replace(/''/g, "'") : m[3].trim();
    let first = row;
    while (first > 0 && COMMENT.test(lines[first - 1]) && !lines[first - 1].startsWith('#!')) first--;
    const doc = first < row ? cleanDocstring(lines.slice(first, row)) : null;
    keys.push({ name, row, doc });
    boundaries.push(row);
  }

  let next = 0;
  for (const key of keys) {
    while (next < boundaries.length && boundaries[next] <= key.row) next++;
    const stop = next < boundaries.length ? boundaries[next] : lines.length;
    writer.add({
      name: key.name,
      qualifiedName: key.name,
      kind: 'Setting',
      parent: null,
      startRow: key.row,
      endRow: trimTrailing(lines, key.row, stop - 1, COMMENT),
      signature: lines[key.row],
      docstring: key.doc,
    });
  }
  return writer.finish(false);
};
