-- The distinct symbol names of each project: did-you-mean (src/db/names.ts) reads its candidates here rather than
-- every symbol's entry in `symbols_name` (37,286 names for 92,529 symbols on the 3,000-file latency tier). The
-- triggers keep it equal to `SELECT DISTINCT project_id, name FROM symbols` through every write of `symbols`
-- (commits, project copies and removals); `symbols.name` is never updated in place.
CREATE TABLE `symbol_names` (
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`project_id`, `name`)
) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `symbol_names` (`project_id`, `name`) SELECT DISTINCT `project_id`, `name` FROM `symbols` ORDER BY `project_id`, `name`;--> statement-breakpoint
CREATE TRIGGER `symbol_names_ai` AFTER INSERT ON `symbols` BEGIN
  INSERT INTO symbol_names (project_id, name) SELECT new.project_id, new.name
  WHERE NOT EXISTS (SELECT 1 FROM symbol_names WHERE project_id = new.project_id AND name = new.name);
END;--> statement-breakpoint
CREATE TRIGGER `symbol_names_ad` AFTER DELETE ON `symbols`
WHEN NOT EXISTS (SELECT 1 FROM symbols WHERE project_id = old.project_id AND name = old.name) BEGIN
  DELETE FROM symbol_names WHERE project_id = old.project_id AND name = old.name;
END;
