import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, trigramCandidatesPage } from '../../../src/db/content';
import { getProjectByName } from '../../../src/db/projects';
import { compilePattern } from '../../../src/tools/grep/pattern';
import { push } from '../upload/support';

const DB = (env as unknown as { DB: D1Database }).DB;
const PROJECT = 'grep-lines';

describe('jsonLines splits a text in SQLite as split("\\n") does', () => {
  // Backslashes next to an n (escaped, they read as a newline escape to a careless split), the text of the escape the
  // split uses itself, quotes, CR, control characters, non-ASCII, a last line with and without a newline.
  const TEXTS = [
    'a\\nb',
    'a\\\\nb\n\\\\\\n',
    '\\\nx\\',
    'C:\\new\\node\\n\r\nend\\',
    'escape \\u005c and \\\\u005c and u005c\n',
    'say "hi"\r\n\t\u0001\u001f\n\n',
    'é😀\u2028ü\nlast',
    '\\',
    '\n',
    '',
  ];
  it.each(TEXTS.map((t) => [JSON.stringify(t), t]))('%s', async (_name, text) => {
    const row = await DB.prepare(`SELECT json_group_array(j.value) AS lines FROM ${jsonLines('?1')} j`).bind(text).first<{ lines: string }>();
    expect(JSON.parse(row!.lines)).toEqual(text.split('\n'));
  });
});

describe('a prefilter page carries the lines a match can be on and the lines long in characters', () => {
  const WIDE = 'é'.repeat(600); // 1,200 bytes, 600 characters: not long
  const LONG = 'ü'.repeat(1_001); // 1,001 characters: long
  const FILES: Record<string, string> = {
    // Short lines after the long ones keep the mean line under the push's minified-bundle limit.
    'a/carried.txt': `abc xyz\n${WIDE}\n${LONG}\nxyz abc\n${'pad\n'.repeat(20)}`,
    // Holds both literals, never on one line, and no line long in characters: no row.
    'b/apart.txt': `abc\nxyz ${WIDE}\n`,
    'c/together.txt': `${WIDE} abc\nxyz abc\n`,
    // A line past the scan's clip that meets the check, and one that does not (in characters outside ASCII).
    'd/clipped.txt': `abc xyz ${'q'.repeat(3_000)}\n${'ü'.repeat(3_000)}\n${'pad\n'.repeat(200)}`,
  };
  let projectId = '';
  beforeAll(async () => {
    const pushed = await push(PROJECT, FILES);
    expect(pushed.commit?.status, JSON.stringify(pushed.commit?.body)).toBe(200);
    const project = await getProjectByName(DB, PROJECT);
    projectId = project!.id;
    expect(project!.fileCount).toBe(Object.keys(FILES).length);
  });

  it('keeps the lines holding the literals and the lines over 1,000 characters, not those over 1,000 bytes only', async () => {
    const m = compilePattern('abc.*xyz|xyz.*abc', { literal: false, ignoreCase: false });
    const page = await trigramCandidatesPage(DB, projectId, m.prefilter!.match, m.check, { limit: 10, lines: true });
    expect(page.files.map((f) => f.path)).toEqual(['a/carried.txt', 'c/together.txt', 'd/clipped.txt']);
    const hash = (path: string) => page.files.find((f) => f.path === path)!.hash;
    expect(page.lines!.get(hash('a/carried.txt'))).toEqual([[0, 'abc xyz'], [2, LONG], [3, 'xyz abc']]);
    expect(page.lines!.get(hash('c/together.txt'))).toEqual([[1, 'xyz abc']]);
  });

  it('carries a long line that meets the check whole, and of one that does not only the characters the scan needs to see it clipped', async () => {
    const m = compilePattern('abc.*xyz|xyz.*abc', { literal: false, ignoreCase: false });
    const page = await trigramCandidatesPage(DB, projectId, m.prefilter!.match, m.check, { limit: 10, lines: true });
    const hash = page.files.find((f) => f.path === 'd/clipped.txt')!.hash;
    // MAX_LINE (2,000) + 1 characters: the scan clips the prefix as it clips the line.
    expect(page.lines!.get(hash)).toEqual([[0, `abc xyz ${'q'.repeat(3_000)}`], [1, 'ü'.repeat(2_001)]]);
  });
});
