-- `call_log_tool` (call_log by tool) served no statement: the call log is read by time (`call_log_ts`: the activity
-- windows of src/db/call-activity.ts and the pruning in src/db/gc.ts), which group by tool after the seek, and
-- `/v1/metrics` reads `call_totals`. Every tool call wrote an entry to it (up to PINCHER_CALL_LOG_MAX_ROWS rows).
DROP INDEX IF EXISTS `call_log_tool`;
