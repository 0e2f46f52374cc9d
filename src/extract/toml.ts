/**
 * TOML (config corpus): `Setting` symbols for the key/value pairs before the first
 * table and for every table header (`[a.b]`, `[[bin]]`; name = the dotted header).
 * A table runs to the line before the next header; repeated array tables get `~2`…
 * Multi-line strings and arrays are skipped so their lines are never read as keys.
 * The comment lines right above a key or header are its docstring.
 */
import { SymbolWriter, trimTrailing } from './scanned';
import type { Scanner } from './scanned';
import { cleanDocstring } from './text';

const HEADER = /^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/;
const KEY_VALUE = /^\s*((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*)\s*=/;
const COMMENT = /^\s*#/;

/** Tracks what a line leaves open: a multi-line string or unclosed brackets. */
class Continuation {
  string: '"""' | "'''" | null = null;
  depth = 0;

  /** Consumes one line, starting at index `from`. */
  feed(line: string, from = 0): void {
    for (let i = from; i < line.length; i++) {
      if (this.string) {
        if (this.string === '"""' && line[i] === '\\') i++;
        else if (line.startsWith(this.string, i)) {
          this.string = null;
          i += 2;
        }
        continue;
      }
      const c = line[i];
      if (c === '#') break;
      if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
        this.string = line.startsWith('"""', i) ? '"""' : "'''";
        i += 2;
      } else if (c === '"' || c === "'") {
        const end = c === '"' ? /"(?:[^"\\]|\\.)*"/y : /'[^']*'/y;
        end.lastIndex = i;
        i = end.test(line) ? end.lastIndex - 1 : line.length;
      } else if (c === '[' || c === '{') this.depth++;
      else if (c === ']' || c === '}') this.depth = Math.max(0, this.depth - 1);
    }
  }

  get open(): boolean {
    return this.string !== null || this.depth > 0;
  }
}

function normaliseKey(key: string): string {
  return key.split(/\s*\.\s*/).join('.');
}

function docAbove(lines: readonly string[], row: number): string | null {
  let first = row;
  while (first > 0 && COMMENT.test(lines[first - 1])) first--;
  return first < row ? cleanDocstring(lines.slice(first, row)) : null;
}

export const scanToml: Scanner = (content, confidence) => {
  const writer = new SymbolWriter(content, confidence);
  const lines = writer.lines.lines;
  const tables: { name: string; row: number }[] = [];
  const cont = new Continuation();
  let inTable = false;

  for (let row = 0; row < lines.length; row++) {
    const line = lines[row].replace(/\r$/, '');
    if (cont.open) {
      cont.feed(line);
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      tables.push({ name: normaliseKey(header[2]), row });
      inTable = true;
      continue;
    }
    const kv = KEY_VALUE.exec(line);
    if (!kv) continue;
    cont.feed(line, kv[0].length);
    if (inTable) continue;
    const start = row;
    while (cont.open && row + 1 < lines.length) cont.feed(lines[++row]);
    const name = normaliseKey(kv[1]);
    writer.add({
      name,
      qualifiedName: name,
      kind: 'Setting',
      parent: null,
      startRow: start,
      endRow: row,
      signature: line,
      docstring: docAbove(lines, start),
    });
  }

  for (let i = 0; i < tables.length; i++) {
    const { name, row } = tables[i];
    const stop = i + 1 < tables.length ? tables[i + 1].row : lines.length;
    writer.add({
      name,
      qualifiedName: name,
      kind: 'Setting',
      parent: null,
      startRow: row,
      endRow: trimTrailing(lines, row, stop - 1, COMMENT),
      signature: lines[row],
      docstring: docAbove(lines, row),
    });
  }
  return writer.finish(cont.open);
};
