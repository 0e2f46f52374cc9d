CREATE TABLE `session_credits` (
	`session_id` text NOT NULL,
	`project_id` text NOT NULL,
	`file_path` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `project_id`, `file_path`)
);
--> statement-breakpoint
CREATE INDEX `session_credits_expiry` ON `session_credits` (`expires_at`);