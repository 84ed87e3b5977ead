import Analysis
import ArgumentParser
import Foundation

extension Churn.QueryCommand {
    /// `churn query episodes`: the selected episodes, one row each.
    struct EpisodesCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "episodes",
            abstract: "The selected episodes, one row each, oldest first.",
            discussion: """
                Columns: original_transaction_id, sequence, product_id, storefront,
                cohort_month, cohort_week, start_at, end_at, outcome, recovered_by
                (retry or new_purchase), end_inferred, mature, duration_days (up to
                the as-of time while open), has_grace, grace_days (empty without
                grace or when its end is unknown), grace_end, grace_end_inferred,
                saved_in_grace, trial_conversion, offer_type and offer_type_name
                (Apple's name: INTRODUCTORY_OFFER, PROMOTIONAL_OFFER, OFFER_CODE,
                WIN_BACK_OFFER), recovery_amount and recovery_currency,
                stake_amount and stake_currency (the price of the failed renewal);
                amounts in currency units. In JSON, true and false are booleans and
                an empty cell is null.

                With --group-by, the rows come group by group (each grouping
                attribute is one of the columns) and --limit applies to each group:
                --group-by product --limit 20 shows up to 20 episodes of every
                product. Without --group-by, --limit caps the whole list.

                --outcome keeps the episodes of these outcomes (an episode still open
                61 days after its start counts as expired, as in the report);
                --columns shows only the columns named, in that order.

                Examples:
                  churn query episodes --outcome open --columns start_at,stake_amount
                  churn query episodes --product pro.monthly --limit 20
                  churn query episodes --repeat-episode --format csv > repeats.csv
                  churn query episodes --from 2025-03-05 --to 2025-03-05 --format json
                """
        )

        @OptionGroup var options: QueryOptions

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Show at most this many episodes (of each group with --group-by).", valueName: "n")
        )
        var limit: Int?

        @Option(
            name: .customLong("outcome"),
            help: ArgumentHelp(
                "Only episodes with this outcome as of the as-of time: recovered, expired, cancelled, other, open (repeatable).",
                valueName: "outcome")
        )
        var outcomes: [Episode.Outcome] = []

        @Option(
            help: ArgumentHelp(
                "Show only these columns, in this order (comma-separated, or repeated).", valueName: "names")
        )
        var columns: [String] = []

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more, not \(limit).") }
        }

        func run() throws {
            let names = columns.flatMap {
                $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            }
            try options.answer(.episodes, limit: limit, outcomes: outcomes, columns: names.filter { !$0.isEmpty })
        }
    }
}

extension Episode.Outcome: NameArgument {}
