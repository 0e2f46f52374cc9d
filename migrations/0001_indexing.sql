CREATE TABLE `blobs` (
	`hash` text PRIMARY KEY NOT NULL,
	`size` integer NOT NULL,
	`content` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `extractions` (
	`hash` text NOT NULL,
	`language` text NOT NULL,
	`extractor_version` integer NOT NULL,
	`corpus` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`message` text,
	`had_errors` integer DEFAULT false NOT NULL,
	`symbol_count` integer DEFAULT 0 NOT NULL,
	`ref_count` integer DEFAULT 0 NOT NULL,
	`parse_ms` integer DEFAULT 0 NOT NULL,
	`symbols_json` text DEFAULT '[]' NOT NULL,
	`refs_json` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`hash`, `language`, `extractor_version`)
);
--> statement-breakpoint
CREATE TABLE `files` (
	`project_id` text NOT NULL,
	`path` text NOT NULL,
	`hash` text NOT NULL,
	`size` integer NOT NULL,
	`language` text NOT NULL,
	`corpus` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`symbol_count` integer DEFAULT 0 NOT NULL,
	`extractor_version` integer NOT NULL,
	`indexed_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `path`)
);
--> statement-breakpoint
CREATE INDEX `files_hash` ON `files` (`hash`);--> statement-breakpoint
CREATE TABLE `refs` (
	`rowid` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`file_path` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`target` text,
	`imported_names` text,
	`enclosing` text,
	`line` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `refs_file` ON `refs` (`project_id`,`file_path`);--> statement-breakpoint
CREATE INDEX `refs_target` ON `refs` (`project_id`,`target`);--> statement-breakpoint
CREATE TABLE `symbols` (
	`rowid` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`id` text NOT NULL,
	`file_path` text NOT NULL,
	`name` text NOT NULL,
	`qualified_name` text NOT NULL,
	`kind` text NOT NULL,
	`signature` text NOT NULL,
	`docstring` text,
	`parent` text,
	`language` text NOT NULL,
	`corpus` text NOT NULL,
	`is_exported` integer NOT NULL,
	`is_test` integer NOT NULL,
	`start_line` integer NOT NULL,
	`end_line` integer NOT NULL,
	`start_byte` integer NOT NULL,
	`end_byte` integer NOT NULL,
	`confidence` real NOT NULL,
	`words` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `symbols_project_id` ON `symbols` (`project_id`,`id`);--> statement-breakpoint
CREATE INDEX `symbols_file` ON `symbols` (`project_id`,`file_path`);--> statement-breakpoint
CREATE INDEX `symbols_name` ON `symbols` (`project_id`,`name`);--> statement-breakpoint
CREATE TABLE `upload_files` (
	`upload_id` text NOT NULL,
	`path` text NOT NULL,
	`hash` text NOT NULL,
	`size` integer NOT NULL,
	`language` text NOT NULL,
	`change` text NOT NULL,
	PRIMARY KEY(`upload_id`, `path`)
);
--> statement-breakpoint
CREATE INDEX `upload_files_hash` ON `upload_files` (`upload_id`,`change`);--> statement-breakpoint
CREATE TABLE `uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`ref` text,
	`commit_sha` text,
	`status` text NOT NULL,
	`mode` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`manifest_count` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `uploads_project` ON `uploads` (`project_id`,`status`);