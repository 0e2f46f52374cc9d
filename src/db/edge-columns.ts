/**
 * How an edge stores its kind, provenance and confidence (schema.ts
 * `edge_rows`, migrations 0015 and 0025): small integers, read back as the
 * text and the number by the `edges` view's columns `kind`, `provenance` and
 * `confidence` (the view's CASE lists these codes: a new code needs a
 * migration that replaces the view; test/worker/db/edge-codes.test.ts reads
 * every code back), so statements that read edges name those. Writes use
 * the stored columns through these helpers, and so does the one read that
 * skips the view (a walk, src/db/walk-sql.ts: the view's joins and
 * decoding, planned at every prepare, cost it more than its reads). A code is the value's position in
 * its list (0 and 1, the commonest, take no bytes in a row); the confidence
 * is kept in thousandths, the resolver's precision (src/graph/resolve).
 */
import type { EdgeKind, Provenance } from '../graph/types';

/** `kind_code` → `kind`. Append only: a stored code never changes meaning. */
export const EDGE_KINDS = ['CALLS', 'IMPORTS', 'INHERITS', 'IMPLEMENTS', 'REFERENCES'] as const satisfies readonly EdgeKind[];

/** `provenance_code` → `provenance`. Append only. */
export const EDGE_PROVENANCES = ['same_file', 'receiver', 'module', 'unique_name', 'ambiguous', 'import', 'package', 'scip'] as const satisfies readonly Provenance[];

/** True only while every kind and provenance has a code: adding one to src/graph/types.ts without a code here fails to compile. */
export const EDGE_CODES_COMPLETE: [Exclude<EdgeKind, (typeof EDGE_KINDS)[number]> | Exclude<Provenance, (typeof EDGE_PROVENANCES)[number]>] extends [never] ? true : false = true;

function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** SQL: the code of `text` (an SQL expression) in `values`; null for a value not in the list (the NOT NULL column refuses it). */
function encodeSql(values: readonly string[], text: string): string {
  return `CASE (${text}) ${values.map((v, i) => `WHEN ${quote(v)} THEN ${i}`).join(' ')} END`;
}

/** The stored columns of an edge's kind, provenance and confidence, in the order `edgeCodesSql` gives their values. */
export const EDGE_CODE_COLUMNS = 'kind_code, provenance_code, confidence_milli';

/** SQL: the values of EDGE_CODE_COLUMNS for an edge's kind, provenance and confidence given as SQL expressions. */
export function edgeCodesSql(kind: string, provenance: string, confidence: string): string {
  return `${encodeSql(EDGE_KINDS, kind)}, ${encodeSql(EDGE_PROVENANCES, provenance)}, CAST(round((${confidence}) * 1000) AS INTEGER)`;
}

/** `kind_code` of `kind`. */
export function edgeKindCode(kind: EdgeKind): number {
  return EDGE_KINDS.indexOf(kind);
}

/** SQL: the code of each of `kinds`, a list for `kind_code IN (…)` (the kinds are a closed set: no value is bound). */
export function edgeKindCodesSql(kinds: readonly EdgeKind[]): string {
  return [...new Set(kinds.map(edgeKindCode))].sort((a, b) => a - b).join(', ');
}

/** SQL: the code `code` (an SQL expression) read back as its text in `values`, as the view's CASE reads it. */
function decodeSql(values: readonly string[], code: string): string {
  return `CASE ${code} ${values.map((v, i) => `WHEN ${i} THEN ${quote(v)}`).join(' ')} END`;
}

/** SQL: the kind of `edge_rows` row `alias`, as the view's `kind` reads it. */
export function edgeKindSql(alias: string): string {
  return decodeSql(EDGE_KINDS, `${alias}.kind_code`);
}

/** SQL: the provenance of `edge_rows` row `alias`, as the view's `provenance` reads it. */
export function edgeProvenanceSql(alias: string): string {
  return decodeSql(EDGE_PROVENANCES, `${alias}.provenance_code`);
}

/** SQL: the confidence of `edge_rows` row `alias`, as the view's `confidence` reads it. */
export function edgeConfidenceSql(alias: string): string {
  return `${alias}.confidence_milli / 1000.0`;
}
