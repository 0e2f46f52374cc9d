-- Whether a stored content has a line longer than 1,000 characters: 1 when it may (a push sets it when some
-- line is over 1,000 UTF-16 units, which a character outside the BMP counts twice), 0 when no line is, NULL when
-- unknown. A grep that carries lines tests each line's length only in contents that may have a long one.
ALTER TABLE `blobs` ADD `long_lines` integer;
--> statement-breakpoint
-- Contents already stored: split as grep splits them (src/db/content.ts, jsonLines), each line tested as grep
-- tests it (its length in bytes, then in characters).
UPDATE `blobs` SET `long_lines` = EXISTS (
  SELECT 1 FROM json_each('[' || replace(CASE WHEN `content` GLOB '*\*' THEN replace(json_quote(`content`), '\\', '\u005c') ELSE json_quote(`content`) END, '\n', '","') || ']') j
  WHERE length(CAST(j.value AS BLOB)) > 1000 AND length(j.value) > 1000
);
