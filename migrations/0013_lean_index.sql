-- An edge end is a file and the symbol's key within it (the id minus `{file}::`): ids no longer repeat their path,
-- and one index per end (project, file, key) serves lookups by file and by symbol instead of two.
DROP INDEX `edges_src_file`;--> statement-breakpoint
DROP INDEX `edges_dst_file`;--> statement-breakpoint
DROP INDEX `edges_src`;--> statement-breakpoint
DROP INDEX `edges_dst`;--> statement-breakpoint
ALTER TABLE `edges` ADD `src_key` text;--> statement-breakpoint
ALTER TABLE `edges` ADD `dst_key` text;--> statement-breakpoint
-- Every id starts with its own file (the resolver takes both from one symbol row); an edge that did not could not be
-- stored as file and key, and is dropped (the next full resolution would not write it either).
DELETE FROM `edges`
WHERE (`src_id` IS NOT NULL AND substr(`src_id`, 1, length(`src_file`) + 2) IS NOT `src_file` || '::')
   OR (`dst_id` IS NOT NULL AND substr(`dst_id`, 1, length(`dst_file`) + 2) IS NOT `dst_file` || '::');--> statement-breakpoint
UPDATE `edges` SET `src_key` = substr(`src_id`, length(`src_file`) + 3), `dst_key` = substr(`dst_id`, length(`dst_file`) + 3);--> statement-breakpoint
ALTER TABLE `edges` DROP COLUMN `src_id`;--> statement-breakpoint
ALTER TABLE `edges` DROP COLUMN `dst_id`;--> statement-breakpoint
CREATE INDEX `edges_src` ON `edges` (`project_id`,`src_file`,`src_key`);--> statement-breakpoint
CREATE INDEX `edges_dst` ON `edges` (`project_id`,`dst_file`,`dst_key`);--> statement-breakpoint
-- A symbol's id is computed from its row (file_path, qualified_name, kind; `key` only for the ids that are not
-- `{qualified_name}#{kind}`, such as a repeat's `~N`): only its index stores it.
DROP INDEX `symbols_project_id`;--> statement-breakpoint
ALTER TABLE `symbols` ADD `key` text;--> statement-breakpoint
UPDATE `symbols` SET `key` = substr(`id`, length(`file_path`) + 3)
WHERE substr(`id`, length(`file_path`) + 3) IS NOT `qualified_name` || '#' || `kind`;--> statement-breakpoint
-- A row whose id did not start with its own path (never written so) would change id: it is removed, and its file's
-- next push writes it again.
DELETE FROM `symbols` WHERE substr(`id`, 1, length(`file_path`) + 2) IS NOT `file_path` || '::';--> statement-breakpoint
ALTER TABLE `symbols` DROP COLUMN `id`;--> statement-breakpoint
ALTER TABLE `symbols` ADD `id` text NOT NULL GENERATED ALWAYS AS (file_path || '::' || coalesce(key, qualified_name || '#' || kind)) VIRTUAL;--> statement-breakpoint
CREATE UNIQUE INDEX `symbols_project_id` ON `symbols` (`project_id`,`id`);
--> statement-breakpoint
-- References are stored shorter (src/db/extraction-json.ts REF_FIELD): the kind as a number, a target equal to the
-- name as 1, trailing nulls left out; the refs view reads the new layout.
DROP VIEW `refs`;--> statement-breakpoint
UPDATE `extractions` SET `refs_json` = (
  SELECT json_group_array(CASE
    WHEN json_type(r.value, '$[3]') IS NOT 'null' THEN json_array(CASE r.value ->> 0 WHEN 'call' THEN 0 WHEN 'import' THEN 1 WHEN 'inherit' THEN 2 END, r.value ->> 5, r.value ->> 1, CASE WHEN r.value ->> 2 = r.value ->> 1 THEN 1 ELSE r.value ->> 2 END, r.value ->> 4, json(r.value -> 3))
    WHEN r.value ->> 4 IS NOT NULL THEN json_array(CASE r.value ->> 0 WHEN 'call' THEN 0 WHEN 'import' THEN 1 WHEN 'inherit' THEN 2 END, r.value ->> 5, r.value ->> 1, CASE WHEN r.value ->> 2 = r.value ->> 1 THEN 1 ELSE r.value ->> 2 END, r.value ->> 4)
    WHEN r.value ->> 2 IS NOT NULL THEN json_array(CASE r.value ->> 0 WHEN 'call' THEN 0 WHEN 'import' THEN 1 WHEN 'inherit' THEN 2 END, r.value ->> 5, r.value ->> 1, CASE WHEN r.value ->> 2 = r.value ->> 1 THEN 1 ELSE r.value ->> 2 END)
    ELSE json_array(CASE r.value ->> 0 WHEN 'call' THEN 0 WHEN 'import' THEN 1 WHEN 'inherit' THEN 2 END, r.value ->> 5, r.value ->> 1) END)
  FROM json_each(`extractions`.`refs_json`) r)
WHERE `refs_json` LIKE '[["%';--> statement-breakpoint
-- The references of every visible file, read from its extraction (one row per reference).
CREATE VIEW `refs` AS
SELECT f.project_id AS project_id, f.path AS file_path, f.language AS language,
  CASE r.value ->> 0 WHEN 0 THEN 'call' WHEN 1 THEN 'import' WHEN 2 THEN 'inherit' END AS kind,
  r.value ->> 2 AS name,
  CASE WHEN typeof(r.value ->> 3) = 'integer' THEN r.value ->> 2 ELSE r.value ->> 3 END AS target,
  json_extract(r.value, '$[5]') AS imported_names,
  CASE WHEN r.value ->> 4 IS NULL THEN NULL ELSE f.path || '::' || (r.value ->> 4) END AS enclosing,
  r.value ->> 1 AS line
FROM `files` f
JOIN `extractions` e ON e.hash = f.hash AND e.language = f.language AND e.extractor_version = f.extractor_version,
  json_each(e.refs_json) r;
