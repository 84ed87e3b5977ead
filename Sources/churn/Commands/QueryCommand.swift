import ArgumentParser

extension Churn {
    /// `churn query`: the report's questions for the episodes a user picks, from the shell.
    struct QueryCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "query",
            abstract: "Ask the report's questions about the episodes you pick: no SQL needed.",
            discussion: """
                Brings the stored episodes up to date first (like `churn analyze`),
                selects the episodes that pass the filters and answers with the
                report's own analyzers: for the same scope the figures are the
                report's. `churn query recovery-rate --group-by cohort-month` prints
                the (cohort, (all)) rows of recovery_by_cohort.csv, and
                `churn query recovery-curve` prints recovery_curve.csv.

                Questions:
                  recovery-rate   outcomes, recovery_rate and the mature recovery rate
                                  with its 95% interval (recovery_by_cohort.csv)
                  recovery-curve  at_risk, recovered, cif_recovery by day, 1-60
                                  (recovery_curve.csv)
                  grace-saves     grace episodes, saves, save_rate (grace_period.csv);
                                  --revenue: revenue saved per currency
                                  (grace_revenue.csv)
                  message-bands   recoveries against message exposure, message days
                                  against their neighbours (message_bands.csv)
                  retry-days      at risk, recoveries and hazard per day of retry
                                  (retry_days.csv)
                  revenue         recovered, saved, lost and at-risk amounts per
                                  currency, and what retry is expected to bring
                                  back (revenue.csv)
                  grace-whatif    per product and grace length (0, 3, 6, 16, 28
                                  days): paid days kept and free access given
                                  over mature episodes (grace_whatif.csv)
                  grace-change    what a change of an app's grace setting did: a
                                  difference in differences against the products
                                  whose grace held (grace_change.csv)
                  message-log     from the app's log of the billing-issue sheet:
                                  shown days against the others
                                  (message_log.csv)
                  message-experiment
                                  the log's experiment arms against the
                                  reference arm (message_experiment.csv)
                  flows           episodes entering and leaving retry per week
                                  (flows.csv)
                  episodes        the episodes themselves, one row each
                  open-episodes   the episodes still in retry, with each one's
                                  app_account_token and chance of recovery
                                  (open_episodes.csv): whom to reach now

                Customers (the subscriptions linked by appTransactionId,
                appAccountToken or a migration):
                  returns         of the customers billing retry lost, how many came
                                  back within 30, 90 and 180 days (returns.csv);
                                  --group-by month, product or storefront
                  customer ID     every subscription, episode, return and
                                  notification of one customer, found by an
                                  original transaction id, an appTransactionId or
                                  an appAccountToken

                Of the whole environment (no filters, no grouping):
                  billing-failures  renewal charges and the share that failed,
                                  per month (billing_failures.csv)
                  data-quality    copies, filtered and refused inputs, inferred
                                  ends (data_quality.csv)

                Filters (every one given must hold):
                  --bundle-id ID, --product ID, --storefront CODE
                      any of the values given (repeat the option; '' for none)
                  --from WHEN, --to WHEN
                      episodes whose start (t0) lies from the start of WHEN through
                      the end of WHEN: a day (2026-03-05), a month (2026-03) or an
                      ISO week (2026-W10), UTC
                  --trial-conversion | --paid-renewal
                      the failed charge was the first after a free trial, or not
                  --first-episode | --repeat-episode
                      a subscription's first episode, or a later one
                  --environment NAME, --as-of TIME
                      as for `churn report`

                --group-by (repeat it, or separate with commas): cohort-month,
                cohort-week (both in the column `cohort`, as in the report's
                CSVs: a month 2025-09 or an ISO week 2025-W37), app, product,
                storefront, offer-type (the code and Apple's name), grace-length
                (3, 6 for a weekly product under 16 or 28, 16 or 28 days, none, or
                unknown). A grouped answer ends with the figures over every
                selected episode, marked (all). `episodes` lists each group's
                episodes in turn, --limit of each.

                Output: an aligned table, or --format csv, json or markdown. JSON is
                an array of objects with every value typed: numbers, true/false,
                null for an empty cell and for none or unknown (has_grace tells no
                grace from an unknown length), and is_total: true instead of (all).

                Examples:
                  churn query recovery-rate --group-by cohort-month
                  churn query recovery-rate --group-by grace-length \\
                      --from 2025-01 --to 2025-06
                  churn query recovery-rate --group-by product,storefront \\
                      --as-of 2025-10-31 --format json
                  churn query recovery-curve --product pro.monthly \\
                      --format csv > curve.csv
                  churn query grace-saves --group-by cohort-month
                  churn query grace-saves --revenue --storefront USA
                  churn query message-bands --trial-conversion --format markdown
                  churn query revenue --group-by product
                  churn query grace-whatif --product pro.monthly
                  churn query flows --from 2025-W40
                  churn query episodes --repeat-episode --group-by product --limit 20
                  churn query open-episodes --in-grace --limit 50
                """,
            subcommands: [
                RecoveryRateCommand.self, RecoveryCurveCommand.self, GraceSavesCommand.self, MessageBandsCommand.self,
                RetryDaysCommand.self, RevenueCommand.self, GraceWhatIfCommand.self, GraceChangeCommand.self,
                MessageLogCommand.self, MessageExperimentCommand.self, FlowsCommand.self,
                EpisodesCommand.self, OpenEpisodesCommand.self, ReturnsCommand.self, CustomerCommand.self,
                BillingFailuresCommand.self, DataQualityCommand.self,
            ]
        )
    }
}
