-- The views for asking your own questions in psql, in their current form: the one place each is defined.
--
-- Unlike the numbered migrations, which run once each, this file runs again whenever its text changes: `churn
-- migrate` (and every command that migrates) applies it after the numbered migrations and records its SHA-256 in
-- schema_repeatables. Every view here is made with CREATE OR REPLACE, so views of your own over these keep working
-- as long as a change only adds columns at the end. A change CREATE OR REPLACE cannot make (a column removed, renamed
-- or retyped) goes in a numbered migration that drops or renames it first; the numbered migrations up to 017 made the
-- views of their release and stay as they ran.
--
-- The views read billing_episodes, which `churn analyze` (and every `churn report`, `churn query` and `churn
-- nightly`) brings up to date. They decide no rule of docs/METRICS.md beyond the three that
-- Tests/StoreTests/RulesInSQLTests.swift lists, each held to the analysis's own figures by a test on the same data:
-- an open episode past its stored maturity time shows as expired (the analysis stores window_end and matures_at),
-- the day buckets of daily_recovery, and the Wilson interval of recovery_by_cohort.

-- One row per billing-retry episode as of the latest signedDate loaded (any environment), the as-of time of a report
-- that names none: an episode still open at its stored matures_at shows as expired at its stored window_end, as
-- reports end it.
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

COMMENT ON VIEW episodes IS
    'Billing-retry episodes as of the latest signedDate loaded: an open one past its retry window (matures_at of '
    'billing_episodes) ends expired at window_end (end_inferred), an open one is measured to that time. Source: '
    'billing_episodes.';
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
    'When the episode ended (the end of its retry window when ended by inference); NULL while open.';
COMMENT ON COLUMN episodes.end_inferred IS
    'Ended expired at the end of its retry window (start_at + 60 days, 90 under a commitment) because no closing '
    'notification came within it (by a later notification, or still open at its maturity as of the latest '
    'signedDate).';
COMMENT ON COLUMN episodes.outcome IS 'recovered, expired, cancelled, other or open, as of the latest signedDate.';
COMMENT ON COLUMN episodes.recovered_by IS
    'For recovered episodes: retry (DID_RENEW) or new_purchase (a new paid purchase after t0); NULL otherwise.';
COMMENT ON COLUMN episodes.duration IS
    'end_at - start_at (never below 0); for open episodes up to the latest signedDate loaded.';
COMMENT ON COLUMN episodes.duration_days IS 'duration in days (24 h), as a number.';
COMMENT ON COLUMN episodes.mature IS
    'The episode''s maturity (start_at + 61 days, 91 under a commitment) <= the latest signedDate loaded: the '
    'outcome can no longer change.';
COMMENT ON COLUMN episodes.has_grace IS 'The episode has a billing grace period.';
COMMENT ON COLUMN episodes.grace_end IS
    'When the grace period ends (dated or inferred); NULL without grace or when unknown.';
COMMENT ON COLUMN episodes.grace_end_inferred IS
    'grace_end is start_at plus the product''s (else the app''s) usual grace length, not a notification''s date.';
COMMENT ON COLUMN episodes.grace_days IS
    'The grace period in whole days, floor((grace_end - start_at) / 24 h + 1/2): the configured grace; NULL without '
    'grace or with an unknown end.';
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
COMMENT ON COLUMN episodes.app_account_token IS
    'The latest non-empty appAccountToken of the subscription: the app''s own user id, when the app sets one.';
COMMENT ON COLUMN episodes.billing_plan IS
    '''commitment'' when the opening transaction bills monthly under a 12-month commitment (billingPlanType MONTHLY), '
    'else ''standard''.';
COMMENT ON COLUMN episodes.installments_at_risk IS
    'N − n of the opening transaction''s commitmentInfo when both are known and n < N, else 1: what a commitment still '
    'owes, in installments.';

-- recovery_by_cohort.csv as a view: per environment, cohort month and product, with the same totals ('(all)' in
-- cohort_month and/or product_id) and the same order. A missing product is ''. Outcomes as of the latest signedDate
-- (the episodes view), so the counts are the report's.
CREATE OR REPLACE VIEW recovery_by_cohort AS
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
    'Mature episodes (the episodes view''s mature): decided for good by the latest signedDate.';
COMMENT ON COLUMN recovery_by_cohort.mature_recovered IS 'Mature episodes recovered.';
COMMENT ON COLUMN recovery_by_cohort.mature_recovery_rate IS
    'mature_recovered / mature_episodes; NULL when there is no mature episode.';
COMMENT ON COLUMN recovery_by_cohort.mature_recovery_rate_low IS
    'Lower bound of the 95 % Wilson interval of mature_recovery_rate (z = 1.959963984540054).';
COMMENT ON COLUMN recovery_by_cohort.mature_recovery_rate_high IS
    'Upper bound of the 95 % Wilson interval of mature_recovery_rate (z = 1.959963984540054).';

-- Recoveries by day of the episode (day d is (d-1)·24 h < duration ≤ d·24 h, a duration of 0 on day 1) for days
-- 1…60, with the at_risk and cumulative recovered columns of recovery_curve.csv.
CREATE OR REPLACE VIEW daily_recovery AS
SELECT e.environment,
       d.day,
       count(*) FILTER (WHERE e.duration >= (d.day - 1) * interval '1 day')              AS at_risk,
       count(*) FILTER (WHERE e.outcome = 'recovered'
                          AND e.duration <= d.day * interval '1 day'
                          AND (d.day = 1 OR e.duration > (d.day - 1) * interval '1 day'))  AS recovered_on_day,
       count(*) FILTER (WHERE e.outcome = 'recovered'
                          AND e.duration <= d.day * interval '1 day')                     AS recovered_cumulative
FROM episodes e CROSS JOIN generate_series(1, 60) AS d (day)
GROUP BY e.environment, d.day
ORDER BY e.environment, d.day;

COMMENT ON VIEW daily_recovery IS
    'Per environment and day of the episode (1-60): at_risk (duration >= (day-1) days), recovered_on_day (the '
    'recoveries of that day alone) and recovered_cumulative (duration <= day days); at_risk and '
    'recovered_cumulative are the at_risk and recovered columns of recovery_curve.csv. Source: the episodes view.';
COMMENT ON COLUMN daily_recovery.environment IS 'data.environment of the episodes.';
COMMENT ON COLUMN daily_recovery.day IS 'Day of the episode, 1-60: day d is ((d-1)·24 h, d·24 h] of duration.';
COMMENT ON COLUMN daily_recovery.at_risk IS
    'Episodes whose duration is at least (day - 1) days: at_risk of recovery_curve.csv.';
COMMENT ON COLUMN daily_recovery.recovered_on_day IS
    'Episodes recovered on that day alone: (day - 1) days < duration <= day days (a duration of 0 on day 1).';
COMMENT ON COLUMN daily_recovery.recovered_cumulative IS
    'Episodes recovered with a duration of at most day days: recovered of recovery_curve.csv.';
