-- References are stored in runs of the same enclosing symbol (src/db/extraction-json.ts REF_FIELD): each run is
-- [enclosing, ref, ref, …], the enclosing key stated once instead of on every reference, and a target that is the
-- name less its first k characters (`t.Errorf` → `Errorf`) is stored as -k. The refs view reads the new layout.
DROP VIEW `refs`;--> statement-breakpoint
UPDATE `extractions` SET `refs_json` = (
  SELECT '[' || group_concat(
           CASE WHEN z.k = 0 THEN '[' || json_quote(z.enclosing) || ','
                WHEN z.enclosing IS NOT z.prev THEN '],[' || json_quote(z.enclosing) || ','
                ELSE ',' END
           || CASE
                WHEN z.imported IS NOT NULL THEN json_array(z.kind, z.line, z.name, z.target, json(z.imported))
                WHEN z.target IS NOT NULL THEN json_array(z.kind, z.line, z.name, z.target)
                ELSE json_array(z.kind, z.line, z.name)
              END, '') || ']]'
  FROM (
    SELECT y.k, y.kind, y.line, y.name, y.imported, y.enclosing, lag(y.enclosing) OVER (ORDER BY y.k) AS prev,
           CASE
             WHEN y.target IS NULL OR typeof(y.target) = 'integer' THEN y.target
             WHEN length(y.target) < length(y.name) AND substr(y.name, length(y.name) - length(y.target) + 1) = y.target
               THEN length(y.target) - length(y.name)
             ELSE y.target
           END AS target
    FROM (
      SELECT r.key AS k, r.value ->> 0 AS kind, r.value ->> 1 AS line, r.value ->> 2 AS name, r.value ->> 3 AS target,
             r.value -> 5 AS imported, r.value ->> 4 AS enclosing
      FROM json_each(`extractions`.`refs_json`) r
    ) y
    ORDER BY y.k
  ) z
)
WHERE `refs_json` LIKE '[[%' AND json_type(`refs_json`, '$[0][0]') = 'integer';--> statement-breakpoint
-- The references of every visible file, read from its extraction (one row per reference).
CREATE VIEW `refs` AS
SELECT f.project_id AS project_id, f.path AS file_path, f.language AS language,
  CASE r.value ->> 0 WHEN 0 THEN 'call' WHEN 1 THEN 'import' WHEN 2 THEN 'inherit' END AS kind,
  r.value ->> 2 AS name,
  CASE WHEN typeof(r.value ->> 3) = 'integer' THEN CASE WHEN r.value ->> 3 = 1 THEN r.value ->> 2 ELSE substr(r.value ->> 2, 1 - (r.value ->> 3)) END ELSE r.value ->> 3 END AS target,
  json_extract(r.value, '$[4]') AS imported_names,
  CASE WHEN g.value ->> 0 IS NULL THEN NULL ELSE f.path || '::' || (g.value ->> 0) END AS enclosing,
  r.value ->> 1 AS line
FROM `files` f
JOIN `extractions` e ON e.hash = f.hash AND e.language = f.language AND e.extractor_version = f.extractor_version,
  json_each(e.refs_json) g, json_each(g.value) r
WHERE r.key > 0;
