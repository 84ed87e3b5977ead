-- One reference from each notification to the file and the run that stored it: (source_file_id, load_run_id) refers
-- to source_files (id, load_run_id), in place of one reference to source_files (id) and another to load_runs (id).
--
-- PostgreSQL checks a reference for every inserted row, with an index look-up and a row lock in the referred table;
-- during a load that was a fifth of the server's work per notification (docs/PERFORMANCE.md), and one look-up instead
-- of two saves half of it. The one reference also states what the loader has always written: a notification's run is
-- the run of its file. A notification still cannot name a run that does not exist, since its file's load_run_id
-- refers to load_runs.
--
-- source_file_id becomes NOT NULL: a reference with a NULL column is not checked at all, every notification comes
-- from a file (the loader is the only writer), and the analysis takes notifications of settled files only. A schema
-- holding notifications without a file stops here with a message saying what to do.
--
-- Upgrades a database in place, reading notifications three times (the count of rows without a file, SET NOT NULL,
-- and the check of every row against the new reference); every statement can run again.

DO $$
DECLARE
    fileless bigint;
BEGIN
    SELECT count(*) INTO fileless FROM notifications WHERE source_file_id IS NULL;
    IF fileless > 0 THEN
        RAISE EXCEPTION 'notifications holds % rows without a source file (source_file_id IS NULL)', fileless
            USING HINT = 'No churn command writes such rows and the analysis leaves them out: delete them, or set '
                'their source_file_id to a source_files row of their load run, then run churn migrate again.';
    END IF;
END
$$;

ALTER TABLE notifications ALTER COLUMN source_file_id SET NOT NULL;

DO $$
BEGIN
    IF NOT EXISTS (
        SELECT FROM pg_constraint
        WHERE conrelid = 'source_files'::regclass AND conname = 'source_files_id_load_run_id_key'
    ) THEN
        ALTER TABLE source_files ADD CONSTRAINT source_files_id_load_run_id_key UNIQUE (id, load_run_id);
    END IF;
    IF NOT EXISTS (
        SELECT FROM pg_constraint
        WHERE conrelid = 'notifications'::regclass AND conname = 'notifications_source_file_fkey'
    ) THEN
        ALTER TABLE notifications
            ADD CONSTRAINT notifications_source_file_fkey
            FOREIGN KEY (source_file_id, load_run_id) REFERENCES source_files (id, load_run_id);
    END IF;
END
$$;

ALTER TABLE notifications
    DROP CONSTRAINT IF EXISTS notifications_source_file_id_fkey,
    DROP CONSTRAINT IF EXISTS notifications_load_run_id_fkey;

COMMENT ON CONSTRAINT notifications_source_file_fkey ON notifications IS
    'The file and the run that stored the notification; one reference checks both (a file''s run refers to '
    'load_runs).';
