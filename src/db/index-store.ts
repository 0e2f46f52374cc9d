/**
 * Writes of the index itself: extraction output per content, and the commit
 * that swaps a project's visible files and symbols in one atomic D1 batch.
 * Symbols are stored once too: as rows once committed (see HELD).
 * References are stored once, in the extraction of each file's content; the
 * `refs` view reads them through the project's files.
 */
import { fillNameBestSql } from './name-best';
import { auxiliaryFileSql, auxiliarySql } from './search-rank';
import { JSON_PARAM_BUDGET } from './json-param';
import { symbolField } from './extraction-json';
import { storedParentSql } from './symbol-parent';
import { symbolInFileSql } from './symbol-range';
import { longLines } from './content';

export interface ExtractionRow {
  hash: string;
  language: string;
  extractorVersion: number;
  corpus: string;
  status: 'ok' | 'failed' | 'skipped';
  reason: string | null;
  message: string | null;
  hadErrors: boolean;
  symbolCount: number;
  refCount: number;
  parseMs: number;
  symbolsJson: string;
  refsJson: string;
}

const INSERT_BLOB = 'INSERT INTO blobs (hash, size, content, created_at, long_lines)';
const BLOB_CONFLICT = 'ON CONFLICT(hash) DO NOTHING';
const INSERT_EXTRACTION = `INSERT INTO extractions (hash, language, extractor_version, corpus, status, reason, message, had_errors,
     symbol_count, ref_count, parse_ms, symbols_json, refs_json, created_at)`;
const EXTRACTION_CONFLICT = `ON CONFLICT(hash, language, extractor_version) DO UPDATE SET
     corpus = excluded.corpus, status = excluded.status, reason = excluded.reason, message = excluded.message,
     had_errors = excluded.had_errors, symbol_count = excluded.symbol_count, ref_count = excluded.ref_count,
     parse_ms = excluded.parse_ms, symbols_json = excluded.symbols_json, refs_json = excluded.refs_json`;

/** D1's limit on the parameters of one statement. */
const MAX_PARAMETERS = 100;

/**
 * Rows written as multi-row `VALUES` statements with every value bound as it is: as many rows as
 * D1's 100 parameters allow, and at most JSON_PARAM_BUDGET characters of values per statement (a
 * longer row goes alone). The values reach SQLite once escaped, by the driver: no JSON of our own
 * around them (file contents and extraction JSON were escaped twice, and parsed twice again).
 */
function boundInsert(d1: D1Database, rows: readonly (string | number | null)[][], insert: string, conflict: string): D1PreparedStatement[] {
  const stmts: D1PreparedStatement[] = [];
  const width = rows[0]?.length ?? 0;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, width)));
  let current: (string | number | null)[][] = [];
  let size = 0;
  const flush = () => {
    if (current.length === 0) return;
    const tuples = current.map((_, r) => `(${Array.from({ length: width }, (_, i) => `?${r * width + i + 1}`).join(', ')})`);
    stmts.push(d1.prepare(`${insert} VALUES ${tuples.join(', ')} ${conflict}`).bind(...current.flat()));
    current = [];
    size = 0;
  };
  for (const row of rows) {
    let chars = 0;
    for (const v of row) if (typeof v === 'string') chars += v.length;
    if (current.length >= perStatement || (current.length > 0 && size + chars > JSON_PARAM_BUDGET)) flush();
    current.push(row);
    size += chars;
  }
  flush();
  return stmts;
}

/**
 * Statements storing content (when given) and its extraction; run them in one batch. Contents
 * first, then extractions, each in the order given.
 */
export function storeExtractionStatements(
  d1: D1Database,
  items: readonly { row: ExtractionRow; content: string | null; size: number }[],
  now: number,
): D1PreparedStatement[] {
  const blobs = items.filter((i) => i.content !== null).map(({ row, content, size }) => [row.hash, size, content, now, longLines(content!)]);
  const extractions = items.map(({ row }) => [
    row.hash,
    row.language,
    row.extractorVersion,
    row.corpus,
    row.status,
    row.reason,
    row.message,
    row.hadErrors ? 1 : 0,
    row.symbolCount,
    row.refCount,
    row.parseMs,
    row.symbolsJson,
    row.refsJson,
    now,
  ]);
  return [...boundInsert(d1, blobs, INSERT_BLOB, BLOB_CONFLICT), ...boundInsert(d1, extractions, INSERT_EXTRACTION, EXTRACTION_CONFLICT)];
}

export interface CommitParams {
  projectId: string;
  uploadId: string;
  extractorVersion: number;
  schemaVersion: number;
  ref: string | null;
  commitSha: string | null;
  now: number;
}

/** Every statement of a commit applies only while the upload is still open, so a commit that lost a race is a no-op. */
const STILL_OPEN = `EXISTS (SELECT 1 FROM uploads WHERE id = ?2 AND status = 'open')`;
const CHANGED = `SELECT path FROM upload_files WHERE upload_id = ?2 AND change IN ('changed', 'deleted') AND ${STILL_OPEN}`;
const INCOMING = `FROM upload_files u
  JOIN extractions e ON e.hash = u.hash AND e.language = u.language AND e.extractor_version = ?3
  WHERE u.upload_id = ?2 AND u.change IN ('new', 'changed') AND ${STILL_OPEN}`;

/** The extraction (same content, language, extractor version) of `f`, a files or upload_files row. */
const EXTRACTION_OF = (f: string, version: string) => `e.hash = ${f}.hash AND e.language = ${f}.language AND e.extractor_version = ${version}`;

/** Rowids of the extractions of the files this commit brings in or removes. */
const TOUCHED_EXTRACTIONS = `SELECT e.rowid FROM upload_files u JOIN extractions e ON ${EXTRACTION_OF('u', '?3')}
    WHERE u.upload_id = ?2 AND u.change IN ('new', 'changed')
  UNION SELECT e.rowid FROM files f JOIN extractions e ON ${EXTRACTION_OF('f', 'f.extractor_version')}
    WHERE f.project_id = ?1 AND f.path IN (${CHANGED})`;

/** One file holding an extraction's symbols as rows: the files row matching `extractions`. */
const HOLDER = `SELECT h.rowid FROM files h WHERE h.hash = extractions.hash AND h.language = extractions.language
  AND h.extractor_version = extractions.extractor_version LIMIT 1`;

/**
 * Symbols are stored once. After a commit materialises a file's symbols,
 * its extraction's `symbols_json` becomes HELD (''): the rows of any file
 * with that content, language and extractor version hold them. Before a
 * commit reads or removes such files, their extraction gets its JSON back,
 * rebuilt from a holder's rows (the key is the symbol id minus `path::`), so
 * a rename, a second project with the same bytes, or the removal of the last
 * holder never loses a symbol. With no holder at all the JSON stays HELD, and
 * reading it fails the commit batch rather than committing a file without
 * its symbols.
 */
const HELD = "''";

/** SQL rebuilding the positional symbols JSON of `extractions` from a holder's rows, in rowid order. */
const REBUILT_SYMBOLS = `(SELECT json_group_array(json(j)) FROM (
  SELECT json_array(CASE WHEN substr(s.id, length(d.path) + 3) = s.qualified_name || '#' || s.kind THEN NULL ELSE substr(s.id, length(d.path) + 3) END,
    s.name, s.qualified_name, s.kind, s.signature, s.docstring, s.parent, s.is_exported, s.is_test, s.start_line, s.end_line,
    s.start_byte, s.end_byte, s.confidence, s.words, s.declaration) AS j
  FROM files d JOIN symbols s ON s.project_id = d.project_id AND ${symbolInFileSql('s', 'd.path')}
  WHERE d.rowid = (${HOLDER}) ORDER BY s.rowid))`;

/**
 * The commit, as one atomic batch: give back the symbols JSON of the
 * extractions it touches (see HELD), drop the rows of changed and deleted
 * files, materialise new and changed files from their extractions, mark
 * those extractions held, bump the project's generation and counts, close
 * the upload. Readers see the old
 * index or the new one, never a mix. When the upload is no longer open as the
 * batch runs (a concurrent commit or abort won), every statement is a no-op.
 */
export function commitStatements(d1: D1Database, p: CommitParams): D1PreparedStatement[] {
  // ?1 project, ?2 upload, ?3 extractor version, ?4 now: bind only what each statement names.
  const b = (sql: string, n: 2 | 3 | 4) => d1.prepare(sql).bind(...[p.projectId, p.uploadId, p.extractorVersion, p.now].slice(0, n));
  const f = (field: Parameters<typeof symbolField>[1]) => symbolField('s.value', field);
  return [
    b(`UPDATE extractions SET symbols_json = ${REBUILT_SYMBOLS}
       WHERE rowid IN (${TOUCHED_EXTRACTIONS}) AND symbols_json = ${HELD} AND EXISTS (${HOLDER}) AND ${STILL_OPEN}`, 3),
    b(`DELETE FROM symbols WHERE rowid IN (SELECT s.rowid FROM (${CHANGED}) c CROSS JOIN symbols s ON s.project_id = ?1 AND ${symbolInFileSql('s', 'c.path')})`, 2),
    b(`DELETE FROM files WHERE project_id = ?1 AND path IN (${CHANGED})`, 2),
    b(`INSERT INTO files (project_id, path, hash, size, language, corpus, status, reason, symbol_count, extractor_version, indexed_at)
       SELECT ?1, u.path, u.hash, coalesce((SELECT b.size FROM blobs b WHERE b.hash = u.hash), u.size), u.language, e.corpus,
              CASE e.status WHEN 'ok' THEN 'indexed' ELSE e.status END, e.reason, e.symbol_count, ?3, ?4 ${INCOMING}`, 4),
    // A file's own auxiliary flag (its place, a built .js beside its .d.ts) is worked out once per file, in
    // `incoming`, and not once per symbol; the extraction is joined back by rowid so that no JSON is copied there.
    b(`WITH incoming AS MATERIALIZED (
         SELECT e.rowid AS erid, u.path AS path, u.language AS language,
                ${auxiliaryFileSql({ path: 'u.path', language: 'u.language', projectId: '?1' })} AS aux ${INCOMING}
       )
       INSERT INTO symbols (project_id, key, file_path, name, qualified_name, kind, signature, docstring, parent_raw, language, corpus,
         is_exported, is_test, start_line, end_line, start_byte, end_byte, confidence, words, auxiliary, declaration)
       SELECT ?1, ${f('storedKey')}, i.path, ${f('name')}, ${f('qualifiedName')}, ${f('kind')},
              ${f('signature')}, ${f('docstring')}, ${storedParentSql(f('parent'), f('qualifiedName'), f('name'))}, i.language, e.corpus, ${f('isExported')}, ${f('isTest')},
              ${f('startLine')}, ${f('endLine')}, ${f('startByte')}, ${f('endByte')}, ${f('confidence')}, coalesce(${f('words')}, ''),
              ${auxiliarySql(f('isTest'), 'i.aux')}, coalesce(${f('declaration')}, 0)
       FROM incoming i JOIN extractions e ON e.rowid = i.erid, json_each(e.symbols_json) s`, 3),
    // Held, the row shrinks by its symbols: written again at the end of the table (a new rowid) rather than
    // shrunk in place, it packs with its neighbours instead of leaving most of its page empty.
    b(`INSERT OR REPLACE INTO extractions (hash, language, extractor_version, corpus, status, reason, message, had_errors,
         symbol_count, ref_count, parse_ms, symbols_json, refs_json, created_at)
       SELECT hash, language, extractor_version, corpus, status, reason, message, had_errors,
              symbol_count, ref_count, parse_ms, ${HELD}, refs_json, created_at
       FROM extractions WHERE rowid IN (SELECT e.rowid ${INCOMING}) AND symbol_count > 0 AND symbols_json <> ${HELD}`, 3),
    // The best symbol of each name the statements above touched (their triggers cleared it): name-best.ts.
    b(fillNameBestSql('?1', STILL_OPEN), 2),
    d1
      .prepare(
        `UPDATE projects SET generation = generation + 1, indexed_at = ?2, ref = ?3, commit_sha = ?4,
           extractor_version = ?5, schema_version_at_index = ?6,
           file_count = (SELECT count(*) FROM files WHERE project_id = ?1),
           symbol_count = (SELECT count(*) FROM symbols WHERE project_id = ?1)
         WHERE id = ?1 AND EXISTS (SELECT 1 FROM uploads WHERE id = ?7 AND status = 'open')`,
      )
      .bind(p.projectId, p.now, p.ref, p.commitSha, p.extractorVersion, p.schemaVersion, p.uploadId),
    // Last: its change count (0 or 1) tells the caller whether this commit applied.
    d1.prepare("UPDATE uploads SET status = 'committed', updated_at = ?2 WHERE id = ?1 AND status = 'open'").bind(p.uploadId, p.now),
  ];
}

export interface FileOutcomeCounts {
  skipped: Record<string, number>;
  failed: Record<string, number>;
  indexed: number;
  unsupported: number;
  symbols: number;
}

export type OutcomeRow = { status: string; reason: string | null; n: number; symbols: number | null };

/** Outcome of the files an upload brought in (new and changed), by status and reason (read with `readIncomingOutcomes`). */
export function incomingOutcomesStatement(d1: D1Database, uploadId: string, extractorVersion: number): D1PreparedStatement {
  return d1
    .prepare(
      `SELECT e.status AS status, e.reason AS reason, count(*) AS n, sum(e.symbol_count) AS symbols FROM upload_files u
       JOIN extractions e ON e.hash = u.hash AND e.language = u.language AND e.extractor_version = ?2
       WHERE u.upload_id = ?1 AND u.change IN ('new', 'changed') GROUP BY e.status, e.reason`,
    )
    .bind(uploadId, extractorVersion);
}

export function readIncomingOutcomes(rows: readonly OutcomeRow[]): FileOutcomeCounts {
  const out: FileOutcomeCounts = { skipped: {}, failed: {}, indexed: 0, unsupported: 0, symbols: 0 };
  for (const r of rows) {
    out.symbols += r.symbols ?? 0;
    if (r.status === 'ok') out.indexed += r.n;
    else if (r.status === 'failed') out.failed[r.reason ?? 'unknown'] = (out.failed[r.reason ?? 'unknown'] ?? 0) + r.n;
    else {
      out.skipped[r.reason ?? 'unknown'] = (out.skipped[r.reason ?? 'unknown'] ?? 0) + r.n;
      if (r.reason === 'unsupported_language') out.unsupported += r.n;
    }
  }
  return out;
}
