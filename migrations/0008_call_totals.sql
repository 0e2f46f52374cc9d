CREATE TABLE `call_totals` (
	`tool` text NOT NULL,
	`status` text NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`latency_sum_ms` integer DEFAULT 0 NOT NULL,
	`tokens_used` integer DEFAULT 0 NOT NULL,
	`tokens_saved` integer DEFAULT 0 NOT NULL,
	`le_5` integer DEFAULT 0 NOT NULL,
	`le_10` integer DEFAULT 0 NOT NULL,
	`le_25` integer DEFAULT 0 NOT NULL,
	`le_50` integer DEFAULT 0 NOT NULL,
	`le_100` integer DEFAULT 0 NOT NULL,
	`le_250` integer DEFAULT 0 NOT NULL,
	`le_500` integer DEFAULT 0 NOT NULL,
	`le_1000` integer DEFAULT 0 NOT NULL,
	`le_2500` integer DEFAULT 0 NOT NULL,
	`le_10000` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tool`, `status`)
);
--> statement-breakpoint
INSERT INTO `call_totals` (`tool`, `status`, `calls`, `latency_sum_ms`, `tokens_used`, `tokens_saved`, `le_5`, `le_10`, `le_25`, `le_50`, `le_100`, `le_250`, `le_500`, `le_1000`, `le_2500`, `le_10000`)
SELECT `tool`, `status`, count(*), coalesce(sum(`latency_ms`), 0), coalesce(sum(`tokens_used`), 0), coalesce(sum(`tokens_saved`), 0),
  sum(`latency_ms` <= 5), sum(`latency_ms` <= 10), sum(`latency_ms` <= 25), sum(`latency_ms` <= 50), sum(`latency_ms` <= 100),
  sum(`latency_ms` <= 250), sum(`latency_ms` <= 500), sum(`latency_ms` <= 1000), sum(`latency_ms` <= 2500), sum(`latency_ms` <= 10000)
FROM `call_log` GROUP BY `tool`, `status`;
