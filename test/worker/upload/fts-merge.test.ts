import { describe, expect, it } from 'vitest';
import { FTS_TABLES } from '../../../src/db/fts-merge';
import { env, push, pySource, rows, tool, tsSource } from './support';

/** SQLite's varint (FTS5 writes its structure record with it). */
function varint(b: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let k = 0; k < 9; k++) {
    const c = b[at++];
    if (k === 8) return [v * 256 + c, at];
    v = v * 128 + (c & 0x7f);
    if (!(c & 0x80)) return [v, at];
  }
  return [v, at];
}

/** Segments per level of an FTS5 index, read from its structure record (`%_data` row 10). */
async function levels(table: string): Promise<number[]> {
  const [{ h }] = await rows<{ h: string }>(`SELECT hex(block) AS h FROM ${table}_data WHERE id = 10`);
  const b = Uint8Array.from(h.match(/../g)!.map((x) => parseInt(x, 16)));
  const v2 = b[4] === 0xff && b[5] === 0 && b[6] === 0 && b[7] === 1;
  let at = v2 ? 8 : 4;
  let nLevel: number;
  [nLevel, at] = varint(b, at);
  [, at] = varint(b, at); // segments in all
  [, at] = varint(b, at); // write counter
  const out: number[] = [];
  for (let l = 0; l < nLevel; l++) {
    let nSeg: number;
    [, at] = varint(b, at); // segments being merged
    [nSeg, at] = varint(b, at);
    for (let s = 0; s < nSeg * (v2 ? 7 : 3); s++) [, at] = varint(b, at);
    out.push(nSeg);
  }
  return out;
}

async function answers(project: string) {
  const search = await tool('search', { project, query: 'add' });
  const grep = await tool('grep', { project, pattern: 'return' });
  const strip = ({ _meta, ...answer }: Record<string, unknown>) => answer; // eslint-disable-line @typescript-eslint/no-unused-vars
  return { search: strip(search.body), grep: strip(grep.body) };
}

describe('full-text index segments after pushes', () => {
  it('merges each level down to one segment after every commit, without changing answers', async () => {
    for (const t of FTS_TABLES) expect((await rows<{ v: number }>(`SELECT v FROM ${t}_config WHERE k = 'usermerge'`))[0]?.v).toBe(2);
    for (let i = 0; i < 5; i++) {
      const files = { [`src/calc${i}.ts`]: tsSource(`v${i}`), 'lib/greet.py': pySource(`v${i}`), 'src/calc.ts': tsSource(`c${i}`) };
      const r = await push('fts-merge', files);
      expect(r.commit?.status).toBe(200);
      for (const t of FTS_TABLES) {
        const perLevel = await levels(t);
        expect(perLevel.reduce((a, b) => a + b, 0), `${t} after push ${i + 1}: ${perLevel}`).toBeGreaterThan(0);
        for (const n of perLevel) expect(n, `${t} after push ${i + 1}: ${perLevel}`).toBeLessThanOrEqual(1);
      }
    }
    const before = await answers('fts-merge');
    expect(JSON.stringify(before.search)).toContain('add');
    expect(JSON.stringify(before.grep)).toContain('return');
    // One segment each: the answers do not depend on how the index is split.
    for (const t of FTS_TABLES) await env.DB.prepare(`INSERT INTO ${t}(${t}) VALUES('optimize')`).run();
    expect(await answers('fts-merge')).toEqual(before);
  });
});
