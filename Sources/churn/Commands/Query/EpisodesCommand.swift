import Analysis
import ArgumentParser

extension Churn.QueryCommand {
    /// `churn query episodes`: the selected episodes, one row each.
    struct EpisodesCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "episodes",
            abstract: "The selected episodes, one row each, oldest first.",
            discussion: """
                Columns: original_transaction_id, sequence, product_id, storefront,
                cohort_month, start_at, end_at, outcome, duration_days (up to the
                as-of time while open), grace_days (none without grace), grace_end,
                saved_in_grace, trial_conversion, offer_type, recovery_amount
                (currency units) and recovery_currency. With --group-by, the rows are
                ordered by group first.

                Examples:
                  churn query episodes --product com.example.monthly --limit 20
                  churn query episodes --repeat-episode --format csv > repeats.csv
                  churn query episodes --from 2026-03-05 --to 2026-03-05 --format json
                """
        )

        @OptionGroup var options: QueryOptions

        @Option(help: ArgumentHelp("Show at most this many episodes.", valueName: "n"))
        var limit: Int?

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more.") }
        }

        func run() throws {
            try options.answer(.episodes, limit: limit)
        }
    }
}
