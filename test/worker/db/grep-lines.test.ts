import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, longLines, trigramCandidatesPage } from '../../../src/db/content';
import { getProjectByName } from '../../../src/db/projects';
import { compilePattern } from '../../../src/tools/grep/pattern';
import { push } from '../upload/support';

const DB = (env as unknown as { DB: D1Database }).DB;
// The migration that added blobs.long_lines: its second statement fills the column for contents stored before it.
const BACKFILL = Object.values(import.meta.glob<string>('../../../migrations/0019_grep_long_lines.sql', { query: '?raw', import: 'default', eager: true }))[0]
  .split('--> statement-breakpoint')[1];
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

  const longOf = async (path: string) =>
    (await DB.prepare('SELECT b.long_lines AS long FROM files f JOIN blobs b ON b.hash = f.hash WHERE f.project_id = ?1 AND f.path = ?2').bind(projectId, path).first<{ long: number | null }>())!.long;

  it('a push stores whether a content has a line over 1,000 characters, and the migration fills it alike for stored contents', async () => {
    const want = { 'a/carried.txt': 1, 'b/apart.txt': 0, 'c/together.txt': 0, 'd/clipped.txt': 1 };
    for (const [path, long] of Object.entries(want)) {
      expect(await longOf(path), path).toBe(long);
      expect(longLines(FILES[path]), path).toBe(long);
    }
    const hashes = `SELECT hash FROM files WHERE project_id = '${projectId}'`;
    await DB.prepare(`UPDATE blobs SET long_lines = NULL WHERE hash IN (${hashes})`).run();
    await DB.prepare(BACKFILL.replace(/;\s*$/, ` WHERE hash IN (${hashes})`)).run();
    for (const [path, long] of Object.entries(want)) expect(await longOf(path), `${path} after the backfill`).toBe(long);
  });

  it('splits a content stored without a long line without testing line lengths, and one of unknown kind with the test', async () => {
    const m = compilePattern('abc.*xyz|xyz.*abc', { literal: false, ignoreCase: false });
    const carried = async () => {
      const page = await trigramCandidatesPage(DB, projectId, m.prefilter!.match, m.check, { limit: 10, lines: true });
      return page.lines!.get(page.files.find((f) => f.path === 'd/clipped.txt')!.hash)!.map(([no]) => no);
    };
    const set = (long: number | null) => DB.prepare(`UPDATE blobs SET long_lines = ?1 WHERE hash IN (SELECT hash FROM files WHERE project_id = ?2 AND path = 'd/clipped.txt')`).bind(long, projectId).run();
    try {
      // Marked (falsely) as having no long line: the long line that does not meet the check stays behind.
      await set(0);
      expect(await carried()).toEqual([0]);
      await set(null);
      expect(await carried()).toEqual([0, 1]);
    } finally {
      await set(1);
    }
    expect(await carried()).toEqual([0, 1]);
  });
});

describe("a listing's first page walks files until their lines hold the matches it needs", () => {
  const FILES: Record<string, string> = {
    // One line holds `foo` as written, two only ignoring case: the folded check carries them, the count takes one.
    'a.txt': 'Foo one\nfoo two\nFOO three\n',
    'b.txt': 'foo four\n',
    // Both literals of the regex below, never on one line: walked, counted as none, not returned.
    'c.txt': 'abc\nxyz\nfoo five\n',
    'd.txt': 'abc xyz\nfoo six\nfoo seven\n',
  };
  let projectId = '';
  beforeAll(async () => {
    const pushed = await push('grep-need', FILES);
    expect(pushed.commit?.status, JSON.stringify(pushed.commit?.body)).toBe(200);
    projectId = (await getProjectByName(DB, 'grep-need'))!.id;
  });
  const literal = compilePattern('foo', { literal: true, ignoreCase: false });
  const folded = compilePattern('foo', { literal: true, ignoreCase: true });
  const page = (need: { matches: number; files: number }, m = literal, orFolded: typeof folded.check | null = null) =>
    trigramCandidatesPage(DB, projectId, m.prefilter!.match, m.check, { limit: 32, need, lines: true, orFolded });

  it('stops at the file whose lines reach the need, and says more may follow', async () => {
    const p = await page({ matches: 2, files: 100 });
    expect(p.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
    expect(p).toMatchObject({ more: true, last: 'b.txt', walked: 2, carriesLines: true });
    expect(p.lines!.get(p.files[1].hash)).toEqual([[0, 'foo four']]);
  });

  it('walks every candidate when the need is not reached, and says none follows', async () => {
    const p = await page({ matches: 100, files: 100 });
    expect(p.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);
    expect(p).toMatchObject({ more: false, last: 'd.txt', walked: 4 });
  });

  it('stops at its file cap', async () => {
    const p = await page({ matches: 100, files: 3 });
    expect(p.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(p).toMatchObject({ more: true, last: 'c.txt', walked: 3 });
  });

  it('counts only the lines the exact check meets, though it carries those the folded check meets', async () => {
    const p = await page({ matches: 2, files: 100 }, literal, folded.check);
    // a.txt carries three lines but holds one match as written: the walk goes on to b.txt.
    expect(p.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
    expect(p.lines!.get(p.files[0].hash)).toEqual([[0, 'Foo one'], [1, 'foo two'], [2, 'FOO three']]);
    const first = await page({ matches: 1, files: 100 }, literal, folded.check);
    expect(first.files.map((f) => f.path)).toEqual(['a.txt']);
  });

  it('walks past a file whose lines all miss the check without returning it', async () => {
    const m = compilePattern('abc.*xyz', { literal: false, ignoreCase: false });
    const p = await page({ matches: 1, files: 100 }, m);
    expect(p.files.map((f) => f.path)).toEqual(['d.txt']);
    expect(p).toMatchObject({ more: true, last: 'd.txt', walked: 2 });
    const none = await page({ matches: 1, files: 1 }, m);
    expect(none.files).toEqual([]);
    expect(none).toMatchObject({ more: true, last: 'c.txt', walked: 1 });
  });

  it('answers an absent literal with no row and nothing more', async () => {
    const m = compilePattern('zzq_absent_literal', { literal: true, ignoreCase: false });
    const p = await page({ matches: 10, files: 100 }, m);
    expect(p).toMatchObject({ files: [], more: false, walked: 0 });
    expect(p.last).toBeUndefined();
  });
});
