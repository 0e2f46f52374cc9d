/**
 * Reads of a project's stored files and their content, for grep, find and
 * ls. Paths are compared with SQLite's binary collation; a folder `d` holds
 * exactly the paths in ['d/', 'd0') because '0' follows '/' in ASCII.
 */

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
  return { sql: clauses.join(' AND '), binds };
}

/** The project's visible files matching the filter, ordered by path. */
export async function projectFiles(d1: D1Database, projectId: string, filter: FileFilter = {}): Promise<FileRow[]> {
  const w = where(projectId, filter);
  const rows = await d1
    .prepare(`SELECT path, hash, size, language, status, symbol_count AS symbols FROM files WHERE ${w.sql} ORDER BY path`)
    .bind(...w.binds)
    .all<FileRow>();
  return rows.results;
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
 * Content hashes of the project's files whose stored content contains every
 * trigram of the MATCH expression (blob_grams, detail='none': a superset of
 * the files holding the literals, verified by the caller).
 */
export async function trigramCandidates(d1: D1Database, projectId: string, match: string): Promise<Set<string>> {
  const rows = await d1
    .prepare(
      `SELECT DISTINCT f.hash AS hash FROM files f JOIN blobs b ON b.hash = f.hash
       WHERE f.project_id = ?1 AND b.rowid IN (SELECT rowid FROM blob_grams WHERE blob_grams MATCH ?2)`,
    )
    .bind(projectId, match)
    .all<{ hash: string }>();
  return new Set(rows.results.map((r) => r.hash));
}

/** Bound parameters per statement stay under D1's 100. */
const HASHES_PER_QUERY = 90;

/** Stored content by hash; hashes with no stored content (binary, oversized) are absent. */
export async function blobContents(d1: D1Database, hashes: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < hashes.length; i += HASHES_PER_QUERY) {
    const chunk = hashes.slice(i, i + HASHES_PER_QUERY);
    const rows = await d1
      .prepare(`SELECT hash, content FROM blobs WHERE hash IN (${chunk.map((_, k) => `?${k + 1}`).join(', ')})`)
      .bind(...chunk)
      .all<{ hash: string; content: string }>();
    for (const r of rows.results) out.set(r.hash, r.content);
  }
  return out;
}
