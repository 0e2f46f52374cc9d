-- References are stored in runs of the same enclosing symbol (src/db/extraction-json.ts REF_FIELD): each run is
-- [enclosing, ref, ref, …], the enclosing key stated once instead of on every reference, and a target that is the
-- name less its first k characters (`t.Errorf` → `Errorf`) is stored as -k. Extractions written before keep the
-- layout of migration 0013 (one item per reference, [kind, line, name, target, enclosing, imported_names]) until
-- they are written again (`index` with force=true re-extracts a project's files): rewriting every row here would be
-- one statement over the whole table, past D1's 30 s on a full database. The view reads both layouts: an item of
-- the old one (its first element is a number, the kind) is read through a one-element stand-in array, `[0]`.
DROP VIEW `refs`;--> statement-breakpoint
-- The references of every visible file, read from its extraction (one row per reference).
CREATE VIEW `refs` AS
SELECT f.project_id AS project_id, f.path AS file_path, f.language AS language,
  CASE (CASE WHEN r.type = 'integer' THEN g.value ELSE r.value END) ->> 0 WHEN 0 THEN 'call' WHEN 1 THEN 'import' WHEN 2 THEN 'inherit' END AS kind,
  (CASE WHEN r.type = 'integer' THEN g.value ELSE r.value END) ->> 2 AS name,
  CASE WHEN typeof((CASE WHEN r.type = 'integer' THEN g.value ELSE r.value END) ->> 3) = 'integer'
    THEN CASE WHEN (CASE WHEN r.type = 'integer' THEN g.value ELSE r.value END) ->> 3 = 1
      THEN (CASE WHEN r.type = 'integer' THEN g.value ELSE r.value END) ->> 2
      ELSE substr((CASE WHEN r.type = 'integer' THEN g.value ELSE r.value END) ->> 2, 1 - ((CASE WHEN r.type = 'integer' THEN g.value ELSE r.value END) ->> 3)) END
    ELSE (CASE WHEN r.type = 'integer' THEN g.value ELSE r.value END) ->> 3 END AS target,
  CASE WHEN r.type = 'integer' THEN json_extract(g.value, '$[5]') ELSE json_extract(r.value, '$[4]') END AS imported_names,
  CASE WHEN (CASE WHEN r.type = 'integer' THEN g.value ->> 4 ELSE g.value ->> 0 END) IS NULL THEN NULL
    ELSE f.path || '::' || (CASE WHEN r.type = 'integer' THEN g.value ->> 4 ELSE g.value ->> 0 END) END AS enclosing,
  (CASE WHEN r.type = 'integer' THEN g.value ELSE r.value END) ->> 1 AS line
FROM `files` f
JOIN `extractions` e ON e.hash = f.hash AND e.language = f.language AND e.extractor_version = f.extractor_version,
  json_each(e.refs_json) g, json_each(CASE WHEN json_type(g.value, '$[0]') = 'integer' THEN '[0]' ELSE g.value END) r
WHERE r.key > 0 OR r.type = 'integer';
