-- Checks of uncertain subscriptions against the App Store Server API (`churn repair`, `churn nightly --repair`): one
-- row per episode checked, with what the stored notifications made of it, what Get All Subscription Statuses said,
-- and, where the two disagree, the subscription's notification history fetched into an export file. The row is
-- updated after each answer is recorded, so a run that stops for any reason resumes with the next request. No
-- episode is changed from here: the fetched notifications are loaded and analysed like any other. Every statement
-- can run again.

CREATE TABLE IF NOT EXISTS subscription_checks (
    id                          bigserial PRIMARY KEY,
    -- The episode checked, as the analysis stored it (billing_episodes), and why it was uncertain:
    -- 'inferred_expiry' (expired at day 60 with no closing notification), 'open_without_news' (open, no notification
    -- of the subscription for --stale-days), 'grace_end_unknown' (open, in a grace period without a date).
    environment                 text NOT NULL,
    bundle_id                   text NOT NULL,
    original_transaction_id     text NOT NULL,
    episode_sequence            integer NOT NULL,
    episode_start               timestamptz NOT NULL,
    reason                      text NOT NULL
                                CHECK (reason IN ('inferred_expiry', 'open_without_news', 'grace_end_unknown')),
    -- What the notifications made of it: 'expired' (the status Apple would give is 2) or 'billing_issue' (3 or 4).
    expected                    text NOT NULL CHECK (expected IN ('expired', 'billing_issue')),
    -- The exports directory the history goes to (an absolute path).
    directory                   text NOT NULL,
    -- 'pending' until Apple's status is recorded; 'fetching' while the history of a subscription whose status
    -- disagrees is fetched; 'done' at the end.
    state                       text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'fetching', 'done')),
    -- What came of it: 'agrees', 'differs' (the history was fetched), 'not_found' (Apple's answer lists no such
    -- subscription), 'unverified' (a signed item failed verification), 'refused' (Apple refused the request).
    verdict                     text CHECK (verdict IN ('agrees', 'differs', 'not_found', 'unverified', 'refused')),
    -- What Apple said: the status (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked) and, from its
    -- verified signed items, the latest transaction's expiry and the renewal info's grace end and retry flag.
    apple_status                smallint,
    apple_expires_date          timestamptz,
    apple_grace_period_expires_date timestamptz,
    apple_in_billing_retry      boolean,
    -- The history fetched by transaction id: its range (fixed when the fetch starts), the next page's token, the
    -- pages and notifications kept, the file's length after the last kept page, and the file once complete.
    history_start               timestamptz,
    history_end                 timestamptz,
    pagination_token            text,
    pages                       integer NOT NULL DEFAULT 0,
    notifications               integer NOT NULL DEFAULT 0,
    part_bytes                  bigint NOT NULL DEFAULT 0,
    history_file                text,
    created_at                  timestamptz NOT NULL DEFAULT now(),
    checked_at                  timestamptz,
    finished_at                 timestamptz,
    error                       text
);
CREATE INDEX IF NOT EXISTS subscription_checks_episode_idx
    ON subscription_checks (environment, original_transaction_id, episode_sequence);
CREATE INDEX IF NOT EXISTS subscription_checks_state_idx
    ON subscription_checks (environment, bundle_id, state);

COMMENT ON TABLE subscription_checks IS
    'One row per episode checked against Get All Subscription Statuses; where Apple disagreed, the subscription''s notification history was fetched into history_file. No episode is changed from a status.';
