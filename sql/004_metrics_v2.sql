-- Metrics v2 (METRICS.md, the sections marked v2): the columns the new episode rules produce, the renewal
-- currency behind the price at stake, and the views that show episodes as of the latest data (the retry window,
-- maturity). Upgrades a database in place; every statement can run again.

-- Episodes: how a recovery came about, ends and grace ends the notifications did not date, the price at stake.
ALTER TABLE billing_episodes
    ADD COLUMN IF NOT EXISTS recovered_by text CHECK (recovered_by IN ('retry', 'new_purchase')),
    ADD COLUMN IF NOT EXISTS end_inferred boolean NOT NULL DEFAULT false,
    ADD COLUMN IF NOT EXISTS grace_end_inferred boolean NOT NULL DEFAULT false,
    ADD COLUMN IF NOT EXISTS stake_price bigint,
    ADD COLUMN IF NOT EXISTS stake_currency text,
    ADD COLUMN IF NOT EXISTS bundle_id text;

-- Version 1 recovered an episode only on DID_RENEW, so its stored recoveries are retries. (They are replaced by
-- the rebuild this migration forces, see analyzed_files below; until then the constraint holds for them too.)
UPDATE billing_episodes SET recovered_by = 'retry' WHERE outcome = 'recovered' AND recovered_by IS NULL;
ALTER TABLE billing_episodes DROP CONSTRAINT IF EXISTS billing_episodes_recovered_by_outcome_check;
ALTER TABLE billing_episodes ADD CONSTRAINT billing_episodes_recovered_by_outcome_check
    CHECK ((recovered_by IS NOT NULL) = (outcome = 'recovered'));

-- The grace periods without a date, which every analysis dates again (few, so a partial index finds them cheaply).
CREATE INDEX IF NOT EXISTS billing_episodes_undated_grace_idx ON billing_episodes (environment)
    WHERE has_grace AND (grace_end IS NULL OR grace_end_inferred);

COMMENT ON COLUMN billing_episodes.recovered_by IS
    'For recovered episodes: retry (a DID_RENEW) or new_purchase (SUBSCRIBED, OFFER_REDEEMED or '
    'DID_CHANGE_RENEWAL_PREF/UPGRADE with a price above 0, purchased after t0); NULL otherwise.';
COMMENT ON COLUMN billing_episodes.end_inferred IS
    'The episode ended expired at start_at + 60 days because a notification signed after start_at + 61 days came '
    'before any closing one. Episodes still open with no later notification stay open here; the episodes view and '
    'reports end them at their as-of time.';
COMMENT ON COLUMN billing_episodes.grace_end_inferred IS
    'grace_end is start_at plus the usual grace length of the product (else the app) in this environment, not a '
    'date from a notification; recomputed, with saved_in_grace, after every analysis.';
COMMENT ON COLUMN billing_episodes.stake_price IS
    'The price at stake, milliunits of stake_currency: the opening notification''s renewalPrice, else its '
    'transaction''s price.';
COMMENT ON COLUMN billing_episodes.stake_currency IS 'The currency of stake_price.';
COMMENT ON COLUMN billing_episodes.bundle_id IS 'The opening notification''s bundleId (the app).';

-- Per subscription: the two new data-quality checks the episode builder counts.
ALTER TABLE subscription_analysis
    ADD COLUMN IF NOT EXISTS stale_failure_notice integer NOT NULL DEFAULT 0,
    ADD COLUMN IF NOT EXISTS late_failure_notice integer NOT NULL DEFAULT 0;

-- The renewal info's currency (of renewal_price). Loads fill it in from now on; for the rows already stored it
-- comes from the payload, which holds the decoded renewal info at data.signedRenewalInfo. (This rewrites every
-- notification with renewal info once; VACUUM reclaims the old row versions.)
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS renewal_currency text;
UPDATE notifications
SET renewal_currency = payload #>> '{data,signedRenewalInfo,currency}'
WHERE renewal_currency IS NULL
  AND jsonb_typeof(payload #> '{data,signedRenewalInfo,currency}') = 'string';

-- The episode rules changed (late and stale failure notices, new purchases during retry, the retry window, grace
-- ends dated only by the episode's own period), so every stored episode must be rebuilt: with no file marked as
-- analyzed, the next `churn analyze` (or report, query, nightly) of each environment is a full rebuild.
DELETE FROM analyzed_files;

-- The views, replaced rather than altered: their columns change order. A view of your own over them makes the
-- DROP fail (nothing of yours is dropped silently): drop it first and create it again after migrating.
DROP VIEW IF EXISTS daily_recovery, recovery_by_cohort, episodes;

-- One row per billing-retry episode as of the latest signedDate loaded (any environment), the as-of time of a
-- report that names none: an episode still open after its retry window (t0 + 61 × 24 h) shows as expired at
-- t0 + 60 × 24 h, as reports end it.
CREATE VIEW episodes AS
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
       closing_notification_uuid
FROM measured m
CROSS JOIN LATERAL (
    SELECT CASE WHEN m.window_over THEN interval '60 days'
                WHEN m.end_at IS NOT NULL THEN m.duration
                ELSE greatest(m.as_of - m.start_at, interval '0') END AS duration
) d;

COMMENT ON VIEW episodes IS
    'Billing-retry episodes as of the latest signedDate loaded: open ones past their retry window end expired at '
    't0 + 60 days (end_inferred), open ones are measured to that time. Source: billing_episodes.';
COMMENT ON COLUMN episodes.environment IS 'data.environment of the notifications (Production, Sandbox, …).';
COMMENT ON COLUMN episodes.original_transaction_id IS 'The subscription.';
COMMENT ON COLUMN episodes.sequence IS 'The episode''s number within its subscription, 1 for the first.';
COMMENT ON COLUMN episodes.is_first_episode IS 'sequence = 1: the subscription''s first billing failure.';
COMMENT ON COLUMN episodes.bundle_id IS 'The app (bundleId) of the opening notification.';
COMMENT ON COLUMN episodes.product_id IS 'The product of the opening notification''s transaction.';
COMMENT ON COLUMN episodes.storefront IS 'The storefront of the opening notification''s transaction.';
COMMENT ON COLUMN episodes.cohort_month IS 'YYYY-MM of start_at (UTC).';
COMMENT ON COLUMN episodes.cohort_week IS 'ISO week YYYY-Www of start_at (UTC).';
COMMENT ON COLUMN episodes.start_at IS 't0: the expiresDate of the failed period (else the opening signedDate).';
COMMENT ON COLUMN episodes.end_at IS
    'When the episode ended (start_at + 60 days when ended by inference); NULL while open.';
COMMENT ON COLUMN episodes.end_inferred IS
    'Ended expired at start_at + 60 days because no closing notification came within the retry window (by a later '
    'notification, or still open at start_at + 61 days as of the latest signedDate).';
COMMENT ON COLUMN episodes.outcome IS 'recovered, expired, cancelled, other or open, as of the latest signedDate.';
COMMENT ON COLUMN episodes.recovered_by IS
    'For recovered episodes: retry (DID_RENEW) or new_purchase (a new paid purchase after t0); NULL otherwise.';
COMMENT ON COLUMN episodes.duration IS
    'end_at - start_at (never below 0); for open episodes up to the latest signedDate loaded.';
COMMENT ON COLUMN episodes.duration_days IS 'duration in days (24 h), as a number.';
COMMENT ON COLUMN episodes.mature IS
    'start_at + 61 days <= the latest signedDate loaded: the outcome can no longer change.';
COMMENT ON COLUMN episodes.has_grace IS 'The episode has a billing grace period.';
COMMENT ON COLUMN episodes.grace_end IS
    'When the grace period ends (dated or inferred); NULL without grace or when unknown.';
COMMENT ON COLUMN episodes.grace_end_inferred IS
    'grace_end is start_at plus the product''s (else the app''s) usual grace length, not a notification''s date.';
COMMENT ON COLUMN episodes.grace_days IS
    'round((grace_end - start_at) / 24 h): the configured grace in days; NULL without grace or with an unknown end.';
COMMENT ON COLUMN episodes.saved_in_grace IS 'Recovered at or before grace_end.';
COMMENT ON COLUMN episodes.trial_conversion IS 'The failed renewal was the first charge after a free trial.';
COMMENT ON COLUMN episodes.offer_type IS
    'The opening transaction''s offer: 1 introductory, 2 promotional, 3 offer code, 4 win-back.';
COMMENT ON COLUMN episodes.offer_discount_type IS 'The opening transaction''s offer discount (FREE_TRIAL, …).';
COMMENT ON COLUMN episodes.recovery_price IS 'The recovering transaction''s price, milliunits of recovery_currency.';
COMMENT ON COLUMN episodes.recovery_amount IS 'recovery_price in currency units.';
COMMENT ON COLUMN episodes.recovery_currency IS 'The recovering transaction''s currency.';
COMMENT ON COLUMN episodes.stake_price IS
    'The price at stake, milliunits of stake_currency: the opening renewal info''s renewalPrice, else the opening '
    'transaction''s price.';
COMMENT ON COLUMN episodes.stake_amount IS 'stake_price in currency units.';
COMMENT ON COLUMN episodes.stake_currency IS 'The currency of stake_price.';
COMMENT ON COLUMN episodes.opening_notification_uuid IS 'The DID_FAIL_TO_RENEW that opened the episode.';
COMMENT ON COLUMN episodes.closing_notification_uuid IS
    'The notification that closed it; NULL while open or when ended by inference.';

-- recovery_by_cohort.csv as a view: per environment, cohort month and product, with the same totals
-- ('(all)' in cohort_month and/or product_id) and the same order. A missing product is ''. Outcomes as of the
-- latest signedDate (the episodes view), so the counts are the report's.
CREATE VIEW recovery_by_cohort AS
SELECT g.environment,
       g.cohort_month,
       g.product_id,
       g.episodes,
       g.recovered,
       g.expired,
       g.cancelled,
       g.other,
       g.open,
       g.recovery_rate,
       g.mature_episodes,
       g.mature_recovered,
       w.p                                                                      AS mature_recovery_rate,
       (w.p + w.z * w.z / (2 * w.n) - w.z * sqrt(w.p * (1 - w.p) / w.n + w.z * w.z / (4 * w.n * w.n)))
           / (1 + w.z * w.z / w.n)                                              AS mature_recovery_rate_low,
       (w.p + w.z * w.z / (2 * w.n) + w.z * sqrt(w.p * (1 - w.p) / w.n + w.z * w.z / (4 * w.n * w.n)))
           / (1 + w.z * w.z / w.n)                                              AS mature_recovery_rate_high
FROM (
    SELECT environment,
           CASE WHEN grouping(cohort_month) = 1 THEN '(all)' ELSE cohort_month END  AS cohort_month,
           CASE WHEN grouping(product) = 1 THEN '(all)' ELSE product END            AS product_id,
           count(*)                                                                 AS episodes,
           count(*) FILTER (WHERE outcome = 'recovered')                            AS recovered,
           count(*) FILTER (WHERE outcome = 'expired')                              AS expired,
           count(*) FILTER (WHERE outcome = 'cancelled')                            AS cancelled,
           count(*) FILTER (WHERE outcome = 'other')                                AS other,
           count(*) FILTER (WHERE outcome = 'open')                                 AS open,
           (count(*) FILTER (WHERE outcome = 'recovered'))::float8
               / nullif(count(*) FILTER (WHERE outcome <> 'open'), 0)               AS recovery_rate,
           count(*) FILTER (WHERE mature)                                           AS mature_episodes,
           count(*) FILTER (WHERE mature AND outcome = 'recovered')                 AS mature_recovered,
           grouping(cohort_month)                                                   AS cohort_rank,
           e.cohort_month                                                           AS cohort_key,
           grouping(product)                                                        AS product_rank,
           e.product                                                                AS product_key
    FROM (
        SELECT environment, cohort_month, coalesce(product_id, '') AS product, outcome, mature FROM episodes
    ) e
    GROUP BY GROUPING SETS (
        (environment, cohort_month, product), (environment, cohort_month), (environment, product), (environment)
    )
) g
CROSS JOIN LATERAL (
    -- Wilson's 95 % interval for x = mature_recovered of n = mature_episodes (NULL when n = 0).
    SELECT nullif(g.mature_episodes, 0)::float8                         AS n,
           g.mature_recovered::float8 / nullif(g.mature_episodes, 0)    AS p,
           1.959963984540054::float8                                    AS z
) w
ORDER BY g.environment, g.cohort_rank, g.cohort_key, g.product_rank, g.product_key COLLATE "C";

COMMENT ON VIEW recovery_by_cohort IS
    'Outcomes, recovery_rate = recovered / (recovered + expired + cancelled + other) and the mature episodes'' '
    'recovery rate with its 95 % Wilson interval, per environment, cohort month and product, with (all) totals, '
    'as recovery_by_cohort.csv. Source: the episodes view.';
COMMENT ON COLUMN recovery_by_cohort.environment IS 'data.environment of the episodes.';
COMMENT ON COLUMN recovery_by_cohort.cohort_month IS 'YYYY-MM of the episodes'' start, or (all).';
COMMENT ON COLUMN recovery_by_cohort.product_id IS 'The product ('''' for none), or (all).';
COMMENT ON COLUMN recovery_by_cohort.episodes IS 'Episodes in the group.';
COMMENT ON COLUMN recovery_by_cohort.recovered IS 'Episodes recovered (by retry or a new purchase).';
COMMENT ON COLUMN recovery_by_cohort.expired IS 'Episodes expired (involuntary churn), inferred ends included.';
COMMENT ON COLUMN recovery_by_cohort.cancelled IS 'Episodes cancelled during retry.';
COMMENT ON COLUMN recovery_by_cohort.other IS 'Episodes ended otherwise (refund, revoke, other expiry).';
COMMENT ON COLUMN recovery_by_cohort.open IS 'Episodes still open at the latest signedDate.';
COMMENT ON COLUMN recovery_by_cohort.recovery_rate IS
    'recovered / (recovered + expired + cancelled + other); NULL when that is 0.';
COMMENT ON COLUMN recovery_by_cohort.mature_episodes IS
    'Episodes with start_at + 61 days <= the latest signedDate: decided for good.';
COMMENT ON COLUMN recovery_by_cohort.mature_recovered IS 'Mature episodes recovered.';
COMMENT ON COLUMN recovery_by_cohort.mature_recovery_rate IS
    'mature_recovered / mature_episodes; NULL when there is no mature episode.';
COMMENT ON COLUMN recovery_by_cohort.mature_recovery_rate_low IS
    'Lower bound of the 95 % Wilson interval of mature_recovery_rate (z = 1.959963984540054).';
COMMENT ON COLUMN recovery_by_cohort.mature_recovery_rate_high IS
    'Upper bound of the 95 % Wilson interval of mature_recovery_rate (z = 1.959963984540054).';

-- Recoveries by day of the episode (day d is (d-1)·24 h < duration ≤ d·24 h, a duration of 0 on day 1) for
-- days 1…60, with the at_risk and cumulative recovered columns of recovery_curve.csv.
CREATE VIEW daily_recovery AS
SELECT e.environment,
       d.day,
       count(*) FILTER (WHERE e.duration >= (d.day - 1) * interval '1 day')              AS at_risk,
       count(*) FILTER (WHERE e.outcome = 'recovered'
                          AND e.duration <= d.day * interval '1 day'
                          AND (d.day = 1 OR e.duration > (d.day - 1) * interval '1 day'))  AS recovered,
       count(*) FILTER (WHERE e.outcome = 'recovered'
                          AND e.duration <= d.day * interval '1 day')                     AS recovered_cumulative
FROM episodes e CROSS JOIN generate_series(1, 60) AS d (day)
GROUP BY e.environment, d.day
ORDER BY e.environment, d.day;

COMMENT ON VIEW daily_recovery IS
    'Per environment and day of the episode (1-60): at_risk (duration >= (day-1) days), recoveries on that day and '
    'recovered_cumulative (duration <= day days), as recovery_curve.csv. Source: the episodes view.';
COMMENT ON COLUMN daily_recovery.environment IS 'data.environment of the episodes.';
COMMENT ON COLUMN daily_recovery.day IS 'Day of the episode, 1-60: day d is ((d-1)·24 h, d·24 h] of duration.';
COMMENT ON COLUMN daily_recovery.at_risk IS 'Episodes whose duration is at least (day - 1) days.';
COMMENT ON COLUMN daily_recovery.recovered IS 'Episodes recovered on that day (a duration of 0 on day 1).';
COMMENT ON COLUMN daily_recovery.recovered_cumulative IS 'Episodes recovered with a duration of at most day days.';
