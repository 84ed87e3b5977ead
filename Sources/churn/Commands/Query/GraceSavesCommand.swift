import Analysis
import ArgumentParser

extension Churn.QueryCommand {
    /// `churn query grace-saves`: what the billing grace period saved among the selected episodes.
    struct GraceSavesCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grace-saves",
            abstract: "Episodes with a grace period: saved in grace, recovered after it, save_rate; or --revenue.",
            discussion: """
                Counts only episodes with a grace period; groups without one are left
                out. save_rate = saved_in_grace / grace episodes that are decided
                (closed, or open with the grace period over). Grouped by
                cohort-month, the rows are grace_period.csv's.

                --revenue shows the revenue saved instead: per currency (never added
                across currencies), the episodes saved in grace and the price of
                their recovering transactions, as grace_revenue.csv.

                Examples:
                  churn query grace-saves
                  churn query grace-saves --group-by cohort-month
                  churn query grace-saves --group-by grace-length --first-episode
                  churn query grace-saves --revenue --group-by product --format json
                """
        )

        @OptionGroup var options: QueryOptions

        @Flag(help: "Revenue saved per currency instead of the counts.")
        var revenue = false

        func run() throws {
            try options.answer(revenue ? .graceRevenue : .graceSaves)
        }
    }
}
