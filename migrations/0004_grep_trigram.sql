-- Trigram index over stored file contents: grep prefilters candidate files with it
-- (substring MATCH on the pattern's literals) instead of scanning every file.
CREATE VIRTUAL TABLE `blob_grams` USING fts5(content, content='blobs', content_rowid='rowid', tokenize='trigram', detail='none');
--> statement-breakpoint
INSERT INTO blob_grams(rowid, content) SELECT rowid, content FROM blobs;
--> statement-breakpoint
CREATE TRIGGER `blob_grams_ai` AFTER INSERT ON `blobs` BEGIN
  INSERT INTO blob_grams(rowid, content) VALUES (new.rowid, new.content);
END;
--> statement-breakpoint
CREATE TRIGGER `blob_grams_ad` AFTER DELETE ON `blobs` BEGIN
  INSERT INTO blob_grams(blob_grams, rowid, content) VALUES ('delete', old.rowid, old.content);
END;
