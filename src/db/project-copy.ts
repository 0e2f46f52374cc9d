/**
 * Copying one project's index from one D1 database to another, and removing
 * it from one (moving a project between shards, src/shards/move.ts). Rows are
 * read in pages by rowid and written with the columns they came with, so a
 * table that gains a column copies it without a change here. The search
 * indexes (symbols_fts, blob_grams) follow their tables through triggers.
 */

/** Rows read per page, per table: content tables carry whole files and extraction JSON. */
const PAGE_ROWS = { narrow: 500, wide: 16 } as const;
/** D1's limit of bound parameters per statement. */
const MAX_PARAMS = 100;

interface TableCopy {
  table: string;
  /** Selects the project's rows of `table` after rowid ?2, as `__rowid, *`; ?1 is the project id, ?3 the page size. */
  select: string;
  /** Content shared by projects: a row the target has already is kept. */
  shared?: boolean;
  /** Generated columns: read with the row, computed again by the target. */
  generated?: readonly string[];
  page: number;
}

/** What a project's index is, table by table; its `projects` row is copied last, by moveProject, once the rest is in. */
export const PROJECT_TABLES: readonly TableCopy[] = [
  {
    table: 'blobs',
    select: 'SELECT b.rowid AS __rowid, b.* FROM blobs b WHERE b.rowid > ?2 AND b.hash IN (SELECT hash FROM files WHERE project_id = ?1) ORDER BY b.rowid LIMIT ?3',
    shared: true,
    page: PAGE_ROWS.wide,
  },
  {
    table: 'extractions',
    select:
      'SELECT e.rowid AS __rowid, e.* FROM extractions e WHERE e.rowid > ?2 AND EXISTS (SELECT 1 FROM files f WHERE f.project_id = ?1 AND f.hash = e.hash AND f.language = e.language AND f.extractor_version = e.extractor_version) ORDER BY e.rowid LIMIT ?3',
    shared: true,
    page: PAGE_ROWS.wide,
  },
  ...['files', 'symbols', 'adrs', 'project_aggregates', 'uploads'].map((table) => ({
    table,
    select: `SELECT rowid AS __rowid, * FROM ${table} WHERE project_id = ?1 AND rowid > ?2 ORDER BY rowid LIMIT ?3`,
    page: PAGE_ROWS.narrow,
    // A symbol's id (migration 0013) and parent (0015) are computed from its row.
    generated: table === 'symbols' ? ['id', 'parent'] : undefined,
  })),
  {
    table: 'edges',
    select: 'SELECT rowid AS __rowid, * FROM edges WHERE project_id = ?1 AND rowid > ?2 ORDER BY rowid LIMIT ?3',
    page: PAGE_ROWS.narrow,
    // Read from the stored codes (migration 0015).
    generated: ['kind', 'provenance', 'confidence'],
  },
];

type Row = Record<string, unknown>;

/** INSERT statements writing `rows` into `table` of `target` (as many rows per statement as the parameter limit allows). */
function insertStatements(target: D1Database, spec: TableCopy, rows: Row[]): D1PreparedStatement[] {
  // A column named rowid is an autoincrement key (edges, symbols): the target assigns its own.
  const skip = new Set(['__rowid', 'rowid', ...(spec.generated ?? [])]);
  const columns = Object.keys(rows[0]).filter((c) => !skip.has(c));
  const perStatement = spec.page === PAGE_ROWS.wide ? 1 : Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const verb = spec.shared ? 'INSERT OR IGNORE' : 'INSERT';
  const out: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    out.push(
      target
        .prepare(`${verb} INTO ${spec.table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')}`)
        .bind(...chunk.flatMap((r) => columns.map((c) => r[c] ?? null))),
    );
  }
  return out;
}

/**
 * Copies the rows of one table of project `projectId` from `source` to
 * `target`, page by page; `progress` runs after each page (a move renews its
 * heartbeat there). Returns the rows copied.
 */
export async function copyTable(source: D1Database, target: D1Database, spec: TableCopy, projectId: string, progress: () => Promise<void>): Promise<number> {
  let after = 0;
  let copied = 0;
  for (;;) {
    const rows = (await source.prepare(spec.select).bind(projectId, after, spec.page).all<Row>()).results;
    if (!rows.length) return copied;
    await target.batch(insertStatements(target, spec, rows));
    copied += rows.length;
    after = rows[rows.length - 1].__rowid as number;
    await progress();
    if (rows.length < spec.page) return copied;
  }
}

/** Copies the `projects` row of `projectId`: the last write of a copy, after which the target holds the whole project. */
export async function copyProjectRow(source: D1Database, target: D1Database, projectId: string): Promise<void> {
  const row = await source.prepare('SELECT * FROM projects WHERE id = ?1').bind(projectId).first<Row>();
  if (!row) throw new Error('project row vanished during the copy');
  await target.batch(insertStatements(target, { table: 'projects', select: '', page: PAGE_ROWS.narrow }, [row]));
}

/** Rows deleted per statement when a project is removed from a shard. */
const DELETE_ROWS = 2_000;

/**
 * Removes project `projectId` (and any other project row named `name`, a
 * copy's leftover) from `d1`: its `projects` row first, so a reader that
 * remembered this shard notices at once, then its index, a bounded statement
 * at a time. Content (blobs, extractions) is left to the garbage collection,
 * which deletes what no project uses, except extractions whose symbols only
 * the removed files held. Returns rows deleted per table.
 */
export async function removeProject(d1: D1Database, projectId: string, name: string): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  const ids = (await d1.prepare('SELECT id FROM projects WHERE id = ?1 OR name = ?2').bind(projectId, name).all<{ id: string }>()).results.map((r) => r.id);
  if (!ids.includes(projectId)) ids.push(projectId);
  removed.projects = (await d1.prepare('DELETE FROM projects WHERE id = ?1 OR name = ?2').bind(projectId, name).run()).meta.changes;
  for (const id of ids) {
    removed.upload_files = (removed.upload_files ?? 0) + (await d1.prepare('DELETE FROM upload_files WHERE upload_id IN (SELECT id FROM uploads WHERE project_id = ?1)').bind(id).run()).meta.changes;
    for (const table of ['symbols', 'edges', 'files', 'adrs', 'project_aggregates', 'uploads']) {
      let n = 0;
      for (;;) {
        const r = await d1.prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE project_id = ?1 LIMIT ?2)`).bind(id, DELETE_ROWS).run();
        n += r.meta.changes;
        if (r.meta.changes < DELETE_ROWS) break;
      }
      removed[table] = (removed[table] ?? 0) + n;
    }
  }
  // An extraction whose symbols only a files row held (symbols_json '', src/db/index-store.ts) and
  // whose last holder just went is dropped: a later push of that content extracts it again.
  removed.extractions = (
    await d1
      .prepare(
        "DELETE FROM extractions WHERE symbols_json = '' AND NOT EXISTS (SELECT 1 FROM files f WHERE f.hash = extractions.hash AND f.language = extractions.language AND f.extractor_version = extractions.extractor_version)",
      )
      .run()
  ).meta.changes;
  return removed;
}

/** The fields of a project row that change when a push commits or its graph resolves: equal before and after a copy means nothing moved under it. */
export async function projectVersion(d1: D1Database, projectId: string): Promise<string | null> {
  const row = await d1.prepare('SELECT generation, graph_generation, indexed_at FROM projects WHERE id = ?1').bind(projectId).first<Row>();
  return row ? JSON.stringify(row) : null;
}
