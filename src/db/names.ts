/** A symbol name of a project with one of its ids (NearSymbol: the nearest to where it was asked, else the least). */
import { allRows } from './client';
import type { NearestBounds } from '../util/did-you-mean';
import { nameCandidates as storedNames, type ParsedId } from '../symbols/symbol-id';
import { inAnotherFileSql, type MovedWant } from './source';
export interface NamedSymbol {
  name: string;
  id: string;
}

/**
 * A symbol id's qualified name and kind, and the file it named (what the moved-file look-up seeks, source.ts
 * MovedWant): the symbol has moved when the same qualified name and kind is in another file.
 */
export type MovedSymbol = Omit<MovedWant, 'key'>;

/** The MovedSymbol of a parsed id. */
export function movedSymbolOf(p: ParsedId): MovedSymbol {
  return { names: storedNames(p.qualifiedName), qualifiedName: p.qualifiedName, kind: p.kind, path: p.path };
}

/**
 * SQL true while `m` has not moved: no symbol of the project with its
 * qualified name and kind in a file other than `m.path`. `bind` gives the
 * placeholder of each value, once per use (numbered or positional).
 */
export function notMovedSql(m: MovedSymbol, projectId: string, bind: (value: unknown) => string): string {
  return `NOT EXISTS (SELECT 1 FROM json_each(${bind(JSON.stringify(m.names))}) m CROSS JOIN symbols x ON x.project_id = ${bind(projectId)}
    AND x.name = m.value AND x.qualified_name = ${bind(m.qualifiedName)} AND x.kind = ${bind(m.kind)}
    WHERE ${inAnotherFileSql('x.id', bind(m.path))})`;
}

/**
 * Where the name that resolved to nothing was asked: the file of the id and the owner of the qualified name it spelled
 * (`Locator` of `Locator.getSystemd`). A candidate name's id is then its symbol in that file and owner, else in that
 * file, else of that owner, else the least: the one the caller most likely meant, not another class's member of the
 * same name.
 */
export interface NearSymbol {
  path?: string | null;
  parent?: string | null;
}

/** Candidate rows read per look-up; the ranking happens in JavaScript (util/did-you-mean). */
const CANDIDATES = 2000;

/**
 * Symbol names of a project that may be near `name` (sharing its first two
 * characters, its last three, or its middle three, case-insensitively): the
 * candidates a did-you-mean ranks. One row per distinct name, in name order.
 * With `bounds` (util/did-you-mean nearestBounds), an ASCII name outside them
 * is left out in SQL: it could not be offered. Past CANDIDATES, the names
 * kept are those the input prefixes, then the nearest in length (the ones a
 * did-you-mean can rank best); before, the first in name order were, and a
 * common stem cut off the name meant. Measured on the 3,000-file latency tier
 * (92,529 symbols), for 300 of its names each with its second-to-last
 * character dropped: the name meant was among the three offered for 219
 * (115 hit the cap), for 249 with the bounds alone, and for 298 with both, at
 * the same SQLite cost (18.2 → 19.7 ms on average, SQLite 3.47.0). The
 * candidates' names are read from `symbol_names` (one row per distinct name
 * of a project, migration 0023) rather than from every symbol's entry in the
 * name index: 19.3 → 11.9 ms for the same 300, the same names and ids. Their
 * ids are read from the name index for the names kept only. With
 * `unlessMoved`, there are none when that symbol has moved: the statement
 * rides with the moved file's look-up, and a moved symbol needs no did-you-mean.
 */
export async function nameCandidates(
  d1: D1Database,
  projectId: string,
  name: string,
  bounds: NearestBounds | null = null,
  unlessMoved: MovedSymbol | null = null,
  asked: NearSymbol | null = null,
): Promise<NamedSymbol[]> {
  const n = name.toLowerCase().replace(/[%_\\]/g, '');
  if (n.length < 2) return [];
  const mid = n.length >= 5 ? n.slice(Math.floor(n.length / 2) - 1, Math.floor(n.length / 2) + 2) : n;
  const lower = name.toLowerCase();
  // A name holding a character outside ASCII is kept: its length and case may fold otherwise in JavaScript. Such a
  // name is longer in bytes than in characters, which costs SQLite a size it holds and a count of the name's characters;
  // a GLOB for a character outside printable ASCII walked every name past the length test, character by character
  // (the candidate statement 12.3 → 11.3 ms a name on the latency tier, SQLite 3.47.1; an ASCII control character
  // has the same length and case in both, so such a name now meets the bounds like any other).
  const near = bounds ? ` AND (length(name) BETWEEN ?5 AND ?6 OR lower(substr(name, 1, ?7)) = ?8 OR length(CAST(name AS BLOB)) <> length(name))` : '';
  let names = 'symbol_names';
  // Parameters past ?9, in the order their placeholders are written: the moved check's, then the asked file's and owner's.
  const extra: unknown[] = [];
  const at = (value: unknown) => `?${9 + extra.push(value)}`;
  if (unlessMoved) {
    // The outer loop of the join, one row or none: when the symbol has moved, no name is read at all (as a condition
    // beside the patterns SQLite would test it after them, on every name).
    names = `(SELECT 1 WHERE ${notMovedSql(unlessMoved, projectId, at)}) g CROSS JOIN symbol_names`;
  }
  // `+s.id`: the name's rows are found through the name index (on id's own index SQLite would walk every id).
  const id =
    asked && (asked.path || asked.parent)
      ? `(SELECT s.id FROM symbols s WHERE s.project_id = ?1 AND s.name = n.name
          ORDER BY s.file_path = ${at(asked.path ?? null)} DESC, coalesce(s.parent = ${at(asked.parent ?? null)}, 0) DESC, +s.id LIMIT 1)`
      : '(SELECT MIN(+s.id) FROM symbols s WHERE s.project_id = ?1 AND s.name = n.name)';
  return allRows<NamedSymbol>(
    d1
      .prepare(
        `SELECT n.name AS name, ${id} AS id
         FROM (SELECT name FROM ${names}
               WHERE project_id = ?1 AND (name LIKE ?2 OR name LIKE ?3 OR name LIKE ?4)${near}
               ORDER BY lower(substr(name, 1, ?7)) = ?8 DESC, abs(length(name) - ?9), name LIMIT ${CANDIDATES}) n
         ORDER BY n.name`,
      )
      .bind(projectId, `${n.slice(0, 2)}%`, `%${n.slice(-3)}`, `%${mid}%`, bounds?.minLength ?? 0, bounds?.maxLength ?? 0, [...lower].length, lower, [...name].length, ...extra),
  );
}
