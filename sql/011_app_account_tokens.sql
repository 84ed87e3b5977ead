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
