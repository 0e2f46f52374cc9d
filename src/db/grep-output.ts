/**
 * The size of `grep -rn[i] 'w1|w2|…'` output over a project, computed inside
 * SQLite in one statement: no file content leaves D1. The savings baselines
 * of search, trace and plan_change need only this number, so shipping every
 * candidate file to the Worker to split its lines there (one round trip per
 * megabyte) is not needed.
 *
 * A file's lines come from `json_each` over its content turned into a JSON
 * array: `json_quote` escapes the text (a newline becomes `\n`, a backslash
 * `\\`), the escaped backslashes step aside (char(1) never survives
 * json_quote, which escapes it), each `\n` becomes `","`, and the backslashes
 * come back. Key = 0-based line number, value = the line without its newline.
 *
 * The count is the scanner's (src/tools/grep/scan.ts): per matching line
 * `path:N:text` and its newline, the text without one trailing `\r`; a line is
 * tested on its first 2,000 characters. Lengths are counted in characters
 * (code points): a character outside the Basic Multilingual Plane counts one,
 * where JavaScript's `.length` counts two.
 */
import { jsonLines, MAX_CHECK_LITERALS, renderCheck } from './content';

/** Characters of a line the scanner examines. */
const LINE_CHARS = 2_000;

export interface GrepOutputQuestion {
  projectId: string;
  /** The alternatives, each a fixed string (not empty). ASCII only when `ignoreCase`: lower() folds ASCII alone. */
  words: readonly string[];
  ignoreCase: boolean;
  /** The trigram MATCH expression every file holding a word satisfies (blob_grams), or null to read every file. */
  match: string | null;
  /**
   * Bytes of files holding a word (in path order) split into lines and counted at most. Only the files that hold
   * a word count against it, so a rare word's few files are counted wherever they sit in path order. A file
   * holding a word past it, with no line over 1,000 characters (`long_lines` 0: every word falls within the
   * 2,000 characters a line is tested on), counts the least grep prints for it: one line of its path, a line
   * number and the shortest word (`path:N:word` and a newline, N one digit at least); other files past it count
   * nothing. The figure is then a lower bound.
   */
  capBytes: number;
  /**
   * Bytes of the MATCH's candidate files (in path order) checked for a word at most (default: all of them); a file
   * past it is not counted. The check is a byte search, several times cheaper per byte than splitting lines.
   */
  checkBytes?: number;
}

export interface GrepOutputSize {
  /** Characters of the output over the files counted (at least, for the files past capBytes). */
  chars: number;
  /** Matching lines over the files counted (one for each file past capBytes that counts its least). */
  lines: number;
  /** Candidate files left uncounted past checkBytes or capBytes (0: the figure is exact). */
  skipped: number;
}

/** Whether the words can be counted in SQLite exactly as the scanner would (see GrepOutputQuestion.words). */
export function countableInSql(words: readonly string[], ignoreCase: boolean): boolean {
  return words.length > 0 && words.length <= MAX_CHECK_LITERALS / 2 && words.every((w) => w.length > 0 && !w.includes('\n') && (!ignoreCase || !/[^\x00-\x7f]/.test(w)));
}

/** The statement answering `q` (run it alone or in a batch; read it with `grepOutputSize`). */
export function grepOutputStatement(d1: D1Database, q: GrepOutputQuestion): D1PreparedStatement {
  const binds: unknown[] = [q.projectId, q.capBytes, q.checkBytes ?? Number.MAX_SAFE_INTEGER];
  const word = (w: string) => {
    binds.push(q.ignoreCase ? w.toLowerCase() : w);
    return `?${binds.length}`;
  };
  const params = q.words.map(word);
  binds.push(Math.min(...q.words.map((w) => [...w].length)));
  const shortest = `?${binds.length}`;
  // The file is case-folded once, before it is split (lower() folds ASCII only: lengths do not change).
  const fileText = q.ignoreCase ? 'lower(b.content)' : 'b.content';
  // Which files hold a word at all: GLOB / LIKE on the stored text (no case-folded copy of a file that holds none).
  const fileHas = q.words.map((w) => renderCheck({ op: 'has', text: w, fold: q.ignoreCase }, binds)('b.content')).join(' OR ');
  // A word within the first LINE_CHARS characters: its first occurrence ends there (no copy of the line is made).
  const lineHas = params.map((p) => `instr(j.value, ${p}) BETWEEN 1 AND ${LINE_CHARS + 1} - length(${p})`).join(' OR ');
  let source: string;
  if (q.match !== null) {
    binds.push(q.match);
    // The MATCH drives the join, as in trigramCandidates (src/db/content.ts).
    source = `blob_grams CROSS JOIN blobs b ON b.rowid = blob_grams.rowid JOIN files f ON f.hash = b.hash AND f.project_id = ?1
       WHERE blob_grams MATCH ?${binds.length}`;
  } else {
    source = `files f JOIN blobs b ON b.hash = f.hash WHERE f.project_id = ?1`;
  }
  const lines = `${jsonLines(fileText, 'b.content')} j`;
  // cand: the candidates in path order with the bytes up to each (`seen`); held: those checked (seen within ?3)
  // that hold a word, with the bytes of such files up to each (`upto`) and their `long_lines` (read with the check,
  // not again for the files past ?2); hit: the matching lines of held files within ?2.
  return d1
    .prepare(
      `WITH cand AS (
         SELECT f.path AS path, b.rowid AS rid, sum(b.size) OVER (ORDER BY f.path ROWS UNBOUNDED PRECEDING) AS seen FROM ${source}
       ), held AS (
         SELECT c.path AS path, c.rid AS rid, b.long_lines AS long_lines, sum(b.size) OVER (ORDER BY c.path ROWS UNBOUNDED PRECEDING) AS upto
         FROM cand c JOIN blobs b ON b.rowid = c.rid WHERE c.seen <= ?3 AND (${fileHas})
       ), hit AS (
         SELECT length(c.path) + length(j.key + 1) + 3 + length(j.value) - (substr(j.value, -1) = char(13)) AS chars
         FROM held c JOIN blobs b ON b.rowid = c.rid, ${lines}
         WHERE c.upto <= ?2 AND (${lineHas})
       )
       SELECT h.chars + m.chars AS chars, h.lines + m.lines AS lines, (SELECT count(*) FROM cand WHERE seen > ?3) + m.files AS skipped
       FROM (SELECT coalesce(sum(chars), 0) AS chars, count(*) AS lines FROM hit) h,
            (SELECT coalesce(sum(CASE WHEN long_lines = 0 THEN length(path) + 4 + ${shortest} ELSE 0 END), 0) AS chars,
                    count(*) AS files, coalesce(sum(long_lines = 0), 0) AS lines
             FROM held WHERE upto > ?2) m`,
    )
    .bind(...binds);
}

/** Reads the statement's answer. */
export function grepOutputSize(rows: readonly unknown[]): GrepOutputSize {
  const row = (rows[0] ?? {}) as Partial<GrepOutputSize>;
  return { chars: row.chars ?? 0, lines: row.lines ?? 0, skipped: row.skipped ?? 0 };
}

/** Runs the statement on its own. */
export async function grepOutput(d1: D1Database, q: GrepOutputQuestion): Promise<GrepOutputSize> {
  return grepOutputSize((await grepOutputStatement(d1, q).all()).results);
}
