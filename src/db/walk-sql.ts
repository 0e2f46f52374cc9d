/**
 * The SQL of a walk over `edges` (graph.ts reads it): one level from a
 * frontier, and several levels of one direction as one statement. Kept apart
 * from graph.ts so that it imports nothing but the edge helpers (edge-ends.ts, edge-columns.ts).
 */
import type { EdgeKind } from '../graph/types';
import { edgeConfidenceSql, edgeKindCode, edgeKindCodesSql, edgeKindSql, edgeProvenanceSql } from './edge-columns';
import { edgeEndIdSql, edgeEndIsSql, edgeEndOfIdSql, edgeIdSql, endRowIdSql, type EdgeEnd } from './edge-ends';
import { namePickSql } from './name-pick';

/** The frontier a level reads from: a FROM item aliased `j`, and the SQL of its position and id. */
export interface FrontierSql {
  from: string;
  k: string;
  id: string;
}

/** Row order of a level: frontier position, then the far end's file, the line and the edge. */
export const LEVEL_ORDER = 'x.k, x.node_file, x.line, x.r';

/**
 * SQL of one level of edges from `frontier` in one direction, with the far
 * end's symbol and file rows (columns of LevelRow, plus `k` and the edge's
 * rowid `r`); the caller orders and cuts it. With `perPair`, one row per
 * (frontier id, far end): its most confident edge, a call before another
 * reference and the earliest line among equals.
 */
export function levelSql(frontier: FrontierSql, direction: 'in' | 'out', perPair: boolean, extraColumns = ''): string {
  const [near, far]: EdgeEnd[] = direction === 'in' ? ['dst', 'src'] : ['src', 'dst'];
  const edgeRows = `SELECT ${frontier.k} AS k, ${frontier.id} AS via, e.kind, ${edgeIdSql('e', far)} AS node_id, e.${far}_file AS node_file, e.line, e.confidence, e.provenance, e.name AS ref, e.rowid AS r
       ${perPair ? `, row_number() OVER (PARTITION BY ${frontier.k}, e.${far}_file, ${edgeIdSql('e', far)} ORDER BY e.confidence DESC, e.kind = 'REFERENCES', e.line, e.rowid) AS rn` : ''}
       FROM ${frontier.from}
       CROSS JOIN edges e ON e.project_id = ?1 AND ${edgeEndIsSql('e', near, frontier.id)}
       WHERE e.kind IN (SELECT value FROM json_each(?3)) AND e.confidence >= ?4`;
  return `SELECT x.k, x.via, x.kind, x.node_id, x.node_file, x.line, x.confidence, x.provenance, x.ref, x.r,
              s.name, s.qualified_name, s.kind AS node_kind, s.start_line, s.end_line, s.language, s.is_test, s.is_exported, f.size AS file_size${extraColumns}
       FROM (${edgeRows}) x
       LEFT JOIN symbols s ON s.project_id = ?1 AND s.id = x.node_id
       LEFT JOIN files f ON f.project_id = ?1 AND f.path = x.node_file
       ${perPair ? 'WHERE x.rn = 1' : ''}`;
}

/**
 * A whole walk as one recursive statement, both directions together, the
 * same text for every depth: each step reads one level in one direction
 * from the frontier the step before worked out, so the statement's cost to
 * prepare does not grow with the levels it reads. A step's state `st`
 * (with its direction `dir` and level `lvl`) is one JSON array:
 * `[level rows as [edge rowid, pos], next frontier as [id, pos], ids seen
 * before that frontier]`.
 *
 * A step reads what `level` reads (per pair, in row order, cut at the row
 * ceiling + 1) and works out the next frontier by walkOne's rules for symbol
 * nodes — not seen (the seen ids are carried from step to step: those seen
 * before the step's frontier, and the frontier), a symbol row, not a test
 * unless asked, an edge at minConfidence at least, within
 * the ceiling — each once through its best row (most confident, a call
 * before another reference, then row order), in the order of those rows
 * (`pos` of the best row). The last level works out no frontier.
 *
 * Rows come back unordered, each with its direction and level: the level's
 * edge rows (t = 0, `pos` their row order), read again by rowid with the far
 * end's symbol and file rows, and the frontier the level leads to (t = 1,
 * `pos` the frontier order; level 0: the start), both from one pass over the
 * steps.
 *
 * The walk starts from the ids in ?2 (JSON), or with `start` 'name' from the
 * symbol a name resolves to (namePickSql, ?2 its NamePick as JSON). With
 * `roots` (ids only), the start ids' symbol rows come back too (t = 2,
 * `ROOT_ROWS`); with `touched`, a row per direction an edge goes from the
 * start at all (t = 3, touchedRow).
 *
 * The state is one value: past D1's 2 MB limit on a value (tens of thousands
 * of seen ids) D1 refuses the statement and graph.ts reads level by level.
 *
 * Binds: ?1 project, ?2 start, ?3 kinds (JSON; unread: the text holds their codes), ?4 confidence floor read,
 * ?5 ceiling + 1, ?6 ceiling, ?7 include tests, ?8 minConfidence, ?9 levels
 * to read.
 */
export function walkStatementSql(
  directions: readonly ('in' | 'out')[],
  kinds: readonly EdgeKind[],
  start: WalkStartKind = 'ids',
  roots = false,
  touched = false,
): string {
  // A handful of texts in all (directions × kinds × start × roots × touched): each is built once per isolate.
  const codes = edgeKindCodesSql(kinds);
  const key = `${directions.join()}|${codes}|${start}|${roots && start === 'ids'}|${touched}`;
  let sql = built.get(key);
  if (sql === undefined) built.set(key, (sql = buildWalkStatementSql(directions, codes, start, roots, touched)));
  return sql;
}

/** `kind_code` of REFERENCES: a walk ranks another kind's edge before it among equals. */
const REFERENCES_CODE = edgeKindCode('REFERENCES');

/** walkStatementSql's texts built so far, by their key. */
const built = new Map<string, string>();

function buildWalkStatementSql(directions: readonly ('in' | 'out')[], kindCodes: string, start: WalkStartKind, roots: boolean, touched: boolean): string {
  const ends = (direction: 'in' | 'out'): { near: EdgeEnd; far: EdgeEnd } => {
    const [near, far]: EdgeEnd[] = direction === 'in' ? ['dst', 'src'] : ['src', 'dst'];
    return { near, far };
  };
  // The far end's symbol id, from its `edge_ends` row `fe`.
  const farId = endRowIdSql('fe');
  // A step's edges in its direction from its frontier, each with its rank within its (frontier node, far end) pair.
  // Read from `edge_rows` and the far end's `edge_ends` row, not the `edges` view: the view joins both ends and
  // decodes every column, which the step does not need, and each copy of it is planned anew at every prepare (D1
  // keeps no prepared statement). The near end is sought by its id (in the project: ends are per project); the
  // kinds are written in as their codes, and the kind is carried as its code (REFERENCES_CODE).
  const edgeRows = directions.map((direction) => {
    const { near, far } = ends(direction);
    return `SELECT j.k, r.rowid AS r, ${farId} AS node_id, fe.file AS node_file, r.line, r.kind_code AS kind, ${edgeConfidenceSql('r')} AS confidence,
                row_number() OVER (PARTITION BY j.k, fe.file, ${farId} ORDER BY r.confidence_milli DESC, r.kind_code = ${REFERENCES_CODE}, r.line, r.rowid) AS rn
         FROM (SELECT value ->> 0 AS id, value ->> 1 AS k FROM json_each(w.st, '$[1]')) j
         CROSS JOIN edge_rows r ON r.${near} = ${edgeEndOfIdSql('j.id')}
         ${far === 'src' ? 'CROSS' : 'LEFT'} JOIN edge_ends fe ON fe.id = r.${far}
         WHERE w.dir = '${direction}' AND r.kind_code IN (${kindCodes}) AND ${edgeConfidenceSql('r')} >= ?4`;
  });
  // One level from the step's frontier: the best edge per (frontier node, far end), in row order, cut at ?5.
  const level = `SELECT x.r, x.node_id, x.kind, x.confidence, row_number() OVER (ORDER BY ${LEVEL_ORDER}) AS pos FROM (
         ${edgeRows.join('\n         UNION ALL ')}
       ) x WHERE x.rn = 1 ORDER BY ${LEVEL_ORDER} LIMIT ?5`;
  // The level's rows and the seen ids together: per node the seen id first, then its best edge that may lead on.
  const ranked = `SELECT c.*, row_number() OVER (PARTITION BY c.node_id ORDER BY c.seen DESC, c.open DESC, c.confidence DESC, c.kind = ${REFERENCES_CODE}, c.pos) AS b FROM (
         SELECT value AS node_id, 1 AS seen, 0 AS open, NULL AS r, NULL AS kind, NULL AS confidence, NULL AS pos FROM json_each(w.st, '$[2]')
         UNION ALL SELECT value ->> 0, 1, 0, NULL, NULL, NULL, NULL FROM json_each(w.st, '$[1]')
         UNION ALL SELECT node_id, 0, pos <= ?6 AND node_id IS NOT NULL AND confidence >= ?8, r, kind, confidence, pos FROM (${level})
       ) c`;
  // A node the walk goes on from: unseen, through an edge that may lead on, with a symbol row (not a test unless asked).
  const next = `z.b = 1 AND z.open AND w.lvl + 1 < ?9 AND EXISTS (SELECT 1 FROM symbols s WHERE s.project_id = ?1 AND s.id = z.node_id AND (?7 OR s.is_test IS NOT 1))`;
  const step = `SELECT json_array(
         json_group_array(json_array(r, pos)) FILTER (WHERE NOT seen),
         json_group_array(json_array(node_id, pos)) FILTER (WHERE go),
         json_group_array(node_id) FILTER (WHERE seen))
       FROM (SELECT z.*, CASE WHEN ${next} THEN 1 ELSE 0 END AS go FROM (${ranked}) z)`;
  const first = start === 'ids' ? 'SELECT value AS id, key AS k FROM json_each(?2)' : namePickSql('?2', 'NULL', start === 'name');
  // Each level's edge rows (t = 0) read again by rowid from `edge_rows`, with the near and far ends' `edge_ends` rows
  // and the far end's symbol and file rows, and the frontier it leads to (t = 1): one pass over each step's state (its
  // first two arrays), so the statement reads `w` once and prepares no second copy of it, and one branch for both
  // directions (each end picked by the step's direction). No copy of the `edges` view: its joins and decoding are
  // planned at every prepare. A frontier row finds no edge row, so every column but its id and position is null.
  const endOf = (pick: (e: { near: EdgeEnd; far: EdgeEnd }) => EdgeEnd): string =>
    directions.length === 1 ? `r.${pick(ends(directions[0]))}` : `CASE w.dir WHEN 'in' THEN r.${pick(ends('in'))} ELSE r.${pick(ends('out'))} END`;
  const rows = `SELECT w.dir, w.lvl, part.key AS t, j.value ->> 1 AS pos, ${endRowIdSql('ne')} AS via, ${edgeKindSql('r')} AS kind,
            CASE part.key WHEN 0 THEN ${farId} ELSE j.value ->> 0 END AS node_id, fe.file AS node_file, r.line, ${edgeConfidenceSql('r')} AS confidence, ${edgeProvenanceSql('r')} AS provenance, r.name AS ref,
            s.name, s.qualified_name, s.kind AS node_kind, s.start_line, s.end_line, s.language, s.is_test, s.is_exported, f.size AS file_size
     FROM w CROSS JOIN json_each(w.st) part CROSS JOIN json_each(part.value) j
     LEFT JOIN edge_rows r ON part.key = 0 AND r.rowid = j.value ->> 0
     LEFT JOIN edge_ends ne ON ne.id = ${endOf((e) => e.near)}
     LEFT JOIN edge_ends fe ON fe.id = ${endOf((e) => e.far)}
     LEFT JOIN symbols s ON s.project_id = ?1 AND s.id = ${farId}
     LEFT JOIN files f ON f.project_id = ?1 AND f.path = fe.file
     WHERE part.key < 2`;
  return `WITH RECURSIVE w(dir, lvl, st) AS (
       SELECT d.dir, 0, json_array(json_array(), json((SELECT json_group_array(json_array(id, k)) FROM (${first}))), json_array())
       FROM (${directions.map((d, i) => `SELECT '${d}'${i === 0 ? ' AS dir' : ''}`).join(' UNION ALL ')}) d
       UNION ALL
       SELECT w.dir, w.lvl + 1, (${step}) FROM w WHERE w.lvl < ?9 AND json_array_length(w.st, '$[1]') > 0
     )
     ${rows}${roots && start === 'ids' ? `
     UNION ALL
     ${ROOT_ROWS}` : ''}${touched && start === 'ids' ? `
     UNION ALL
     ${touchedRow(directions)}` : ''}`;
}

/**
 * With `touched` (one start id, its edge-end parts bound as ?10 file and ?11
 * key): one row (t = 3) when some edge — of any kind, at any confidence —
 * touches the start in a walked direction. None means no edge at all goes
 * that way from it, so an empty walk is explained without reading the edges
 * again (an index seek per direction that stops at the first edge).
 */
function touchedRow(directions: readonly ('in' | 'out')[]): string {
  const touches = directions.map((d) => `EXISTS (SELECT 1 FROM edge_rows r WHERE r.${d === 'in' ? 'dst' : 'src'} = ${edgeEndIdSql('?10', '?11')})`);
  return `SELECT NULL, 0, 3 AS t, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL WHERE ${touches.join(' OR ')}`;
}

/**
 * The start ids' own symbol rows (t = 2, no direction), as symbolsByIds
 * reads them (a symbol whose file row is gone is not found): the walk
 * answers what it walked from without a lookup of its own.
 */
const ROOT_ROWS = `SELECT NULL, 0, 2 AS t, j.key, NULL, NULL, s.id, s.file_path, NULL, NULL, NULL, NULL,
            s.name, s.qualified_name, s.kind, s.start_line, s.end_line, s.language, s.is_test, s.is_exported, f.size
     FROM json_each(?2) j CROSS JOIN symbols s ON s.project_id = ?1 AND s.id = j.value
     JOIN files f ON f.project_id = s.project_id AND f.path = s.file_path`;

/**
 * Where a walk starts: the ids in ?2, or the id a name resolves to (name-pick.ts, ?2 its NamePick as JSON);
 * `uncrowded name` when the pick cannot be crowded (mayCrowd), so the statement leaves those parts out.
 */
export type WalkStartKind = 'ids' | 'name' | 'uncrowded name';
