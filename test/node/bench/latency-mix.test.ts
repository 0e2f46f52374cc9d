// The latency mix names some entries hits (grep's literal and regex hits, find's globs). On a checkout in
// other languages than the fixed patterns', those found nothing, so the stage measured misses under a
// hit's name; the mix now keeps a candidate only when asking it once finds something.
import { describe, expect, it } from 'vitest';
import { hitting } from '../../../scripts/bench/latency.mjs';

/** A client whose grep finds the patterns in `present`; every call is recorded. */
function fakeClient(present: Set<string>) {
  const asked: string[] = [];
  return {
    asked,
    call: async (tool: string, args: Record<string, unknown>) => {
      asked.push(String(args.pattern));
      const hit = present.has(String(args.pattern));
      return {
        ok: true,
        status: 200,
        serverMs: 1,
        clientMs: 1,
        bytes: 10,
        result: tool === 'grep' ? { total_matches: hit ? 3 : 0 } : { total: hit ? 1 : 0 },
        errorCode: null,
        errorMessage: null,
        emptyReason: hit ? null : 'no_results_in_corpus',
        roundTrips: 1,
      };
    },
  };
}

const entry = (pattern: string) => ({ variant: 'regex hit', args: { project: 'p', pattern } });

describe('hit entries of the latency mix', () => {
  it('keeps the candidates that find something, in order, and stops asking at k', async () => {
    const c = fakeClient(new Set(['b', 'c', 'd', 'e']));
    const kept = await hitting(c, 'grep', ['a', 'b', 'c', 'd', 'e'].map(entry), 2);
    expect(kept.map((e) => e.args.pattern)).toEqual(['b', 'c']);
    expect(c.asked).toEqual(['a', 'b', 'c']);
  });

  it('gives fewer than k when too few candidates find something, and none when none does', async () => {
    expect((await hitting(fakeClient(new Set(['x'])), 'find', ['x', 'y'].map(entry), 5)).map((e) => e.args.pattern)).toEqual(['x']);
    expect(await hitting(fakeClient(new Set()), 'grep', ['x', 'y'].map(entry), 5)).toEqual([]);
  });

  it('does not keep an answer with an empty_reason, or a failed call', async () => {
    const failing = {
      call: async () => ({ ok: false, status: 400, serverMs: 1, clientMs: 1, bytes: 0, result: null, errorCode: 'invalid_params', errorMessage: 'bad', emptyReason: null, roundTrips: 0 }),
    };
    expect(await hitting(failing, 'grep', [entry('a')], 1)).toEqual([]);
  });
});
