/** Reads for server-side re-extraction (`index force=true`). */
import { allRows } from './client';

export interface StoredManifestEntry {
  path: string;
  hash: string;
  size: number;
}

/** The visible files of a project, as a manifest. */
export async function projectFilesManifest(d1: D1Database, projectId: string): Promise<StoredManifestEntry[]> {
  return allRows<StoredManifestEntry>(
    d1
      // The stored bytes' size wins over a size recorded from an older, unchecked manifest.
      .prepare('SELECT f.path, f.hash, coalesce(b.size, f.size) AS size FROM files f LEFT JOIN blobs b ON b.hash = f.hash WHERE f.project_id = ?1 ORDER BY f.path')
      .bind(projectId),
  );
}

export interface PendingFile {
  path: string;
  hash: string;
  language: string;
  /** Stored content; null when the file was never stored (binary, encoding, too large). */
  content: string | null;
  /** Why the visible index skipped it, when it did. */
  previous_reason: string | null;
}

/** Files of an upload still lacking an extraction by the current extractor, with their stored content. */
export async function pendingFromStore(d1: D1Database, uploadId: string, extractorVersion: number, limit: number): Promise<PendingFile[]> {
  return allRows<PendingFile>(
    d1
      .prepare(
        `SELECT u.path, u.hash, u.language, b.content, f.reason AS previous_reason FROM upload_files u
         JOIN uploads up ON up.id = u.upload_id
         LEFT JOIN blobs b ON b.hash = u.hash
         LEFT JOIN files f ON f.project_id = up.project_id AND f.path = u.path
         WHERE u.upload_id = ?1 AND u.change IN ('new', 'changed')
           AND NOT EXISTS (SELECT 1 FROM extractions e WHERE e.hash = u.hash AND e.language = u.language AND e.extractor_version = ?2)
         ORDER BY u.path LIMIT ?3`,
      )
      .bind(uploadId, extractorVersion, limit),
  );
}

/** How many files of an upload still lack an extraction by the current extractor (no content read). */
export async function pendingCount(d1: D1Database, uploadId: string, extractorVersion: number): Promise<number> {
  const row = await d1
    .prepare(
      `SELECT count(*) AS n FROM upload_files u
       WHERE u.upload_id = ?1 AND u.change IN ('new', 'changed')
         AND NOT EXISTS (SELECT 1 FROM extractions e WHERE e.hash = u.hash AND e.language = u.language AND e.extractor_version = ?2)`,
    )
    .bind(uploadId, extractorVersion)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
