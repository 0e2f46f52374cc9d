-- dead_code's candidates (code, not exported, not a test, a function or a method: src/db/uncalled-sql.ts) in path and
-- source order, with the project: the question seeks them in the order it answers in and stops at its ceiling,
-- instead of reading every symbol of the project and sorting the candidates. Partial: only those rows are indexed.
CREATE INDEX `symbols_uncalled` ON `symbols` (`project_id`,`file_path`,`start_byte`) WHERE corpus = 'code' AND is_exported = 0 AND is_test = 0 AND kind IN ('Function', 'Method');
