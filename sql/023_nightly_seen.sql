-- Which analysed files a nightly run has counted (`churn nightly --expect-new`): new data for a run is a file of its
-- environment analysed, by any process, since the last nightly run that got as far as its report, and holding a
-- notification of that environment. Each such run takes the files it counts in one statement, so a file an analysis
-- adds meanwhile waits for the next run.
--   seen_by_nightly  false until a nightly run of the file's environment counted it
-- Files analysed before this migration count as seen, as the runs before it judged them. Every statement can run
-- again.

ALTER TABLE analyzed_files ADD COLUMN IF NOT EXISTS seen_by_nightly boolean NOT NULL DEFAULT true;
ALTER TABLE analyzed_files ALTER COLUMN seen_by_nightly SET DEFAULT false;
CREATE INDEX IF NOT EXISTS analyzed_files_unseen_idx ON analyzed_files (environment) WHERE NOT seen_by_nightly;
