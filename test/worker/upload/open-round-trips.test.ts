import { describe, expect, it } from 'vitest';
import { openUpload } from '../../../src/upload/service';
import { countingD1 } from './counting-d1';
import { env, manifestOf, pySource, push } from './support';

const DB = (env as unknown as { DB: D1Database }).DB;

function counting(): { d1: D1Database; trips: string[][] } {
  return countingD1(DB);
}

describe('opening an upload', { timeout: 60_000 }, () => {
  it('reads the change counts, the missing contents and a size conflict in one round trip, with the same answer', async () => {
    const held = pySource('held');
    await push('open-trips-a', { 'held.py': held });
    const files = { 'held.py': held, 'new.py': pySource('new') };
    const { d1, trips } = counting();
    const opened = await openUpload({ project: 'open-trips-b', shard: 0, db: d1, primary: DB }, { project: 'open-trips-b', manifest: await manifestOf(files) });
    expect(opened.plan).toEqual({ new: 2, changed: 0, unchanged: 0, deleted: 0 });
    expect(opened.missing).toEqual([(await manifestOf({ 'new.py': files['new.py'] }))[0].hash]);
    const reads = [/SELECT change, count\(\*\) AS n FROM upload_files/, /SELECT DISTINCT u\.hash FROM upload_files/, /u\.size != b\.size LIMIT 1/];
    const holding = reads.map((re) => trips.findIndex((trip) => trip.some((sql) => re.test(sql))));
    expect(holding.every((at) => at >= 0)).toBe(true);
    expect(new Set(holding).size).toBe(1);
  });
});
