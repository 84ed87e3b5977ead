import Analysis
import ArgumentParser

extension Churn.QueryCommand {
    /// `churn query flows`: episodes entering and leaving billing retry, week by week.
    struct FlowsCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "flows",
            abstract: "Per ISO week: episodes entering retry, leaving it by outcome, and still in retry.",
            discussion: """
                The columns of flows.csv: entered (episodes that started in the
                week), recovered in grace, after grace or without grace, expired,
                cancelled and other (episodes that ended in the week), and
                in_retry_at_week_end. Weeks run Monday to Monday, UTC, from the first
                episode's week to the as-of week.

                --from and --to choose the weeks shown, not the episodes: a week's
                row counts every episode entering or leaving in it, whenever it
                started, so it equals that week's row of flows.csv.

                Examples:
                  churn query flows
                  churn query flows --from 2025-W40 --format csv
                  churn query flows --group-by product --format markdown
                """
        )

        @OptionGroup var options: QueryOptions

        func run() throws {
            try options.answer(.flows)
        }
    }
}
