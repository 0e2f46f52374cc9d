import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { EDGE_CODE_COLUMNS, EDGE_KINDS, EDGE_PROVENANCES, edgeCodesSql } from '../../../src/db/edge-columns';

// The `edges` view (migration 0025) reads an edge's kind, provenance and confidence from the codes
// src/db/edge-columns.ts writes: every code of both lists, written as resolution writes them, reads back
// as its value, and the view's insert (a project copy) stores what it is given.
const PROJECT = 'edge-codes-project';

describe('edge codes through the edges view', () => {
  it('reads every kind and provenance back as written, the confidence to the thousandth', async () => {
    const rows = EDGE_KINDS.flatMap((kind, k) => EDGE_PROVENANCES.map((provenance, p) => ({ kind, provenance, confidence: ((k * 8 + p) % 1000) / 997, line: k * 100 + p + 1 })));
    await env.DB.prepare(
      `INSERT INTO edges (project_id, ${EDGE_CODE_COLUMNS}, src_file, src_key, dst_file, dst_key, name, line)
       SELECT ?1, ${edgeCodesSql("value ->> 'kind'", "value ->> 'provenance'", "value ->> 'confidence'")}, 'src/a.ts', 'a#Function', 'src/b.ts', 'b#Function', 'b', value ->> 'line'
       FROM json_each(?2)`,
    )
      .bind(PROJECT, JSON.stringify(rows))
      .run();
    const back = await env.DB.prepare('SELECT kind, provenance, confidence, line FROM edges WHERE project_id = ?1 ORDER BY line').bind(PROJECT).all<{ kind: string; provenance: string; confidence: number; line: number }>();
    expect(back.results).toEqual(rows.map((r) => ({ ...r, confidence: Math.round(r.confidence * 1000) / 1000 })));
    // One end each side, however many edges meet it.
    expect((await env.DB.prepare('SELECT count(*) AS n FROM edge_ends WHERE project_id = ?1').bind(PROJECT).first<{ n: number }>())?.n).toBe(2);
  });
});
