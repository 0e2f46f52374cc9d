import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { EDGE_CODE_COLUMNS, EDGE_KINDS, EDGE_PROVENANCES, edgeCodesSql, edgeConfidenceSql, edgeKindSql, edgeProvenanceSql } from '../../../src/db/edge-columns';

// The `edges` view (migration 0025) reads an edge's kind, provenance and confidence from the codes
// src/db/edge-columns.ts writes: every code of both lists, written as resolution writes them, reads back
// as its value, and the view's insert (a project copy) stores what it is given.
const PROJECT = 'edge-codes-project';

/** One edge of `project` per kind and provenance, written as resolution writes them (confidences over `divisor`); returns them in line order. */
async function writeEveryCode(project: string, divisor: number) {
  const rows = EDGE_KINDS.flatMap((kind, k) => EDGE_PROVENANCES.map((provenance, p) => ({ kind, provenance, confidence: ((k * 8 + p) % 1000) / divisor, line: k * 100 + p + 1 })));
  await env.DB.prepare(
    `INSERT INTO edges (project_id, ${EDGE_CODE_COLUMNS}, src_file, src_key, dst_file, dst_key, name, line)
     SELECT ?1, ${edgeCodesSql("value ->> 'kind'", "value ->> 'provenance'", "value ->> 'confidence'")}, 'src/a.ts', 'a#Function', 'src/b.ts', 'b#Function', 'b', value ->> 'line'
     FROM json_each(?2)`,
  )
    .bind(project, JSON.stringify(rows))
    .run();
  return rows;
}

describe('edge codes through the edges view', () => {
  it('reads every kind and provenance back as written, the confidence to the thousandth', async () => {
    const rows = await writeEveryCode(PROJECT, 997);
    const back = await env.DB.prepare('SELECT kind, provenance, confidence, line FROM edges WHERE project_id = ?1 ORDER BY line').bind(PROJECT).all<{ kind: string; provenance: string; confidence: number; line: number }>();
    expect(back.results).toEqual(rows.map((r) => ({ ...r, confidence: Math.round(r.confidence * 1000) / 1000 })));
    // One end each side, however many edges meet it.
    expect((await env.DB.prepare('SELECT count(*) AS n FROM edge_ends WHERE project_id = ?1').bind(PROJECT).first<{ n: number }>())?.n).toBe(2);
  });

  it('reads every code back through the helpers of a read that skips the view (a walk) as the view reads it', async () => {
    const project = `${PROJECT}-helpers`;
    const rows = await writeEveryCode(project, 991);
    const { results } = await env.DB.prepare(
      `SELECT e.kind AS view_kind, ${edgeKindSql('r')} AS kind, e.provenance AS view_provenance, ${edgeProvenanceSql('r')} AS provenance,
              e.confidence AS view_confidence, ${edgeConfidenceSql('r')} AS confidence
       FROM edges e JOIN edge_rows r ON r.rowid = e.rowid WHERE e.project_id = ?1 ORDER BY e.line`,
    )
      .bind(project)
      .all<Record<string, string | number>>();
    expect(results).toHaveLength(EDGE_KINDS.length * EDGE_PROVENANCES.length);
    for (const r of results) {
      expect(r.kind).toBe(r.view_kind);
      expect(r.provenance).toBe(r.view_provenance);
      expect(r.confidence).toBe(r.view_confidence);
    }
    expect(results.map((r) => [r.kind, r.provenance])).toEqual(rows.map((r) => [r.kind, r.provenance]));
  });
});
