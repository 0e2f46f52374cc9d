// The shards stage's printed figures (scripts/bench/shards.mjs): what an operator reads.
import { describe, expect, it } from 'vitest';
import { formatShardsBench, relevanceBlind } from '../../../scripts/bench/shards.mjs';
import { renderTable } from '../../../scripts/bench/table.mjs';

const stat = (p50: number) => ({ n: 10, p50, p90: p50, p99: p50, max: p50, mean: p50 });
const tool = (server: number, client: number) => ({ server: stat(server), client: stat(client), trips_p50: 1, trips_max: 1, server_ratio: server / 2, client_ratio: client / 5 });

describe('formatShardsBench', () => {
  const base = {
    calls: 10,
    projects: [{ id: 'a', project: 'sh-a', shard: 0 }, { id: 'b', project: 'sh-b', shard: 1 }],
    shards: [
      { shard: 0, binding: 'DB', bytes: 3_000_000, projects: 1, placed: ['a'], floor: { server: stat(2), client: stat(5) }, tools: { search: tool(3, 7), read: tool(2, 6), find: tool(2, 5) } },
      { shard: 1, binding: 'DB_SHARD_1', bytes: 1_500_000, projects: 1, placed: ['b'], floor: { server: stat(2), client: stat(5) }, tools: { search: tool(2, 6), read: tool(2, 5), find: tool(2, 5) } },
    ],
  };
  const move = { project: 'a', files: 65, from: 0, to: 1, rows_copied: 1101, rows_removed: 1904, server_ms: 1100, wall_ms: 1200, rows_per_s: 1001, steps: 3, max_queries_per_step: 40, query_budget: 40, answers_compared: 21, placed_after: true, bytes_after: [] };

  it('prints a row per shard with its floor and ratios, the placement spread and the move', () => {
    const text = formatShardsBench({ ...base, move: { ...move, answers_identical: true, answers_identical_but_scores: true, differences: [] } } as never, renderTable);
    expect(text).toMatch(/DB_SHARD_1\s+1 \(b\)\s+1\.50\s+2 \/ 5\s+1 \/ 1\.2/);
    expect(text).toContain('placement: largest shard 3.00 MB, smallest 1.50 MB (2.00×)');
    expect(text).toContain('move: a (65 files) shard 0 → 1: 1,101 rows copied in 1.1 s over 3 step(s) of at most 40 D1 queries (budget 40) = 1,001 rows/s (1,904 removed from shard 0); 21 answers identical after the move; reads served by shard 1');
  });

  it('says when answers differ only by search scores, and when they differ', () => {
    const scores = formatShardsBench({ ...base, move: { ...move, answers_identical: false, answers_identical_but_scores: true, differences: [] } } as never, renderTable);
    expect(scores).toContain('identical but for search scores');
    const relevance = formatShardsBench({ ...base, move: { ...move, answers_identical: false, answers_identical_but_scores: false, answers_identical_but_relevance: true, answers_differing: 6, differences: [] } } as never, renderTable);
    expect(relevance).toContain("21 answers compared: 6 differ only in search scores and in which hits tied but for bm25's relevance come first");
    const differ = formatShardsBench(
      { ...base, move: { ...move, answers_identical: false, answers_identical_but_scores: false, answers_identical_but_relevance: false, answers_differing: 3, answers_differing_beyond_relevance: 1, placed_after: false, differences: [] } } as never,
      renderTable,
    );
    expect(differ).toContain("21 answers compared, 1 DIFFERENT beyond bm25's relevance (3 in all) after the move; reads NOT served by shard 1");
  });
});

describe('relevanceBlind', () => {
  const hit = (id: string, score: number) => ({ id, name: id, score });
  const page = (hits: ReturnType<typeof hit>[], has_more = false) => ({ t: 'search', args: {}, ok: true, result: { results: hits, total: hits.length, has_more } });
  const same = (a: ReturnType<typeof page>, b: ReturnType<typeof page>) => JSON.stringify(relevanceBlind(a)) === JSON.stringify(relevanceBlind(b));

  it('lets bm25 reorder hits whose other score parts are equal, and pick which of them end a full page', () => {
    expect(same(page([hit('a', 3507.9), hit('b', 3507.1)]), page([hit('b', 3507.5), hit('a', 3507.2)]))).toBe(true);
    expect(same(page([hit('a', 4000.9), hit('b', 3507.1), hit('c', 3506)], true), page([hit('a', 4000.2), hit('c', 3507), hit('d', 3506.5)], true))).toBe(true);
  });

  it('keeps every other difference: another hit above the page end, another tier, a different count', () => {
    expect(same(page([hit('a', 4000.9), hit('b', 3507.1)], true), page([hit('x', 4000.9), hit('b', 3507.1)], true))).toBe(false);
    expect(same(page([hit('a', 3507.9), hit('b', 3507.1)]), page([hit('a', 3507.9), hit('c', 3507.1)]))).toBe(false);
    expect(same(page([hit('a', 4001), hit('b', 3507)]), page([hit('b', 4001), hit('a', 3507)]))).toBe(false);
    expect(same(page([hit('a', 3507), hit('b', 3507)], true), page([hit('a', 3507)], true))).toBe(false);
    // Not a search: compared whole but for scores.
    const read = { t: 'read', args: {}, ok: true, result: { text: 'x' } };
    expect(JSON.stringify(relevanceBlind(read))).toBe(JSON.stringify(read));
  });
});
