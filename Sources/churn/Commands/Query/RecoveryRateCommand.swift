import Analysis
import ArgumentParser

extension Churn.QueryCommand {
    /// `churn query recovery-rate`: outcomes and recovery rate of the selected episodes.
    struct RecoveryRateCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recovery-rate",
            abstract: "Outcomes, recovery rate of ended episodes, and of mature ones with a 95% interval.",
            discussion: """
                Columns: episodes, recovered, expired, cancelled, other, open,
                recovery_rate (recovered / ended; empty when none has ended), then
                mature_episodes, mature_recovered, mature_recovery_rate and its 95%
                Wilson interval (episodes 61 days or more before the as-of time,
                whose outcome can no longer change), after the --group-by columns. Grouped by cohort-month, the rows are the (cohort, (all))
                rows of recovery_by_cohort.csv; by cohort-month and product, its
                (cohort, product) rows; by grace-length, grace against no grace.

                Examples:
                  churn query recovery-rate
                  churn query recovery-rate --group-by cohort-month
                  churn query recovery-rate --group-by grace-length --paid-renewal
                  churn query recovery-rate --group-by storefront \\
                      --product pro.annual --format csv
                """
        )

        @OptionGroup var options: QueryOptions

        func run() throws {
            try options.answer(.recoveryRate)
        }
    }
}
