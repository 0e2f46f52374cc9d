// The shards stage's printed figures (scripts/bench/shards.mjs): what an operator reads.
import { describe, expect, it } from 'vitest';
import { formatShardsBench } from '../../../scripts/bench/shards.mjs';
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
    const differ = formatShardsBench({ ...base, move: { ...move, answers_identical: false, answers_identical_but_scores: false, answers_differing: 3, placed_after: false, differences: [] } } as never, renderTable);
    expect(differ).toContain('21 answers compared, 3 DIFFERENT after the move; reads NOT served by shard 1');
  });
});
