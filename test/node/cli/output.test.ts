import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../cli/output.mjs';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream: stream as unknown as NodeJS.WriteStream };
}

describe('progress without a TTY', () => {
  it('prints about one line per tenth of a large push', () => {
    const { lines, stream } = capture();
    const progress = createProgress({ stream, tty: false });
    progress.onProgress({ type: 'opened', uploadId: 'u1', files: 200, bytes: 200_000 });
    for (let i = 0; i < 200; i++) progress.onProgress({ type: 'sent', files: 1, bytes: 1000 });
    progress.onProgress({ type: 'committing' });
    const sent = lines.filter((l) => l.includes(' sent '));
    expect(sent).toHaveLength(10);
    expect(sent.at(-1)).toBe('pincher-edge: sent 200/200 files, 195.3 KiB (100%)');
    expect(lines.at(-1)).toBe('pincher-edge: committing');
  });

  it('prints every batch of a small push', () => {
    const { lines, stream } = capture();
    const progress = createProgress({ stream, tty: false });
    progress.onProgress({ type: 'opened', uploadId: 'u1', files: 3, bytes: 300 });
    for (let i = 0; i < 3; i++) progress.onProgress({ type: 'sent', files: 1, bytes: 100 });
    expect(lines.filter((l) => l.includes(' sent '))).toEqual([
      'pincher-edge: sent 1/3 files, 100 B (33%)',
      'pincher-edge: sent 2/3 files, 200 B (66%)',
      'pincher-edge: sent 3/3 files, 300 B (100%)',
    ]);
  });
});
