-- Every call_log row adds itself to the running totals of its tool and status (call_totals, which
-- the /v1/metrics scrape reads instead of the log), so recording a call is one statement.
-- `l` is the latency as call_totals counts it: whole milliseconds, never negative.
-- (`WHERE true` tells the parser that ON CONFLICT belongs to the INSERT, not to a join.)
CREATE TRIGGER `call_log_adds_to_totals` AFTER INSERT ON `call_log` BEGIN
  INSERT INTO `call_totals` (`tool`, `status`, `calls`, `latency_sum_ms`, `tokens_used`, `tokens_saved`,
    `le_5`, `le_10`, `le_25`, `le_50`, `le_100`, `le_250`, `le_500`, `le_1000`, `le_2500`, `le_10000`)
  SELECT NEW.`tool`, NEW.`status`, 1, l, NEW.`tokens_used`, coalesce(NEW.`tokens_saved`, 0),
    l <= 5, l <= 10, l <= 25, l <= 50, l <= 100, l <= 250, l <= 500, l <= 1000, l <= 2500, l <= 10000
  FROM (SELECT max(0, CAST(round(NEW.`latency_ms`) AS INTEGER)) AS l) WHERE true
  ON CONFLICT (`tool`, `status`) DO UPDATE SET
    `calls` = `calls` + excluded.`calls`,
    `latency_sum_ms` = `latency_sum_ms` + excluded.`latency_sum_ms`,
    `tokens_used` = `tokens_used` + excluded.`tokens_used`,
    `tokens_saved` = `tokens_saved` + excluded.`tokens_saved`,
    `le_5` = `le_5` + excluded.`le_5`,
    `le_10` = `le_10` + excluded.`le_10`,
    `le_25` = `le_25` + excluded.`le_25`,
    `le_50` = `le_50` + excluded.`le_50`,
    `le_100` = `le_100` + excluded.`le_100`,
    `le_250` = `le_250` + excluded.`le_250`,
    `le_500` = `le_500` + excluded.`le_500`,
    `le_1000` = `le_1000` + excluded.`le_1000`,
    `le_2500` = `le_2500` + excluded.`le_2500`,
    `le_10000` = `le_10000` + excluded.`le_10000`;
END;
