/** A symbol name of a project with one of its ids (the first by path and position). */
import { allRows } from './client';
export interface NamedSymbol {
  name: string;
  id: string;
}

/** Candidate rows read per look-up; the ranking happens in JavaScript (util/did-you-mean). */
const CANDIDATES = 2000;

/**
 * Symbol names of a project that may be near `name` (sharing its first two
 * characters, its last three, or its middle three, case-insensitively): the
 * candidates a did-you-mean ranks. One row per distinct name.
 */
export async function nameCandidates(d1: D1Database, projectId: string, name: string): Promise<NamedSymbol[]> {
  const n = name.toLowerCase().replace(/[%_\\]/g, '');
  if (n.length < 2) return [];
  const mid = n.length >= 5 ? n.slice(Math.floor(n.length / 2) - 1, Math.floor(n.length / 2) + 2) : n;
  return allRows<NamedSymbol>(
    d1
      .prepare(
        `SELECT name, MIN(id) AS id FROM symbols
         WHERE project_id = ?1 AND (name LIKE ?2 OR name LIKE ?3 OR name LIKE ?4)
         GROUP BY name LIMIT ${CANDIDATES}`,
      )
      .bind(projectId, `${n.slice(0, 2)}%`, `%${n.slice(-3)}`, `%${mid}%`),
  );
}
