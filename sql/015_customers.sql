-- Customers, not only subscriptions (METRICS.md v2.1, "Customers who come back"), and the 2025–2026 fields of the
-- App Store's signed transactions and renewal infos.
--
-- notifications gains typed columns for what was until now only in `payload`:
--   previous_original_transaction_id  the transaction's previousOriginalTransactionId: the subscription this one
--                                     continues after a migration (a MIGRATE notification);
--   revocation_type, revocation_percentage  how a transaction was refunded (REFUND_FULL, REFUND_PRORATED with the
--                                     refunded share in milli-percent, FAMILY_REVOKE);
--   billing_plan_type, commitment_*   the transaction's plan of a 12-month commitment (BILLED_UPFRONT or MONTHLY)
--                                     and where it stands in it: installment number, installments, end, price;
--   renewal_billing_plan_type, renewal_commitment_*  the renewal info's plan and its next commitment: product,
--                                     auto-renew status, plan, date, price.
-- They are filled in from the stored payloads (one pass over the rows that carry any of them), so a database
-- upgrades in place; the loader writes them from now on.
--
-- billing_episodes gains revocation_type and revocation_percentage: a refund's, when one touched the episode (the
-- REFUND or REVOKE that ended it, or a later refund of the transaction that recovered it); the rebuild below fills them.
--
-- Three tables join subscriptions into customers and hold what a return is:
--   subscription_links      per analysed subscription, each key that links it to others: its appTransactionId, its
--                           non-empty appAccountToken, and the original transaction id it continues after a
--                           migration (which links it to that subscription), with the first signed time the key
--                           appears (a report as of an earlier time links by the keys known then);
--   subscription_purchases  per analysed subscription, each SUBSCRIBED (any subtype) and OFFER_REDEEMED
--                           notification that counts, with the transaction's purchaseDate: the candidates for a
--                           return;
--   subscription_customers  every subscription that shares a key with another, with its customer: the smallest
--                           original transaction id of the subscriptions linked to it, transitively. A subscription
--                           without a row is a customer of its own (customer_id is its original transaction id).
-- The analysis writes the first two with the episodes and recomputes the third after each rebuild. The stored
-- analysis is rebuilt once, fully (analyzed_files is emptied), so that every subscription gets its rows.
--
-- Every statement can run again.

ALTER TABLE notifications
    ADD COLUMN IF NOT EXISTS previous_original_transaction_id text,
    ADD COLUMN IF NOT EXISTS revocation_type text,
    ADD COLUMN IF NOT EXISTS revocation_percentage integer,
    ADD COLUMN IF NOT EXISTS billing_plan_type text,
    ADD COLUMN IF NOT EXISTS commitment_billing_period_number integer,
    ADD COLUMN IF NOT EXISTS commitment_total_billing_periods integer,
    ADD COLUMN IF NOT EXISTS commitment_expires_date timestamptz,
    ADD COLUMN IF NOT EXISTS commitment_price bigint,
    ADD COLUMN IF NOT EXISTS renewal_billing_plan_type text,
    ADD COLUMN IF NOT EXISTS renewal_commitment_product_id text,
    ADD COLUMN IF NOT EXISTS renewal_commitment_auto_renew_status integer,
    ADD COLUMN IF NOT EXISTS renewal_commitment_billing_plan_type text,
    ADD COLUMN IF NOT EXISTS renewal_commitment_date timestamptz,
    ADD COLUMN IF NOT EXISTS renewal_commitment_price bigint;

UPDATE notifications
SET previous_original_transaction_id = payload #>> '{data,signedTransactionInfo,previousOriginalTransactionId}',
    revocation_type = payload #>> '{data,signedTransactionInfo,revocationType}',
    revocation_percentage = (payload #>> '{data,signedTransactionInfo,revocationPercentage}')::integer,
    billing_plan_type = payload #>> '{data,signedTransactionInfo,billingPlanType}',
    commitment_billing_period_number =
        (payload #>> '{data,signedTransactionInfo,commitmentInfo,billingPeriodNumber}')::integer,
    commitment_total_billing_periods =
        (payload #>> '{data,signedTransactionInfo,commitmentInfo,totalBillingPeriods}')::integer,
    commitment_expires_date = to_timestamp(
        (payload #>> '{data,signedTransactionInfo,commitmentInfo,commitmentExpiresDate}')::numeric / 1000),
    commitment_price = (payload #>> '{data,signedTransactionInfo,commitmentInfo,commitmentPrice}')::bigint,
    renewal_billing_plan_type = payload #>> '{data,signedRenewalInfo,renewalBillingPlanType}',
    renewal_commitment_product_id = payload #>> '{data,signedRenewalInfo,commitmentInfo,commitmentAutoRenewProductId}',
    renewal_commitment_auto_renew_status =
        (payload #>> '{data,signedRenewalInfo,commitmentInfo,commitmentAutoRenewStatus}')::integer,
    renewal_commitment_billing_plan_type =
        payload #>> '{data,signedRenewalInfo,commitmentInfo,commitmentRenewalBillingPlanType}',
    renewal_commitment_date = to_timestamp(
        (payload #>> '{data,signedRenewalInfo,commitmentInfo,commitmentRenewalDate}')::numeric / 1000),
    renewal_commitment_price = (payload #>> '{data,signedRenewalInfo,commitmentInfo,commitmentRenewalPrice}')::bigint
WHERE (payload #> '{data,signedTransactionInfo}') ?| ARRAY[
          'previousOriginalTransactionId', 'revocationType', 'revocationPercentage', 'billingPlanType', 'commitmentInfo']
   OR (payload #> '{data,signedRenewalInfo}') ?| ARRAY['renewalBillingPlanType', 'commitmentInfo'];

COMMENT ON COLUMN notifications.previous_original_transaction_id IS
    'previousOriginalTransactionId of the signed transaction: the subscription this one continues after a migration.';
COMMENT ON COLUMN notifications.revocation_percentage IS
    'revocationPercentage of the signed transaction: the refunded share of a prorated refund in milli-percent (50000 = 50 %).';

-- One index, for the rebuild's delete of a subscription's rows: the linking reads the whole environment's keys, and
-- writing a second index (or a primary key over the three columns) made a full analysis's COPY of the keys about
-- twice as slow. The analysis writes each key of a subscription once.
CREATE TABLE IF NOT EXISTS subscription_links (
    environment             text NOT NULL,
    original_transaction_id text NOT NULL,
    link                    text NOT NULL,
    first_signed            timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS subscription_links_subscription_idx
    ON subscription_links (environment, original_transaction_id);

COMMENT ON TABLE subscription_links IS
    'The keys that join an analysed subscription to a customer: app_transaction_id:…, app_account_token:…, '
    'subscription:… (the subscription it continues after a migration), each with the first signed time it appears.';

CREATE TABLE IF NOT EXISTS subscription_purchases (
    environment             text NOT NULL,
    original_transaction_id text NOT NULL,
    purchase_date           timestamptz NOT NULL,
    signed_date             timestamptz NOT NULL,
    notification_uuid       uuid NOT NULL,
    notification_type       text NOT NULL,
    subtype                 text,
    bundle_id               text,
    product_id              text
);
CREATE INDEX IF NOT EXISTS subscription_purchases_subscription_idx
    ON subscription_purchases (environment, original_transaction_id, purchase_date);

COMMENT ON TABLE subscription_purchases IS
    'Each SUBSCRIBED (any subtype) and OFFER_REDEEMED notification of an analysed subscription that counts, with the '
    'purchaseDate of its transaction: what a return of the customer is.';

CREATE TABLE IF NOT EXISTS subscription_customers (
    environment             text NOT NULL,
    original_transaction_id text NOT NULL,
    customer_id             text NOT NULL,
    PRIMARY KEY (environment, original_transaction_id)
);
CREATE INDEX IF NOT EXISTS subscription_customers_customer_idx ON subscription_customers (environment, customer_id);

COMMENT ON TABLE subscription_customers IS
    'Every subscription linked to another, with its customer (the smallest original transaction id among the '
    'subscriptions linked to it, transitively). A subscription without a row is a customer of its own.';

ALTER TABLE billing_episodes
    ADD COLUMN IF NOT EXISTS revocation_type text,
    ADD COLUMN IF NOT EXISTS revocation_percentage integer;

COMMENT ON COLUMN billing_episodes.revocation_percentage IS
    'The revocationPercentage (milli-percent) of the refund that ended the episode or refunded its recovering charge.';

DELETE FROM analyzed_files;
