-- References are stored once, in their extraction (refs_json), instead of a second time as rows.
DROP TABLE `refs`;
--> statement-breakpoint
-- Extraction output is stored as positional arrays (src/db/extraction-json.ts): field names are no longer repeated per item.
UPDATE `extractions` SET `symbols_json` = (
  SELECT json_group_array(json_array(
    CASE WHEN s.value ->> 'key' = (s.value ->> 'qualified_name') || '#' || (s.value ->> 'kind') THEN NULL ELSE s.value ->> 'key' END,
    s.value ->> 'name', s.value ->> 'qualified_name', s.value ->> 'kind', s.value ->> 'signature', s.value ->> 'docstring',
    s.value ->> 'parent', CASE WHEN s.value ->> 'is_exported' THEN 1 ELSE 0 END, CASE WHEN s.value ->> 'is_test' THEN 1 ELSE 0 END,
    s.value ->> 'start_line', s.value ->> 'end_line', s.value ->> 'start_byte', s.value ->> 'end_byte',
    s.value ->> 'extraction_confidence', s.value ->> 'words', CASE WHEN s.value ->> 'declaration' THEN 1 ELSE 0 END))
  FROM json_each(`extractions`.`symbols_json`) s)
WHERE `symbols_json` LIKE '[{%';
--> statement-breakpoint
UPDATE `extractions` SET `refs_json` = (
  SELECT json_group_array(json_array(
    r.value ->> 'kind', r.value ->> 'name', r.value ->> 'target', json(r.value -> 'imported_names'), r.value ->> 'enclosing', r.value ->> 'line'))
  FROM json_each(`extractions`.`refs_json`) r)
WHERE `refs_json` LIKE '[{%';
--> statement-breakpoint
-- The references of every visible file, read from its extraction (one row per reference).
CREATE VIEW `refs` AS
SELECT f.project_id AS project_id, f.path AS file_path, f.language AS language,
  r.value ->> 0 AS kind, r.value ->> 1 AS name, r.value ->> 2 AS target,
  json_extract(r.value, '$[3]') AS imported_names,
  CASE WHEN r.value ->> 4 IS NULL THEN NULL ELSE f.path || '::' || (r.value ->> 4) END AS enclosing,
  r.value ->> 5 AS line
FROM `files` f
JOIN `extractions` e ON e.hash = f.hash AND e.language = f.language AND e.extractor_version = f.extractor_version,
  json_each(e.refs_json) r;
