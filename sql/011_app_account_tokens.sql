-- The customer identifiers the App Store carries in a subscription's transactions and renewal infos, as typed and
-- indexed columns: `appAccountToken` (the app's own user id, which joins the open-episode list to a team's user
-- table) and `appTransactionId` (one per account and app).
--
-- notifications gains app_account_token and app_transaction_id: the signed transaction's value, else the signed
-- renewal info's, an empty string as NULL. They are filled in from the stored payloads, so a database upgrades in
-- place (one pass over notifications); the loader writes them from now on.
--
-- billing_episodes gains app_account_token: the latest non-empty appAccountToken of the episode's subscription
-- (METRICS.md v2.1, open_episodes.csv), filled in here for the stored episodes and written by every analysis.
--
-- Every statement can run again.

ALTER TABLE notifications
    ADD COLUMN IF NOT EXISTS app_account_token text,
    ADD COLUMN IF NOT EXISTS app_transaction_id text;

UPDATE notifications
SET app_account_token = coalesce(
        nullif(payload #>> '{data,signedTransactionInfo,appAccountToken}', ''),
        nullif(payload #>> '{data,signedRenewalInfo,appAccountToken}', '')),
    app_transaction_id = coalesce(
        nullif(payload #>> '{data,signedTransactionInfo,appTransactionId}', ''),
        nullif(payload #>> '{data,signedRenewalInfo,appTransactionId}', ''))
WHERE app_account_token IS NULL AND app_transaction_id IS NULL
  AND (payload #> '{data,signedTransactionInfo}' IS NOT NULL OR payload #> '{data,signedRenewalInfo}' IS NOT NULL);

CREATE INDEX IF NOT EXISTS notifications_app_account_token_idx ON notifications (app_account_token)
    WHERE app_account_token IS NOT NULL;
CREATE INDEX IF NOT EXISTS notifications_app_transaction_id_idx ON notifications (app_transaction_id)
    WHERE app_transaction_id IS NOT NULL;

COMMENT ON COLUMN notifications.app_account_token IS
    'appAccountToken of the signed transaction, else of the signed renewal info; NULL when none or empty.';
COMMENT ON COLUMN notifications.app_transaction_id IS
    'appTransactionId of the signed transaction, else of the signed renewal info; NULL when none or empty.';

ALTER TABLE billing_episodes ADD COLUMN IF NOT EXISTS app_account_token text;

UPDATE billing_episodes e SET app_account_token = t.app_account_token
FROM (
    SELECT DISTINCT ON (environment, original_transaction_id) environment, original_transaction_id, app_account_token
    FROM notifications
    WHERE app_account_token IS NOT NULL
    ORDER BY environment, original_transaction_id, signed_date DESC, notification_uuid DESC
) t
WHERE e.app_account_token IS NULL AND e.environment = t.environment
  AND e.original_transaction_id = t.original_transaction_id;

COMMENT ON COLUMN billing_episodes.app_account_token IS
    'The latest non-empty appAccountToken of the subscription''s notifications (transactions and renewal infos).';

-- The episodes view gains app_account_token, last, so a view of your own over it keeps working: the open episodes
-- join a user table of the app's on it (README, "Reaching the customers whose payment is failing").
CREATE OR REPLACE VIEW episodes AS
WITH latest AS (
    SELECT max(signed_date) AS as_of FROM notifications
), judged AS (
    SELECT b.*,
           l.as_of,
           coalesce(b.start_at + interval '1464 hours' <= l.as_of, false) AS is_mature
    FROM billing_episodes b CROSS JOIN latest l
), measured AS (
    SELECT j.*,
           j.outcome = 'open' AND j.is_mature                   AS window_over
    FROM judged j
)
SELECT environment,
       original_transaction_id,
       sequence,
       sequence = 1                                         AS is_first_episode,
       bundle_id,
       product_id,
       storefront,
       cohort_month,
       cohort_week,
       start_at,
       CASE WHEN window_over THEN start_at + interval '1440 hours' ELSE end_at END AS end_at,
       end_inferred OR window_over                          AS end_inferred,
       CASE WHEN window_over THEN 'expired' ELSE outcome END AS outcome,
       recovered_by,
       d.duration,
       extract(epoch FROM d.duration)::float8 / 86400       AS duration_days,
       is_mature                                            AS mature,
       has_grace,
       grace_end,
       grace_end_inferred,
       CASE WHEN has_grace AND grace_end IS NOT NULL
            THEN round(extract(epoch FROM grace_end - start_at) / 86400)::integer END AS grace_days,
       saved_in_grace,
       trial_conversion,
       offer_type,
       offer_discount_type,
       recovery_price,
       round(recovery_price / 1000.0, 3)                    AS recovery_amount,
       recovery_currency,
       stake_price,
       round(stake_price / 1000.0, 3)                       AS stake_amount,
       stake_currency,
       opening_notification_uuid,
       closing_notification_uuid,
       app_account_token
FROM measured m
CROSS JOIN LATERAL (
    SELECT CASE WHEN m.window_over THEN interval '60 days'
                WHEN m.end_at IS NOT NULL THEN m.duration
                ELSE greatest(m.as_of - m.start_at, interval '0') END AS duration
) d;

COMMENT ON COLUMN episodes.app_account_token IS
    'The latest non-empty appAccountToken of the subscription: the app''s own user id, when the app sets one.';
