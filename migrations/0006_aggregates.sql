CREATE TABLE `project_aggregates` (
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`generation` integer NOT NULL,
	`graph_generation` integer NOT NULL,
	`body` text NOT NULL,
	`computed_ms` integer NOT NULL,
	`computed_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `name`)
);
