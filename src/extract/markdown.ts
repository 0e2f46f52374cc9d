/**
 * Markdown (docs corpus): every heading is a `Section` symbol.
 * - qualified_name is the heading path joined by ' > ' ("Guide > Install > Linux");
 * - a section runs from its heading to the line before the next heading of the same
 *   or a higher level (trailing blank lines excluded);
 * - ATX (`## x`) and setext (underlined) headings; nothing inside fenced code blocks
 *   or front matter counts; the docstring is the first paragraph under the heading.
 */
import { SymbolWriter, trimTrailing } from './scanned';
import type { Scanner } from './scanned';
import { oneLine } from './text';

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
// Lines that cannot be the text of a setext heading.
const NOT_PARAGRAPH = /^(?: {4}|\t| {0,3}(?:[-*+][ \t]|\d+[.)][ \t]|>|#|<|\|))/;
const MAX_DOC = 500;

interface Heading {
  level: number;
  name: string;
  row: number;
  /** Last row of the heading itself (the underline of a setext heading). */
  headRow: number;
  signature: string;
  endRow: number;
  qualifiedName: string;
  parent: string | null;
}

function firstParagraph(lines: readonly string[], from: number, isHeading: (row: number) => boolean): string | null {
  let row = from;
  while (row < lines.length && lines[row].trim() === '') row++;
  const parts: string[] = [];
  for (; row < lines.length && lines[row].trim() !== '' && !isHeading(row) && !FENCE.test(lines[row]); row++) {
    parts.push(lines[row].trim());
  }
  return parts.length > 0 ? oneLine(parts.join(' '), MAX_DOC) : null;
}

function frontMatterEnd(lines: readonly string[]): number {
  const open = lines[0]?.trim();
  if (open !== '---' && open !== '+++') return 0;
  for (let row = 1; row < lines.length; row++) {
    const t = lines[row].trim();
    if (t === open || (open === '---' && t === '...')) return row + 1;
  }
  return 0;
}

function findHeadings(lines: readonly string[]): Heading[] {
  const found: Heading[] = [];
  let fence: string | null = null;
  let paragraphRow = -1;
  for (let row = frontMatterEnd(lines); row < lines.length; row++) {
    const line = lines[row].replace(/\r$/, '');
    if (fence !== null) {
      const close = FENCE.exec(line);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length && line.trim() === close[1]) fence = null;
      continue;
    }
    const open = FENCE.exec(line);
    if (open) {
      fence = open[1];
      paragraphRow = -1;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      const name = (atx[2] ?? '').trim();
      if (name !== '') found.push(heading(atx[1].length, name, row, row, line));
      paragraphRow = -1;
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext && paragraphRow === row - 1) {
      const text = lines[row - 1].replace(/\r$/, '');
      found.push(heading(setext[1][0] === '=' ? 1 : 2, text.trim(), row - 1, row, text));
      paragraphRow = -1;
      continue;
    }
    paragraphRow = line.trim() !== '' && !NOT_PARAGRAPH.test(line) ? row : -1;
  }
  return found;
}

function heading(level: number, name: string, row: number, headRow: number, line: string): Heading {
  return { level, name, row, headRow, signature: line.trim(), endRow: row, qualifiedName: name, parent: null };
}

export const scanMarkdown: Scanner = (content, confidence) => {
  const writer = new SymbolWriter(content, confidence);
  const lines = writer.lines.lines;
  const headings = findHeadings(lines);
  const headingRows = new Set<number>();
  for (const h of headings) for (let r = h.row; r <= h.headRow; r++) headingRows.add(r);

  // One pass with a stack of open sections: a heading closes every open section of
  // the same or a deeper level, and the one left on top is its parent.
  const open: Heading[] = [];
  // Closes the open sections down to (excluding) `level`, ending them before `nextRow`.
  const closeTo = (level: number, nextRow: number): void => {
    for (let top = open.at(-1); top && top.level >= level; top = open.at(-1)) {
      top.endRow = trimTrailing(lines, top.headRow, nextRow - 1);
      open.pop();
    }
  };
  for (const h of headings) {
    closeTo(h.level, h.row);
    const parent = open.at(-1);
    h.parent = parent ? parent.qualifiedName : null;
    h.qualifiedName = parent ? `${parent.qualifiedName} > ${h.name}` : h.name;
    open.push(h);
  }
  closeTo(0, lines.length);

  for (const h of headings) {
    writer.add({
      name: h.name,
      qualifiedName: h.qualifiedName,
      kind: 'Section',
      parent: h.parent,
      startRow: h.row,
      endRow: h.endRow,
      signature: h.signature,
      docstring: firstParagraph(lines, h.headRow + 1, (row) => headingRows.has(row)),
    });
  }
  return writer.finish(false);
};
