import { allRows } from './client';

/** One row of `events` as a stream reads it. */
export interface EventRow {
  id: number;
  ts: number;
  type: string;
  project: string | null;
  data: string;
}

export interface NewEvent {
  type: string;
  projectId: string;
  projectName: string;
  data: Record<string, unknown>;
}

/** Appends one event (on the primary: the project itself may live on another shard). */
export async function insertEvent(d1: D1Database, e: NewEvent, ts = Date.now()): Promise<void> {
  await d1
    .prepare('INSERT INTO events (ts, type, project_id, project_name, data) VALUES (?1, ?2, ?3, ?4, ?5)')
    .bind(ts, e.type, e.projectId, e.projectName, JSON.stringify(e.data))
    .run();
}

/** Events after `afterId`, oldest first, optionally of one project. */
export function eventsAfter(d1: D1Database, afterId: number, project: string | null, limit: number): Promise<EventRow[]> {
  const where = project === null ? 'id > ?1' : 'id > ?1 AND project_name = ?3';
  const stmt = d1.prepare(`SELECT id, ts, type, project_name AS project, data FROM events WHERE ${where} ORDER BY id LIMIT ?2`);
  return allRows<EventRow>(project === null ? stmt.bind(afterId, limit) : stmt.bind(afterId, limit, project));
}

/** The newest event id (0 when there is none): where a stream without `Last-Event-ID` starts. */
export async function latestEventId(d1: D1Database): Promise<number> {
  const row = await d1.prepare('SELECT coalesce(max(id), 0) AS id FROM events').first<{ id: number }>();
  return row?.id ?? 0;
}

/** The oldest event id still kept (null when there is none): a resume from before it has lost events. */
export async function oldestEventId(d1: D1Database): Promise<number | null> {
  const row = await d1.prepare('SELECT min(id) AS id FROM events').first<{ id: number | null }>();
  return row?.id ?? null;
}
