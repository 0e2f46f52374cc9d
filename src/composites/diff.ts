/**
 * Unified diff parsing for `changes`: `git diff` (any -U), `git show` /
 * `format-patch` output (text before the first file header is ignored) and
 * plain `diff -u`. Lines are 1-based. Every changed region is kept on both
 * sides, so the caller can map it onto whichever side the index holds.
 */
import { PincherError } from '../errors';

/**
 * A changed region on one side of a file: `lines` covers lines start..end;
 * `between` is a point between line `start` and line `start + 1` where lines
 * were inserted (old side) or removed (new side).
 */
export interface Span {
  start: number;
  end: number;
  between: boolean;
}

export type FileStatus = 'modified' | 'added' | 'deleted' | 'renamed';

export interface DiffFile {
  /** Path before the change; null for an added file. */
  oldPath: string | null;
  /** Path after the change; null for a deleted file. */
  newPath: string | null;
  status: FileStatus;
  binary: boolean;
  /** Changed regions in old-side line numbers (removed lines, insertion points). */
  old: Span[];
  /** Changed regions in new-side line numbers (added lines, removal points). */
  new: Span[];
  /** Lines the diff shows on the old side ('-' and context), to check against stored content. */
  oldText: [number, string][];
  /** Lines the diff shows on the new side ('+' and context). */
  newText: [number, string][];
  /** Lines removed plus lines added. */
  changedLines: number;
}

/** Largest diff accepted, in characters (UTF-16 code units, as JSON strings are measured). */
export const MAX_DIFF_CHARS = 512 * 1024;
/** Text lines kept per file for the content check. */
const MAX_TEXT_PER_FILE = 400;

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function bad(message: string, suggestion: string, line?: number): PincherError {
  return new PincherError('invalid_params', `invalid diff: ${message}`, {
    suggestion,
    details: { param: 'diff', ...(line !== undefined ? { line } : {}) },
  });
}

/** Unquotes a C-style quoted git path ("a/sp\tace.txt"); plain paths pass through. */
function unquote(raw: string): string {
  if (!raw.startsWith('"') || !raw.endsWith('"') || raw.length < 2) return raw;
  const body = raw.slice(1, -1);
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      bytes.push(...enc.encode(c));
      continue;
    }
    const n = body[++i];
    if (n >= '0' && n <= '7') {
      const oct = body.slice(i, i + 3);
      bytes.push(parseInt(oct, 8));
      i += oct.length - 1;
    } else {
      bytes.push(({ n: 10, t: 9, r: 13, '"': 34, '\\': 92 } as Record<string, number>)[n] ?? n.charCodeAt(0));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The path of a `---` / `+++` line: null for /dev/null; `a/` `b/` prefixes and `diff -u` timestamps dropped. */
function headerPath(rest: string): string | null {
  let p = rest.startsWith('"') ? rest.slice(0, rest.indexOf('"', 1) + 1) : rest.split('\t')[0].trimEnd();
  p = unquote(p);
  if (p === '/dev/null') return null;
  return stripPrefix(p);
}

function stripPrefix(p: string): string {
  return p.replace(/^[abciwo12]\//, '').replace(/^\.\//, '');
}

interface Building extends DiffFile {
  header: number;
  hunks: number;
}

function newFile(header: number): Building {
  return { oldPath: null, newPath: null, status: 'modified', binary: false, old: [], new: [], oldText: [], newText: [], changedLines: 0, header, hunks: 0 };
}

/** Adds line `n` to the spans: extends the last `lines` span when contiguous. */
function addLine(spans: Span[], n: number): void {
  const last = spans[spans.length - 1];
  if (last && !last.between && last.end === n - 1) last.end = n;
  else spans.push({ start: n, end: n, between: false });
}

function addPoint(spans: Span[], after: number): void {
  const last = spans[spans.length - 1];
  if (last && last.between && last.start === after) return;
  spans.push({ start: after, end: after + 1, between: true });
}

function keepText(list: [number, string][], n: number, text: string): void {
  if (list.length < MAX_TEXT_PER_FILE) list.push([n, text.replace(/\r$/, '')]);
}

/** `diff --git a/x b/y`: the two paths, when they can be told apart (quoted, no spaces, or the same path twice). */
function gitHeaderPaths(rest: string): [string, string] | null {
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest);
  if (quoted) return [stripPrefix(unquote(quoted[1])), stripPrefix(unquote(quoted[2]))];
  // Unquoted paths with spaces: `a/P b/P` with the same P on both sides.
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === ' ') {
    const [a, b] = [stripPrefix(rest.slice(0, half)), stripPrefix(rest.slice(half + 1))];
    if (a === b) return [a, b];
  }
  return null;
}

/**
 * Parses a unified diff into per-file changed regions.
 * Throws `invalid_params` for an empty diff, no file header, a malformed
 * `@@` line, a hunk before any file header, or a hunk whose body does not
 * match the line counts of its header. A hunk with no body at all (headers
 * only) is taken from its header's counts.
 *
 * @example
 * parseDiff('--- a/x.ts\n+++ b/x.ts\n@@ -3 +3 @@\n-a\n+b\n')[0].old // [{ start: 3, end: 3, between: false }]
 */
export function parseDiff(text: string): DiffFile[] {
  if (!/\S/.test(text)) throw bad('the diff is empty', 'pass the output of `git diff -U0` (or any unified diff), or pass ranges instead');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const files: Building[] = [];
  let file: Building | null = null;
  const start = (at: number): Building => {
    const f = newFile(at);
    files.push(f);
    return f;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (line.startsWith('diff --git ')) {
      file = start(i + 1);
      const paths = gitHeaderPaths(line.slice('diff --git '.length));
      if (paths) [file.oldPath, file.newPath] = paths;
      continue;
    }
    if (line.startsWith('--- ') && i + 1 < lines.length && lines[i + 1].startsWith('+++ ')) {
      // A `---` line right after a git header belongs to it; otherwise it opens a plain `diff -u` file.
      if (!file || file.hunks > 0 || (file.header !== i && !isExtendedHeaderRun(lines, file.header, i))) file = start(i + 1);
      const from = headerPath(line.slice(4));
      const to = headerPath(lines[i + 1].replace(/\r$/, '').slice(4));
      file.oldPath = from;
      file.newPath = to;
      if (from === null && to === null) throw bad(`both sides are /dev/null at line ${i + 1}`, 'one side of a file header must name the file', i + 1);
      i++;
      continue;
    }
    if (line.startsWith('@@')) {
      const m = HUNK.exec(line);
      if (!m) throw bad(`malformed hunk header at line ${i + 1}: '${line.slice(0, 80)}'`, 'hunk headers have the shape @@ -start,count +start,count @@ (counts optional)', i + 1);
      if (!file || (file.oldPath === null && file.newPath === null)) {
        throw bad(`hunk at line ${i + 1} comes before any file header`, 'include the --- a/path and +++ b/path lines (git diff prints them)', i + 1);
      }
      i = readHunk(lines, i, m, file);
      continue;
    }
    if (!file) continue;
    // Extended git headers.
    const ext = /^(new file mode|deleted file mode|rename from|rename to|copy from|copy to|Binary files|GIT binary patch)\b ?(.*)$/.exec(line);
    if (!ext) continue;
    const [, what, rest] = ext;
    if (what === 'new file mode') file.status = 'added';
    else if (what === 'deleted file mode') file.status = 'deleted';
    else if (what === 'rename from' || what === 'copy from') file.oldPath = unquote(rest);
    else if (what === 'rename to' || what === 'copy to') file.newPath = unquote(rest);
    else file.binary = true;
  }

  if (files.length === 0) {
    throw bad('no file header found (--- a/path / +++ b/path or diff --git)', 'pass the output of `git diff -U0` including its file headers, or pass ranges instead');
  }
  return files.map(finish);
}

/** Whether every line between a `diff --git` header and `at` is an extended header (mode, index, rename…). */
function isExtendedHeaderRun(lines: string[], header: number, at: number): boolean {
  for (let k = header; k < at; k++) {
    if (!/^(old mode|new mode|new file mode|deleted file mode|similarity index|dissimilarity index|rename from|rename to|copy from|copy to|index )/.test(lines[k])) return false;
  }
  return true;
}

function readHunk(lines: string[], at: number, m: RegExpExecArray, file: Building): number {
  const oldStart = Number(m[1]);
  const oldCount = m[2] === undefined ? 1 : Number(m[2]);
  const newStart = Number(m[3]);
  const newCount = m[4] === undefined ? 1 : Number(m[4]);
  file.hunks++;
  // A count of 0 means the side is empty and its start is the line before the change.
  let oldLine = oldCount === 0 ? oldStart + 1 : oldStart;
  let newLine = newCount === 0 ? newStart + 1 : newStart;
  let oldSeen = 0;
  let newSeen = 0;
  // The current run of '-'/'+' lines: where it began on each side and what it holds.
  let run = { old: oldLine, new: newLine, removed: 0, added: 0 };
  const flush = () => {
    // Lines only added: an insertion point on the old side; only removed: a removal point on the new side.
    if (run.added > 0 && run.removed === 0) addPoint(file.old, run.old - 1);
    if (run.removed > 0 && run.added === 0) addPoint(file.new, run.new - 1);
    run = { old: oldLine, new: newLine, removed: 0, added: 0 };
  };
  let i = at + 1;
  for (; i < lines.length && (oldSeen < oldCount || newSeen < newCount); i++) {
    const raw = lines[i].replace(/\r$/, '');
    const c = raw[0];
    if (c === '\\') continue;
    if (c === '-' && oldSeen < oldCount) {
      addLine(file.old, oldLine);
      keepText(file.oldText, oldLine, raw.slice(1));
      run.removed++;
      file.changedLines++;
      oldLine++;
      oldSeen++;
    } else if (c === '+' && newSeen < newCount) {
      addLine(file.new, newLine);
      keepText(file.newText, newLine, raw.slice(1));
      run.added++;
      file.changedLines++;
      newLine++;
      newSeen++;
    } else if ((c === ' ' || raw === '') && oldSeen < oldCount && newSeen < newCount) {
      // Some tools strip the trailing space of an empty context line.
      flush();
      keepText(file.oldText, oldLine, raw.slice(1));
      keepText(file.newText, newLine, raw.slice(1));
      oldLine++;
      newLine++;
      oldSeen++;
      newSeen++;
      run = { old: oldLine, new: newLine, removed: 0, added: 0 };
    } else {
      break;
    }
  }
  flush();
  if (oldSeen === 0 && newSeen === 0) {
    // Headers only: the regions the header declares.
    if (oldCount > 0) file.old.push({ start: oldStart, end: oldStart + oldCount - 1, between: false });
    else if (newCount > 0) file.old.push({ start: oldStart, end: oldStart + 1, between: true });
    if (newCount > 0) file.new.push({ start: newStart, end: newStart + newCount - 1, between: false });
    else if (oldCount > 0) file.new.push({ start: newStart, end: newStart + 1, between: true });
    file.changedLines += oldCount + newCount;
    return at;
  }
  if (oldSeen !== oldCount || newSeen !== newCount) {
    throw bad(
      `the hunk at line ${at + 1} declares -${oldStart},${oldCount} +${newStart},${newCount} but its body has ${oldSeen} old and ${newSeen} new line(s)`,
      'pass the diff whole, as git prints it (a truncated or hand-edited hunk cannot be mapped to lines)',
      at + 1,
    );
  }
  return i - 1;
}

function finish(f: Building): DiffFile {
  let status = f.status;
  if (f.oldPath === null && f.newPath !== null) status = 'added';
  else if (f.newPath === null && f.oldPath !== null) status = 'deleted';
  else if (status === 'modified' && f.oldPath !== f.newPath) status = 'renamed';
  return {
    oldPath: f.oldPath,
    newPath: f.newPath,
    status,
    binary: f.binary,
    old: f.old,
    new: f.new,
    oldText: f.oldText,
    newText: f.newText,
    changedLines: f.changedLines,
  };
}

/** Whether a symbol spanning lines start..end overlaps the span. */
export function overlaps(span: Span, start: number, end: number): boolean {
  return span.between ? start <= span.start && end >= span.end : start <= span.end && end >= span.start;
}

/** How many of the lines a diff shows on one side equal the stored content at the same line numbers (trailing whitespace ignored). */
export function sideMatch(text: readonly [number, string][], content: string): { checked: number; matched: number } {
  const lines = content.split('\n');
  let matched = 0;
  for (const [n, t] of text) if ((lines[n - 1] ?? '').replace(/\r$/, '').trimEnd() === t.trimEnd()) matched++;
  return { checked: text.length, matched };
}

export type Side = 'old' | 'new';

/**
 * Which side of the diff the stored content of a file holds: the side whose
 * shown lines all match it; when a side shows nothing to check, the other
 * side's mismatch decides; with no evidence at all, the old side (a diff of
 * uncommitted work against the indexed commit). Both sides contradicted:
 * the closer one, flagged `mismatch`.
 */
export function chooseSide(f: DiffFile, oldContent: string, newContent: string): { side: Side; evidence: 'matched' | 'assumed' | 'mismatch' } {
  const o = sideMatch(f.oldText, oldContent);
  const n = sideMatch(f.newText, newContent);
  if (o.checked > 0 && o.matched === o.checked) return { side: 'old', evidence: 'matched' };
  if (n.checked > 0 && n.matched === n.checked) return { side: 'new', evidence: 'matched' };
  if (o.checked === 0) return { side: 'old', evidence: 'assumed' };
  if (n.checked === 0) return { side: 'new', evidence: 'assumed' };
  return { side: o.matched / o.checked >= n.matched / n.checked ? 'old' : 'new', evidence: 'mismatch' };
}
