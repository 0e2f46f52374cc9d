/**
 * How search orders its hits: the definition whose name is the query comes
 * first. Every hit falls in a tier —
 *
 *   3  the exact name, case-sensitive (`Config` for `Config`; for a qualified
 *      query `Type.method`, the member `method` of `Type`)
 *   2  the exact name ignoring case (`config` for `Config`)
 *   1  a name that starts with the query, or holds it as a word
 *      (`ConfigLoader`, `load_config`); for a qualified query, the bare member name
 *   0  anything else the full-text match found (signature, docstring…)
 *
 * — then source before tests, examples, fixtures, vendored and built code,
 * then definitions with a body before body-less declarations (a C prototype,
 * a C++ member declared in its class and defined out of line),
 * then the first definition of a name in its file before its overloads and
 * redeclarations, then a relevance: bm25 scaled by the definition's kind (a
 * class outweighs a variable of the same text). The score is one number that
 * orders all five: `tier·4000 + 2000 (source) + 1000 (body) + 500 (first) +
 * min(relevance, 499)`.
 */
import { SYMBOL_KINDS, type SymbolKind } from '../extract/types';
import { isPunctuatedName, lastPart, splitQualified } from '../util/qualified-ref';
import { crowdedOf, namePick, ownerFilesSql } from './name-pick';

/** Kind weights (after zoekt's symbol-kind factors): what a searcher most likely means by a name. */
export const KIND_WEIGHTS: Readonly<Record<SymbolKind, number>> = {
  Class: 10,
  Struct: 9.5,
  Enum: 9,
  Interface: 8,
  Trait: 8,
  Type: 7.5,
  Function: 7,
  Method: 7,
  Field: 5.5,
  Constant: 5,
  Variable: 4,
  Module: 3,
  Section: 3,
  Setting: 3,
};

/**
 * Folders whose code is not the project's own source, whatever the language
 * (the language table's testPaths set `is_test` for each language's tests).
 */
export const AUXILIARY_DIRS = [
  'example', 'examples', 'fixture', 'fixtures', '__fixtures__', 'testdata', 'test_data', 'mocks', '__mocks__',
  'vendor', 'third_party', 'thirdparty', 'node_modules',
] as const;

/** What the ranking knows about the query beyond its full-text match. */
export interface NameRank {
  /** The symbol's own name (the last part of a qualified query). */
  name: string;
  /** '.'-joined owner of a qualified query, null for a bare name. */
  owner: string | null;
  /** The query was `name*`: names starting with it rank as tier 1. */
  prefix: boolean;
  /** `pkg.Func` / `module::func`: the owner may be the file's folder or module rather than a type. */
  pathOwner: boolean;
}

/** The ranking facts of a query in the search syntax; null when it is not one name (then bm25 and kind decide). */
export function nameRankOf(query: string): NameRank | null {
  const t = query.trim();
  const star = /^([\p{L}\p{N}_$]+)\*$/u.exec(t);
  if (star) return { name: star[1], owner: null, prefix: true, pathOwner: false };
  const ref = splitQualified(t);
  if (!ref || (ref.owner !== null && /^(?:AND|OR|NOT)$/.test(ref.name))) return null;
  return { name: ref.name, owner: ref.owner, prefix: false, pathOwner: ref.separator === '.' || ref.separator === '::' };
}

export interface SqlPart {
  sql: string;
  params: unknown[];
}

const KIND_WEIGHT_SQL = `(CASE s.kind ${SYMBOL_KINDS.map((k) => `WHEN '${k}' THEN ${KIND_WEIGHTS[k]}`).join(' ')} ELSE 5 END)`;

/**
 * Whether a file `path` (SQL expressions over the row being written: its path
 * and language; `projectId` a parameter) holds auxiliary code by its place: a
 * path under one of AUXILIARY_DIRS, or JavaScript built from TypeScript:
 * `x.js`, `x.mjs`, `x.cjs`, `x.umd.js`, `x.min.js`, `x.esm.js` beside an
 * `x.d.ts` of the project. A symbol is auxiliary when its file is, or when it
 * is test code (`auxiliarySql`). Evaluated once per file at commit, then per
 * symbol into `symbols.auxiliary`, which the ranking reads (no per-candidate
 * path checks at query time).
 */
export function auxiliaryFileSql(e: { path: string; language: string; projectId: string }): string {
  const p = e.path;
  const dirs = AUXILIARY_DIRS.map((d) => `instr('/' || ${p}, '/${d}/') > 0`).join(' OR ');
  const stem = `(CASE WHEN ${p} LIKE '%.js' THEN substr(${p}, 1, length(${p}) - 3) WHEN ${p} LIKE '%.mjs' OR ${p} LIKE '%.cjs' THEN substr(${p}, 1, length(${p}) - 4) END)`;
  const bundleStem = `(CASE WHEN ${p} LIKE '%.umd.js' OR ${p} LIKE '%.min.js' OR ${p} LIKE '%.esm.js' THEN substr(${p}, 1, length(${p}) - 7) END)`;
  const built = `(${e.language} = 'javascript' AND EXISTS (SELECT 1 FROM files dts WHERE dts.project_id = ${e.projectId} AND dts.path IN (${stem} || '.d.ts', ${bundleStem} || '.d.ts')))`;
  return `(${dirs} OR ${built})`;
}

/** Whether a symbol is auxiliary code: test code (`isTest`, SQL), or in a file `auxiliaryFileSql` flags (`fileAuxiliary`, SQL). */
export function auxiliarySql(isTest: string, fileAuxiliary: string): string {
  return `(coalesce(${isTest}, 0) <> 0 OR ${fileAuxiliary})`;
}

/**
 * A later definition of the same qualified name and kind in one file (an
 * overload, a redeclaration): its id ends `~N`, while every kind name ends
 * with a letter.
 */
const REPEAT_SQL = `(s.key IS NOT NULL AND substr(s.key, -1) BETWEEN '0' AND '9')`;

function chars(text: string): number {
  return [...text].length;
}

/**
 * The exact member of a qualified query: its qualified name is `owner.name`
 * or ends with `.owner.name`; with `pathOwner`, also a top-level `name` in a
 * folder or file named like the owner's last part. `ci` compares ignoring case.
 */
function exactMember(r: NameRank & { owner: string }, ci: boolean): SqlPart {
  const col = (c: string) => (ci ? `lower(${c})` : c);
  const val = (v: string) => (ci ? v.toLowerCase() : v);
  const qualified = `${r.owner}.${r.name}`;
  const params: unknown[] = [val(r.name), val(qualified), -(chars(qualified) + 1), val(`.${qualified}`)];
  let sql = `${col('s.name')} = ? AND (${col('s.qualified_name')} = ? OR ${col('substr(s.qualified_name, ?)')} = ?`;
  if (r.pathOwner) {
    const dir = `/${lastPart(r.owner)}`;
    sql += ` OR (${col('s.qualified_name')} = ${col('s.name')} AND (instr(${col(`'/' || s.file_path`)}, ?) > 0 OR instr(${col(`'/' || s.file_path`)}, ?) > 0))`;
    params.push(val(`${dir}/`), val(`${dir}.`));
  }
  return { sql: `${sql})`, params };
}

/**
 * For a prefix query (`handle*`), the condition of its tier 1 over `s`: the
 * name starts with the word, ignoring (ASCII) case. Null for any other query.
 */
export function namePrefixSql(r: NameRank | null): SqlPart | null {
  return r?.prefix ? startsWithSql(r.name) : null;
}

/** The name of `s` starts with `name`, ignoring (ASCII) case. */
function startsWithSql(name: string): SqlPart {
  return { sql: 'lower(substr(s.name, 1, ?)) = ?', params: [chars(name), name.toLowerCase()] };
}

/** Tier of a hit (3 best … 0), as a SQL expression over `s`. */
function tierSql(r: NameRank | null): SqlPart {
  if (!r) return { sql: '0', params: [] };
  const startsWith = startsWithSql(r.name);
  if (r.prefix) return { sql: `(CASE WHEN ${startsWith.sql} THEN 1 ELSE 0 END)`, params: startsWith.params };
  if (r.owner !== null) {
    const exact = exactMember({ ...r, owner: r.owner }, false);
    const folded = exactMember({ ...r, owner: r.owner }, true);
    return {
      sql: `(CASE WHEN ${exact.sql} THEN 3 WHEN ${folded.sql} THEN 2 WHEN lower(s.name) = ? OR ${startsWith.sql} THEN 1 ELSE 0 END)`,
      params: [...exact.params, ...folded.params, r.name.toLowerCase(), ...startsWith.params],
    };
  }
  const word = r.name.toLowerCase();
  return {
    sql: `(CASE WHEN s.name = ? THEN 3 WHEN lower(s.name) = ? THEN 2 WHEN ${startsWith.sql} OR instr(' ' || s.words || ' ', ?) > 0 THEN 1 ELSE 0 END)`,
    params: [r.name, word, ...startsWith.params, ` ${word} `],
  };
}

/** What one tier adds to a score: scores from `2 × TIER_SCORE` up are exact-name hits (tiers 2 and 3). */
export const TIER_SCORE = 4000;

/**
 * The score of a hit, higher first: tier, then source over auxiliary code,
 * then definitions with a body over declarations, then first definitions over repeats,
 * then `relevance` (a SQL expression ≥ 0, e.g. −bm25) scaled by kind weight.
 */
export function scoreSql(r: NameRank | null, relevance: string): SqlPart {
  const tier = tierSql(r);
  return {
    sql: `(${tier.sql} * ${TIER_SCORE} + (CASE WHEN s.auxiliary THEN 0 ELSE 2000 END) + (CASE WHEN s.declaration THEN 0 ELSE 1000 END)
      + (CASE WHEN ${REPEAT_SQL} THEN 0 ELSE 500 END) + min((${relevance}) * ${KIND_WEIGHT_SQL} / 10.0, 499.0))`,
    params: tier.params,
  };
}

/** A condition over `s` and the FROM clause that reads its rows: the table, or a member's candidate rowids. */
export type NamedPart = SqlPart & { from: SqlPart };

const FROM_SYMBOLS: SqlPart = { sql: 'FROM symbols s', params: [] };

/**
 * Candidates the full-text match cannot see: for `pkg.Func` / `module.func`,
 * top-level definitions qualified by their folder or file rather than by a
 * parent symbol; for an operator or punctuated name, every definition of it. A condition over `s` that seeks the name
 * index, with the FROM clause to read it from; null when the query needs none. A member's rows are read from the
 * rowids memberRowsSql gives: for a crowded name (`Driver.constructor` among a thousand constructors) through the
 * search index and the owner's files, not every symbol of the name.
 */
export function namedCandidates(r: NameRank | null, projectId: string): NamedPart | null {
  if (!r || r.prefix) return null;
  // Operators and punctuated names (`==`, `valid?`): full-text search splits them into nothing or
  // into common words, so every definition of that exact name comes from the name index.
  if (isPunctuatedName(r.name)) return { sql: 's.name = ?', params: [r.name], from: FROM_SYMBOLS };
  if (r.owner === null || !r.pathOwner) return null;
  const exact = exactMember({ ...r, owner: r.owner }, false);
  const rows = memberRowsSql({ ...r, owner: r.owner }, projectId);
  return {
    sql: `s.name = ? AND ${exact.sql}`,
    params: [r.name, ...exact.params],
    from: rows ? { sql: `FROM (${rows.sql}) nr CROSS JOIN symbols s ON s.rowid = nr.rid`, params: rows.params } : FROM_SYMBOLS,
  };
}

/**
 * Rowids of project `projectId` holding every symbol exactMember keeps for `owner.name` (with `pathOwner`), and
 * others: the symbols named `name`, or, when the name is crowded (name-pick.ts CROWDED_NAME: `Driver.constructor`
 * among a thousand constructors), those whose qualified name the search index finds holding `owner.name` and the
 * top-level `name`s of the files the owner names (as pickRowsSql reads a NamePick's; exactMember wants the name
 * itself, never `owner.name`). Null when that pick does not split the name as the rank does.
 */
function memberRowsSql(r: NameRank & { owner: string }, projectId: string): SqlPart | null {
  const pick = namePick(`${r.owner}.${r.name}`);
  if (pick.member !== r.name || pick.owner !== lastPart(r.owner) || pick.dotted !== `${r.owner}.${r.name}` || pick.phrase === null) return null;
  const values = { project: projectId, member: pick.member, owner: pick.owner, phrase: pick.phrase };
  const named = 'SELECT count(*) AS named FROM symbols c WHERE c.project_id = $$project AND c.name = $$member';
  // Whether the name is crowded, worked out once with the files its owner names (`k`, one row, the outer loop of each
  // way: its test skips the way's loop when the way is not the one), so those files are listed in one pass. `n` is
  // materialized apart: the count is then read once, not copied into each expression that reads it.
  const crowded = crowdedOf('k.named', 'k.owner_files');
  const sql = `WITH n AS MATERIALIZED (${named}),
    k AS MATERIALIZED (SELECT n.named, ${ownerFilesSql('n.named', '$$owner', '$$project')} AS owner_files FROM n)
    SELECT s.rowid AS rid FROM k CROSS JOIN symbols s ON s.project_id = $$project AND s.name = $$member WHERE NOT ${crowded}
    UNION ALL
    SELECT rid FROM (
      SELECT symbols_fts.rowid AS rid FROM k CROSS JOIN symbols_fts WHERE ${crowded} AND symbols_fts MATCH $$phrase
      UNION SELECT s.rowid FROM k CROSS JOIN json_each(k.owner_files) fo
        CROSS JOIN symbols s ON s.project_id = $$project AND s.id >= fo.value || '::' || $$member || '#' AND s.id < fo.value || '::' || $$member || '$'
        WHERE ${crowded}
    )`;
  // Written with named markers, then made positional in text order (the statement's builder numbers them).
  const params: unknown[] = [];
  return { sql: sql.replace(/\$\$(project|member|owner|phrase)\b/g, (_, k: keyof typeof values) => (params.push(values[k]), '?')), params };
}
