-- A file's symbols are one range of `symbols_project_id` (an id starts with its path and `::`;
-- src/db/symbol-range.ts), so the index on (project_id, file_path) goes.
DROP INDEX `symbols_file`;--> statement-breakpoint
-- An edge's kind, provenance and confidence are stored as small codes and thousandths and read back through
-- virtual generated columns of the old names (src/db/edge-columns.ts). The table is rebuilt with the rows in the
-- same order and the same rowids; a row whose kind or provenance has no code (never written) is left out.
CREATE TABLE `__new_edges` (
	`rowid` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`src_file` text NOT NULL,
	`dst_file` text,
	`name` text NOT NULL,
	`line` integer NOT NULL,
	`src_key` text,
	`dst_key` text,
	`kind_code` integer NOT NULL,
	`provenance_code` integer NOT NULL,
	`confidence_milli` integer NOT NULL,
	`kind` text GENERATED ALWAYS AS (CASE kind_code WHEN 0 THEN 'CALLS' WHEN 1 THEN 'IMPORTS' WHEN 2 THEN 'INHERITS' WHEN 3 THEN 'IMPLEMENTS' WHEN 4 THEN 'REFERENCES' END) VIRTUAL NOT NULL,
	`provenance` text GENERATED ALWAYS AS (CASE provenance_code WHEN 0 THEN 'same_file' WHEN 1 THEN 'receiver' WHEN 2 THEN 'module' WHEN 3 THEN 'unique_name' WHEN 4 THEN 'ambiguous' WHEN 5 THEN 'import' WHEN 6 THEN 'package' WHEN 7 THEN 'scip' END) VIRTUAL NOT NULL,
	`confidence` real GENERATED ALWAYS AS (confidence_milli / 1000.0) VIRTUAL NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_edges` (`rowid`, `project_id`, `src_file`, `dst_file`, `name`, `line`, `src_key`, `dst_key`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT `rowid`, `project_id`, `src_file`, `dst_file`, `name`, `line`, `src_key`, `dst_key`,
  CASE `kind` WHEN 'CALLS' THEN 0 WHEN 'IMPORTS' THEN 1 WHEN 'INHERITS' THEN 2 WHEN 'IMPLEMENTS' THEN 3 WHEN 'REFERENCES' THEN 4 END,
  CASE `provenance` WHEN 'same_file' THEN 0 WHEN 'receiver' THEN 1 WHEN 'module' THEN 2 WHEN 'unique_name' THEN 3 WHEN 'ambiguous' THEN 4 WHEN 'import' THEN 5 WHEN 'package' THEN 6 WHEN 'scip' THEN 7 END,
  CAST(round(`confidence` * 1000) AS INTEGER)
FROM `edges`
WHERE `kind` IN ('CALLS', 'IMPORTS', 'INHERITS', 'IMPLEMENTS', 'REFERENCES')
  AND `provenance` IN ('same_file', 'receiver', 'module', 'unique_name', 'ambiguous', 'import', 'package', 'scip')
ORDER BY `rowid`;--> statement-breakpoint
DROP TABLE `edges`;--> statement-breakpoint
ALTER TABLE `__new_edges` RENAME TO `edges`;--> statement-breakpoint
CREATE INDEX `edges_src` ON `edges` (`project_id`,`src_file`,`src_key`);--> statement-breakpoint
CREATE INDEX `edges_dst` ON `edges` (`project_id`,`dst_file`,`dst_key`);--> statement-breakpoint
-- A symbol's parent is stored only where its qualified name does not imply it (src/db/symbol-parent.ts): `parent`
-- becomes a virtual generated column reading `parent_raw`.
ALTER TABLE `symbols` ADD `parent_raw` text;--> statement-breakpoint
UPDATE `symbols` SET `parent_raw` = CASE
  WHEN `parent` IS (CASE WHEN length(qualified_name) > length(name) + 1 AND substr(qualified_name, -length(name) - 1) = '.' || name THEN substr(qualified_name, 1, length(qualified_name) - length(name) - 1) END) THEN NULL
  ELSE coalesce(`parent`, '') END;--> statement-breakpoint
ALTER TABLE `symbols` DROP COLUMN `parent`;--> statement-breakpoint
ALTER TABLE `symbols` ADD `parent` text GENERATED ALWAYS AS (CASE WHEN parent_raw IS NULL THEN CASE WHEN length(qualified_name) > length(name) + 1 AND substr(qualified_name, -length(name) - 1) = '.' || name THEN substr(qualified_name, 1, length(qualified_name) - length(name) - 1) END WHEN parent_raw <> '' THEN parent_raw END) VIRTUAL;--> statement-breakpoint
-- DROP COLUMN writes every row again with a whole-number REAL (confidence 1.0) as 8 bytes; rewritten, it takes none.
UPDATE `symbols` SET `confidence` = `confidence`;
