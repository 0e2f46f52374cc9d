-- The id of the move the catalog holds (its cursor on the target carries the same), so every catalog
-- write of a move holds only while it is that move's. Rows of moves begun before this column stay null:
-- such a move's next step records its cursor's id (touchMove), and its catalog writes accept null.
ALTER TABLE `project_shards` ADD `move_id` text;
