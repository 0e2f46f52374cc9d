/**
 * How a symbol name (`Name`, `Class.method`, `pkg.Func`) ranks the symbols
 * it may name, in SQL: the same kinds of match, in the same order, as
 * resolveRef (src/symbols/resolve.ts) reads them in JavaScript. A lookup
 * that only ranks in SQL (a walk from a name, the symbol a name most likely
 * resolves to) and one that keeps only the symbols a name may match (so that
 * its row cap is spent on them) both read it here.
 */
import { lastPart, splitQualified } from '../util/qualified-ref';
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
}

/** The NamePick of a name (`Name@line` without its `@line`). */
export function namePick(name: string): NamePick {
  const split = splitQualified(name);
  const member = split?.owner ? { ...split, owner: split.owner } : null;
  return {
    names: nameCandidates(name),
    ref: name,
    dotted: member ? `${member.owner}.${member.name}` : null,
    member: member?.name ?? null,
    owner: member && (member.separator === '.' || member.separator === '::') ? lastPart(member.owner) : null,
  };
}

/** SQL expressions for a NamePick's parts (its `ref`, `dotted`, `member` and `owner`). */
export interface PickParts {
  ref: string;
  dotted: string;
  member: string;
  owner: string;
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
 * The id a name resolves to, as resolveSymbolName picks it without `@line`: among the first NAME_ROWS symbols the
 * name may match (kind of match under 4) in path order, the best kind of match, then non-test, exported, path and
 * source order. Binds ?1 the project and `p` (?2 by default) the NamePick as JSON; `path`, an SQL expression, keeps
 * one file (null: any). Paths are ordered by bytes here and by locale there: a caller checks the pick against its own
 * resolution. Columns `id, k`.
 */
export function namePickSql(p = '?2', path = 'NULL'): string {
  return `SELECT id, 0 AS k FROM (
       SELECT s.id, s.q, s.is_test, s.is_exported, s.file_path, s.start_byte FROM (
         SELECT s.id, s.file_path, s.is_test, s.is_exported, s.start_byte, ${nameQualitySql(pickFromJson(p))} AS q
         FROM json_each(${p}, '$.names') j
         CROSS JOIN symbols s ON s.project_id = ?1 AND s.name = j.value
         JOIN files f ON f.project_id = s.project_id AND f.path = s.file_path
         WHERE ${path} IS NULL OR s.file_path = ${path}
       ) s WHERE s.q < 4 ORDER BY s.file_path, s.start_byte LIMIT ${NAME_ROWS}
     ) ORDER BY q, is_test, is_exported DESC, file_path, start_byte LIMIT 1`;
}
