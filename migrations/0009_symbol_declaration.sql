ALTER TABLE `symbols` ADD `declaration` integer DEFAULT false NOT NULL;-- Existing rows stay 0 until their project is pushed again (the extractor version changed with this column).
