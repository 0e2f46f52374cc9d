import { describe, expect, it } from 'vitest';
import { callActivity } from '../../../src/db/call-activity';
import { claimCredits } from '../../../src/db/credits';
import { eventsAfter } from '../../../src/db/events';
import { deleteClosedUploads, deleteOldCalls, deleteOldEvents, deleteUnusedBlobs } from '../../../src/db/gc';
import { pushHistory } from '../../../src/db/push-history';
import { changeCounts, openUploadFor } from '../../../src/db/uploads';
import { DB } from '../graph/support';
import { planTexts, recording } from '../recording-d1';
import { INDEX_PLAN_TESTS } from './index-coverage';

// The indexes of the bookkeeping tables (call log, events, session credits, uploads), each shown in use by the
// statements the code runs (the others have plan tests of their own: index-coverage.ts). Every index costs a
// write per row; one no statement seeks is dropped (migration 0026: call_log_tool). The deletes run with cut-offs
// in 1970 (ts 1,000), so on the database this file shares with others they remove nothing.

describe('every index the migrations leave is one some statement seeks', () => {
  it('the migrated database holds exactly the indexes index-coverage.ts lists with their plan tests', async () => {
    const rows = await DB.prepare(
      "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%' AND tbl_name NOT LIKE '%_fts%' AND tbl_name NOT LIKE 'blob_grams%' ORDER BY name",
    ).all<{ name: string; tbl_name: string }>();
    expect(rows.results.map((r) => r.name)).toEqual(Object.keys(INDEX_PLAN_TESTS).sort());
    // The call log is read by time only: by tool it was never sought.
    expect(rows.results.filter((r) => r.tbl_name === 'call_log').map((r) => r.name)).toEqual(['call_log_ts']);
  });
});

describe('bookkeeping reads seek their indexes', () => {
  it('the call log: activity windows and pruning by time seek call_log_ts', async () => {
    const { d1, seen } = recording();
    await callActivity(d1, 1_000, 2_000, 100);
    await deleteOldCalls(d1, 1_000, 10);
    const plans = await planTexts(seen);
    expect(plans).toHaveLength(4);
    for (const p of plans) expect(p).toMatch(/SEARCH call_log USING (COVERING )?INDEX call_log_ts \(ts[<>]/);
  });

  it('events: a project stream seeks events_project, pruning seeks events_ts', async () => {
    const { d1, seen } = recording();
    await eventsAfter(d1, 0, 'some-project', 10);
    await deleteOldEvents(d1, 1_000, 10);
    const [stream, prune] = await planTexts(seen);
    expect(stream).toMatch(/SEARCH events USING INDEX events_project \(project_name=\? AND id>\?\)/);
    expect(prune).toMatch(/SEARCH events USING COVERING INDEX events_ts \(ts<\?\)/);
  });

  it('session credits: the sweep of expired credits seeks session_credits_expiry', async () => {
    const { d1, seen } = recording();
    await claimCredits(d1, 'session-1', 'project-1', ['a.ts'], 5_000);
    const sweep = seen.findIndex((s) => s.sql.startsWith('DELETE FROM session_credits'));
    expect(sweep).toBeGreaterThanOrEqual(0);
    const plans = await planTexts([seen[sweep]]);
    expect(plans[0]).toMatch(/SEARCH session_credits USING (COVERING )?INDEX session_credits_expiry \(expires_at<\?\)/);
  });

  it('uploads: the open upload and push history seek uploads_project, a manifest by upload seeks upload_files_hash', async () => {
    const { d1, seen } = recording();
    await openUploadFor(d1, 'project-1');
    await changeCounts(d1, 'upload-1');
    await pushHistory(d1, 'some-project', 10);
    const plans = await planTexts(seen);
    const [open, counts] = plans;
    expect(open).toMatch(/SEARCH uploads USING INDEX uploads_project \(project_id=\? AND status=\?\)/);
    expect(counts).toMatch(/SEARCH upload_files USING COVERING INDEX upload_files_hash \(upload_id=\?\)/);
    // Push history: the project by name, its uploads, each upload's manifest rows.
    const history = plans.slice(2).join('\n');
    expect(history).toMatch(/SEARCH projects USING (COVERING )?INDEX projects_name_unique \(name=\?\)/);
    expect(history).toMatch(/SEARCH up USING INDEX uploads_project \(project_id=\?\)/);
    expect(history).toMatch(/SEARCH f USING (COVERING )?INDEX upload_files_hash \(upload_id=\?\)/);
  });

  it('garbage collection: open uploads are read through uploads_one_open, closed ones checked for manifest rows through upload_files_hash', async () => {
    const { d1, seen } = recording();
    await deleteUnusedBlobs(d1, 1_000, 10);
    await deleteClosedUploads(d1, 1_000, 10);
    const [blobs, uploads] = await planTexts(seen);
    expect(blobs).toMatch(/(SCAN|SEARCH) up USING (COVERING )?INDEX uploads_one_open/);
    expect(uploads).toMatch(/SEARCH u USING COVERING INDEX upload_files_hash \(upload_id=\?\)/);
  });
});
