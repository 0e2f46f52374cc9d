/**
 * How a symbol name (`Name`, `Class.method`, `pkg.Func`) ranks the symbols
 * it may name, in SQL: the same kinds of match, in the same order, as
 * resolveRef (src/symbols/resolve.ts) reads them in JavaScript. A lookup
 * that only ranks in SQL (a walk from a name, the symbol a name most likely
 * resolves to) and one that keeps only the symbols a name may match (so that
 * its row cap is spent on them) both read it here.
 */
import { lastPart, splitQualified } from '../util/qualified-ref';
import { ftsString } from './fts-string';
import { nameCandidates } from '../symbols/symbol-id';

/** A name as a JSON value for nameQualitySql: the name as given and its parts, as resolveRef reads them. */
export interface NamePick {
  /** Values of `symbols.name` that may match (nameCandidates). */
  names: string[];
  /** The name as given, without `@line`. */
  ref: string;
  /** `Owner.name` for a member; null for a bare name. */
  dotted: string | null;
  /** The member's own name; null for a bare name. */
  member: string | null;
  /** The owner's last part, when `pkg.Func` may name a top-level definition by its folder or module file; else null. */
  owner: string | null;
  /**
   * For a member: an FTS5 expression over `symbols_fts.qualified_name` matching every symbol whose qualified name
   * is `ref` or `dotted` or ends with one of them after `.` or ` > ` (with others); null for a bare name, or when
   * the name has no letter or digit for the index to find (pickRowsSql then reads every symbol of its names).
   */
  phrase: string | null;
}

/** The NamePick of a name (`Name@line` without its `@line`). */
export function namePick(name: string): NamePick {
  const split = splitQualified(name);
  const member = split?.owner ? { ...split, owner: split.owner } : null;
  const dotted = member ? `${member.owner}.${member.name}` : null;
  return {
    names: nameCandidates(name),
    ref: name,
    dotted,
    member: member?.name ?? null,
    owner: member && (member.separator === '.' || member.separator === '::') ? lastPart(member.owner) : null,
    phrase: dotted === null ? null : qualifiedPhrase([name, dotted]),
  };
}

/**
 * `qualified_name : "…"` for each name, joined with OR; null when one has no letter or digit. The search index's
 * tokenizer (unicode61) splits on every character that is not a letter or digit and folds case, so a qualified name
 * equal to a name, or ending with it after `.` or ` > `, holds the name's tokens in a row: the phrase finds it.
 */
function qualifiedPhrase(names: readonly string[]): string | null {
  const distinct = [...new Set(names)];
  if (!distinct.every((n) => /[\p{L}\p{N}]/u.test(n))) return null;
  return distinct.map((n) => `qualified_name : ${ftsString(n)}`).join(' OR ');
}

/** SQL expressions for a NamePick's parts (its `ref`, `dotted`, `member` and `owner`). */
export interface PickParts {
  ref: string;
  dotted: string;
  member: string;
  owner: string;
}

/** The parts of a row of picksCte aliased `alias` (its columns `ref`, `dotted`, `member`, `owner`). */
export function pickColumns(alias: string): PickParts {
  return { ref: `${alias}.ref`, dotted: `${alias}.dotted`, member: `${alias}.member`, owner: `${alias}.owner` };
}

/** The parts of the NamePick JSON value `p` (an SQL expression), read from the JSON where they are used. */
export function pickFromJson(p: string): PickParts {
  return { ref: `(${p} ->> '$.ref')`, dotted: `(${p} ->> '$.dotted')`, member: `(${p} ->> '$.member')`, owner: `(${p} ->> '$.owner')` };
}

/**
 * The kind of match of symbol `s` (an alias with name, qualified_name and file_path) for a NamePick whose parts are
 * `p`: 0 exact qualified name, 1 name, 2 qualified-name suffix, 3 a top-level definition in a folder or module file
 * the owner names, 4 no match.
 */
export function nameQualitySql(p: PickParts, s = 's'): string {
  return `CASE
    WHEN ${s}.qualified_name = ${p.ref} OR ${s}.qualified_name = ${p.dotted} THEN 0
    WHEN ${s}.name = ${p.ref} THEN 1
    WHEN substr(${s}.qualified_name, -length(${p.ref}) - 1) = '.' || ${p.ref}
      OR substr(${s}.qualified_name, -length(${p.ref}) - 3) = ' > ' || ${p.ref}
      OR substr(${s}.qualified_name, -length(${p.dotted}) - 1) = '.' || ${p.dotted} THEN 2
    WHEN ${s}.name = ${p.member} AND ${s}.qualified_name = ${s}.name
      AND (instr('/' || ${s}.file_path, '/' || ${p.owner} || '/') > 0 OR instr('/' || ${s}.file_path, '/' || ${p.owner} || '.') > 0) THEN 3
    ELSE 4 END`;
}

/** Symbols a name lookup reads at most, in path order, of those the name may match. */
export const NAME_ROWS = 500;

/**
 * A member name is crowded when more symbols bear it than this plus a quarter of the project's files, and more than
 * there are files its owner names: its candidates are then found through their qualified names (the search index),
 * the name itself and those files, not by reading every symbol of the name (1,820 `constructor`s in `drizzle-orm`).
 * Reading a symbol costs about what listing a few of the project's files for the owner's does, so below that the
 * name's symbols are read.
 */
export const CROWDED_NAME = 256;

/** SQL true when the file path `path` lies in a folder `owner` names or is its module file (`owner/…`, `owner.ext`). */
export function ownerFileSql(path: string, owner: string): string {
  // instr first: most paths do not hold the owner at all, and it needs no concatenation.
  return `instr(${path}, ${owner}) > 0 AND (instr('/' || ${path}, '/' || ${owner} || '/') > 0 OR instr('/' || ${path}, '/' || ${owner} || '.') > 0)`;
}

/** A pick's parts read out of its JSON (`pj.value`), as picksCte's columns. */
const PICK_PARTS_SQL = `SELECT pj.value AS value, pj.value ->> '$.ref' AS ref, pj.value ->> '$.dotted' AS dotted, pj.value ->> '$.member' AS member,
        pj.value ->> '$.owner' AS owner,
        pj.value ->> '$.phrase' AS phrase`;

/**
 * Whether any of `picks` may be crowded (CROWDED_NAME): only a member name with a phrase counts its name's symbols
 * (picksCte), so a statement whose picks are all bare names, or members without one, never reads a crowded pick's
 * rows. It then leaves those parts out (picksCte, pickRowsSql, namePickSql with `crowdable` false): the same rows,
 * half the statement to prepare (606 → 326 opcodes for namePickSql; D1 prepares every statement it runs).
 */
export function mayCrowd(picks: readonly NamePick[]): boolean {
  return picks.some((p) => p.phrase !== null);
}

/**
 * The picks of `source` (a FROM item `pj` whose `value` is a NamePick as JSON), their parts read out once, and
 * the files each crowded candidate's owner names (CROWDED_NAME): two CTEs for a WITH list, `name` with columns `value`,
 * `ref`, `dotted`, `member`, `owner`, `phrase`, `named` and `owner_files` (and `name_parts` before it); crowdedOf tells
 * from the last two whether a pick is crowded. `project` is the project's id (an SQL expression; ?1 by default). Not
 * `crowdable` (mayCrowd): the one CTE without those two columns, nothing counted (pickRowsSql then reads no crowded part).
 */
export function picksCte(name: string, source: string, project = '?1', crowdable = true): string {
  if (!crowdable) return `${name} AS MATERIALIZED (${PICK_PARTS_SQL} FROM ${source})`;
  return `${name}_parts AS MATERIALIZED (
      ${PICK_PARTS_SQL},
        CASE WHEN pj.value ->> '$.phrase' IS NULL THEN 0
          ELSE (SELECT count(*) FROM symbols c WHERE c.project_id = ${project} AND c.name = pj.value ->> '$.member') END AS named
      FROM ${source}),
    ${name} AS MATERIALIZED (SELECT x.*, ${ownerFilesSql('x.named', 'x.owner', project)} AS owner_files FROM ${name}_parts x)`;
}

/**
 * The paths of the files the owner names (`owner`, null: none), as a JSON array, for a member name borne by more symbols
 * (`named`) than CROWDED_NAME plus a quarter of the project's files; null below that, without reading a file. Each an
 * SQL expression. One pass over the project's paths: crowdedOf counts them, and a crowded pick reads its candidates
 * in those files from the same list (pickRowsSql, memberRowsSql), not from a second pass.
 */
export function ownerFilesSql(named: string, owner: string, project: string): string {
  return `CASE WHEN ${named} > ${CROWDED_NAME} + coalesce((SELECT file_count FROM projects WHERE id = ${project}), 0) / 4
      THEN (SELECT json_group_array(fl.path) FROM files fl WHERE fl.project_id = ${project} AND ${owner} IS NOT NULL AND ${ownerFileSql('fl.path', owner)})
      END`;
}

/**
 * SQL true when a member name is crowded (CROWDED_NAME): more symbols bear it (`named`) than there are files its owner
 * names (`ownerFiles`, ownerFilesSql's list; null: not past the first test). Each an SQL expression.
 */
export function crowdedOf(named: string, ownerFiles: string): string {
  return `coalesce(${named} > json_array_length(${ownerFiles}), 0)`;
}

/**
 * Rowids of every symbol of the project (`project`, ?1 by default) some pick of `picks` (a CTE of picksCte's columns) ranks under 4 by
 * nameQualitySql among the symbols named one of its names, and of others: the caller keeps those of its names and
 * ranks them. An uncrowded pick reads every symbol of its names. A crowded one reads through indexes the symbols
 * of each kind of match: the exact or suffix qualified name through the search index (its `phrase`), the name as
 * given, and top-level definitions of the member in files the owner names (each file's range of ids,
 * `path::member#`, over the list picksCte made). Rows of other projects the search index finds are the caller's to drop.
 */
export function pickRowsSql(picks: string, project = '?1', crowdable = true): string {
  const named = `${picks} pc CROSS JOIN json_each(pc.value, '$.names') j
       CROSS JOIN symbols s ON s.project_id = ${project} AND s.name = j.value`;
  // No pick crowded: the first part alone, its rows distinct as the UNION made them.
  if (!crowdable) return `SELECT DISTINCT s.rowid AS rid FROM ${named}`;
  const crowded = crowdedOf('pc.named', 'pc.owner_files');
  return `SELECT s.rowid AS rid FROM ${named} WHERE NOT ${crowded}
     UNION
     SELECT symbols_fts.rowid FROM ${picks} pc CROSS JOIN symbols_fts WHERE ${crowded} AND symbols_fts MATCH coalesce(pc.phrase, '""')
     UNION
     SELECT s.rowid FROM ${picks} pc CROSS JOIN symbols s ON s.project_id = ${project} AND s.name = pc.ref WHERE ${crowded}
     UNION
     SELECT s.rowid FROM ${picks} pc CROSS JOIN json_each(pc.owner_files) fo
       CROSS JOIN symbols s ON s.project_id = ${project} AND s.id >= fo.value || '::' || pc.member || '#' AND s.id < fo.value || '::' || pc.member || '$'
       WHERE ${crowded}`;
}

/**
 * The id a name resolves to, as resolveSymbolName picks it without `@line`: among the first NAME_ROWS symbols the
 * name may match (kind of match under 4) in path order, the best kind of match, then non-test, exported, path and
 * source order. Binds ?1 the project and `p` (?2 by default) the NamePick as JSON; `path`, an SQL expression, keeps
 * one file (null: any). Paths are ordered by bytes here and by locale there: a caller checks the pick against its own
 * resolution. Columns `id, k`.
 */
export function namePickSql(p = '?2', path = 'NULL', crowdable = true): string {
  return `SELECT id, 0 AS k FROM (
       WITH ${picksCte('pc', `(SELECT ${p} AS value) pj`, '?1', crowdable)}
       SELECT s.id, s.q, s.is_test, s.is_exported, s.file_path, s.start_byte FROM (
         SELECT s.id, s.file_path, s.is_test, s.is_exported, s.start_byte, ${nameQualitySql(pickFromJson(p))} AS q
         FROM (${pickRowsSql('pc', '?1', crowdable)}) r
         CROSS JOIN symbols s ON s.rowid = r.rid
         JOIN files f ON f.project_id = s.project_id AND f.path = s.file_path
         WHERE s.project_id = ?1 AND s.name IN (SELECT value FROM json_each(${p}, '$.names')) AND (${path} IS NULL OR s.file_path = ${path})
       ) s WHERE s.q < 4 ORDER BY s.file_path, s.start_byte LIMIT ${NAME_ROWS}
     ) ORDER BY q, is_test, is_exported DESC, file_path, start_byte LIMIT 1`;
}
