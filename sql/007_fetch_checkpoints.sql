-- Fetches of the App Store Server API's notification history (`churn fetch`, `churn nightly --fetch`): one row per
-- range, committed after each page is durably in its file, so a fetch that stops for any reason resumes at the first
-- page it did not keep. Every statement can run again.

CREATE TABLE IF NOT EXISTS fetch_checkpoints (
    id                      bigserial PRIMARY KEY,
    -- What is fetched: Apple's environment, the app, the range [start_date, end_date) and the request's filters.
    environment             text NOT NULL,
    bundle_id               text NOT NULL,
    start_date              timestamptz NOT NULL,
    end_date                timestamptz NOT NULL,
    notification_type       text,
    notification_subtype    text,
    only_failures           boolean NOT NULL DEFAULT false,
    -- Where the history files go (an absolute path).
    directory               text NOT NULL,
    -- 'running' while a fetch works on it or after one was killed, 'failed' after one stopped with an error (both
    -- resume), 'succeeded' once the last page is in a complete file, 'abandoned' when its range fell out of the
    -- history Apple keeps before it finished.
    status                  text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed', 'abandoned')),
    -- The token of the next page to request; NULL for the first page of the range, and once the last page is kept.
    pagination_token        text,
    last_page_kept          boolean NOT NULL DEFAULT false,
    pages                   integer NOT NULL DEFAULT 0,
    notifications           bigint NOT NULL DEFAULT 0,
    -- HTTP 200 answers that were no usable page, each kept under <directory>/quarantine/ and requested again.
    malformed_pages         integer NOT NULL DEFAULT 0,
    -- The file being written: its part number (history-<id>-<part>.jsonl.gz), the pages and notifications in it,
    -- its length after its last kept page, and the token its first page was requested with.
    file_part               integer NOT NULL DEFAULT 1,
    part_pages              integer NOT NULL DEFAULT 0,
    part_notifications      bigint NOT NULL DEFAULT 0,
    part_bytes              bigint NOT NULL DEFAULT 0,
    part_start_token        text,
    started_at              timestamptz NOT NULL DEFAULT now(),
    updated_at              timestamptz NOT NULL DEFAULT now(),
    finished_at             timestamptz,
    error                   text,
    CHECK (start_date < end_date)
);
CREATE INDEX IF NOT EXISTS fetch_checkpoints_scope_idx
    ON fetch_checkpoints (environment, bundle_id, status, end_date);

COMMENT ON TABLE fetch_checkpoints IS
    'One row per fetched range of the notification history; resumed at pagination_token while not succeeded.';
