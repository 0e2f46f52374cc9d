// A profile's samples each stand for the time to the next one, at most twice the median interval: a gap the sampler
// did not see the isolate run (the local D1 on the same thread, idle time) is no function's time.
import { describe, expect, it } from 'vitest';
import { profileTimes } from '../../../scripts/battery/inspector.mjs';

const frame = (id: number, functionName: string, children: number[] = []) => ({ id, callFrame: { functionName, url: 'index.js', lineNumber: id }, children });

/** root → run → send; samples every 100 µs, with a gap of `gap` µs after the sample in `send`. */
function profile(gap: number) {
  const nodes = [frame(1, '(root)', [2, 4]), frame(2, 'run', [3]), frame(3, 'send'), frame(4, '(idle)')];
  const samples = [2, 2, 3, 2, 2, 4, 2];
  // timeDeltas[i] is the time before sample i: the gap follows the sample in `send`.
  const timeDeltas = [0, 100, 100, gap, 100, 100, 100];
  return { nodes, samples, timeDeltas };
}

describe('profileTimes', () => {
  it('counts each sample for the interval to the next one', () => {
    const { busy, self, inclusive } = profileTimes(profile(100));
    // The last sample has no next one; the idle sample is no one's time.
    expect(busy).toBe(500);
    expect(self.get('send index.js:4')).toBe(100);
    expect(self.get('run index.js:3')).toBe(400);
    expect(inclusive.get('run index.js:3')).toBe(500);
  });

  it('counts a gap past twice the median interval as twice the median only, on the function sampled before it', () => {
    const { busy, self } = profileTimes(profile(5_000));
    expect(self.get('send index.js:4')).toBe(200);
    expect(self.get('run index.js:3')).toBe(400);
    expect(busy).toBe(600);
    // Within twice the median it is counted whole.
    expect(profileTimes(profile(180)).self.get('send index.js:4')).toBe(180);
  });
});
