-- Each name's best symbol, as a task's plain word seeds it (src/db/source.ts `symbolsByNames`, src/db/name-best.ts):
-- the first by test code last, Markdown last, exported first, then path and position. Without it, that look-up ranked
-- every symbol of the word (1,504 `constructor`s on the 3,000-file latency tier) to keep one.
-- `best` is a symbols rowid (AUTOINCREMENT: a deleted symbol's rowid is never given again) or NULL: not worked out.
-- The triggers clear it whenever the symbols of its name may have a new best (a symbol of the name inserted, or the
-- best one deleted); the commit works out again every name of the project whose `best` is NULL, and a reader
-- ranks a name whose `best` is NULL itself, so every name answers the same either way. Rows migrated here start
-- NULL and are filled by their project's next push.
ALTER TABLE `symbol_names` ADD COLUMN `best` integer;--> statement-breakpoint
DROP TRIGGER IF EXISTS `symbol_names_ai`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `symbol_names_ad`;--> statement-breakpoint
CREATE TRIGGER `symbol_names_ai` AFTER INSERT ON `symbols` BEGIN
  INSERT INTO symbol_names (project_id, name) VALUES (new.project_id, new.name)
  ON CONFLICT (project_id, name) DO UPDATE SET best = NULL WHERE best IS NOT NULL;
END;--> statement-breakpoint
CREATE TRIGGER `symbol_names_ad` AFTER DELETE ON `symbols` BEGIN
  DELETE FROM symbol_names WHERE project_id = old.project_id AND name = old.name
    AND NOT EXISTS (SELECT 1 FROM symbols WHERE project_id = old.project_id AND name = old.name);
  UPDATE symbol_names SET best = NULL WHERE project_id = old.project_id AND name = old.name AND best = old.rowid;
END;
