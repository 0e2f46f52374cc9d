/**
 * JSON (config corpus): each key of the top-level object is a `Setting` symbol
 * spanning from its key to the end of its value. The scanner is tolerant by design
 * (JSONC/JSON5 habits: comments, trailing commas, single quotes, bare keys), so
 * tsconfig.json and friends read cleanly; broken structure sets had_errors.
 */
import { SymbolWriter } from './scanned';
import type { Scanner } from './scanned';
import { oneLine } from './text';

class Cursor {
  i = 0;
  broken = false;
  constructor(readonly text: string) {}

  /** Skips whitespace and comments. */
  trivia(): void {
    const t = this.text;
    while (this.i < t.length) {
      const c = t[this.i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\uFEFF') this.i++;
      else if (c === '/' && t[this.i + 1] === '/') {
        const nl = t.indexOf('\n', this.i);
        this.i = nl < 0 ? t.length : nl + 1;
      } else if (c === '/' && t[this.i + 1] === '*') {
        const end = t.indexOf('*/', this.i + 2);
        if (end < 0) this.broken = true;
        this.i = end < 0 ? t.length : end + 2;
      } else return;
    }
  }

  /** Skips a quoted string starting at the cursor. */
  string(): void {
    const t = this.text;
    const quote = t[this.i++];
    while (this.i < t.length) {
      const c = t[this.i++];
      if (c === '\\') this.i++;
      else if (c === quote) return;
      else if (c === '\n') break;
    }
    this.broken = true;
  }

  /** Skips one value (scalar, string, object or array). */
  value(): void {
    const t = this.text;
    const c = t[this.i];
    if (c === '"' || c === "'") return this.string();
    if (c !== '{' && c !== '[') {
      const start = this.i;
      while (this.i < t.length && !/[,}\]\n\r]/.test(t[this.i]) && !(t[this.i] === '/' && /[/*]/.test(t[this.i + 1] ?? ''))) this.i++;
      while (this.i > start && /\s/.test(t[this.i - 1])) this.i--;
      if (this.i === start) this.broken = true;
      return;
    }
    const closers: string[] = [];
    while (this.i < t.length) {
      this.trivia();
      const ch = t[this.i];
      if (ch === undefined) break;
      if (ch === '"' || ch === "'") this.string();
      else if (ch === '{' || ch === '[') {
        closers.push(ch === '{' ? '}' : ']');
        this.i++;
      } else if (ch === '}' || ch === ']') {
        if (closers.pop() !== ch) this.broken = true;
        this.i++;
        if (closers.length === 0) return;
      } else this.i++;
    }
    this.broken = true;
  }
}

function keyName(raw: string): string {
  if (raw.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // fall through to the raw text
    }
  }
  return raw.startsWith("'") || raw.startsWith('"') ? raw.slice(1, -1) : raw;
}

function rowOf(starts: readonly number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export const scanJson: Scanner = (content, confidence) => {
  const writer = new SymbolWriter(content, confidence);
  const starts = writer.lines.starts;
  const cur = new Cursor(content);
  cur.trivia();
  if (content[cur.i] !== '{') {
    // A top-level array or scalar has no keys; anything else is not JSON.
    if (cur.i < content.length && !/[[\-\d"tfn]/.test(content[cur.i])) cur.broken = true;
    return writer.finish(cur.broken);
  }
  cur.i++;
  for (;;) {
    cur.trivia();
    const c = content[cur.i];
    if (c === undefined) {
      cur.broken = true;
      break;
    }
    if (c === '}') break;
    if (c === ',') {
      cur.i++;
      continue;
    }
    const keyStart = cur.i;
    if (c === '"' || c === "'") cur.string();
    else while (cur.i < content.length && /[\w$-]/.test(content[cur.i])) cur.i++;
    if (cur.i === keyStart) {
      cur.broken = true;
      break;
    }
    const rawKey = content.slice(keyStart, cur.i);
    cur.trivia();
    if (content[cur.i] !== ':') {
      cur.broken = true;
      break;
    }
    cur.i++;
    cur.trivia();
    const valueStart = cur.i;
    cur.value();
    const value = content.slice(valueStart, cur.i);
    const preview = value.startsWith('{') ? '{…}' : value.startsWith('[') ? '[…]' : oneLine(value, 200);
    writer.add({
      name: keyName(rawKey),
      qualifiedName: keyName(rawKey),
      kind: 'Setting',
      parent: null,
      startRow: rowOf(starts, keyStart),
      endRow: rowOf(starts, Math.max(keyStart, cur.i - 1)),
      signature: `${rawKey}: ${preview}`,
      docstring: null,
    });
    if (cur.broken) break;
  }
  return writer.finish(cur.broken);
};
