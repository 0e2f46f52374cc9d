/**
 * Architecture decision records of a project (`adrs`). Ids are `ADR-NNNN`,
 * numbered per project from ADR-0001 by the statement that inserts the
 * record, so two concurrent creates never get the same number. Times are
 * epoch milliseconds.
 */
import { allRows } from './client';

export const ADR_STATUSES = ['proposed', 'accepted', 'deprecated', 'superseded'] as const;
export type AdrStatus = (typeof ADR_STATUSES)[number];

/** The highest number an id can carry (four digits). */
export const MAX_ADR_NUMBER = 9999;


export type AdrSummaryRow = Pick<AdrRow, 'id' | 'title' | 'status' | 'superseded_by' | 'updated_at'>;

const COLUMNS = 'id, title, status, context, decision, consequences, superseded_by, created_at, updated_at';
const SUMMARY = 'id, title, status, superseded_by, updated_at';

export async function getAdr(d1: D1Database, projectId: string, id: string): Promise<AdrRow | null> {
  return d1.prepare(`SELECT ${COLUMNS} FROM adrs WHERE project_id = ?1 AND id = ?2`).bind(projectId, id).first<AdrRow>();
}

/** One page of records by id, optionally of one status, and the count of all that match. */
export async function listAdrs(
  d1: D1Database,
  projectId: string,
  opts: { status?: AdrStatus; limit: number; offset: number },
): Promise<{ rows: AdrSummaryRow[]; total: number }> {
  const where = 'project_id = ?1 AND (?2 IS NULL OR status = ?2)';
  const [page, count] = await d1.batch<unknown>([
    d1.prepare(`SELECT ${SUMMARY} FROM adrs WHERE ${where} ORDER BY id LIMIT ?3 OFFSET ?4`).bind(projectId, opts.status ?? null, opts.limit, opts.offset),
    d1.prepare(`SELECT count(*) AS n FROM adrs WHERE ${where}`).bind(projectId, opts.status ?? null),
  ]);
  return { rows: page.results as AdrSummaryRow[], total: (count.results[0] as { n: number }).n };
}

/** Every record (optionally of one status), by id, whole. */
export async function allAdrs(d1: D1Database, projectId: string, status?: AdrStatus): Promise<AdrRow[]> {
  return allRows<AdrRow>(
    d1
      .prepare(`SELECT ${COLUMNS} FROM adrs WHERE project_id = ?1 AND (?2 IS NULL OR status = ?2) ORDER BY id`)
      .bind(projectId, status ?? null),
  );
}

export async function countAdrs(d1: D1Database, projectId: string): Promise<number> {
  const row = await d1.prepare('SELECT count(*) AS n FROM adrs WHERE project_id = ?1').bind(projectId).first<{ n: number }>();
  return row?.n ?? 0;
}

export interface AdrFields {
  title: string;
  status: AdrStatus;
  context: string;
  decision: string;
  consequences: string;
  superseded_by: string | null;
}

export interface AdrRow extends AdrFields {
  id: string;
  created_at: number;
  updated_at: number;
}

/**
 * Inserts a record numbered one past the project's highest id. Returns null
 * when the numbering is exhausted (ADR-9999 exists).
 */
export async function createAdr(d1: D1Database, projectId: string, fields: AdrFields, now: number): Promise<AdrRow | null> {
  return d1
    .prepare(
      `INSERT INTO adrs (project_id, id, title, status, context, decision, consequences, superseded_by, created_at, updated_at)
       SELECT ?1, printf('ADR-%04d', n + 1), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8
       FROM (SELECT coalesce(max(CAST(substr(id, 5) AS INTEGER)), 0) AS n FROM adrs WHERE project_id = ?1)
       WHERE n < ?9
       RETURNING ${COLUMNS}`,
    )
    .bind(projectId, fields.title, fields.status, fields.context, fields.decision, fields.consequences, fields.superseded_by, now, MAX_ADR_NUMBER)
    .first<AdrRow>();
}

/**
 * Updates the fields given (null = keep). A status other than superseded
 * clears superseded_by; a record is only ever superseded by an existing one.
 * Returns null when the record does not exist.
 */
export async function updateAdr(
  d1: D1Database,
  projectId: string,
  id: string,
  patch: { [K in keyof AdrFields]: AdrFields[K] | null },
  now: number,
): Promise<AdrRow | null> {
  return d1
    .prepare(
      `UPDATE adrs SET
         title = coalesce(?3, title),
         status = coalesce(?4, status),
         context = coalesce(?5, context),
         decision = coalesce(?6, decision),
         consequences = coalesce(?7, consequences),
         superseded_by = CASE WHEN coalesce(?4, status) <> 'superseded' THEN NULL ELSE coalesce(?8, superseded_by) END,
         updated_at = ?9
       WHERE project_id = ?1 AND id = ?2
       RETURNING ${COLUMNS}`,
    )
    .bind(projectId, id, patch.title, patch.status, patch.context, patch.decision, patch.consequences, patch.superseded_by, now)
    .first<AdrRow>();
}

/** Ids of the records that name `id` as their superseded_by. */
export async function supersededBy(d1: D1Database, projectId: string, id: string): Promise<string[]> {
  const rows = await d1.prepare('SELECT id FROM adrs WHERE project_id = ?1 AND superseded_by = ?2 ORDER BY id').bind(projectId, id).all<{ id: string }>();
  return rows.results.map((r) => r.id);
}

/** Deletes one record; false when it did not exist. */
export async function deleteAdr(d1: D1Database, projectId: string, id: string): Promise<boolean> {
  const res = await d1.prepare('DELETE FROM adrs WHERE project_id = ?1 AND id = ?2').bind(projectId, id).run();
  return (res.meta.changes ?? 0) > 0;
}
