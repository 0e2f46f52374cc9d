CREATE TABLE `project_moves` (
	`name` text PRIMARY KEY NOT NULL,
	`move_id` text NOT NULL,
	`project_id` text NOT NULL,
	`from_shard` integer NOT NULL,
	`to_shard` integer NOT NULL,
	`version` text NOT NULL,
	`phase` text NOT NULL,
	`table_index` integer NOT NULL,
	`after_rowid` integer NOT NULL,
	`copied` text NOT NULL,
	`removed` text NOT NULL,
	`total` integer NOT NULL,
	`steps` integer NOT NULL,
	`started_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `shard_leftovers` (
	`project_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`since` integer NOT NULL
);
