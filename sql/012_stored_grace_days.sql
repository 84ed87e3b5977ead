-- The grace length in whole days becomes a stored column of billing_episodes, written by the analysis with the one
-- rounding rule of grace lengths (⌊(grace_end − t0) / 24 h + ½⌋, METRICS.md "Grace without a date"), so no SQL
-- computes it: the episodes view reads it, and the usual grace lengths of a product are counted from it.
--
-- The stored episodes get theirs here, by the same rule on the same millisecond values; every analysis writes it
-- from now on. The view is the one of 011 with grace_days read from the table.
--
-- Every statement can run again.

ALTER TABLE billing_episodes ADD COLUMN IF NOT EXISTS grace_days integer;

UPDATE billing_episodes
SET grace_days = floor((((date_part('epoch', grace_end) * 1000)::int8 - (date_part('epoch', start_at) * 1000)::int8)
                        + 43200000)::numeric / 86400000)::integer
WHERE has_grace AND grace_end IS NOT NULL AND grace_days IS NULL;

COMMENT ON COLUMN billing_episodes.grace_days IS
    'The grace period in whole days, floor((grace_end - start_at) / 24 h + 1/2); NULL without grace or with an unknown end.';

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
    SELECT CASE WHEN m.window_over THEN interval '60 days'
                WHEN m.end_at IS NOT NULL THEN m.duration
                ELSE greatest(m.as_of - m.start_at, interval '0') END AS duration
) d;

COMMENT ON COLUMN episodes.grace_days IS
    'The grace period in whole days, floor((grace_end - start_at) / 24 h + 1/2): the configured grace; NULL without grace or with an unknown end.';
