/**
 * Reads of a project's stored files and their content, for grep, find and
 * ls. Paths are compared with SQLite's binary collation; a folder `d` holds
 * exactly the paths in ['d/', 'd0') because '0' follows '/' in ASCII.
 */
import { allRows } from './client';
import { pathConditions, type PathFilter } from './path-filter';

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

/** The project's visible files matching the filter, ordered by path. */
export async function projectFiles(d1: D1Database, projectId: string, filter: FileFilter = {}): Promise<FileRow[]> {
  const w = where(projectId, filter);
  return allRows<FileRow>(
    d1
      .prepare(`SELECT path, hash, size, language, status, symbol_count AS symbols FROM files WHERE ${w.sql} ORDER BY path`)
      .bind(...w.binds),
  );
}

/** A file as find lists it. */
export type ListedFile = Omit<FileRow, 'hash'>;

/**
 * The first `limit` of the project's visible files matching the filter and a
 * plain path condition (src/db/path-filter.ts), in SQLite's path order, and how
 * many match in all: one statement, however many match. SQLite's order is
 * JavaScript's unless a path holds a character from U+E000 to U+FFFF
 * (pathsOrderedAlike says whether any does).
 */
export async function filePage(d1: D1Database, projectId: string, filter: FileFilter, plain: Omit<PathFilter, 'paths'>, limit: number): Promise<{ rows: ListedFile[]; total: number }> {
  const w = where(projectId, filter);
  const extra: unknown[] = [];
  let n = w.binds.length;
  const cond = [w.sql, ...pathConditions('path', plain, extra).map((c) => c.replace(/\?/g, () => `?${++n}`))].join(' AND ');
  const rows = await allRows<ListedFile & { total: number }>(
    d1
      .prepare(
        `SELECT path, size, language, status, symbol_count AS symbols,
           (SELECT count(*) FROM files WHERE ${cond}) AS total
         FROM files WHERE ${cond} ORDER BY path LIMIT ?${n + 1}`,
      )
      .bind(...w.binds, ...extra, limit),
  );
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

/**
 * Files and characters of the full listing of a scope, one `path size` line
 * per file: Σ (chars(path) + 1 + digits(size) + 1). The walk_directory baseline.
 */
export async function listingChars(d1: D1Database, projectId: string, under?: string): Promise<{ files: number; chars: number }> {
  const w = where(projectId, { under });
  const row = await d1
    .prepare(`SELECT count(*) AS files, coalesce(sum(length(path) + length(size) + 2), 0) AS chars FROM files WHERE ${w.sql}`)
    .bind(...w.binds)
    .first<{ files: number; chars: number }>();
  return row ?? { files: 0, chars: 0 };
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

function renderCheck(c: ContentCheck, binds: unknown[]): string {
  if (c.op === 'has') {
    // lower() folds ASCII only, exactly what a JavaScript /i regex (no u flag) does to an ASCII literal.
    binds.push(c.fold ? c.text.toLowerCase() : c.text);
    return c.fold ? `instr(lower(b.content), ?${binds.length}) > 0` : `instr(b.content, ?${binds.length}) > 0`;
  }
  return `(${c.items.map((i) => renderCheck(i, binds)).join(c.op === 'and' ? ' AND ' : ' OR ')})`;
}

function checkSize(c: ContentCheck): number {
  return c.op === 'has' ? 1 : c.items.reduce((n, i) => n + checkSize(i), 0);
}

/**
 * The SQL of a content check on `b.content` (and of the folded check riding along, when both fit in one
 * statement's parameters: the exact one is bound twice): `exact`, the column saying a row passes the
 * exact check, and `where`, the condition a row must meet.
 */
function checkSql(
  check: ContentCheck | null | undefined,
  orFolded: ContentCheck | null | undefined,
  binds: unknown[],
  /** Parameters the check may bind. */
  budget = MAX_CHECK_LITERALS,
): { exact: string; where: string; folded: boolean } {
  const usable = check && checkSize(check) <= budget ? check : null;
  const folded = usable && orFolded && 2 * checkSize(usable) + checkSize(orFolded) <= budget ? orFolded : null;
  if (usable && folded) {
    const exact = `(${renderCheck(usable, binds)})`;
    return { exact, where: ` AND (${renderCheck(usable, binds)} OR ${renderCheck(folded, binds)})`, folded: true };
  }
  return { exact: '1', where: usable ? ` AND ${renderCheck(usable, binds)}` : '', folded: false };
}

/** Prefilter rows as candidates: exact ones with their content (a hash's first carried content kept), folded-only ones apart. */
function candidatesOf(rows: (FileRow & { content: string | null; exact: number })[], folded: boolean): CandidateFiles {
  const content = new Map<string, string | null>();
  const files: FileRow[] = [];
  const foldedOnly: FileRow[] = [];
  for (const { content: text, exact, ...file } of rows) {
    if (!exact) {
      foldedOnly.push(file);
      continue;
    }
    files.push(file);
    if (text !== null || !content.has(file.hash)) content.set(file.hash, text);
  }
  return { files, content, ...(folded ? { foldedOnly } : {}) };
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
    .all<FileRow & { content: string | null; exact: number }>();
  return candidatesOf(rows.results, folded);
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
 */
export async function trigramCandidatesPage(
  d1: D1Database,
  projectId: string,
  match: string,
  check: ContentCheck | null,
  opts: { limit: number; after?: string; under?: string; pathContains?: readonly string[]; orFolded?: ContentCheck | null },
): Promise<CandidatePage> {
  const binds: unknown[] = [projectId, match, opts.limit];
  // The path filters' parameters come out of the check's budget (D1 allows 100 per statement); a glob's fixed strings past
  // a few are left to the caller's own test of the glob.
  const pathContains = (opts.pathContains ?? []).slice(0, 4);
  const extra = (opts.after === undefined ? 0 : 1) + (opts.under ? 2 : 0) + pathContains.length;
  const { exact: exactColumn, where: checked, folded } = checkSql(check, opts.orFolded, binds, MAX_CHECK_LITERALS - extra);
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
  const rows = await d1
    .prepare(
      `WITH t AS MATERIALIZED (
         SELECT b.hash AS hash FROM blob_grams CROSS JOIN blobs b ON b.rowid = blob_grams.rowid WHERE blob_grams MATCH ?2
       )
       SELECT f.path AS path, f.hash AS hash, f.size AS size, f.language AS language, f.status AS status, f.symbol_count AS symbols,
              ${exactColumn} AS exact, CASE WHEN ${exactColumn} THEN b.content END AS content
       FROM files f CROSS JOIN blobs b ON b.hash = f.hash
       WHERE f.project_id = ?1 AND EXISTS (SELECT 1 FROM t) AND f.hash IN t${where}
       ORDER BY f.path LIMIT ?3`,
    )
    .bind(...binds)
    .all<FileRow & { content: string | null; exact: number }>();
  const last = rows.results.at(-1)?.path;
  const filter = { under: opts.under, pathContains: opts.pathContains };
  return { ...candidatesOf(rows.results, folded), more: rows.results.length >= opts.limit, filter, ...(last === undefined ? {} : { last }) };
}

/** A page of prefilter candidates: `more` says whether rows past `last` may exist. */
export interface CandidatePage extends CandidateFiles {
  more: boolean;
  /** The page's last path (exact or folded-only row): the next page starts after it. */
  last?: string;
  /** The page's scope filters, for the next page. */
  filter: { under?: string; pathContains?: readonly string[] };
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
