import type { Span } from './ast';

/** Where in the query text something is: UTF-16 offset, 1-based line and column. */
export interface Position {
  offset: number;
  line: number;
  column: number;
}

/**
 * A query the language rejects, with the span it points at and a fix. `syntax`
 * errors are malformed text; `semantic` ones are well-formed text that cannot
 * run (unknown variable, type mismatch, depth over the bound).
 */
export class QueryError extends Error {
  constructor(
    message: string,
    readonly span: Span,
    readonly suggestion: string,
    readonly stage: 'syntax' | 'semantic' = 'syntax',
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

export function positionOf(text: string, offset: number): Position {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { offset: at, line, column: at - lineStart + 1 };
}

const WINDOW = 72;

/**
 * The line holding `offset` with a caret under it, clipped to a window around
 * the caret on long lines (`…` marks a clip). Tabs print as one space so the
 * caret lines up.
 */
export function excerptAt(text: string, offset: number): string {
  const at = Math.max(0, Math.min(offset, text.length));
  const start = text.lastIndexOf('\n', at - 1) + 1;
  let end = text.indexOf('\n', at);
  if (end < 0) end = text.length;
  const line = text.slice(start, end).replace(/[\t\r]/g, ' ');
  let col = at - start;
  let from = 0;
  let to = line.length;
  if (line.length > WINDOW) {
    from = Math.max(0, Math.min(col - WINDOW / 2, line.length - WINDOW));
    to = Math.min(line.length, from + WINDOW);
  }
  const head = from > 0 ? '…' : '';
  const tail = to < line.length ? '…' : '';
  col = col - from + head.length;
  return `${head}${line.slice(from, to)}${tail}\n${' '.repeat(col)}^`;
}
