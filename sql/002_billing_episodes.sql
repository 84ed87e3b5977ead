-- Billing-retry episodes, rebuilt by `churn analyze` (and before every report) for the subscriptions that new
-- loads touched. One row per episode, as of the latest notification loaded; METRICS.md defines every column.

CREATE TABLE IF NOT EXISTS billing_episodes (
    environment                 text NOT NULL,
    original_transaction_id     text NOT NULL,
    sequence                    integer NOT NULL,           -- 1 = the subscription's first episode
    product_id                  text,
    storefront                  text,
    start_at                    timestamptz NOT NULL,       -- t0: expiresDate of the failed period
    has_grace                   boolean NOT NULL,
    grace_end                   timestamptz,
    end_at                      timestamptz,                -- NULL while open
    outcome                     text NOT NULL
                                CHECK (outcome IN ('recovered', 'expired', 'cancelled', 'other', 'open')),
    duration                    interval,                   -- end_at - start_at (never below 0); NULL while open
    saved_in_grace              boolean NOT NULL,
    recovery_price              bigint,                     -- milliunits of recovery_currency
    recovery_currency           text,
    cohort_month                text NOT NULL,              -- YYYY-MM of start_at (UTC)
    cohort_week                 text NOT NULL,              -- ISO week YYYY-Www of start_at
    offer_type                  integer,
    offer_discount_type         text,
    trial_conversion            boolean NOT NULL,
    opening_notification_uuid   uuid NOT NULL,
    closing_notification_uuid   uuid,
    PRIMARY KEY (environment, original_transaction_id, sequence)
);
CREATE INDEX IF NOT EXISTS billing_episodes_cohort_idx ON billing_episodes (environment, cohort_month);

-- Per subscription: the data-quality counts and renewals its notifications contributed (summed by reports).
CREATE TABLE IF NOT EXISTS subscription_analysis (
    environment                         text NOT NULL,
    original_transaction_id             text NOT NULL,     -- '' for notifications without a subscription
    outside_environment                 integer NOT NULL,
    family_shared_skipped               integer NOT NULL,
    orphan_did_renew_billing_recovery   integer NOT NULL,
    orphan_expired_billing_retry        integer NOT NULL,
    orphan_grace_period_expired         integer NOT NULL,
    PRIMARY KEY (environment, original_transaction_id)
);

CREATE TABLE IF NOT EXISTS subscription_renewals (
    environment                 text NOT NULL,
    original_transaction_id     text NOT NULL,
    month                       text NOT NULL,              -- YYYY-MM of the renewal's signedDate
    renewals                    integer NOT NULL,
    PRIMARY KEY (environment, original_transaction_id, month)
);

-- Which loaded files the stored episodes already reflect, per environment: the next analysis rebuilds the
-- subscriptions of every other file's notifications.
CREATE TABLE IF NOT EXISTS analyzed_files (
    environment     text NOT NULL,
    source_file_id  bigint NOT NULL REFERENCES source_files (id),
    analyzed_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (environment, source_file_id)
);

CREATE INDEX IF NOT EXISTS notifications_source_file_idx ON notifications (source_file_id);
