CREATE TABLE `adrs` (
	`project_id` text NOT NULL,
	`id` text NOT NULL,
	`title` text NOT NULL,
	`status` text NOT NULL,
	`context` text DEFAULT '' NOT NULL,
	`decision` text DEFAULT '' NOT NULL,
	`consequences` text DEFAULT '' NOT NULL,
	`superseded_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `id`)
);
--> statement-breakpoint
CREATE TABLE `edges` (
	`rowid` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`kind` text NOT NULL,
	`src_id` text,
	`src_file` text NOT NULL,
	`dst_id` text,
	`dst_file` text,
	`name` text NOT NULL,
	`line` integer NOT NULL,
	`confidence` real NOT NULL,
	`provenance` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `edges_src` ON `edges` (`project_id`,`src_id`);--> statement-breakpoint
CREATE INDEX `edges_dst` ON `edges` (`project_id`,`dst_id`);--> statement-breakpoint
CREATE INDEX `edges_src_file` ON `edges` (`project_id`,`src_file`);--> statement-breakpoint
CREATE INDEX `edges_dst_file` ON `edges` (`project_id`,`dst_file`);--> statement-breakpoint
ALTER TABLE `projects` ADD `graph_generation` integer DEFAULT 0 NOT NULL;