ALTER TABLE `uploads` ADD `pushed_by` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `new_files` integer;--> statement-breakpoint
ALTER TABLE `uploads` ADD `changed_files` integer;--> statement-breakpoint
ALTER TABLE `uploads` ADD `unchanged_files` integer;--> statement-breakpoint
ALTER TABLE `uploads` ADD `deleted_files` integer;