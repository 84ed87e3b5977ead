-- Views for asking your own questions in psql. They read billing_episodes, which `churn analyze` (and every
-- `churn report`, `churn query` and `churn nightly`) brings up to date. An open episode's duration runs to the
-- latest signedDate loaded (any environment): the as-of time of a report that names none.

-- The as-of time is max(signed_date); an index keeps finding it cheap.
CREATE INDEX IF NOT EXISTS notifications_signed_date_idx ON notifications (signed_date);

-- One row per billing-retry episode, with what people filter and group by.
CREATE OR REPLACE VIEW episodes AS
WITH latest AS (
    SELECT max(signed_date) AS as_of FROM notifications
), measured AS (
    SELECT b.*,
           CASE WHEN b.end_at IS NOT NULL THEN b.duration
                ELSE greatest(l.as_of - b.start_at, interval '0') END AS duration_as_of
    FROM billing_episodes b CROSS JOIN latest l
)
SELECT environment,
       original_transaction_id,
       sequence,
       sequence = 1                                         AS is_first_episode,
       product_id,
       storefront,
       cohort_month,
       cohort_week,
       start_at,
       end_at,
       outcome,
       duration_as_of                                       AS duration,
       extract(epoch FROM duration_as_of)::float8 / 86400   AS duration_days,
       has_grace,
       grace_end,
       CASE WHEN has_grace AND grace_end IS NOT NULL
            THEN round(extract(epoch FROM grace_end - start_at) / 86400)::integer END AS grace_days,
       saved_in_grace,
       trial_conversion,
       offer_type,
       offer_discount_type,
       recovery_price,
       round(recovery_price / 1000.0, 3)                    AS recovery_amount,
       recovery_currency,
       opening_notification_uuid,
       closing_notification_uuid
FROM measured;

COMMENT ON VIEW episodes IS
    'Billing-retry episodes with durations (open ones as of the latest signedDate loaded), grace length in days '
    '(NULL without grace or with an unknown end) and is_first_episode. Source: billing_episodes.';

-- recovery_by_cohort.csv as a view: per environment, cohort month and product, with the same totals
-- ('(all)' in cohort_month and/or product_id) and the same order. A missing product is ''.
CREATE OR REPLACE VIEW recovery_by_cohort AS
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
           / nullif(count(*) FILTER (WHERE outcome <> 'open'), 0)               AS recovery_rate
FROM (
    SELECT environment, cohort_month, coalesce(product_id, '') AS product, outcome FROM billing_episodes
) e
GROUP BY GROUPING SETS (
    (environment, cohort_month, product), (environment, cohort_month), (environment, product), (environment)
)
ORDER BY environment, grouping(cohort_month), e.cohort_month, grouping(product), product COLLATE "C";

COMMENT ON VIEW recovery_by_cohort IS
    'Outcomes and recovery_rate = recovered / (recovered + expired + cancelled + other) per environment, cohort '
    'month and product, with (all) totals, as recovery_by_cohort.csv. Source: billing_episodes.';

-- Recoveries by day of the episode (day d is (d-1)·24 h < duration ≤ d·24 h, a duration of 0 on day 1) for
-- days 1…60, with the at_risk and cumulative recovered columns of recovery_curve.csv.
CREATE OR REPLACE VIEW daily_recovery AS
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
