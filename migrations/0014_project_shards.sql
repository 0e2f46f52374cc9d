CREATE TABLE `project_shards` (
	`name` text PRIMARY KEY NOT NULL,
	`shard` integer NOT NULL,
	`placed_at` integer NOT NULL,
	`moving_to` integer,
	`move_heartbeat_at` integer
);
--> statement-breakpoint
-- Hand-written: the projects already stored (on the primary, the only database before shards) are on shard 0.
INSERT INTO `project_shards` (`name`, `shard`, `placed_at`) SELECT `name`, 0, `created_at` FROM `projects`;
