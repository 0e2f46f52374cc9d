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
CREATE INDEX `edges_dst` ON `edges` (`project_id`,`dst_file`,`dst_key`);
