/** A symbol name of a project with one of its ids (the first by path and position). */
import { allRows } from './client';
import type { NearestBounds } from '../util/did-you-mean';
export interface NamedSymbol {
  name: string;
  id: string;
}

/** Candidate rows read per look-up; the ranking happens in JavaScript (util/did-you-mean). */
const CANDIDATES = 2000;

/**
 * Symbol names of a project that may be near `name` (sharing its first two
 * characters, its last three, or its middle three, case-insensitively): the
 * candidates a did-you-mean ranks. One row per distinct name. With `bounds`
 * (util/did-you-mean nearestBounds), an ASCII name outside them is left out in
 * SQL: it could not be offered, and a common stem no longer fills the
 * CANDIDATES cap with names of any length, cutting off, in name order, ones
 * that could (on 92,529 symbols, `getHeaders` had 2,000 candidates, the cap,
 * and has 762 with the bounds). The bounds are tested after the name patterns,
 * on their matches only: before them, they cost more than they save.
 */
export async function nameCandidates(d1: D1Database, projectId: string, name: string, bounds: NearestBounds | null = null): Promise<NamedSymbol[]> {
  const n = name.toLowerCase().replace(/[%_\\]/g, '');
  if (n.length < 2) return [];
  const mid = n.length >= 5 ? n.slice(Math.floor(n.length / 2) - 1, Math.floor(n.length / 2) + 2) : n;
  // A name holding a character outside printable ASCII is kept: its length and case may fold otherwise in JavaScript.
  const near = bounds ? ` AND (length(name) BETWEEN ?5 AND ?6 OR lower(substr(name, 1, ?7)) = ?8 OR name GLOB '*[^ -~]*')` : '';
  return allRows<NamedSymbol>(
    d1
      .prepare(
        `SELECT name, MIN(id) AS id FROM symbols
         WHERE project_id = ?1 AND (name LIKE ?2 OR name LIKE ?3 OR name LIKE ?4)${near}
         GROUP BY name LIMIT ${CANDIDATES}`,
      )
      .bind(projectId, `${n.slice(0, 2)}%`, `%${n.slice(-3)}`, `%${mid}%`, ...(bounds ? [bounds.minLength, bounds.maxLength, bounds.prefix.length, bounds.prefix] : [])),
  );
}
