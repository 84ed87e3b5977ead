-- The ordinary renewals of each environment by month, summed: what `billing_failures.csv` divides by. The report
-- read them as the sum of `subscription_renewals` (one row per subscription and month, ten million rows and more in
-- a large database), a scan that grew with the data; it now reads these few rows.
--   environment, month  the month (YYYY-MM) of the renewals' signedDate
--   renewals            the sum of subscription_renewals.renewals over the environment's subscriptions that month
-- The analysis keeps them equal to those sums: a rebuild subtracts the rows it deletes and adds the rows it writes,
-- in the transaction that writes them, and a month left with none is dropped. Filled here from the stored rows.
-- Every statement can run again.

CREATE TABLE IF NOT EXISTS renewal_months (
    environment     text NOT NULL,
    month           text NOT NULL,
    renewals        bigint NOT NULL,
    PRIMARY KEY (environment, month)
);

DELETE FROM renewal_months;
INSERT INTO renewal_months (environment, month, renewals)
SELECT environment, month, sum(renewals) FROM subscription_renewals GROUP BY 1, 2 HAVING sum(renewals) <> 0;
