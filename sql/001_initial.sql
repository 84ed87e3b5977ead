-- The history store: every notification once, the files it came from, the runs that loaded it,
-- and the inputs that were refused. Applied by `churn migrate` (and before any load) in one transaction.

-- One row per `churn load` / `churn nightly` run. A run that dies keeps status 'running' until the next
-- run finds it abandoned and marks it 'interrupted'; only 'succeeded' runs are complete.
CREATE TABLE IF NOT EXISTS load_runs (
    id              bigserial PRIMARY KEY,
    started_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz,
    status          text NOT NULL DEFAULT 'running'
                    CHECK (status IN ('running', 'succeeded', 'failed', 'interrupted')),
    command         text NOT NULL,
    verified        boolean NOT NULL,
    files           integer NOT NULL DEFAULT 0,
    records         bigint NOT NULL DEFAULT 0,
    loaded          bigint NOT NULL DEFAULT 0,
    duplicates      bigint NOT NULL DEFAULT 0,
    rejected        bigint NOT NULL DEFAULT 0,
    error           text
);

-- One row per export file a run finished loading, committed in the same transaction as the file's rows.
CREATE TABLE IF NOT EXISTS source_files (
    id              bigserial PRIMARY KEY,
    load_run_id     bigint NOT NULL REFERENCES load_runs (id),
    path            text NOT NULL,
    size_bytes      bigint NOT NULL,
    sha256          text NOT NULL,
    records         bigint NOT NULL,
    loaded          bigint NOT NULL,
    duplicates      bigint NOT NULL,
    rejected        bigint NOT NULL,
    loaded_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS source_files_sha256_idx ON source_files (sha256);

-- Every notification once, keyed by Apple's notificationUUID. Typed columns hold what the metrics use
-- (transaction fields from data.signedTransactionInfo, renewal fields from data.signedRenewalInfo);
-- `payload` holds the whole decoded notification with the nested JWS decoded in place, so no field is lost.
CREATE TABLE IF NOT EXISTS notifications (
    notification_uuid           uuid PRIMARY KEY,
    notification_type           text NOT NULL,
    subtype                     text,
    signed_date                 timestamptz NOT NULL,
    version                     text,
    environment                 text,
    bundle_id                   text,
    app_apple_id                bigint,
    status                      smallint,
    original_transaction_id     text,
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
    source_file_id              bigint REFERENCES source_files (id),
    source_line                 bigint,
    load_run_id                 bigint NOT NULL REFERENCES load_runs (id)
);
CREATE INDEX IF NOT EXISTS notifications_subscription_idx
    ON notifications (original_transaction_id, signed_date, notification_uuid);
CREATE INDEX IF NOT EXISTS notifications_load_run_idx ON notifications (load_run_id);

-- Inputs that were refused, with where they came from, why, and (a bounded prefix of) their raw text.
CREATE TABLE IF NOT EXISTS quarantine (
    id              bigserial PRIMARY KEY,
    load_run_id     bigint NOT NULL REFERENCES load_runs (id),
    source_file_id  bigint REFERENCES source_files (id),
    file            text NOT NULL,
    line            bigint,
    item            integer,
    reason          text NOT NULL,
    detail          text NOT NULL,
    raw             text NOT NULL,
    raw_bytes       bigint NOT NULL,
    raw_truncated   boolean NOT NULL,
    quarantined_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS quarantine_reason_idx ON quarantine (reason);
