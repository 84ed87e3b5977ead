-- One meaning per name: `recovered` is cumulative in recovery_curve.csv and in `churn query recovery-curve`, but
-- daily_recovery's `recovered` counted the recoveries of that day alone. That column becomes recovered_on_day;
-- recovered_cumulative keeps its name, so the view has no `recovered` and a query written for the old column fails
-- instead of quietly reading other figures. Renaming (not recreating) the column keeps views of your own over
-- daily_recovery working, under their own column names. Every statement can run again.
DO $$
BEGIN
    IF EXISTS (
        SELECT FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'daily_recovery' AND column_name = 'recovered'
    ) THEN
        ALTER VIEW daily_recovery RENAME COLUMN recovered TO recovered_on_day;
    END IF;
END
$$;

COMMENT ON VIEW daily_recovery IS
    'Per environment and day of the episode (1-60): at_risk (duration >= (day-1) days), recovered_on_day (the '
    'recoveries of that day alone) and recovered_cumulative (duration <= day days); at_risk and '
    'recovered_cumulative are the at_risk and recovered columns of recovery_curve.csv. Source: the episodes view.';
COMMENT ON COLUMN daily_recovery.at_risk IS
    'Episodes whose duration is at least (day - 1) days: at_risk of recovery_curve.csv.';
COMMENT ON COLUMN daily_recovery.recovered_on_day IS
    'Episodes recovered on that day alone: (day - 1) days < duration <= day days (a duration of 0 on day 1).';
COMMENT ON COLUMN daily_recovery.recovered_cumulative IS
    'Episodes recovered with a duration of at most day days: recovered of recovery_curve.csv.';
