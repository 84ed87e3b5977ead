-- The partitioned layout (`churn migrate --layout partitioned`, or CHURN_SCHEMA_LAYOUT=partitioned for every command
-- that creates a schema): notifications and the per-subscription tables hash-partitioned by original_transaction_id
-- into current_setting('churn.partitions') partitions each, with PostgreSQL's declarative partitioning. A partitioned
-- table's primary key and unique indexes must include the partition key, the rule a table distributed by that column
-- follows on Citus; the test suite runs on this layout too, so the rule is tested (docs/SCALING.md).
--
-- The Migrator runs this on a new schema only, in the transaction of 001_initial.sql and before it. These tables are
-- as 008_subscription_keys.sql leaves them in the plain layout (columns in the same order, with the same types,
-- defaults and checks); the numbered migrations then find them, skip their CREATE TABLE IF NOT EXISTS and add the
-- rest (the other tables, the indexes, which PostgreSQL creates on every partition, the views, and in 008 the
-- foreign keys to load_runs and source_files, which do not exist yet here). A test compares the two layouts'
-- catalogs.

CREATE TABLE schema_layout (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    layout      text NOT NULL CHECK (layout IN ('plain', 'partitioned')),
    partitions  integer CHECK (partitions > 0),
    created_at  timestamptz NOT NULL DEFAULT now(),
    CHECK ((layout = 'partitioned') = (partitions IS NOT NULL))
);

INSERT INTO schema_layout (layout, partitions) VALUES ('partitioned', current_setting('churn.partitions')::integer);

CREATE TABLE notifications (
    notification_uuid           uuid NOT NULL,
    notification_type           text NOT NULL,
    subtype                     text,
    signed_date                 timestamptz NOT NULL,
    version                     text,
    environment                 text,
    bundle_id                   text,
    app_apple_id                bigint,
    status                      smallint,
    original_transaction_id     text NOT NULL DEFAULT '',
    transaction_id              text,
    web_order_line_item_id      text,
    product_id                  text,
    subscription_group_identifier text,
    storefront                  text,
    storefront_id               text,
    purchase_date               timestamptz,
    original_purchase_date      timestamptz,
    expires_date                timestamptz,
    price                       bigint,
    currency                    text,
    in_app_ownership_type       text,
    transaction_reason          text,
    offer_type                  integer,
    offer_identifier            text,
    offer_discount_type         text,
    offer_period                text,
    revocation_date             timestamptz,
    revocation_reason           integer,
    grace_period_expires_date   timestamptz,
    is_in_billing_retry_period  boolean,
    expiration_intent           integer,
    auto_renew_status           integer,
    auto_renew_product_id       text,
    renewal_price               bigint,
    renewal_date                timestamptz,
    payload                     jsonb NOT NULL,
    verified                    boolean NOT NULL,
    source_file_id              bigint,
    source_line                 bigint,
    load_run_id                 bigint NOT NULL,
    renewal_currency            text,
    CONSTRAINT notifications_pkey PRIMARY KEY (original_transaction_id, notification_uuid)
) PARTITION BY HASH (original_transaction_id);

CREATE TABLE billing_episodes (
    environment                 text NOT NULL,
    original_transaction_id     text NOT NULL,
    sequence                    integer NOT NULL,
    product_id                  text,
    storefront                  text,
    start_at                    timestamptz NOT NULL,
    has_grace                   boolean NOT NULL,
    grace_end                   timestamptz,
    end_at                      timestamptz,
    outcome                     text NOT NULL
                                CHECK (outcome IN ('recovered', 'expired', 'cancelled', 'other', 'open')),
    duration                    interval,
    saved_in_grace              boolean NOT NULL,
    recovery_price              bigint,
    recovery_currency           text,
    cohort_month                text NOT NULL,
    cohort_week                 text NOT NULL,
    offer_type                  integer,
    offer_discount_type         text,
    trial_conversion            boolean NOT NULL,
    opening_notification_uuid   uuid NOT NULL,
    closing_notification_uuid   uuid,
    recovered_by                text CHECK (recovered_by IN ('retry', 'new_purchase')),
    end_inferred                boolean NOT NULL DEFAULT false,
    grace_end_inferred          boolean NOT NULL DEFAULT false,
    stake_price                 bigint,
    stake_currency              text,
    bundle_id                   text,
    CONSTRAINT billing_episodes_recovered_by_outcome_check CHECK ((recovered_by IS NOT NULL) = (outcome = 'recovered')),
    PRIMARY KEY (environment, original_transaction_id, sequence)
) PARTITION BY HASH (original_transaction_id);

CREATE TABLE subscription_analysis (
    environment                         text NOT NULL,
    original_transaction_id             text NOT NULL,
    outside_environment                 integer NOT NULL,
    family_shared_skipped               integer NOT NULL,
    orphan_did_renew_billing_recovery   integer NOT NULL,
    orphan_expired_billing_retry        integer NOT NULL,
    orphan_grace_period_expired         integer NOT NULL,
    stale_failure_notice                integer NOT NULL DEFAULT 0,
    late_failure_notice                 integer NOT NULL DEFAULT 0,
    PRIMARY KEY (environment, original_transaction_id)
) PARTITION BY HASH (original_transaction_id);

CREATE TABLE subscription_renewals (
    environment                 text NOT NULL,
    original_transaction_id     text NOT NULL,
    month                       text NOT NULL,
    renewals                    integer NOT NULL,
    PRIMARY KEY (environment, original_transaction_id, month)
) PARTITION BY HASH (original_transaction_id);

-- The partitions: <table>_p0 … <table>_p<n-1>, rows by the hash of original_transaction_id modulo n.
DO $$
DECLARE
    count   integer := (SELECT partitions FROM schema_layout);
    parent  text;
BEGIN
    FOREACH parent IN ARRAY ARRAY['notifications', 'billing_episodes', 'subscription_analysis', 'subscription_renewals']
    LOOP
        FOR remainder IN 0 .. count - 1 LOOP
            EXECUTE format(
                'CREATE TABLE %I PARTITION OF %I FOR VALUES WITH (MODULUS %s, REMAINDER %s)',
                parent || '_p' || remainder, parent, count, remainder
            );
        END LOOP;
    END LOOP;
END
$$;
