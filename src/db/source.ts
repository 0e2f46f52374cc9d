/**
 * Reads behind symbol, symbols, read and context: symbols by id or name,
 * source slices, file contents and the references of a range. Every list
 * lookup is one statement over `json_each` (no per-item round trips), and
 * every statement seeks an index: `symbols_project_id` (by id, or a file's
 * range of ids: src/db/symbol-range.ts), `symbols_name` or the `files` primary key.
 *
 * `json_each` lists are joined with CROSS JOIN, which makes SQLite loop over
 * the list and seek the index per item: with a plain JOIN the planner, blind
 * to the list's size, may scan every symbol of the project instead.
 *
 * Source slices are cut inside SQLite from the UTF-8 bytes of the stored
 * content (`CAST(content AS BLOB)`): `start_byte`/`end_byte` are UTF-8 byte
 * offsets (half-open), so multibyte text slices exactly and only the slice
 * leaves the database.
 */
import { allRows } from './client';
import { mayCrowd, NAME_ROWS, nameQualitySql, namePickSql, pickColumns, pickRowsSql, picksCte, type NamePick } from './name-pick';
import { symbolInFileSql } from './symbol-range';
import { NAME_BEST_ORDER } from './name-best';
import { fileNameSeeks, filesNamedSql } from './path-filter';

/** A symbol row as the read tools use it (snake_case, as stored). */
export interface SymbolRow {
  id: string;
  file_path: string;
  name: string;
  qualified_name: string;
  kind: string;
  signature: string;
  docstring: string | null;
  parent: string | null;
  language: string;
  start_line: number;
  end_line: number;
  start_byte: number;
  end_byte: number;
  confidence: number;
  is_exported: number;
  is_test: number;
  /** Stored size of the symbol's file in bytes (for the full_file_read baseline). */
  file_size: number;
  /** The symbol's source, when asked for. */
  source?: string | null;
}

/** A column of SymbolRow that a symbol row `s` (joined to its file `f`) gives as it stands. */
export type SymbolColumn = Exclude<keyof SymbolRow, 'source'>;

/** The SQL of `columns`, from symbol row `s` and its file row `f`. */
function columnsSql(columns: readonly SymbolColumn[]): string {
  return columns.map((c) => (c === 'file_size' ? 'f.size AS file_size' : `s.${c}`)).join(', ');
}

/** Every column of a SymbolRow but its source, in the order statements list them. */
const ROW_COLUMNS = [
  'id', 'file_path', 'name', 'qualified_name', 'kind', 'signature', 'docstring', 'parent', 'language',
  'start_line', 'end_line', 'start_byte', 'end_byte', 'confidence', 'is_exported', 'is_test', 'file_size',
] as const satisfies readonly SymbolColumn[];

const COLUMNS = columnsSql(ROW_COLUMNS);

/** The source slice of `s` from its file's blob `b`, by UTF-8 byte offsets. */
const SOURCE = `CAST(substr(CAST(b.content AS BLOB), s.start_byte + 1, s.end_byte - s.start_byte) AS TEXT) AS source`;

/** COLUMNS as read from a subquery aliased `alias` that selected them. */
function columnsOf(alias: string): string {
  return COLUMNS.replace(/\bs\./g, `${alias}.`).replace('f.size AS file_size', `${alias}.file_size`);
}

function select(withSource: boolean): string {
  return withSource ? `${COLUMNS}, ${SOURCE}` : COLUMNS;
}

function joins(withSource: boolean): string {
  return `JOIN files f ON f.project_id = s.project_id AND f.path = s.file_path${withSource ? ' LEFT JOIN blobs b ON b.hash = f.hash' : ''}`;
}

/** Symbols of a project by exact id (any order; the caller restores its own). */
export async function symbolsByIds(d1: D1Database, projectId: string, ids: readonly string[], withSource: boolean): Promise<SymbolRow[]> {
  if (ids.length === 0) return [];
  return allRows<SymbolRow>(
    d1
      .prepare(
        `SELECT ${select(withSource)} FROM json_each(?2) j
         CROSS JOIN symbols s ON s.project_id = ?1 AND s.id = j.value ${joins(withSource)}`,
      )
      .bind(projectId, JSON.stringify(ids)),
  );
}

export interface MovedWant {
  /** Caller's key for this want (returned as `want`). */
  key: string;
  qualifiedName: string;
  kind: string;
  /** Candidate values of `symbols.name` (suffixes of the qualified name), so the name index is used. */
  names: readonly string[];
  /** The file the id named: a symbol there is not a move. */
  path: string;
}

/**
 * SQL true when the symbol id `id` is in a file other than `path` (both SQL expressions, each used once, so a
 * positional placeholder may stand for either): ids start with their file's path and `::`. The one statement of
 * what a moved symbol is, for the moved-file look-up and the recovery questions that ask first whether a
 * symbol moved (names.ts notMovedSql).
 */
export function inAnotherFileSql(id: string, path: string): string {
  return `instr(${id}, ${path} || '::') <> 1`;
}

/** Symbols matching `qualified_name` + `kind` in a file other than the one each want named, for ids whose file moved. */
export async function symbolsByQualifiedKind(d1: D1Database, projectId: string, wants: readonly MovedWant[]): Promise<{ want: string; id: string }[]> {
  const probes = wants.flatMap((w) => w.names.map((n) => ({ w: w.key, n, q: w.qualifiedName, k: w.kind, p: w.path })));
  if (probes.length === 0) return [];
  const rows = await d1
    .prepare(
      `SELECT DISTINCT json_extract(p.value, '$.w') AS want, s.id AS id FROM json_each(?2) p
       CROSS JOIN symbols s ON s.project_id = ?1 AND s.name = json_extract(p.value, '$.n')
         AND s.qualified_name = json_extract(p.value, '$.q') AND s.kind = json_extract(p.value, '$.k')
       WHERE ${inAnotherFileSql('s.id', "json_extract(p.value, '$.p')")}
       ORDER BY s.id`,
    )
    .bind(projectId, JSON.stringify(probes))
    .all<{ want: string; id: string }>();
  return rows.results;
}

/**
 * Symbols by name (optionally in one file), for name lookups: those each NamePick in `picks` may match (a kind of
 * match under 4, name-pick.ts: for `Store.load`, the symbols named `load` of qualified name `Store.load`, ending in
 * `.Store.load`, or top-level in a file `Store` names; not every `load`), and for each name of `plain` its best symbol
 * (name-best.ts: non-test, not Markdown, exported, then path in byte order and position) with, when `plainFiles` names files (by
 * file name), its symbols in those files. The first `limit` in path order (NAME_ROWS by default): the cap is spent
 * only on symbols a caller may use, so a member of a common name (`Driver.constructor` among a thousand
 * constructors) is never cut off by the others.
 */
export async function symbolsByNames(
  d1: D1Database,
  projectId: string,
  picks: readonly NamePick[],
  plain: readonly string[],
  opts: { path?: string; limit?: number; plainFiles?: readonly string[] } = {},
): Promise<SymbolRow[]> {
  return namedLookup<SymbolRow>(d1, projectId, picks, plain, opts, select(false));
}

/** A symbol as a name's resolution reads it (resolveRef and its order), without what an answer shows. */
export type NamedRow = Pick<SymbolRow, 'id' | 'file_path' | 'name' | 'qualified_name' | 'start_line' | 'end_line' | 'start_byte' | 'is_test' | 'is_exported'>;

/** symbolsByNames' rows with only what resolving a name reads: a common bare name's hundreds of rows, narrow. */
export async function namedRowsByNames(d1: D1Database, projectId: string, picks: readonly NamePick[], opts: { path?: string } = {}): Promise<NamedRow[]> {
  return namedLookup<NamedRow>(d1, projectId, picks, [], opts, 's.id, s.file_path, s.name, s.qualified_name, s.start_line, s.end_line, s.start_byte, s.is_test, s.is_exported');
}

/** symbolsByNames' statement, reading `columns` (over `s` and its file `f`) of the rows it keeps. */
async function namedLookup<T>(
  d1: D1Database,
  projectId: string,
  picks: readonly NamePick[],
  plain: readonly string[],
  opts: { path?: string; limit?: number; plainFiles?: readonly string[] },
  columns: string,
): Promise<T[]> {
  const names = [...new Set([...picks.flatMap((p) => p.names), ...plain])];
  if (names.length === 0) return [];
  const words = [...new Set(plain)];
  const crowdable = mayCrowd(picks);
  // The files named like the task's paths, each sought by its file name through files_base.
  const files = words.length ? fileNameSeeks([...new Set(opts.plainFiles ?? [])]) : [];
  const fileRows = files.length === 0 ? '' : `
           UNION ALL
           SELECT s.rowid FROM (${filesNamedSql('?1', '?7')}) fl
             CROSS JOIN symbols s ON s.project_id = ?1 AND ${symbolInFileSql('s', 'fl.path')}
           WHERE s.name IN (SELECT value FROM json_each(?5)) AND (?3 IS NULL OR s.file_path = ?3)`;
  // Each statement part reads only what it keeps: the picks' candidates through pickRowsSql (a crowded member's
  // symbols are not all read); a plain word's best symbol as `symbol_names` holds it (name-best.ts; ranked here only
  // when not worked out, or in one file) and its symbols in the files named like the task's paths through those
  // files' id ranges, so a word with a thousand symbols is not read whole; the kept rows' columns last. A look-up
  // without plain words (a name's, not a task's) sends no part for them: D1 prepares every part of every statement.
  const wordCtes = words.length === 0 ? '' : `,
         wn AS MATERIALIZED (
           SELECT j.value AS name, CASE WHEN ?3 IS NULL THEN n.best END AS best
           FROM json_each(?5) j CROSS JOIN symbol_names n ON n.project_id = ?1 AND n.name = j.value
         ),
         w(rid) AS (
           SELECT best FROM wn WHERE best IS NOT NULL
           UNION ALL
           SELECT rid FROM (
             SELECT s.rowid AS rid, row_number() OVER (PARTITION BY s.name ORDER BY ${NAME_BEST_ORDER('s')}) AS nr
             FROM wn CROSS JOIN symbols s ON s.project_id = ?1 AND s.name = wn.name ${joins(false)}
             WHERE wn.best IS NULL AND (?3 IS NULL OR s.file_path = ?3)
           ) WHERE nr = 1${fileRows}
         )`;
  const wordRows = words.length === 0 ? '' : `
           UNION
           SELECT rid FROM w`;
  return allRows<T>(
    d1
      .prepare(
        // The picks' parts are read out of their JSON once (picksCte: a table of a few rows), not for every symbol.
        `WITH ${picksCte('pc', 'json_each(?6) pj', '?1', crowdable)}${wordCtes},
         k(rid) AS (
           SELECT s.rowid FROM (${pickRowsSql('pc', '?1', crowdable)}) r CROSS JOIN symbols s ON s.rowid = r.rid
           WHERE s.project_id = ?1 AND s.name IN (SELECT value FROM json_each(?2)) AND (?3 IS NULL OR s.file_path = ?3)
             AND EXISTS (SELECT 1 FROM pc p WHERE ${nameQualitySql(pickColumns('p'))} < 4)${wordRows}
         )
         SELECT ${columns} FROM k CROSS JOIN symbols s ON s.rowid = k.rid ${joins(false)}
         ORDER BY s.file_path, s.start_byte LIMIT ?4`,
      )
      // Without plain words the statement reads no ?5 (bound, unread); ?7 (the named files) is bound only when the
      // statement names it: SQLite refuses a value past its last parameter.
      .bind(
        projectId,
        JSON.stringify(names),
        opts.path ?? null,
        opts.limit ?? NAME_ROWS,
        JSON.stringify(words),
        JSON.stringify(picks),
        ...(files.length ? [JSON.stringify(files)] : []),
      ),
  );
}

/**
 * The symbol a name most likely resolves to, with its source, and its references (as refsOfSymbol reads them): the
 * symbol name-pick.ts picks (the best kind of match, then non-test, exported, by path and position, as the name
 * lookup's caller orders them), in `path` when given. Asked with the lookup itself, so that when the caller's own
 * choice is this symbol it needs no read by id; null when the name matches no symbol.
 */
export async function likelyNamedSymbol(d1: D1Database, projectId: string, pick: NamePick, path: string | undefined): Promise<{ row: SymbolRow; refs: RefRow[] } | null> {
  if (pick.names.length === 0) return null;
  const likely = `(SELECT id FROM (${namePickSql('?2', '?3', mayCrowd([pick]))}))`;
  // One statement, so the pick is worked out once: the references ride with the row as a JSON array, in line order
  // (imported names as the text refsOfSymbol gives: `|| ''` drops the JSON subtype json_object would nest).
  const refs = `(SELECT json_group_array(json_object('kind', x.kind, 'name', x.name, 'target', x.target, 'imported_names', x.imported_names || '', 'line', x.line))
    FROM (SELECT r.kind, r.name, r.target, r.imported_names, r.line FROM refs r WHERE ${refsOfRowSql('s', 'r')} ORDER BY r.line) x)`;
  const rows = await allRows<SymbolRow & { refs_json: string }>(
    d1.prepare(`SELECT ${select(true)}, ${refs} AS refs_json FROM symbols s ${joins(true)} WHERE s.project_id = ?1 AND s.id = ${likely}`).bind(projectId, JSON.stringify(pick), path ?? null),
  );
  if (!rows[0]) return null;
  const { refs_json, ...row } = rows[0];
  // Stable: rows of one line keep the statement's order.
  const parsed = (JSON.parse(refs_json) as RefRow[]).sort((a, b) => a.line - b.line);
  return { row, refs: parsed };
}

/** Sources a candidate lookup carries ahead of the choice (candidatesByNames' `sources`). */
export interface CandidateSources {
  /** A candidate longer than this (UTF-8 bytes) comes without its source: it could not be used. */
  eachUpTo: number;
  /** Bytes of source carried in all, best candidates of every name first (rank, then name). */
  totalUpTo: number;
}

/**
 * For each name, its best `perName` candidates across the project: the
 * caller's file first, then callable and type kinds, then path order.
 * With `sources`, the candidates also carry their source, the best of every
 * name first, while it stays within the caps (`source` null past them):
 * the caller's choice among them then mostly needs no read of its own.
 */
export async function candidatesByNames(
  d1: D1Database,
  projectId: string,
  names: readonly string[],
  fromPath: string,
  perName: number,
  sources?: CandidateSources,
): Promise<SymbolRow[]> {
  if (names.length === 0) return [];
  // Every symbol of the names is ranked on narrow rows (a common name has hundreds); only the kept ones are read whole.
  const ranked = `SELECT ${select(false)}, f.hash AS hash, r.rank AS rank FROM (
             SELECT s.rowid AS rid, row_number() OVER (
               PARTITION BY s.name
               ORDER BY s.file_path = ?3 DESC,
                 CASE s.kind WHEN 'Function' THEN 0 WHEN 'Method' THEN 0 WHEN 'Class' THEN 1 WHEN 'Struct' THEN 1
                   WHEN 'Interface' THEN 1 WHEN 'Trait' THEN 1 WHEN 'Type' THEN 1 WHEN 'Enum' THEN 1 ELSE 2 END,
                 s.is_test, s.file_path, s.start_byte
             ) AS rank
             FROM json_each(?2) j CROSS JOIN symbols s ON s.project_id = ?1 AND s.name = j.value ${joins(false)}
           ) r CROSS JOIN symbols s ON s.rowid = r.rid ${joins(false)} WHERE r.rank <= ?4`;
  const columns = columnsOf('c');
  if (!sources) {
    return allRows<SymbolRow>(d1.prepare(`SELECT ${columns} FROM (${ranked}) c`).bind(projectId, JSON.stringify(names), fromPath, perName));
  }
  // The bytes carried up to each candidate, counting only those short enough to carry; the content is read only for
  // the rows that carry their source.
  const span = 'c.end_byte - c.start_byte';
  return allRows<SymbolRow>(
    d1
      .prepare(
        `SELECT ${columns}, CAST(substr(CAST(b.content AS BLOB), c.start_byte + 1, ${span}) AS TEXT) AS source FROM (
           SELECT *, sum(CASE WHEN ${span} <= ?5 THEN ${span} ELSE 0 END) OVER (ORDER BY c.rank, c.name, c.file_path, c.start_byte ROWS UNBOUNDED PRECEDING) AS carried
           FROM (${ranked}) c
         ) c LEFT JOIN blobs b ON b.hash = c.hash AND ${span} <= ?5 AND c.carried <= ?6`,
      )
      .bind(projectId, JSON.stringify(names), fromPath, perName, sources.eachUpTo, sources.totalUpTo),
  );
}

/**
 * The references of a symbol's range, by the symbol's id: its file's imports
 * (any line) and the calls and inherits between its first and last line, in
 * line order, read by the id in SQL (so in the same round trip as the row's
 * own look-up). Nothing when no symbol has the id.
 */
export async function refsOfSymbol(d1: D1Database, projectId: string, id: string): Promise<RefRow[]> {
  return allRows<RefRow>(d1.prepare(refsOfSymbolSql('?2')).bind(projectId, id));
}

/** refsOfSymbol's statement for the symbol of project ?1 whose id is `id` (an SQL expression). */
function refsOfSymbolSql(id: string): string {
  return `SELECT r.kind, r.name, r.target, r.imported_names, r.line FROM symbols s
    JOIN refs r ON ${refsOfRowSql('s', 'r')}
    WHERE s.project_id = ?1 AND s.id = ${id}
    ORDER BY r.line`;
}

/** SQL true when reference row `r` belongs to symbol row `s` (aliases): the file's imports and the calls in its lines. */
function refsOfRowSql(s: string, r: string): string {
  return `${r}.project_id = ${s}.project_id AND ${r}.file_path = ${s}.file_path AND (${r}.kind = 'import' OR ${r}.line BETWEEN ${s}.start_line AND ${s}.end_line)`;
}

/** `columns` of the symbols of project ?1's file ?2 (one range of the id index), then `rest` (its order, a LIMIT). */
function inFileSql(columns: readonly SymbolColumn[], rest: string): string {
  return `SELECT ${columnsSql(columns)} FROM symbols s ${joins(false)} WHERE s.project_id = ?1 AND ${symbolInFileSql('s', '?2')} ${rest}`;
}

/** fileSymbols' order: source order, an enclosing symbol before what it holds. */
const SOURCE_ORDER = 'ORDER BY s.start_byte, s.end_byte DESC, s.rowid';

/** Every symbol of one file, in source order (for maps and name resolution inside the file). */
export async function fileSymbols(d1: D1Database, projectId: string, path: string): Promise<SymbolRow[]> {
  return fileSymbolColumns(d1, projectId, path, ROW_COLUMNS);
}

/**
 * The symbols a path named in a task seeds (src/composites/seeds.ts), picked in SQL from the file's id range so that
 * only they come back, not every row of the file: with `line`, the innermost symbol spanning that line (a Markdown
 * section only at the top level); without, the first `perFile` top-level symbols, exported ones first, each group in
 * source order. Ties keep fileSymbols' order.
 */
export async function pathSeedSymbols(d1: D1Database, projectId: string, path: string, line: number | undefined, perFile: number): Promise<SymbolRow[]> {
  const pick =
    line === undefined
      ? 'AND s.parent IS NULL ORDER BY s.is_exported DESC, s.start_byte, s.end_byte DESC, s.rowid LIMIT ?3'
      : "AND (s.language <> 'markdown' OR s.parent IS NULL) AND s.start_line <= ?3 AND s.end_line >= ?3 ORDER BY s.end_line - s.start_line, s.start_byte, s.end_byte DESC, s.rowid LIMIT 1";
  return allRows<SymbolRow>(d1.prepare(inFileSql(ROW_COLUMNS, pick)).bind(projectId, path, line ?? perFile));
}

/**
 * fileSymbols' rows with only `columns`. A file's full rows carry every signature and docstring whatever the caller
 * shows; all of it is carried out of D1 and made into objects on every call (25 KB of values for the 62 symbols of a
 * 1,900-line module against 12 KB of what neighborhood shows; 1,584 symbols in the tier's largest file).
 */
export async function fileSymbolColumns<K extends SymbolColumn>(d1: D1Database, projectId: string, path: string, columns: readonly K[]): Promise<Pick<SymbolRow, K>[]> {
  return allRows<Pick<SymbolRow, K>>(d1.prepare(inFileSql(columns, SOURCE_ORDER)).bind(projectId, path));
}

/** What neighborhood shows of each symbol of a file besides its target. */
export const SIBLING_COLUMNS = ['id', 'name', 'kind', 'parent', 'signature', 'start_line', 'end_line', 'start_byte', 'end_byte'] as const satisfies readonly SymbolColumn[];
export type SiblingRow = Pick<SymbolRow, (typeof SIBLING_COLUMNS)[number]>;

/**
 * The symbols of the files most likely to hold a name's definition, as
 * fileSymbols orders them within each file (by file, then as fileSymbols):
 * the first `files` files holding a symbol one of `picks` may match (name-pick.ts: a crowded member's through its
 * indexes, not every symbol of the name), the best kind of match first, then non-test and exported definitions, then
 * path, as the name's resolution prefers them. Sent with the name lookup, it saves the round trip of reading the
 * chosen definition's file afterwards when it is one of these. Each row has SIBLING_COLUMNS, its file and the
 * file's size: what neighborhood shows, not every column of every symbol of three files.
 */
export async function likelyFileSymbols(
  d1: D1Database,
  projectId: string,
  picks: readonly NamePick[],
  files: number,
): Promise<(SiblingRow & Pick<SymbolRow, 'file_path' | 'file_size'>)[]> {
  const names = [...new Set(picks.flatMap((p) => p.names))];
  if (names.length === 0) return [];
  const crowdable = mayCrowd(picks);
  return allRows<SiblingRow & Pick<SymbolRow, 'file_path' | 'file_size'>>(
    d1
      .prepare(
        // Each chosen file's symbols are one range of the id index (src/db/symbol-range.ts).
        `WITH ${picksCte('pc', 'json_each(?4) pj', '?1', crowdable)}
         SELECT ${columnsSql([...SIBLING_COLUMNS, 'file_path', 'file_size'])} FROM (
           SELECT c.file_path AS file FROM (
             SELECT c.file_path, c.is_test, c.is_exported,
               (SELECT min(${nameQualitySql(pickColumns('p'), 'c')}) FROM pc p) AS q
             FROM (${pickRowsSql('pc', '?1', crowdable)}) r CROSS JOIN symbols c ON c.rowid = r.rid
             WHERE c.project_id = ?1 AND c.name IN (SELECT value FROM json_each(?2))
           ) c WHERE c.q < 4
           GROUP BY c.file_path ORDER BY min(c.q), min(c.is_test), max(c.is_exported) DESC, c.file_path LIMIT ?3) lf
         CROSS JOIN symbols s ON s.project_id = ?1 AND ${symbolInFileSql('s', 'lf.file')}
         ${joins(false)}
         ORDER BY s.file_path, s.start_byte, s.end_byte DESC, s.rowid`,
      )
      .bind(projectId, JSON.stringify(names), files, JSON.stringify(picks)),
  );
}

export interface OutlineOwner {
  id: string;
  file_path: string;
  start_byte: number;
  end_byte: number;
}

export interface OutlineRow {
  owner: string;
  id: string;
  qualified_name: string;
  kind: string;
  signature: string;
  parent: string | null;
  start_line: number;
  end_line: number;
  start_byte: number;
}

/**
 * The symbols nested inside each owner (same file, byte range inside), in
 * source order, at most `perOwner` per owner; `total` is the owner's full count.
 */
export async function nestedSymbols(d1: D1Database, projectId: string, owners: readonly OutlineOwner[], perOwner: number): Promise<(OutlineRow & { total: number })[]> {
  if (owners.length === 0) return [];
  const probe = owners.map((o) => ({ id: o.id, f: o.file_path, s: o.start_byte, e: o.end_byte }));
  return allRows<OutlineRow & { total: number }>(
    d1
      .prepare(
        `SELECT * FROM (
           SELECT json_extract(o.value, '$.id') AS owner, s.id, s.qualified_name, s.kind, s.signature, s.parent,
                  s.start_line, s.end_line, s.start_byte,
                  row_number() OVER (PARTITION BY o.key ORDER BY s.start_byte, s.end_byte DESC) AS n,
                  count(*) OVER (PARTITION BY o.key) AS total
           FROM json_each(?2) o
           CROSS JOIN symbols s ON s.project_id = ?1 AND ${symbolInFileSql('s', "json_extract(o.value, '$.f')")}
           WHERE s.start_byte >= json_extract(o.value, '$.s') AND s.end_byte <= json_extract(o.value, '$.e')
             AND s.id != json_extract(o.value, '$.id')
         ) WHERE n <= ?3 ORDER BY owner, n`,
      )
      .bind(projectId, JSON.stringify(probe), perOwner),
  );
}

/** A visible file with its stored content (db/content.ts's FileRow is the listing row without it). */
export interface StoredFile {
  path: string;
  hash: string;
  size: number;
  language: string;
  status: string;
  reason: string | null;
  /** Null when the content was never stored (binary, not UTF-8, too large). */
  content: string | null;
}

/** What read needs of each symbol of a file: where it is, what it is called and its kind (OUTLINE_JSON holds them but the path). */
export const FILE_SYMBOL_COLUMNS = ['id', 'file_path', 'name', 'qualified_name', 'kind', 'start_line', 'end_line', 'start_byte', 'end_byte'] as const satisfies readonly SymbolColumn[];
export type FileSymbol = Pick<SymbolRow, (typeof FILE_SYMBOL_COLUMNS)[number]>;

/**
 * One symbol of fileWithSymbols' outline as a JSON array: the FileSymbol fields but the file's path (the file's own),
 * without keys. Signatures, docstrings and the other columns stay out: a file's outline of its full rows as JSON objects
 * was about 550 bytes a symbol (59 KB for 86 symbols of a 24 KB declaration file), and carrying it out of D1 and parsing
 * it cost more than the file itself.
 */
const OUTLINE_JSON = 'json_array(s.id, s.name, s.qualified_name, s.kind, s.start_line, s.end_line, s.start_byte, s.end_byte)';

/**
 * A stored file with its content (null content: the blob is gone) and, when
 * `withSymbols`, its symbols' outline in fileSymbols' order, in one statement: the
 * outline travels as a JSON array column of the file's row (a correlated
 * subquery over the file's id range). `symbols` is null when not asked for.
 */
export async function fileWithSymbols(d1: D1Database, projectId: string, path: string, withSymbols: boolean): Promise<{ file: StoredFile | null; symbols: FileSymbol[] | null }> {
  const symbols = withSymbols
    ? `, (SELECT json_group_array(json(j)) FROM (SELECT ${OUTLINE_JSON} AS j FROM symbols s
         WHERE s.project_id = ?1 AND ${symbolInFileSql('s', '?2')} ${SOURCE_ORDER})) AS symbols`
    : '';
  const row = await d1
    .prepare(
      `SELECT f.path, f.hash, f.size, f.language, f.status, f.reason, b.content${symbols} FROM files f
       LEFT JOIN blobs b ON b.hash = f.hash WHERE f.project_id = ?1 AND f.path = ?2`,
    )
    .bind(projectId, path)
    .first<StoredFile & { symbols?: string }>();
  if (!withSymbols) return { file: row, symbols: null };
  if (!row) return { file: null, symbols: [] };
  const { symbols: json, ...file } = row;
  const rows = JSON.parse(json ?? '[]') as [string, string, string, string, number, number, number, number][];
  return {
    file,
    symbols: rows.map(([id, name, qualified_name, kind, start_line, end_line, start_byte, end_byte]) => ({
      id,
      file_path: path,
      name,
      qualified_name,
      kind,
      start_line,
      end_line,
      start_byte,
      end_byte,
    })),
  };
}

/** Paths of a project whose last segment is `basename` (case-insensitive), closest first. */
export async function pathsByBasename(d1: D1Database, projectId: string, basename: string, limit: number): Promise<string[]> {
  const rows = await d1
    .prepare(
      // A suffix comparison, not LIKE: D1 refuses LIKE patterns over 50 bytes, and a base
      // name is the caller's text of any length.
      `SELECT path FROM files WHERE project_id = ?1
         AND (lower(path) = lower(?2)
              OR (length(path) > length(?2) AND substr(lower(path), -length(?2) - 1) = '/' || lower(?2)))
       ORDER BY length(path), path LIMIT ?3`,
    )
    .bind(projectId, basename, limit)
    .all<{ path: string }>();
  return rows.results.map((r) => r.path);
}

export interface RefRow {
  kind: 'call' | 'import' | 'inherit';
  name: string;
  target: string | null;
  imported_names: string | null;
  line: number;
}


/** One visible file of a project, without its content. */
export async function fileMeta(d1: D1Database, projectId: string, path: string): Promise<Omit<StoredFile, 'content'> | null> {
  return d1
    .prepare('SELECT path, hash, size, language, status, reason FROM files WHERE project_id = ?1 AND path = ?2')
    .bind(projectId, path)
    .first<Omit<StoredFile, 'content'>>();
}
