-- Copies of a notification by their signed date, refused inputs that can be mended, and the options a load ran with.
--
-- notification_copies: every accepted copy of a notificationUUID that is not the row `notifications` stores for it,
-- with its signedDate. The stored row is the earliest-signed copy (a copy signed earlier that a later load brings
-- takes its place, and the row it replaces moves here), so the copies signed by an as-of time T are the
-- duplicates_skipped of a report as of T, whatever the order or the number of the files loaded, and whatever is
-- loaded after T (docs/METRICS.md, "Which notifications count"). A file's copies are written in the transaction that
-- completes the file; the same line of a file with the same content (SHA-256) is recorded once, so loading a file
-- again adds none. Small next to `notifications`: one row per further copy.
--
-- quarantine gains the notification a refused input held, when it was decoded (a signature that was not trusted, a
-- bundle id or environment the load was told to leave out): its key, signed date and environment, so that a report
-- as of T counts it only when it was signed by T, and a later load that stores it resolves the refusal. A refusal is
-- resolved (resolved_by_run, the run that did) when a later load accepts the same line of the same content, or stores
-- its notification; reports count unresolved refusals only.
--
-- load_runs.acceptance records the options that decide what a load accepts (trust roots, bundle id, environment,
-- record size), so that `churn nightly` loads again a file refused under other options once the options change.
--
-- Upgrades a database in place; every statement can run again. Copies loaded before this migration are not known by
-- date: `churn load` of those files again records them (their stored rows are not copied twice).

CREATE TABLE IF NOT EXISTS notification_copies (
    original_transaction_id     text NOT NULL,
    notification_uuid           uuid NOT NULL,
    signed_date                 timestamptz NOT NULL,
    source_file_id              bigint NOT NULL REFERENCES source_files (id),
    source_line                 bigint
);
CREATE INDEX IF NOT EXISTS notification_copies_signed_date_idx ON notification_copies (signed_date);
CREATE INDEX IF NOT EXISTS notification_copies_source_file_idx ON notification_copies (source_file_id, source_line);

COMMENT ON TABLE notification_copies IS
    'Accepted copies of a notificationUUID other than the stored (earliest-signed) one: duplicates_skipped as of T is '
    'the count of those signed by T.';

ALTER TABLE quarantine
    ADD COLUMN IF NOT EXISTS original_transaction_id text,
    ADD COLUMN IF NOT EXISTS notification_uuid uuid,
    ADD COLUMN IF NOT EXISTS signed_date timestamptz,
    ADD COLUMN IF NOT EXISTS environment text,
    ADD COLUMN IF NOT EXISTS resolved_by_run bigint REFERENCES load_runs (id);
CREATE INDEX IF NOT EXISTS quarantine_unresolved_idx ON quarantine (source_file_id) WHERE resolved_by_run IS NULL;

ALTER TABLE load_runs ADD COLUMN IF NOT EXISTS acceptance text;
