import { advanceStatement, cursorHolds, readMoveOrFinished, type MoveRecord, type QueryBudget, type TargetRead } from './move-state';
import { edgeEndUnusedSql } from './edge-ends';
import { fillNameBestSql } from './name-best';

/**
 * Copying one project's index from one D1 database to another, and removing
 * leftover copies (moving a project between shards, src/shards/move.ts). Rows
 * are read in pages by rowid and written with the columns they came with, so
 * a table that gains a column copies it without a change here. The search
 * indexes (symbols_fts, blob_grams) follow their tables through triggers.
 * Every page is written in one batch with the advance of the move's cursor,
 * and each insert holds only while the cursor is where the step read it: a
 * step that died or was overtaken never leaves a row the cursor does not count.
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

const byProject = (table: string, generated?: readonly string[]): TableCopy => ({
  table,
  select: `SELECT rowid AS __rowid, * FROM ${table} WHERE project_id = ?1 AND rowid > ?2 ORDER BY rowid LIMIT ?3`,
  page: PAGE_ROWS.narrow,
  generated,
});

/**
 * What a project's index is, table by table, in copy order; its `projects`
 * row is copied last, once the rest is in. Files go before the contents and
 * extractions they use: the garbage collection keeps content a file names, so
 * a copy spread over many steps never has its contents collected under it.
 */
export const PROJECT_TABLES: readonly TableCopy[] = [
  // A file's ext (migration 0020) and file name (0028) are computed from its path.
  byProject('files', ['ext', 'base']),
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
  // A symbol's id (migration 0013) and parent (0015) are computed from its row.
  byProject('symbols', ['id', 'parent']),
  byProject('adrs'),
  byProject('project_aggregates'),
  byProject('uploads'),
  // Read from the stored codes (migration 0015) and the ends' ids (0025): the view's insert adds the ends the target lacks.
  byProject('edges', ['kind', 'provenance', 'confidence', 'src_end', 'dst_end']),
];

/** The tables a project's rows are removed from, besides `projects` and the manifests of its uploads. */
const PROJECT_KEYED = ['symbols', 'edges', 'edge_ends', 'files', 'adrs', 'project_aggregates', 'uploads'] as const;

/**
 * A bounded removal of the project's rows of `table`: edges from their table (the view's own removal would count
 * no rows), and an edge end only once no edge uses it, so an edge still to be removed stays readable through the view.
 */
function removalSql(table: (typeof PROJECT_KEYED)[number], held: string): string {
  if (table === 'edges') return `DELETE FROM edge_rows WHERE rowid IN (SELECT rowid FROM edges WHERE project_id = ?1 LIMIT ?2) AND ${held}`;
  if (table === 'edge_ends')
    return `DELETE FROM edge_ends WHERE id IN (SELECT t.id FROM edge_ends t WHERE t.project_id = ?1 AND ${edgeEndUnusedSql('t')} LIMIT ?2) AND ${held}`;
  return `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE project_id = ?1 LIMIT ?2) AND ${held}`;
}

type Row = Record<string, unknown>;

/** The columns of `rows` a copy writes: a column named rowid is an autoincrement key (edges, symbols) the target assigns itself. */
function writtenColumns(spec: TableCopy, row: Row): string[] {
  const skip = new Set(['__rowid', 'rowid', ...(spec.generated ?? [])]);
  return Object.keys(row).filter((c) => !skip.has(c));
}

/** Rows one INSERT of `spec` carries (as many as the parameter limit allows; one for content). */
function rowsPerStatement(spec: TableCopy, row: Row): number {
  return spec.page === PAGE_ROWS.wide ? 1 : Math.max(1, Math.floor(MAX_PARAMS / writtenColumns(spec, row).length));
}

/** INSERT statements writing `rows` into `spec.table` of `target`, each only while `guard` (SQL) holds. */
function insertStatements(target: D1Database, spec: TableCopy, rows: Row[], guard: string): D1PreparedStatement[] {
  const columns = writtenColumns(spec, rows[0]);
  const perStatement = rowsPerStatement(spec, rows[0]);
  const verb = spec.shared ? 'INSERT OR IGNORE' : 'INSERT';
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const out: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    out.push(
      target
        .prepare(`${verb} INTO ${spec.table} (${columns.map((c) => `"${c}"`).join(', ')}) SELECT * FROM (VALUES ${chunk.map(() => tuple).join(', ')}) WHERE ${guard}`)
        .bind(...chunk.flatMap((r) => columns.map((c) => r[c] ?? null))),
    );
  }
  return out;
}

/**
 * Where a copy stands after a run of pages: the cursor as this step last saw
 * it, `lost` when the move is no longer this one (cancelled, restarted or
 * finished by another step; `read` is then what the target holds instead),
 * and the pages a concurrent step wrote first.
 */
export interface CopyProgress {
  rec: MoveRecord;
  lost: boolean;
  read?: TargetRead;
  races: number;
}

/** Test seam: runs after a page is read from the source and before it is written (a concurrent step can be slipped in). */
export type BeforeWrite = (page: { table: string; after_rowid: number; rows: number }) => Promise<void>;

/**
 * Copies pages of `rec.project_id` from `source` to `target` from `rec`'s
 * cursor on, table after table, while `budget` allows (each page: one read,
 * its inserts and the cursor's advance, and two queries kept back for a page
 * that loses its race: the cursor read again, and the catalog read when the
 * move turns out to be no longer this one). Stops at the end of the last table. A page whose write
 * applied to nothing lost a race (another step of the same move wrote from
 * that cursor first): the cursor is read again and the copy goes on from
 * where it now is, so no row is written twice and the progress answered is
 * the cursor's.
 */
export async function copyPages(source: D1Database, target: D1Database, rec: MoveRecord, budget: QueryBudget, now: () => number, beforeWrite?: BeforeWrite): Promise<CopyProgress> {
  let at = rec;
  let races = 0;
  while (at.phase === 'copying' && at.table_index < PROJECT_TABLES.length && budget.fits(5)) {
    const spec = PROJECT_TABLES[at.table_index];
    const rows = await budget.all<Row>(source.prepare(spec.select).bind(at.project_id, at.after_rowid, spec.page));
    // As many rows as the budget's statements carry (the cursor's advance is one more, the two kept back for a lost race two more).
    const room = rows.length ? Math.max(0, budget.left - 3) * rowsPerStatement(spec, rows[0]) : 0;
    const taken = rows.slice(0, room);
    const tableDone = taken.length === rows.length && rows.length < spec.page;
    if (rows.length && !taken.length) break;
    const next = {
      table_index: tableDone ? at.table_index + 1 : at.table_index,
      after_rowid: tableDone ? 0 : (taken[taken.length - 1].__rowid as number),
      copied: taken.length ? { ...at.copied, [spec.table]: (at.copied[spec.table] ?? 0) + taken.length } : at.copied,
    };
    await beforeWrite?.({ table: spec.table, after_rowid: at.after_rowid, rows: taken.length });
    const writes = [...(taken.length ? insertStatements(target, spec, taken, cursorHolds(at)) : []), advanceStatement(target, at, next, now())];
    const results = await budget.batch(target, writes);
    if (results[results.length - 1].meta.changes > 0) {
      at = { ...at, ...next };
      continue;
    }
    const read = await readMoveOrFinished(target, budget, at.name);
    const current = read.rec;
    if (!current || current.move_id !== at.move_id) return { rec: at, lost: true, read, races };
    races++;
    at = current;
  }
  return { rec: at, lost: false, races };
}

/** Copies the `projects` row (the last write of a copy, after which the target holds the whole project) and advances the cursor past it; false when the cursor was lost. */
export async function copyProjectRow(source: D1Database, target: D1Database, rec: MoveRecord, budget: QueryBudget, now: number): Promise<boolean> {
  const row = await budget.first<Row>(source.prepare('SELECT * FROM projects WHERE id = ?1').bind(rec.project_id));
  if (!row) return false;
  const spec: TableCopy = { table: 'projects', select: '', page: PAGE_ROWS.narrow };
  const next = { table_index: PROJECT_TABLES.length + 1, after_rowid: 0, copied: { ...rec.copied, projects: 1 } };
  // The copied symbols' names came in without their best symbol (name-best.ts): worked out here, with the row.
  const best = target.prepare(fillNameBestSql('?1', cursorHolds(rec))).bind(rec.project_id);
  const results = await budget.batch(target, [...insertStatements(target, spec, [row], cursorHolds(rec)), best, advanceStatement(target, rec, next, now)]);
  return results[results.length - 1].meta.changes > 0;
}

/** Rows the copy of `projectId` will write, counted on `source` (contents and extractions by distinct content: an estimate for progress). */
export async function copyEstimate(source: D1Database, budget: QueryBudget, projectId: string): Promise<number> {
  const count = (from: string) => `(SELECT count(*) FROM ${from})`;
  const parts = [
    ...PROJECT_TABLES.filter((t) => !t.shared).map((t) => count(`${t.table} WHERE project_id = ?1`)),
    `2 * ${count('(SELECT DISTINCT hash FROM files WHERE project_id = ?1)')}`,
    '1',
  ];
  return (await budget.first<{ n: number }>(source.prepare(`SELECT ${parts.join(' + ')} AS n`).bind(projectId)))?.n ?? 0;
}

/** Rows deleted per statement when a leftover is removed. */
const DELETE_ROWS = 2_000;

/** What a run of leftover removal did: rows deleted per table, and whether no leftover (of the project asked about) remains. */
export interface Removal {
  removed: Record<string, number>;
  done: boolean;
}

/**
 * Removes leftover copies from `d1` (`shard_leftovers`: the old copy after a
 * move, a cancelled move's partial copy), only `projectId`'s when given,
 * while `budget` allows: the `projects` row first (a reader that remembered
 * this shard notices at once), then the index, a bounded statement at a time,
 * each holding only while the leftover is still registered. Content (blobs,
 * extractions) is left to the garbage collection, except extractions whose
 * symbols only the removed files held.
 */
export async function removeLeftovers(d1: D1Database, budget: QueryBudget, projectId?: string): Promise<Removal> {
  const removed: Record<string, number> = {};
  const add = (table: string, n: number) => {
    if (n) removed[table] = (removed[table] ?? 0) + n;
  };
  if (!budget.fits(1)) return { removed, done: false };
  const list = await budget.all<{ project_id: string }>(
    projectId === undefined
      ? d1.prepare('SELECT project_id FROM shard_leftovers ORDER BY since LIMIT 20')
      : d1.prepare('SELECT project_id FROM shard_leftovers WHERE project_id = ?1').bind(projectId),
  );
  const held = 'EXISTS (SELECT 1 FROM shard_leftovers WHERE project_id = ?1)';
  const steps: [string, string, string][] = [
    ['projects', 'projects WHERE id = ?1', `DELETE FROM projects WHERE id = ?1 AND ${held}`],
    [
      'upload_files',
      'upload_files u JOIN uploads up ON up.id = u.upload_id WHERE up.project_id = ?1',
      `DELETE FROM upload_files WHERE rowid IN (SELECT u.rowid FROM upload_files u JOIN uploads up ON up.id = u.upload_id WHERE up.project_id = ?1 LIMIT ?2) AND ${held}`,
    ],
    ...PROJECT_KEYED.map((t): [string, string, string] => [t, `${t} WHERE project_id = ?1`, removalSql(t, held)]),
  ];
  // Which tables still hold rows of a leftover: a run deletes only from those, so every run progresses however small its budget.
  const probe = `SELECT ${steps.map(([table, from]) => `EXISTS (SELECT 1 FROM ${from}) AS ${table}`).join(', ')}`;
  // Nothing of the project is left on the shard: its listing may go.
  const gone = steps.map(([, from]) => `NOT EXISTS (SELECT 1 FROM ${from})`).join(' AND ');
  for (const { project_id: id } of list) {
    for (;;) {
      if (!budget.fits(2)) return { removed, done: false };
      const holds = (await budget.first<Record<string, number>>(d1.prepare(probe).bind(id))) ?? {};
      const left = steps.filter(([table]) => holds[table]);
      if (left.length) {
        for (const [table, , sql] of left) {
          if (!budget.fits(1)) return { removed, done: false };
          add(table, await budget.changes(table === 'projects' ? d1.prepare(sql).bind(id) : d1.prepare(sql).bind(id, DELETE_ROWS)));
        }
        continue;
      }
      if (!budget.fits(3)) return { removed, done: false };
      // An extraction whose symbols only a files row held (symbols_json '', src/db/index-store.ts) and
      // whose last holder just went is dropped: a later push of that content extracts it again.
      // The listing goes only with nothing of the project left: a copy listed again since the
      // probe (a cancel's partial copy) stays listed, and is removed before this run moves on.
      const [extractions, , listed] = await budget.batch(d1, [
        d1.prepare(
          "DELETE FROM extractions WHERE symbols_json = '' AND NOT EXISTS (SELECT 1 FROM files f WHERE f.hash = extractions.hash AND f.language = extractions.language AND f.extractor_version = extractions.extractor_version)",
        ),
        d1.prepare(`DELETE FROM shard_leftovers WHERE project_id = ?1 AND ${gone}`).bind(id),
        d1.prepare('SELECT EXISTS (SELECT 1 FROM shard_leftovers WHERE project_id = ?1) AS listed').bind(id),
      ]);
      add('extractions', extractions.meta.changes);
      if (!(listed.results[0] as { listed: number } | undefined)?.listed) break;
    }
  }
  return { removed, done: projectId === undefined ? list.length < 20 : true };
}

/** The fields of a project row that change when a push commits or its graph resolves: equal before and after a copy means nothing moved under it. */
export async function projectVersion(d1: D1Database, budget: QueryBudget, projectId: string): Promise<string | null> {
  const row = await budget.first<Row>(d1.prepare('SELECT generation, graph_generation, indexed_at FROM projects WHERE id = ?1').bind(projectId));
  return row ? JSON.stringify(row) : null;
}
