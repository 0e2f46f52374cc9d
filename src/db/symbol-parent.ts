/**
 * How a symbol stores its parent (schema.ts `symbols`, migration 0015). The
 * parent is almost always the qualified name minus `.{name}`
 * (`Environment.list_templates` of `Environment.list_templates.filter_func`),
 * so `parent_raw` holds it only when it is not: null when the qualified name
 * implies it, '' for no parent where the qualified name implies one, the
 * parent itself otherwise. `parent` is a virtual generated column reading it
 * back, so statements read `parent` as before; only the commit writes
 * `parent_raw`, through `storedParentSql`. Extractors never give an empty
 * parent (null is "no parent").
 */

/** SQL: the parent the qualified name `qn` implies for the name `name` (SQL expressions), or null. */
function impliedParentSql(qn: string, name: string): string {
  return `CASE WHEN length(${qn}) > length(${name}) + 1 AND substr(${qn}, -length(${name}) - 1) = '.' || ${name} THEN substr(${qn}, 1, length(${qn}) - length(${name}) - 1) END`;
}

/** SQL of the generated column `parent`, as the schema declares it. */
export const SYMBOL_PARENT_SQL = `CASE WHEN parent_raw IS NULL THEN ${impliedParentSql('qualified_name', 'name')} WHEN parent_raw <> '' THEN parent_raw END`;

/** SQL: the `parent_raw` value storing `parent` for a symbol named `name` with qualified name `qn` (SQL expressions). */
export function storedParentSql(parent: string, qn: string, name: string): string {
  return `CASE WHEN (${parent}) IS ${impliedParentSql(`(${qn})`, `(${name})`)} THEN NULL ELSE coalesce(${parent}, '') END`;
}
