-- References are stored in runs of the same enclosing symbol (src/db/extraction-json.ts REF_FIELD): each run is
-- [enclosing, ref, ref, …], the enclosing key stated once instead of on every reference, and a target that is the
-- name less its first k characters (`t.Errorf` → `Errorf`) is stored as -k. Extractions written before keep the
-- layout of migration 0013 (one item per reference, [kind, line, name, target, enclosing, imported_names]) until
-- they are written again: rewriting every row here would be one statement over the whole table, past D1's 30 s on a
-- full database. The view reads both layouts: an item of the old one (its first element is a number, the kind) is
-- read as a run of its own, its enclosing key taken from the item.
DROP VIEW `refs`;--> statement-breakpoint
-- The references of every visible file, read from its extraction (one row per reference).
CREATE VIEW `refs` AS
SELECT f.project_id AS project_id, f.path AS file_path, f.language AS language,
  CASE r.value ->> 0 WHEN 0 THEN 'call' WHEN 1 THEN 'import' WHEN 2 THEN 'inherit' END AS kind,
  r.value ->> 2 AS name,
  CASE WHEN typeof(r.value ->> 3) = 'integer'
    THEN CASE WHEN r.value ->> 3 = 1 THEN r.value ->> 2 ELSE substr(r.value ->> 2, 1 - (r.value ->> 3)) END
    ELSE r.value ->> 3 END AS target,
  json_extract(r.value, '$[4]') AS imported_names,
  f.path || '::' || (CASE WHEN json_type(g.value, '$[0]') = 'integer' THEN g.value ->> 4 ELSE g.value ->> 0 END) AS enclosing,
  r.value ->> 1 AS line
FROM `files` f
JOIN `extractions` e ON e.hash = f.hash AND e.language = f.language AND e.extractor_version = f.extractor_version,
  json_each(e.refs_json) g,
  json_each(CASE WHEN json_type(g.value, '$[0]') = 'integer'
    THEN json_array(NULL, json_array(g.value -> 0, g.value -> 1, g.value -> 2, g.value -> 3, g.value -> 5))
    ELSE g.value END) r
WHERE r.key > 0;
