-- A repair's proof from Get Transaction History (`churn repair`), for an uncertain episode older than the 180 days
-- of notification history Apple keeps. Where Apple's status differs for such an episode, the subscription's signed
-- transactions are read instead of its notifications, each verified as the loader verifies notifications; a renewal
-- purchased within the episode's retry window [t0, t0 + W days] proves the recovery. The proof is kept on the check,
-- with Apple's signed transaction itself so that anyone can verify it again. No notification is made up: the episode
-- rules take the proven renewal as evidence where the notifications leave an episode's end unknown, and the episode
-- records which transaction ended it (METRICS-NOTES.md, "Repair beyond 180 days"). Every statement can run again.
--   history_kind            'notifications' (Get Notification History into a file) or 'transactions' (Get
--                           Transaction History, read for a proof; history_start and history_end are then the
--                           episode's retry window)
--   retry_window_end        t0 + W days of the checked episode (W = 60, or 90 under a commitment)
--   transactions            signed transactions read and verified
--   proof_transaction_id    the renewal that proves the recovery; NULL when none was found
--   proof_purchase_date     its purchaseDate
--   proof_signed_transaction  Apple's JWS of it, as received
--   proof_price, proof_currency  its price (milliunits) and currency
--   proof_analyzed          the analysis has rebuilt the subscription's episodes with the proof (an analysis that
--                           finds one not analyzed rebuilds that subscription, as it does one a new file touched)
--
-- and billing_episodes:
--   proven_recovery_transaction_id  the proven renewal that ended the episode; NULL when a notification ended it

ALTER TABLE subscription_checks ADD COLUMN IF NOT EXISTS history_kind text NOT NULL DEFAULT 'notifications';
ALTER TABLE subscription_checks DROP CONSTRAINT IF EXISTS subscription_checks_history_kind_check;
ALTER TABLE subscription_checks ADD CONSTRAINT subscription_checks_history_kind_check
    CHECK (history_kind IN ('notifications', 'transactions'));
ALTER TABLE subscription_checks ADD COLUMN IF NOT EXISTS retry_window_end timestamptz;
ALTER TABLE subscription_checks ADD COLUMN IF NOT EXISTS transactions integer NOT NULL DEFAULT 0;
ALTER TABLE subscription_checks ADD COLUMN IF NOT EXISTS proof_transaction_id text;
ALTER TABLE subscription_checks ADD COLUMN IF NOT EXISTS proof_purchase_date timestamptz;
ALTER TABLE subscription_checks ADD COLUMN IF NOT EXISTS proof_signed_transaction text;
ALTER TABLE subscription_checks ADD COLUMN IF NOT EXISTS proof_price bigint;
ALTER TABLE subscription_checks ADD COLUMN IF NOT EXISTS proof_currency text;
ALTER TABLE subscription_checks ADD COLUMN IF NOT EXISTS proof_analyzed boolean NOT NULL DEFAULT false;
ALTER TABLE billing_episodes ADD COLUMN IF NOT EXISTS proven_recovery_transaction_id text;

COMMENT ON COLUMN subscription_checks.history_kind IS
    'notifications: the notification history was fetched into history_file; transactions: the episode was older than Apple''s 180 days of notification history, and its signed transactions were read for a proof of recovery.';
COMMENT ON COLUMN subscription_checks.proof_signed_transaction IS
    'Apple''s signed transaction (JWS) of a renewal purchased within the episode''s retry window, verified when read: the proof that the episode recovered.';
COMMENT ON COLUMN billing_episodes.proven_recovery_transaction_id IS
    'The renewal, proven by Apple''s transaction history (churn repair), that ended the episode recovered where no notification ended it; NULL otherwise.';
