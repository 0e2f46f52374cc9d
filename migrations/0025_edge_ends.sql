-- An edge's ends are stored once per project, in `edge_ends` (project, file, key), and an edge row names them by
-- id (src/db/edge-ends.ts): the path and key of each end, and the project, were written in every edge and again in
-- both of its indexes (about 300 bytes an edge with its index entries, 8,000–10,000 edges per MB of Go or Rust).
-- `edges` becomes a view of the same columns, so statements that read edges are unchanged; lookups by an end seek
-- `edge_ends_at` and then `edge_rows_src` or `edge_rows_dst` by id. The rows keep their rowids and order.
CREATE TABLE `edge_ends` (
	`id` integer PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`file` text NOT NULL,
	`key` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `edge_ends_at` ON `edge_ends` (`project_id`,`file`,`key`);--> statement-breakpoint
CREATE TABLE `edge_rows` (
	`rowid` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`src` integer NOT NULL,
	`dst` integer,
	`name` text NOT NULL,
	`line` integer NOT NULL,
	`kind_code` integer NOT NULL,
	`provenance_code` integer NOT NULL,
	`confidence_milli` integer NOT NULL
);
--> statement-breakpoint
-- The copy goes 500,000 edges at a time (each pair of statements: the ends of the next edges not yet copied, then
-- those edges), so no statement runs past D1's 30 s limit on a full database; 32 pairs copy up to 16 million edges,
-- more than a 10 GB database holds. An edge left over fails the migration (src is NOT NULL) before the old table goes.
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
WITH c AS (SELECT `project_id`, `src_file`, `src_key`, `dst_file`, `dst_key` FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY `rowid` LIMIT 500000)
INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
SELECT DISTINCT n.`project_id`, n.`file`, n.`key` FROM (
  SELECT `project_id`, `src_file` AS `file`, `src_key` AS `key` FROM c
  UNION ALL SELECT `project_id`, `dst_file`, `dst_key` FROM c WHERE `dst_file` IS NOT NULL
) n WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` t WHERE t.`project_id` = n.`project_id` AND t.`file` = n.`file` AND t.`key` IS n.`key`);--> statement-breakpoint
INSERT INTO `edge_rows` (`rowid`, `src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT e.`rowid`,
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`src_file` AND t.`key` IS e.`src_key`),
  (SELECT t.`id` FROM `edge_ends` t WHERE t.`project_id` = e.`project_id` AND t.`file` = e.`dst_file` AND t.`key` IS e.`dst_key`),
  e.`name`, e.`line`, e.`kind_code`, e.`provenance_code`, e.`confidence_milli`
FROM `edges` e WHERE e.`rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`) ORDER BY e.`rowid` LIMIT 500000;--> statement-breakpoint
INSERT INTO `edge_rows` (`src`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`)
SELECT NULL, '', 0, 0, 0, 0 WHERE EXISTS (SELECT 1 FROM `edges` WHERE `rowid` > (SELECT ifnull(max(`rowid`), 0) FROM `edge_rows`));--> statement-breakpoint
DROP TABLE `edges`;--> statement-breakpoint
CREATE INDEX `edge_rows_src` ON `edge_rows` (`src`);--> statement-breakpoint
CREATE INDEX `edge_rows_dst` ON `edge_rows` (`dst`);--> statement-breakpoint
-- The edges as rows of the old table's columns (kind, provenance and confidence read from their codes as
-- src/db/edge-columns.ts writes them), with the ids of their ends (src_end, dst_end).
CREATE VIEW `edges` AS
SELECT r.`rowid` AS `rowid`, s.`project_id` AS `project_id`, s.`file` AS `src_file`, d.`file` AS `dst_file`,
  r.`name` AS `name`, r.`line` AS `line`, s.`key` AS `src_key`, d.`key` AS `dst_key`,
  r.`kind_code` AS `kind_code`, r.`provenance_code` AS `provenance_code`, r.`confidence_milli` AS `confidence_milli`,
  CASE r.`kind_code` WHEN 0 THEN 'CALLS' WHEN 1 THEN 'IMPORTS' WHEN 2 THEN 'INHERITS' WHEN 3 THEN 'IMPLEMENTS' WHEN 4 THEN 'REFERENCES' END AS `kind`,
  CASE r.`provenance_code` WHEN 0 THEN 'same_file' WHEN 1 THEN 'receiver' WHEN 2 THEN 'module' WHEN 3 THEN 'unique_name' WHEN 4 THEN 'ambiguous' WHEN 5 THEN 'import' WHEN 6 THEN 'package' WHEN 7 THEN 'scip' END AS `provenance`,
  r.`confidence_milli` / 1000.0 AS `confidence`,
  r.`src` AS `src_end`, r.`dst` AS `dst_end`
FROM `edge_rows` r
JOIN `edge_ends` s ON s.`id` = r.`src`
LEFT JOIN `edge_ends` d ON d.`id` = r.`dst`;--> statement-breakpoint
-- Writes through the view (a project's copy to another shard, a project's removal) go to the tables: an insert
-- adds the ends it lacks; a removal leaves the ends, which the project's removal takes after its edges
-- (src/db/project-copy.ts). Resolution writes the tables itself, set by set (src/db/resolution.ts).
CREATE TRIGGER `edges_insert` INSTEAD OF INSERT ON `edges`
BEGIN
  INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
    SELECT NEW.`project_id`, NEW.`src_file`, NEW.`src_key`
    WHERE NOT EXISTS (SELECT 1 FROM `edge_ends` WHERE `project_id` = NEW.`project_id` AND `file` = NEW.`src_file` AND `key` IS NEW.`src_key`);
  INSERT INTO `edge_ends` (`project_id`, `file`, `key`)
    SELECT NEW.`project_id`, NEW.`dst_file`, NEW.`dst_key`
    WHERE NEW.`dst_file` IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM `edge_ends` WHERE `project_id` = NEW.`project_id` AND `file` = NEW.`dst_file` AND `key` IS NEW.`dst_key`);
  INSERT INTO `edge_rows` (`src`, `dst`, `name`, `line`, `kind_code`, `provenance_code`, `confidence_milli`) VALUES (
    (SELECT `id` FROM `edge_ends` WHERE `project_id` = NEW.`project_id` AND `file` = NEW.`src_file` AND `key` IS NEW.`src_key`),
    (SELECT `id` FROM `edge_ends` WHERE `project_id` = NEW.`project_id` AND `file` = NEW.`dst_file` AND `key` IS NEW.`dst_key`),
    NEW.`name`, NEW.`line`, NEW.`kind_code`, NEW.`provenance_code`, NEW.`confidence_milli`);
END;--> statement-breakpoint
CREATE TRIGGER `edges_delete` INSTEAD OF DELETE ON `edges`
BEGIN
  DELETE FROM `edge_rows` WHERE `rowid` = OLD.`rowid`;
END;
