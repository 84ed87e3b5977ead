-- Monthly subscriptions with a 12-month commitment (METRICS.md v2.2, "Commitment plans"): an episode whose opening
-- transaction has billingPlanType MONTHLY is a commitment episode, with a retry window of 90 days instead of 60 (its
-- window_end and matures_at, written by the analysis, already say so), no cancellation by AUTO_RENEW_DISABLED, and
-- the installments the commitment still owes.
--
--   billing_plan          'standard' or 'commitment'
--   installments_at_risk  N − n of the opening transaction's commitmentInfo when both are known and n < N, else 1
--
-- and two facts of the opening transaction that the grace what-if per app setting (METRICS.md v2.2) needs:
--
--   opening_price         its price (milliunits): 0 for a free trial's period
--   period_days           its period in whole days, round((expiresDate − purchaseDate) / 24 h), when it was paid
--
-- Episodes stored before this migration were built without these; they read 'standard', 1 and NULL until the next
-- full analysis (`churn analyze --full`) builds them again. The episodes view is the one of 014 with the two columns at
-- its end. Every statement can run again.

ALTER TABLE billing_episodes
    ADD COLUMN IF NOT EXISTS billing_plan text NOT NULL DEFAULT 'standard'
        CHECK (billing_plan IN ('standard', 'commitment')),
    ADD COLUMN IF NOT EXISTS installments_at_risk integer NOT NULL DEFAULT 1,
    ADD COLUMN IF NOT EXISTS opening_price bigint,
    ADD COLUMN IF NOT EXISTS period_days integer;

COMMENT ON COLUMN billing_episodes.billing_plan IS
    '''commitment'' when the opening transaction bills monthly under a 12-month commitment (billingPlanType MONTHLY), else ''standard''.';
COMMENT ON COLUMN billing_episodes.installments_at_risk IS
    'N − n of the opening transaction''s commitmentInfo when both are known and n < N, else 1: what a commitment still owes, in installments.';

CREATE OR REPLACE VIEW episodes AS
WITH latest AS (
    SELECT max(signed_date) AS as_of FROM notifications
), judged AS (
    SELECT b.*,
           l.as_of,
           coalesce(b.matures_at <= l.as_of, false)             AS is_mature
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
       CASE WHEN window_over THEN window_end ELSE end_at END AS end_at,
       end_inferred OR window_over                          AS end_inferred,
       CASE WHEN window_over THEN 'expired' ELSE outcome END AS outcome,
       recovered_by,
       d.duration,
       extract(epoch FROM d.duration)::float8 / 86400       AS duration_days,
       is_mature                                            AS mature,
       has_grace,
       grace_end,
       grace_end_inferred,
       grace_days,
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
       app_account_token,
       billing_plan,
       installments_at_risk
FROM measured m
CROSS JOIN LATERAL (
    SELECT CASE WHEN m.window_over THEN m.window_end - m.start_at
                WHEN m.end_at IS NOT NULL THEN m.duration
                ELSE greatest(m.as_of - m.start_at, interval '0') END AS duration
) d;
