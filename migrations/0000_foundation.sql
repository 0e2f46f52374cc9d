CREATE TABLE `call_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ts` integer NOT NULL,
	`request_id` text NOT NULL,
	`tool` text NOT NULL,
	`surface` text NOT NULL,
	`status` text NOT NULL,
	`latency_ms` integer NOT NULL,
	`tokens_used` integer NOT NULL,
	`tokens_saved` integer,
	`empty_reason` text,
	`project_id` text
);
--> statement-breakpoint
CREATE INDEX `call_log_ts` ON `call_log` (`ts`);--> statement-breakpoint
CREATE INDEX `call_log_tool` ON `call_log` (`tool`);--> statement-breakpoint
CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`indexed_at` integer,
	`ref` text,
	`commit_sha` text,
	`extractor_version` integer,
	`schema_version_at_index` integer,
	`file_count` integer DEFAULT 0 NOT NULL,
	`symbol_count` integer DEFAULT 0 NOT NULL,
	`generation` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `projects_name_unique` ON `projects` (`name`);