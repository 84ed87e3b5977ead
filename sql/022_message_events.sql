-- The app's own log of the App Store's billing-issue sheet (`churn messages load`; docs/METRICS.md, "Billing messages
-- the app showed"): one row per event, stored once however often its file is loaded.
--   original_transaction_id, app_account_token
--                   the subscription, by its id or by the customer's token (at least one; the token a lowercase UUID)
--   at              when the app showed, deferred or suppressed the sheet
--   action          shown, deferred or suppressed
--   arm             the experiment arm the app put the customer in, if any
--   source_file_id, source_line
--                   where the event was first read
-- The same event is every field the same: the unique index treats a missing field as one value. Every statement can
-- run again.

CREATE TABLE IF NOT EXISTS message_events (
    id                      bigserial PRIMARY KEY,
    original_transaction_id text,
    app_account_token       text,
    at                      timestamptz NOT NULL,
    action                  text NOT NULL,
    arm                     text,
    source_file_id          bigint REFERENCES source_files (id),
    source_line             bigint,
    CONSTRAINT message_events_subscription
        CHECK (original_transaction_id IS NOT NULL OR app_account_token IS NOT NULL),
    CONSTRAINT message_events_action CHECK (action IN ('shown', 'deferred', 'suppressed'))
);

CREATE UNIQUE INDEX IF NOT EXISTS message_events_once ON message_events
    (coalesce(original_transaction_id, ''), coalesce(app_account_token, ''), at, action, coalesce(arm, ''));
