-- The full-text indexes' incremental merge (`'merge'` after each commit, src/db/fts-merge.ts) merges any two
-- segments of a level rather than waiting for four: each index keeps about one segment per level.
INSERT INTO `symbols_fts`(`symbols_fts`, `rank`) VALUES('usermerge', 2);--> statement-breakpoint
INSERT INTO `blob_grams`(`blob_grams`, `rank`) VALUES('usermerge', 2);
