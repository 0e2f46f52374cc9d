import { describe, expect, it } from 'vitest';
import { linesChars, splitLinesChars } from '../../../src/tools/baseline';
import { splitLines } from '../../../src/tools/read/anchors';

describe('read baseline of a line window', () => {
  it('count a window of lines from the split lines exactly as from the text', () => {
    for (const text of ['', '\n', 'a', 'a\n', 'a\nbb\n\nccc', 'a\r\nb\r\n', 'x\ny\r\nz', '\n\n\n']) {
      const lines = splitLines(text);
      for (let start = 0; start <= 6; start++) for (let end = start; end <= 7; end++) expect(splitLinesChars(text, lines, start, end), `${JSON.stringify(text)} ${start}-${end}`).toBe(linesChars(text, start, end));
    }
  });
});
