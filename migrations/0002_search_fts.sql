-- One open upload per project: a second concurrent push fails this index (409 push_in_progress).
CREATE UNIQUE INDEX `uploads_one_open` ON `uploads` (`project_id`) WHERE `status` = 'open';
--> statement-breakpoint
-- BM25 symbol search (external content over `symbols`, kept in sync by triggers).
CREATE VIRTUAL TABLE `symbols_fts` USING fts5(
  name, qualified_name, words, signature, docstring,
  content='symbols', content_rowid='rowid', tokenize='unicode61'
);
--> statement-breakpoint
CREATE TRIGGER `symbols_fts_ai` AFTER INSERT ON `symbols` BEGIN
  INSERT INTO symbols_fts(rowid, name, qualified_name, words, signature, docstring)
  VALUES (new.rowid, new.name, new.qualified_name, new.words, new.signature, coalesce(new.docstring, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `symbols_fts_ad` AFTER DELETE ON `symbols` BEGIN
  INSERT INTO symbols_fts(symbols_fts, rowid, name, qualified_name, words, signature, docstring)
  VALUES ('delete', old.rowid, old.name, old.qualified_name, old.words, old.signature, coalesce(old.docstring, ''));
END;
