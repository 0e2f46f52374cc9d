/**
 * Reads of a project's stored files and their content, for grep, find and
 * ls. Paths are compared with SQLite's binary collation; a folder `d` holds
 * exactly the paths in ['d/', 'd0') because '0' follows '/' in ASCII.
 */
import { allRows } from './client';
import { cachedAggregate, type AggregateProject } from './aggregates';
import { endingSeeks, pathConditions, type PathFilter } from './path-filter';

export interface FileRow {
  path: string;
  hash: string;
  /** UTF-8 bytes of the file as pushed. */
  size: number;
  language: string;
  status: string;
  symbols: number;
}

export interface FileFilter {
  /** Only paths under this folder ('' = the whole project). */
  under?: string;
  language?: string;
  minSize?: number;
  maxSize?: number;
  /** Fixed strings the path contains (case-sensitive): a path glob's literals, narrowing the rows before the glob's own test. */
  pathContains?: readonly string[];
  /** A text some segment of the path ends with (a path glob's Glob.ending): sought through files_ext when it holds a `.`. */
  ending?: string;
}

function where(projectId: string, f: FileFilter): { sql: string; binds: unknown[] } {
  const clauses = ['project_id = ?1'];
  const binds: unknown[] = [projectId];
  const add = (clause: (n: number) => string, value: unknown) => {
    binds.push(value);
    clauses.push(clause(binds.length));
  };
  if (f.under) {
    add((n) => `path >= ?${n}`, `${f.under}/`);
    add((n) => `path < ?${n}`, `${f.under}0`);
  }
  if (f.language !== undefined) add((n) => `language = ?${n}`, f.language);
  if (f.minSize !== undefined) add((n) => `size >= ?${n}`, f.minSize);
  if (f.maxSize !== undefined) add((n) => `size <= ?${n}`, f.maxSize);
  for (const text of f.pathContains ?? []) add((n) => `instr(path, ?${n}) > 0`, text);
  return { sql: clauses.join(' AND '), binds };
}

/**
 * The filter's conditions on the files table (`where`) with a name ending (`ending`): one condition that tests
 * every row in range, or two disjoint ones that each seek (endingSeeks), for a UNION ALL of two SELECTs.
 */
function whereEnding(projectId: string, f: FileFilter): { arms: string[]; binds: unknown[] } {
  const w = where(projectId, f);
  if (f.ending === undefined) return { arms: [w.sql], binds: w.binds };
  const binds = [...w.binds];
  const seeks = endingSeeks(f.ending, (value) => `?${binds.push(value)}`);
  if (seeks) return { arms: seeks.map((c) => `${w.sql} AND ${c}`), binds };
  return { arms: [[w.sql, ...numberedPathConditions({ ending: f.ending }, binds)].join(' AND ')], binds };
}

/** pathConditions on `path` with numbered placeholders: their values are pushed onto `binds`, after what it holds. */
function numberedPathConditions(f: Omit<PathFilter, 'paths'>, binds: unknown[]): string[] {
  const values: unknown[] = [];
  return pathConditions('path', f, values).map((c) => c.replace(/\?/g, () => `?${binds.push(values.shift())}`));
}

/** The project's visible files matching the filter, ordered by path. */
export async function projectFiles(d1: D1Database, projectId: string, filter: FileFilter = {}): Promise<FileRow[]> {
  return filesWhere<FileRow>(d1, projectId, filter, 'path, hash, size, language, status, symbol_count AS symbols');
}

/** A file as find lists it. */
export type ListedFile = Omit<FileRow, 'hash'>;

/**
 * projectFiles without each file's content hash, which only a read of the content needs: a glob's candidates can be
 * most of a project (444 rows for `test_*.py` files anywhere in the 3,000-file tier), each hash 64 characters carried out of D1.
 */
export async function listedFiles(d1: D1Database, projectId: string, filter: FileFilter = {}): Promise<ListedFile[]> {
  return filesWhere<ListedFile>(d1, projectId, filter, 'path, size, language, status, symbol_count AS symbols');
}

async function filesWhere<T>(d1: D1Database, projectId: string, filter: FileFilter, columns: string): Promise<T[]> {
  const w = whereEnding(projectId, filter);
  const select = (cond: string) => `SELECT ${columns} FROM files WHERE ${cond}`;
  return allRows<T>(d1.prepare(`${w.arms.map(select).join(' UNION ALL ')} ORDER BY path`).bind(...w.binds));
}

/**
 * The first `limit` of the project's visible files matching the filter and a
 * plain path condition (src/db/path-filter.ts), in SQLite's path order, and how
 * many match in all: one statement, however many match. SQLite's order is
 * JavaScript's unless a path holds a character from U+E000 to U+FFFF
 * (pathsOrderedAlike says whether any does).
 */
export async function filePage(d1: D1Database, projectId: string, filter: FileFilter, plain: Omit<PathFilter, 'paths'>, limit: number): Promise<{ rows: ListedFile[]; total: number }> {
  const columns = 'path, size, language, status, symbol_count AS symbols';
  let statement: D1PreparedStatement;
  const seek = plain.ending === undefined ? null : whereEnding(projectId, { ...filter, ending: plain.ending });
  if (seek && seek.arms.length === 2) {
    // A name ending that seeks: the page merges the two arms in path order (each reads its index in that order, so
    // the LIMIT stops both early), and the count adds theirs (the arms are disjoint).
    const [a, b] = seek.arms;
    statement = d1
      .prepare(
        `SELECT p.*, (SELECT count(*) FROM files WHERE ${a}) + (SELECT count(*) FROM files WHERE ${b}) AS total
         FROM (SELECT ${columns} FROM files WHERE ${a} UNION ALL SELECT ${columns} FROM files WHERE ${b} ORDER BY path LIMIT ?${seek.binds.length + 1}) p`,
      )
      .bind(...seek.binds, limit);
  } else {
    const w = where(projectId, filter);
    const binds = [...w.binds];
    const cond = [w.sql, ...numberedPathConditions(plain, binds)].join(' AND ');
    statement = d1
      .prepare(
        `SELECT ${columns},
           (SELECT count(*) FROM files WHERE ${cond}) AS total
         FROM files WHERE ${cond} ORDER BY path LIMIT ?${binds.length + 1}`,
      )
      .bind(...binds, limit);
  }
  const rows = await allRows<ListedFile & { total: number }>(statement);
  return {
    rows: rows.map(({ total: _t, ...f }) => f),
    total: rows[0]?.total ?? 0,
  };
}

/**
 * Whether every path of the project sorts alike in SQLite (code points) and
 * JavaScript (UTF-16 code units): they part only on a character from U+E000
 * to U+FFFF against one outside the Basic Multilingual Plane. False: some path
 * holds such a character, and the first `limit` in JavaScript's order may be
 * other files than filePage's.
 */
export async function pathsOrderedAlike(d1: D1Database, projectId: string): Promise<boolean> {
  const row = await d1
    .prepare('SELECT EXISTS (SELECT 1 FROM files WHERE project_id = ?1 AND path GLOB ?2) AS odd')
    .bind(projectId, `*[${String.fromCharCode(0xe000)}-${String.fromCharCode(0xffff)}]*`)
    .first<{ odd: number }>();
  return !row?.odd;
}

/** The file at exactly this path, or null. */
export async function fileAt(d1: D1Database, projectId: string, path: string): Promise<FileRow | null> {
  return d1
    .prepare('SELECT path, hash, size, language, status, symbol_count AS symbols FROM files WHERE project_id = ?1 AND path = ?2')
    .bind(projectId, path)
    .first<FileRow>();
}

/** The characters of the full listing of the files a statement reads, one `path size` line per file (listingChars). */
const LISTING_CHARS = 'coalesce(sum(length(path) + length(size) + 2), 0)';

/**
 * Files and characters of the full listing of a scope, one `path size` line
 * per file: Σ (chars(path) + 1 + digits(size) + 1). The walk_directory baseline.
 */
export async function listingChars(d1: D1Database, projectId: string, under?: string): Promise<{ files: number; chars: number }> {
  const w = where(projectId, { under });
  const row = await d1
    .prepare(`SELECT count(*) AS files, ${LISTING_CHARS} AS chars FROM files WHERE ${w.sql}`)
    .bind(...w.binds)
    .first<{ files: number; chars: number }>();
  return row ?? { files: 0, chars: 0 };
}

/** A folder listed down to some depth (folderListing). */
export interface FolderListing {
  /** The files at most `depth` levels below the folder, whole (the folder's own path, when it is a file, among them), without their content hash, which ls never shows. */
  files: ListedFile[];
  /** For the files deeper than that: each folder `depth` levels below (its path relative to the listed folder) and how many it holds. */
  deeper: { folder: string; files: number }[];
  /** Every file under the folder, and the characters of their full listing (listingChars: the walk_directory baseline). */
  total: number;
  chars: number;
}

/**
 * What `ls` shows of a folder (`under`; the root when undefined) down to `depth` levels, in one statement: the files it
 * lists whole, the deeper files only as counts per folder at the last level, and the whole listing's size. A folder
 * of tens of thousands of files then sends its first levels, not every file row.
 */
export async function folderListing(d1: D1Database, projectId: string, under: string | undefined, depth: number): Promise<FolderListing> {
  const w = where(projectId, { under });
  const binds = [...w.binds];
  const rel = under === undefined ? 'path' : `substr(path, length(?${binds.push(under)}) + 2)`;
  const levels = `?${binds.push(depth)}`;
  // Where the depth-th `/` of `rel` is: the folder `depth` levels down ends just before it.
  let slash = "instr(rel, '/')";
  for (let k = 2; k <= depth; k++) slash = `(${slash} + instr(substr(rel, ${slash} + 1), '/'))`;
  const rows = await allRows<{ t: number; path: string | null; size: number | null; language: string | null; status: string | null; symbols: number | null; n: number | null; chars: number | null }>(
    d1
      .prepare(
        `WITH s AS NOT MATERIALIZED (
           SELECT path, size, language, status, symbol_count AS symbols, rel, length(rel) - length(replace(rel, '/', '')) AS slashes
           FROM (SELECT *, ${rel} AS rel FROM files WHERE ${w.sql})
         )
         SELECT 0 AS t, path, size, language, status, symbols, NULL AS n, NULL AS chars FROM s WHERE slashes < ${levels}
         UNION ALL
         SELECT 1, substr(rel, 1, ${slash} - 1), NULL, NULL, NULL, NULL, count(*), NULL FROM s WHERE slashes >= ${levels} GROUP BY 2
         UNION ALL
         SELECT 2, NULL, NULL, NULL, NULL, NULL, count(*), ${LISTING_CHARS} FROM s`,
      )
      .bind(...binds),
  );
  const out: FolderListing = { files: [], deeper: [], total: 0, chars: 0 };
  for (const r of rows) {
    if (r.t === 0) out.files.push({ path: r.path as string, size: r.size as number, language: r.language as string, status: r.status as string, symbols: r.symbols as number });
    else if (r.t === 1) out.deeper.push({ folder: r.path as string, files: r.n as number });
    else [out.total, out.chars] = [r.n ?? 0, r.chars ?? 0];
  }
  return out;
}

/** Projects of at least this many files keep their shallow root listings per generation: below it a listing is one cheap pass. */
export const STORED_LISTING_MIN_FILES = 1_000;
/** Depths of a root listing that are kept: deeper ones list most of a project's files, more than a stored row should carry. */
export const STORED_LISTING_MAX_DEPTH = 2;
/** A kept listing holds at most this many files; past it the stored row says so and each call lists the folder anew. */
export const STORED_LISTING_MAX_FILES = 2_000;

/**
 * folderListing, with the root of a large project (STORED_LISTING_MIN_FILES) down to STORED_LISTING_MAX_DEPTH levels
 * kept in `project_aggregates` once per generation (cachedAggregate): such a listing is a pass over every file of the
 * project (2.4 ms of SQLite for 3,000 files), and agents list the root first and often. The first listing after a push
 * computes and stores it; any other folder or depth is listed as before. A listing of more than `maxFiles` files is not
 * kept: the stored row says so, and each call lists the root anew.
 */
export async function projectListing(
  d1: D1Database,
  project: AggregateProject & { fileCount: number },
  under: string | undefined,
  depth: number,
  maxFiles = STORED_LISTING_MAX_FILES,
): Promise<FolderListing> {
  if (under !== undefined || depth > STORED_LISTING_MAX_DEPTH || project.fileCount < STORED_LISTING_MIN_FILES) {
    return folderListing(d1, project.id, under, depth);
  }
  const kept = await cachedAggregate(d1, project, `ls:${depth}`, async () => {
    const listing = await folderListing(d1, project.id, undefined, depth);
    return listing.files.length <= maxFiles ? listing : null;
  });
  return kept.value ?? folderListing(d1, project.id, undefined, depth);
}

/**
 * An exact condition on a file's content, checked inside SQLite: `has` is a
 * substring (`fold`: ASCII case-insensitive, the text itself ASCII), `and` /
 * `or` combine. It keeps only the trigram candidates that really hold the
 * required literals, so a literal that is absent ships no content at all.
 */
export type ContentCheck = { op: 'has'; text: string; fold: boolean } | { op: 'and' | 'or'; items: ContentCheck[] };

/** Literals one check may bind (two more parameters are the project and the MATCH; D1 allows 100). */
export const MAX_CHECK_LITERALS = 90;

/**
 * The longest LIKE or GLOB pattern D1 takes, in bytes (its SQLITE_LIMIT_LIKE_PATTERN_LENGTH: a longer one fails the whole
 * statement, "LIKE or GLOB pattern too complex"). A literal whose pattern would be longer is tested with instr.
 */
export const PATTERN_BYTES = 50;

const utf8 = new TextEncoder();

/**
 * The check as SQL on any text column (its literals bound once, so the same parameters serve several columns).
 *
 * A literal is a GLOB `*text*` (case-sensitive), folded a LIKE `%text%` (SQLite's LIKE ignores the case of
 * ASCII letters only, exactly what a JavaScript /i regex without the u flag does to an ASCII literal). Both
 * skip to the literal's first character with a byte search, where instr steps through every character and
 * lower() copies the whole text first: on the trigram candidates of a literal, 2–4× less SQLite CPU. They
 * read a text up to its first NUL: stored content holds none (a file with a NUL is binary, its content never
 * stored; src/extract/guards.ts). A literal holding a NUL, or one whose pattern D1 would refuse as too long, keeps instr.
 */
export function renderCheck(c: ContentCheck, binds: unknown[]): (column: string) => string {
  if (c.op === 'has') {
    const n = binds.length + 1;
    // In a GLOB, a bracket holds one character taken literally.
    const pattern = c.fold ? `%${c.text.replace(/[\\%_]/g, '\\$&')}%` : `*${c.text.replace(/[*?[]/g, '[$&]')}*`;
    if (c.text.includes('\0') || utf8.encode(pattern).length > PATTERN_BYTES) {
      // lower() folds ASCII only, as LIKE does.
      binds.push(c.fold ? c.text.toLowerCase() : c.text);
      return (column) => (c.fold ? `instr(lower(${column}), ?${n}) > 0` : `instr(${column}, ?${n}) > 0`);
    }
    binds.push(pattern);
    return (column) => (c.fold ? `${column} LIKE ?${n} ESCAPE '\\'` : `${column} GLOB ?${n}`);
  }
  const items = c.items.map((i) => renderCheck(i, binds));
  return (column) => `(${items.map((i) => i(column)).join(c.op === 'and' ? ' AND ' : ' OR ')})`;
}

/** Whether every text passing `a` passes `b`, seen from their shapes (false: not known). */
function implies(a: ContentCheck, b: ContentCheck): boolean {
  // LIKE folds ASCII letters alone (toLowerCase would also fold the Kelvin sign to k).
  const ascii = (text: string) => text.replace(/[A-Z]/g, (ch) => ch.toLowerCase());
  if (a.op === 'has' && b.op === 'has') return b.fold ? ascii(a.text) === ascii(b.text) : !a.fold && a.text === b.text;
  if (a.op === 'has' || b.op === 'has' || a.op !== b.op || a.items.length !== b.items.length) return false;
  return a.items.every((item, k) => implies(item, b.items[k]));
}

function checkSize(c: ContentCheck): number {
  return c.op === 'has' ? 1 : c.items.reduce((n, i) => n + checkSize(i), 0);
}

/**
 * The SQL of a content check on `b.content` (and of the folded check riding along, when both fit in one
 * statement's parameters): `exact`, the column saying a row passes the exact check, and `where`, the
 * condition a row must meet; `line`, the same condition on one line's text (null when no check applies).
 */
function checkSql(
  check: ContentCheck | null | undefined,
  orFolded: ContentCheck | null | undefined,
  binds: unknown[],
  /** Parameters the check may bind. */
  budget = MAX_CHECK_LITERALS,
): { exact: string; where: string; folded: boolean; line: ((column: string) => string) | null; exactLine: ((column: string) => string) | null } {
  const usable = check && checkSize(check) <= budget ? check : null;
  const folded = usable && orFolded && checkSize(usable) + checkSize(orFolded) <= budget ? orFolded : null;
  if (usable && folded) {
    const exact = renderCheck(usable, binds);
    const either = renderCheck(folded, binds);
    // When every text passing the exact check passes the folded one (the same literals, folded), the folded check alone says
    // whether a row passes either: a candidate holding neither is read once, not twice.
    const line = implies(usable, folded) ? either : (column: string) => `(${exact(column)} OR ${either(column)})`;
    return { exact: `(${exact('b.content')})`, where: ` AND ${line('b.content')}`, folded: true, line, exactLine: exact };
  }
  if (!usable) return { exact: '1', where: '', folded: false, line: null, exactLine: null };
  const exact = renderCheck(usable, binds);
  return { exact: '1', where: ` AND ${exact('b.content')}`, folded: false, line: exact, exactLine: exact };
}

/**
 * A text column's lines (`split('\n')` of it) as `json_each` rows: key the 0-based line number, value the
 * line without its newline. `json_quote` escapes the text (a newline becomes `\n`, a backslash `\\`), each
 * escaped backslash becomes the escape `\u005c` (the same character, and no `\n` can start inside it, so
 * a backslash followed by the letter n is never taken for a newline), then each `\n` becomes `","`. The
 * passes of `replace` over the quoted text are most of the split's cost.
 */
export function jsonLines(column: string, /** A text with the same backslashes as `column` (cheaper to read, e.g. the column `lower()` copies). */ raw = column): string {
  // A text without a backslash quotes without an escaped one: its first pass is skipped (GLOB finds a character with a byte
  // search; stored content holds no NUL, see renderCheck).
  return `json_each('[' || replace(CASE WHEN ${raw} GLOB '*\\*' THEN replace(json_quote(${column}), '\\\\', '\\u005c') ELSE json_quote(${column}) END, '\\n', '","') || ']')`;
}

/** Lines a prefilter row carries: [0-based line number, line text] (see trigramCandidatesPage's `lines`). */
export type CarriedLines = readonly (readonly [number, string])[];

type CandidateRow = FileRow & { content: string | null; exact: number; lines?: string | null };

/** Prefilter rows as candidates: exact ones with their content (a hash's first carried content kept), folded-only ones apart. */
function candidatesOf(rows: CandidateRow[], folded: boolean, withLines = false): CandidateFiles {
  const content = new Map<string, string | null>();
  const lines = new Map<string, CarriedLines>();
  const files: FileRow[] = [];
  const foldedOnly: FileRow[] = [];
  for (const { content: text, exact, lines: carried, ...file } of rows) {
    if (withLines && typeof carried === 'string' && !lines.has(file.hash)) lines.set(file.hash, JSON.parse(carried) as CarriedLines);
    if (!exact) {
      foldedOnly.push(file);
      continue;
    }
    files.push(file);
    if (text !== null || !content.has(file.hash)) content.set(file.hash, text);
  }
  return { files, content, ...(folded ? { foldedOnly } : {}), ...(withLines ? { lines } : {}) };
}

/**
 * The project's files whose stored content contains every trigram of the
 * MATCH expression (blob_grams, detail='none': a superset of the files
 * holding the literals, verified by the caller), and, with `check`, that also
 * satisfy it (then exactly the files holding the literals): by content hash,
 * with the content itself for the first `withContentBytes` bytes of them in
 * path order (null past it: the caller fetches the rest with blobContents).
 * So a grep whose candidates fit gets them in the prefilter's own round trip.
 *
 * The MATCH drives the join (CROSS JOIN pins the order): one index lookup,
 * then a rowid seek per matching blob and a `files_hash` probe for the
 * project's files holding it. Driven from `files` instead, SQLite visits
 * every file of the project and its blob whatever the pattern (4–30× slower
 * on 3,000 files). Two files with one content carry it once.
 */
export async function trigramCandidates(
  d1: D1Database,
  projectId: string,
  match: string,
  check?: ContentCheck | null,
  opts: { withContentBytes?: number; under?: string; orFolded?: ContentCheck | null } = {},
): Promise<CandidateFiles> {
  const binds: unknown[] = [projectId, match, opts.withContentBytes ?? 0];
  const { exact: exactColumn, where, folded } = checkSql(check, opts.orFolded, binds);
  let inFolder = '';
  if (opts.under) {
    binds.push(`${opts.under}/`, `${opts.under}0`);
    // Unary + keeps the folder range off the primary key: each candidate blob is looked up by hash, not by scanning the folder.
    inFolder = ` AND +f.path >= ?${binds.length - 1} AND +f.path < ?${binds.length}`;
  }
  const rows = await d1
    .prepare(
      `WITH c AS (
         SELECT b.rowid AS rid, b.hash AS hash, b.size AS bytes, ${exactColumn} AS exact
         FROM blob_grams CROSS JOIN blobs b ON b.rowid = blob_grams.rowid
         WHERE blob_grams MATCH ?2${where}
       ), w AS (
         SELECT f.path AS path, f.hash AS hash, f.size AS size, f.language AS language, f.status AS status, f.symbol_count AS symbols, c.rid AS rid, c.exact AS exact,
                row_number() OVER (PARTITION BY f.hash ORDER BY f.path) AS nth,
                sum(CASE WHEN c.exact THEN c.bytes ELSE 0 END) OVER (ORDER BY f.path ROWS UNBOUNDED PRECEDING) AS upto
         FROM c CROSS JOIN files f ON f.hash = c.hash AND f.project_id = ?1${inFolder}
       )
       SELECT w.path, w.hash, w.size, w.language, w.status, w.symbols, w.exact, CASE WHEN w.exact AND w.nth = 1 AND w.upto <= ?3 THEN b.content END AS content
       FROM w JOIN blobs b ON b.rowid = w.rid ORDER BY w.path`,
    )
    .bind(...binds)
    .all<CandidateRow>();
  return candidatesOf(rows.results, folded);
}

/** The stored contents holding every trigram of the MATCH expression ?2 (a superset of those holding the literals). */
const TRIGRAM_HASHES = 'SELECT b.hash AS hash FROM blob_grams CROSS JOIN blobs b ON b.rowid = blob_grams.rowid WHERE blob_grams MATCH ?2';

/** What a prefilter page asks for (trigramCandidatesPage). */
export interface PageOptions {
  /** Files the page holds at most. */
  limit: number;
  /**
   * When at most this many stored contents hold the pattern's trigrams, the page holds up to this many files
   * instead of `limit`: a literal a few dozen files hold is read in one round trip, not a page at a time.
   */
  wholeUpTo?: number;
  /**
   * A listing's first page carrying lines: files are walked until their lines meeting the exact check reach `matches`
   * (each is a match of a literal pattern) or `files` were walked (neededPage); `limit` and `wholeUpTo` then do not
   * apply. Without lines (or when D1 refused the page's size), they do.
   */
  need?: { matches: number; files: number };
  after?: string;
  under?: string;
  pathContains?: readonly string[];
  orFolded?: ContentCheck | null;
  lines?: boolean;
}

/**
 * One page of the files `trigramCandidates` would keep, in path order from
 * `after` (exclusive), at most `limit` rows, each with its content: the scan
 * of a listing that may stop early. Driven from the project's files in path
 * order (the trigram candidates a set the walk probes), SQLite runs the
 * exact check only until the page is full, so a common literal costs a page,
 * not every file holding it (the EXISTS, evaluated once, skips the walk when
 * no blob holds the trigrams). `more`: the page is full (further rows may
 * exist, from `last` on). A miss still checks every trigram candidate.
 *
 * With `lines` (and a check that applies), a row carries, instead of its
 * content, only the lines a match could be on: those meeting the check (or the
 * folded one) themselves, since every matching line holds the required
 * literals, plus every line longer than LONG_LINE characters (the scan counts
 * clipped lines; of those that do not meet the check, their first LONG_LINE_KEPT
 * characters; only in contents whose `long_lines` is not 0). The rest of the file never leaves SQLite. The caller asks for
 * it only when the checks are exactly the pattern's requirement. D1 refuses a
 * string over 2,000,000 bytes, and splitting a file quotes it (a control
 * character or a backslash grows six times): a page D1 refuses so is asked for again with
 * the content of its files over LINES_SAFE_BYTES (its next page tries every
 * file's lines again).
 */
export async function trigramCandidatesPage(
  d1: D1Database,
  projectId: string,
  match: string,
  check: ContentCheck | null,
  opts: PageOptions,
): Promise<CandidatePage> {
  if (!opts.lines) return candidatesPage(d1, projectId, match, check, opts);
  try {
    return await candidatesPage(d1, projectId, match, check, opts);
  } catch (err) {
    if (!/SQLITE_TOOBIG|string or blob too big/i.test(String((err as Error)?.message ?? err))) throw err;
    return candidatesPage(d1, projectId, match, check, opts, LINES_SAFE_BYTES);
  }
}

/**
 * Files up to this size always split within D1's cap: the split's quoted text and the lines' JSON can each grow a
 * file up to six times (a control character quotes as six bytes, a backslash splits as six), plus a few bytes per carried line. A page D1
 * refuses carries the lines of these files and the content of larger ones.
 */
const LINES_SAFE_BYTES = 192 * 1024;

async function candidatesPage(
  d1: D1Database,
  projectId: string,
  match: string,
  check: ContentCheck | null,
  opts: PageOptions,
  /** With lines, files larger than this carry their content instead. */
  linesMaxBytes?: number,
): Promise<CandidatePage> {
  const binds: unknown[] = [projectId, match, opts.limit];
  // The path filters' parameters come out of the check's budget (D1 allows 100 per statement); a glob's fixed strings past
  // a few are left to the caller's own test of the glob.
  const pathContains = (opts.pathContains ?? []).slice(0, 4);
  const extra = (opts.after === undefined ? 0 : 1) + (opts.under ? 2 : 0) + pathContains.length + (opts.wholeUpTo === undefined ? 0 : 1) + (opts.need === undefined ? 0 : 2) + 2;
  const { exact: exactColumn, where: checked, folded, line, exactLine } = checkSql(check, opts.orFolded, binds, MAX_CHECK_LITERALS - extra);
  // Lines cover the folded check too only when it was asked along (a folded-only scan of this page then needs no content).
  const withLines = opts.lines === true && line !== null && (!opts.orFolded || folded);
  let where = checked;
  const add = (clause: string, value: unknown) => {
    binds.push(value);
    where += ` AND ${clause.replace('?', `?${binds.length}`)}`;
  };
  if (opts.after !== undefined) add('f.path > ?', opts.after);
  if (opts.under) {
    add('f.path >= ?', `${opts.under}/`);
    add('f.path < ?', `${opts.under}0`);
  }
  for (const text of pathContains) add('instr(f.path, ?) > 0', text);
  let carried = `CASE WHEN ${exactColumn} THEN b.content END AS content`;
  if (withLines && line) {
    binds.push(LONG_LINE);
    const long = binds.length;
    // A line's length in bytes (O(1)) bounds its length in characters (a walk over it): only a line long in bytes is counted.
    // A long line that does not meet the check is carried only for the scan's count of clipped lines: its first
    // LONG_LINE_KEPT characters say whether it is clipped, the rest never leaves SQLite.
    const kept = `CASE WHEN ${line('j.value')} THEN j.value ELSE substr(j.value, 1, ${LONG_LINE_KEPT}) END`;
    // The carried lines as `aggregate` over them; a content stored without a line over LONG_LINE characters (long_lines 0)
    // skips each line's length test.
    const overLines = (aggregate: string) => {
      const of = (where: string) => `(SELECT ${aggregate} FROM ${jsonLines('b.content')} j WHERE ${where})`;
      return `CASE WHEN b.long_lines = 0 THEN ${of(line('j.value'))}
                ELSE ${of(`${line('j.value')} OR (length(CAST(j.value AS BLOB)) > ?${long} AND length(j.value) > ?${long})`)} END`;
    };
    const carriedLines = `json_group_array(json_array(j.key, ${kept}))`;
    if (opts.need !== undefined && exactLine && linesMaxBytes === undefined) {
      // Each file's carried lines with, first, how many of them meet the exact check (each is a match of a literal pattern).
      const counted = overLines(`json_array(count(CASE WHEN ${exactLine('j.value')} THEN 1 END), ${carriedLines})`);
      return neededPage(d1, binds, { need: opts.need.matches, cap: opts.need.files, exactColumn, counted, where, folded, filter: { under: opts.under, pathContains: opts.pathContains, lines: true } });
    }
    const split = overLines(carriedLines);
    if (linesMaxBytes === undefined) carried = `NULL AS content, ${split} AS lines`;
    else {
      binds.push(linesMaxBytes);
      const small = `b.size <= ?${binds.length}`;
      carried = `CASE WHEN ${small} THEN NULL WHEN ${exactColumn} THEN b.content END AS content, CASE WHEN ${small} THEN ${split} END AS lines`;
    }
  }
  // The page's size, from the trigram candidates' count once (`n`): every candidate when there are few, else `limit`.
  // Each row carries it, so the caller knows which size the page was asked for.
  let sized = '';
  let pageLimit = '?3';
  if (opts.wholeUpTo !== undefined && opts.wholeUpTo > opts.limit) {
    binds.push(opts.wholeUpTo);
    sized = `, n AS MATERIALIZED (SELECT CASE WHEN count(*) <= ?${binds.length} THEN ?${binds.length} ELSE ?3 END AS files FROM t)`;
    pageLimit = '(SELECT files FROM n)';
  }
  const walk = `SELECT f.path AS path, f.hash AS hash, f.size AS size, f.language AS language, f.status AS status, f.symbol_count AS symbols,
              ${exactColumn} AS exact, ${carried}, ${pageLimit} AS page_files
       FROM files f CROSS JOIN blobs b ON b.hash = f.hash
       WHERE f.project_id = ?1 AND EXISTS (SELECT 1 FROM t) AND f.hash IN t${where}
       ORDER BY f.path`;
  // With lines, a file none of whose lines meets the check (its literals on different lines) holds no match and no long
  // line: the page skips it. LIMIT -1 keeps the walk a lazy co-routine (not flattened: the lines are split once per file).
  const page = withLines ? `SELECT * FROM (${walk} LIMIT -1) WHERE lines IS NULL OR lines <> '[]' LIMIT ${pageLimit}` : `${walk} LIMIT ${pageLimit}`;
  const rows = await d1
    .prepare(
      `WITH t AS MATERIALIZED (${TRIGRAM_HASHES})${sized}
       ${page}`,
    )
    .bind(...binds)
    .all<CandidateRow & { page_files?: number }>();
  const last = rows.results.at(-1)?.path;
  const filter = { under: opts.under, pathContains: opts.pathContains, ...(opts.lines ? { lines: true } : {}) };
  const pageFiles = rows.results[0]?.page_files ?? opts.limit;
  for (const r of rows.results) delete r.page_files;
  return { ...candidatesOf(rows.results, folded, withLines), more: rows.results.length >= pageFiles, filter, ...(last === undefined ? {} : { last }), ...(withLines ? { carriesLines: true } : {}) };
}

/**
 * A first page sized by the listing: the walk of trigramCandidatesPage, one file at a time in path order (a recursive
 * statement, each step seeking the next candidate after the last), until the lines met by the exact check reach
 * `need` (for a literal, each is one match the listing needs) or `cap` files were walked. A listing a few dozen files
 * fill, sparse or dense, comes in one round trip, and a dense literal splits only the files its listing takes. Files
 * whose lines all miss the check (its literals on different lines) are walked, counted as none and not returned.
 * `more`: the walk stopped at `need` or `cap`, not at the last candidate.
 */
async function neededPage(
  d1: D1Database,
  binds: unknown[],
  page: { need: number; cap: number; exactColumn: string; counted: string; where: string; folded: boolean; filter: CandidatePage['filter'] },
): Promise<CandidatePage> {
  binds.push(page.need, page.cap);
  const need = `?${binds.length - 1}`;
  const cap = `?${binds.length}`;
  // `v` is [lines meeting the exact check, carried lines]; `below` the first count summed over the files walked before.
  const rows = await d1
    .prepare(
      `WITH RECURSIVE t AS MATERIALIZED (${TRIGRAM_HASHES}), w(path, hash, size, language, status, symbols, exact, v, below, k) AS (
         SELECT '', NULL, NULL, NULL, NULL, NULL, NULL, '[0,[]]', 0, 0 WHERE EXISTS (SELECT 1 FROM t)
         UNION ALL
         SELECT f.path, f.hash, f.size, f.language, f.status, f.symbol_count, ${page.exactColumn}, ${page.counted}, w.below + json_extract(w.v, '$[0]'), w.k + 1
         FROM w CROSS JOIN files f ON f.project_id = ?1 AND f.path = (
           SELECT f.path FROM files f CROSS JOIN blobs b ON b.hash = f.hash
           WHERE f.project_id = ?1 AND f.path > w.path AND f.hash IN t${page.where}
           ORDER BY f.path LIMIT 1)
         CROSS JOIN blobs b ON b.hash = f.hash
         WHERE w.below + json_extract(w.v, '$[0]') < ${need} AND w.k < ${cap}
       )
       SELECT path, hash, size, language, status, symbols, exact, NULL AS content, json_extract(v, '$[1]') AS lines, below + json_extract(v, '$[0]') AS reached, k
       FROM w WHERE k > 0 ORDER BY k`,
    )
    .bind(...binds)
    .all<CandidateRow & { reached: number; k: number }>();
  const walked = rows.results;
  const end = walked.at(-1);
  const more = end !== undefined && (end.reached >= page.need || end.k >= page.cap);
  const kept = walked.filter((r) => r.lines !== '[]').map(({ reached: _reached, k: _k, ...r }) => r);
  return { ...candidatesOf(kept, page.folded, true), more, filter: page.filter, ...(end === undefined ? {} : { last: end.path }), carriesLines: true, walked: walked.length };
}

/**
 * Lines at least this long (in characters; SQLite counts code points, JavaScript UTF-16 units, at most two
 * per code point) ride along with a page's carried lines: every line the scan clips (past MAX_LINE = 2,000
 * units) is among them.
 */
const LONG_LINE = 1_000;

/**
 * What a push stores as a content's `long_lines`: 1 when some line (split at '\n') is longer than LONG_LINE
 * UTF-16 units (then it may be longer than LONG_LINE characters), else 0: no line of it rides along as long.
 */
export function longLines(content: string): 0 | 1 {
  let from = 0;
  for (let nl = content.indexOf('\n'); nl !== -1; nl = content.indexOf('\n', from)) {
    if (nl - from > LONG_LINE) return 1;
    from = nl + 1;
  }
  return content.length - from > LONG_LINE ? 1 : 0;
}

/**
 * Characters (code points) of a carried long line that does not meet the check: one past the scan's MAX_LINE
 * (2,000 UTF-16 units), so the scan clips the prefix exactly when it would clip the whole line (the first
 * 2,001 code points hold at least 2,001 units, the same first 2,001 units as the line).
 */
const LONG_LINE_KEPT = 2_001;

/** A page of prefilter candidates: `more` says whether rows past `last` may exist. */
export interface CandidatePage extends CandidateFiles {
  more: boolean;
  /** The page's last path (exact or folded-only row): the next page starts after it. */
  last?: string;
  /** The rows carried lines (files without a line meeting the check were skipped), not content. */
  carriesLines?: boolean;
  /** Files the page walked, those skipped included, when it was sized by a listing's need (neededPage). */
  walked?: number;
  /** The page's scope filters (and whether it carried lines), for the next page. */
  filter: { under?: string; pathContains?: readonly string[]; lines?: boolean };
}

/** The files a prefilter keeps (path order) and their content by hash (null: not carried, fetch it). */
export interface CandidateFiles {
  files: FileRow[];
  content: Map<string, string | null>;
  /**
   * With `orFolded`: the files that satisfy only the case-folded check, in path order (no content).
   * Absent: the folded check was not asked.
   */
  foldedOnly?: FileRow[];
  /**
   * Present when the rows carry lines instead of content: by hash, the lines a match could be on (those
   * meeting the exact or the folded check, and every long line), for exact and folded-only rows alike.
   */
  lines?: Map<string, CarriedLines>;
}

/** Bound parameters per statement stay under D1's 100. */
const HASHES_PER_QUERY = 90;

/** Stored content by hash; hashes with no stored content (binary, oversized) are absent. */
export async function blobContents(d1: D1Database, hashes: readonly string[]): Promise<Map<string, string>> {
  const chunks: string[][] = [];
  for (let i = 0; i < hashes.length; i += HASHES_PER_QUERY) chunks.push(hashes.slice(i, i + HASHES_PER_QUERY));
  // Every chunk is asked for at once: one round trip however many there are.
  const answers = await Promise.all(
    chunks.map((chunk) =>
      d1
        .prepare(`SELECT hash, content FROM blobs WHERE hash IN (${chunk.map((_, k) => `?${k + 1}`).join(', ')})`)
        .bind(...chunk)
        .all<{ hash: string; content: string }>(),
    ),
  );
  return new Map(answers.flatMap((a) => a.results.map((r) => [r.hash, r.content] as const)));
}

/** Paths bound per statement (one more parameter is the project). */
const PATHS_PER_QUERY = 90;

/** Stored content of the project's files at these paths, by path; paths with no file or no stored text are absent. */
export async function contentsAtPaths(d1: D1Database, projectId: string, paths: readonly string[]): Promise<Map<string, string>> {
  const chunks: string[][] = [];
  for (let i = 0; i < paths.length; i += PATHS_PER_QUERY) chunks.push(paths.slice(i, i + PATHS_PER_QUERY));
  // Every chunk is asked for at once: one round trip however many there are.
  const answers = await Promise.all(
    chunks.map((chunk) =>
      d1
        .prepare(
          `SELECT f.path AS path, b.content AS content FROM files f JOIN blobs b ON b.hash = f.hash
           WHERE f.project_id = ?1 AND f.path IN (${chunk.map((_, k) => `?${k + 2}`).join(', ')})`,
        )
        .bind(projectId, ...chunk)
        .all<{ path: string; content: string }>(),
    ),
  );
  return new Map(answers.flatMap((a) => a.results.map((r) => [r.path, r.content] as const)));
}
