-- Each path's file name (its last segment) as a virtual column, indexed with the project: a look-up of files by name
-- (`context.js`, `Makefile`: a task's paths, a trace's) seeks them instead of testing every path of the project
-- (src/db/path-filter.ts `filesNamedSql`). Virtual: only the index stores it, filled from the rows already there.
ALTER TABLE `files` ADD `base` text GENERATED ALWAYS AS (substr(path, length(rtrim(path, replace(path, '/', ''))) + 1)) VIRTUAL;--> statement-breakpoint
CREATE INDEX `files_base` ON `files` (`project_id`,`base`);
