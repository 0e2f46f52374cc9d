/**
 * Every index the migrations leave (besides SQLite's own for primary keys and UNIQUE columns), with the test file
 * whose EXPLAIN QUERY PLAN assertions show a statement of the code seeking it. An index no statement uses costs a
 * write on every row insert and its pages for nothing: index-plans.test.ts holds this list equal to the migrated
 * database's indexes, and test/node/index-coverage.test.ts holds each file to naming its index.
 */
export const INDEX_PLAN_TESTS: Record<string, string> = {
  call_log_ts: 'test/worker/db/index-plans.test.ts',
  events_ts: 'test/worker/db/index-plans.test.ts',
  events_project: 'test/worker/db/index-plans.test.ts',
  session_credits_expiry: 'test/worker/db/index-plans.test.ts',
  upload_files_hash: 'test/worker/db/index-plans.test.ts',
  uploads_project: 'test/worker/db/index-plans.test.ts',
  uploads_one_open: 'test/worker/db/index-plans.test.ts',
  projects_name_unique: 'test/worker/db/index-plans.test.ts',
  files_hash: 'test/worker/db/grep-output.test.ts',
  files_ext: 'test/worker/db/find-plans.test.ts',
  files_dotted_folders: 'test/worker/db/find-plans.test.ts',
  files_base: 'test/worker/db/paths-by-file-names.test.ts',
  files_gaps: 'test/worker/db/extraction-gaps.test.ts',
  extractions_partial: 'test/worker/db/extraction-gaps.test.ts',
  symbols_name: 'test/worker/db/symbol-plans.test.ts',
  symbols_project_id: 'test/worker/db/symbol-plans.test.ts',
  symbols_uncalled: 'test/worker/graph/edge-plans.test.ts',
  edge_ends_at: 'test/worker/graph/edge-plans.test.ts',
  edge_rows_src: 'test/worker/graph/edge-plans.test.ts',
  edge_rows_dst: 'test/worker/graph/edge-plans.test.ts',
};
