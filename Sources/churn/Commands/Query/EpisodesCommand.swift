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

                Examples:
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

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more, not \(limit).") }
        }

        func run() throws {
            try options.answer(.episodes, limit: limit)
        }
    }
}
