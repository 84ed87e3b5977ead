-- The retry window's two times become stored columns of billing_episodes, written by the analysis from
-- `Episode.retryWindow` (60 days) and `Episode.retryHorizon` (61 days), so the episodes view computes no rule of
-- METRICS.md: it compares the stored maturity time with the time of the latest notification, and takes the stored end
-- of the window for an open episode whose window is over.
--
--   window_end   start_at + 60 days: where an episode still open when it matures ends by inference ('expired')
--   matures_at   start_at + 61 days: from then on the outcome can no longer change
--
-- The stored episodes get theirs here, by the same arithmetic on the same values; every analysis writes them from now
-- on. The view is the one of 012 reading these columns.
--
-- Every statement can run again.

ALTER TABLE billing_episodes ADD COLUMN IF NOT EXISTS window_end timestamptz;
ALTER TABLE billing_episodes ADD COLUMN IF NOT EXISTS matures_at timestamptz;

UPDATE billing_episodes
SET window_end = start_at + interval '1440 hours',
    matures_at = start_at + interval '1464 hours'
WHERE window_end IS NULL OR matures_at IS NULL;

COMMENT ON COLUMN billing_episodes.window_end IS
    'start_at + 60 days: the end of the retry window, where an episode still open at maturity ends by inference.';
COMMENT ON COLUMN billing_episodes.matures_at IS
    'start_at + 61 days: the time from which the episode''s outcome can no longer change.';

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
       app_account_token
FROM measured m
CROSS JOIN LATERAL (
    SELECT CASE WHEN m.window_over THEN m.window_end - m.start_at
                WHEN m.end_at IS NOT NULL THEN m.duration
                ELSE greatest(m.as_of - m.start_at, interval '0') END AS duration
) d;
