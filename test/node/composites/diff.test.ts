import { describe, expect, it } from 'vitest';
import { overlaps, parseDiff } from '../../../src/composites/diff';
import { PincherError } from '../../../src/errors';

function refused(text: string): PincherError {
  try {
    parseDiff(text);
  } catch (err) {
    expect(err).toBeInstanceOf(PincherError);
    return err as PincherError;
  }
  throw new Error('parseDiff accepted the diff');
}

describe('parseDiff: git diff -U0', () => {
  const diff = [
    'diff --git a/src/app.ts b/src/app.ts',
    'index 1111111..2222222 100644',
    '--- a/src/app.ts',
    '+++ b/src/app.ts',
    '@@ -3 +3 @@ export class Server {',
    '-    listen(port);',
    '+    listen(port + 1);',
    '@@ -7,0 +8,2 @@ export function listen(port: number): number {',
    '+  // added',
    '+  // twice',
    '@@ -10,2 +11,0 @@',
    '-gone();',
    '-gone();',
    '',
  ].join('\n');

  it('maps a one-line replacement to the same line on both sides', () => {
    const [f] = parseDiff(diff);
    expect(f).toMatchObject({ oldPath: 'src/app.ts', newPath: 'src/app.ts', status: 'modified', binary: false });
    expect(f.old[0]).toEqual({ start: 3, end: 3, between: false });
    expect(f.new[0]).toEqual({ start: 3, end: 3, between: false });
  });

  it('records a pure insertion as a point between two old lines and as lines on the new side', () => {
    const [f] = parseDiff(diff);
    expect(f.old[1]).toEqual({ start: 7, end: 8, between: true });
    expect(f.new[1]).toEqual({ start: 8, end: 9, between: false });
  });

  it('records a pure removal as old lines and as a point on the new side', () => {
    const [f] = parseDiff(diff);
    expect(f.old[2]).toEqual({ start: 10, end: 11, between: false });
    expect(f.new[2]).toEqual({ start: 11, end: 12, between: true });
    expect(f.changedLines).toBe(2 + 2 + 2);
  });

  it('keeps the text of each side for checking against stored content', () => {
    const [f] = parseDiff(diff);
    expect(f.oldText).toEqual([[3, '    listen(port);'], [10, 'gone();'], [11, 'gone();']]);
    expect(f.newText).toEqual([[3, '    listen(port + 1);'], [8, '  // added'], [9, '  // twice']]);
  });
});

describe('parseDiff: context, file kinds and headers', () => {
  it('separates changed lines from context lines in a -U3 hunk', () => {
    const [f] = parseDiff(['--- a/x.py', '+++ b/x.py', '@@ -1,5 +1,5 @@', ' a', ' b', '-c', '+C', ' d', '', ''].join('\n'));
    expect(f.old).toEqual([{ start: 3, end: 3, between: false }]);
    expect(f.new).toEqual([{ start: 3, end: 3, between: false }]);
    expect(f.oldText.map(([n]) => n)).toEqual([1, 2, 3, 4, 5]);
  });

  it('reads added, deleted and renamed files, and binary files, from git headers', () => {
    const files = parseDiff(
      [
        'diff --git a/new.ts b/new.ts',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/new.ts',
        '@@ -0,0 +1,2 @@',
        '+a',
        '+b',
        'diff --git a/old.ts b/old.ts',
        'deleted file mode 100644',
        '--- a/old.ts',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-x',
        'diff --git a/from.ts b/to.ts',
        'similarity index 100%',
        'rename from from.ts',
        'rename to to.ts',
        'diff --git a/logo.png b/logo.png',
        'Binary files a/logo.png and b/logo.png differ',
      ].join('\n'),
    );
    expect(files.map((f) => [f.oldPath, f.newPath, f.status, f.binary])).toEqual([
      [null, 'new.ts', 'added', false],
      ['old.ts', null, 'deleted', false],
      ['from.ts', 'to.ts', 'renamed', false],
      ['logo.png', 'logo.png', 'modified', true],
    ]);
    expect(files[0].new).toEqual([{ start: 1, end: 2, between: false }]);
    expect(files[1].old).toEqual([{ start: 1, end: 1, between: false }]);
  });

  it('ignores commit text before the first file header (git show, format-patch)', () => {
    const files = parseDiff(['commit abc', 'Author: x', '', '    message --- not a header', '', '--- a/a.go', '+++ b/a.go', '@@ -2 +2 @@', '-x', '+y'].join('\n'));
    expect(files).toHaveLength(1);
    expect(files[0].oldPath).toBe('a.go');
  });

  it('reads plain diff -u headers with timestamps and quoted git paths', () => {
    const [plain] = parseDiff('--- a/x.rb\t2024-01-01 10:00:00\n+++ b/x.rb\t2024-01-02 10:00:00\n@@ -1 +1 @@\n-a\n+b\n');
    expect(plain.newPath).toBe('x.rb');
    const [quoted] = parseDiff('diff --git "a/sp ace.ts" "b/sp ace.ts"\n--- "a/sp ace.ts"\n+++ "b/sp ace.ts"\n@@ -1 +1 @@\n-a\n+b\n');
    expect(quoted.oldPath).toBe('sp ace.ts');
  });

  it('takes a hunk with no body from its header counts', () => {
    const [f] = parseDiff('--- a/x.ts\n+++ b/x.ts\n@@ -4,3 +4,0 @@\n');
    expect(f.old).toEqual([{ start: 4, end: 6, between: false }]);
  });

  it('treats a removed line that looks like a header as a removed line', () => {
    const [f] = parseDiff('--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,1 @@\n--- comment\n+++ other\n-x\n');
    expect(f.old).toEqual([{ start: 1, end: 2, between: false }]);
  });

  it('handles the no-newline marker and CRLF line ends', () => {
    const [f] = parseDiff('--- a/x.ts\r\n+++ b/x.ts\r\n@@ -1 +1 @@\r\n-a\r\n\\ No newline at end of file\r\n+b\r\n');
    expect(f.oldText).toEqual([[1, 'a']]);
    expect(f.newText).toEqual([[1, 'b']]);
  });
});

describe('parseDiff: bad input', () => {
  it('refuses an empty diff', () => {
    expect(refused('  \n ').message).toContain('empty');
  });
  it('refuses text with no file header', () => {
    expect(refused('just some words\n').message).toContain('no file header');
  });
  it('refuses a malformed hunk header, naming its line', () => {
    const err = refused('--- a/x.ts\n+++ b/x.ts\n@@ -a,b +c @@\n-x\n');
    expect(err.code).toBe('invalid_params');
    expect(err.message).toContain('malformed hunk header at line 3');
    expect(err.suggestion).toBeTruthy();
  });
  it('refuses a hunk before any file header', () => {
    expect(refused('@@ -1 +1 @@\n-a\n+b\n').message).toContain('before any file header');
  });
  it('refuses a hunk whose body is shorter than its header says', () => {
    expect(refused('--- a/x.ts\n+++ b/x.ts\n@@ -1,3 +1,3 @@\n-a\n+b\n').message).toContain('declares -1,3 +1,3');
  });
});

describe('overlaps', () => {
  it('tests line spans by intersection and points by straddling', () => {
    expect(overlaps({ start: 3, end: 5, between: false }, 5, 9)).toBe(true);
    expect(overlaps({ start: 3, end: 5, between: false }, 6, 9)).toBe(false);
    expect(overlaps({ start: 7, end: 8, between: true }, 1, 8)).toBe(true);
    expect(overlaps({ start: 7, end: 8, between: true }, 1, 7)).toBe(false);
  });
});
