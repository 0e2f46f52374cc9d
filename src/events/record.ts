import { insertEvent } from '../db/events';

/** The event types `GET /v1/events` sends (docs/events.md describes each one's fields). */
export type EventType = 'upload_opened' | 'files_received' | 'upload_aborted' | 'committed' | 'resolution_finished' | 'resolution_pending';

/**
 * Records one push event for `GET /v1/events`. Never throws: an event that cannot be
 * written costs a log line (type only), never the push it describes.
 */
export async function recordEvent(primary: D1Database, type: EventType, project: { id: string; name: string }, data: Record<string, unknown>): Promise<void> {
  try {
    await insertEvent(primary, { type, projectId: project.id, projectName: project.name, data });
  } catch (err) {
    console.error(`event ${type} not recorded: ${err instanceof Error ? err.name : 'error'}`);
  }
}
