-- The extraction-gaps question (src/db/extraction-gaps.ts: an empty answer names the files whose symbols the index may
-- lack) seeks its two small sets instead of reading every file's extraction row: the partial parses, and the
-- project's failed or oversized files.
CREATE INDEX `extractions_partial` ON `extractions` (`hash`,`language`,`extractor_version`) WHERE had_errors = 1;--> statement-breakpoint
CREATE INDEX `files_gaps` ON `files` (`project_id`,`path`) WHERE status = 'failed' OR reason = 'file_too_large';