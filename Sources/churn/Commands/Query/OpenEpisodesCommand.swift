import Analysis
import ArgumentParser

extension Churn.QueryCommand {
    /// `churn query open-episodes`: the customers whose payment is failing now, with what each may still bring back.
    struct OpenEpisodesCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "open-episodes",
            abstract: "The episodes still in billing retry, with each one's chance of recovery: whom to reach now.",
            discussion: """
                The rows of open_episodes.csv: original_transaction_id,
                app_account_token (your app's own user id, the latest one the
                subscription's transactions and renewal infos carried, in lower case
                as a UUID is written; empty when none), product_id, storefront, t0, day_of_retry, grace_end, in_grace
                (the customer still has access), stake_price and stake_currency (what
                the failed renewal would have charged), and recovery_chance: the
                share of the episodes still in retry that long which recovered by
                day 60 in the selected episodes' own history (with --group-by, each
                group's own). An estimate from the past, not a promise about this
                customer. Then billing_plan and installments_at_risk (a monthly plan
                with a 12-month commitment: what it still owes, in installments).

                Order (--sort): expected (the default) lists each currency in turn,
                the largest expected amount (chance × price at stake) first, since
                amounts of different currencies do not compare; chance, the largest
                chance first; day, the longest in retry first; start, by t0, newest
                first, as the report's file (a failure caught early is the easiest
                to mend).

                Examples:
                  churn query open-episodes --limit 50
                  churn query open-episodes --in-grace --min-chance 0.2 --format csv
                  churn query open-episodes --min-day 30 --sort day --product pro.monthly
                  churn query open-episodes --group-by storefront --limit 10
                """
        )

        @OptionGroup var options: QueryOptions

        @Flag(help: "Only customers still in their grace period (with access).")
        var inGrace = false

        @Flag(help: "Only customers past their grace period, or without one (no access).")
        var pastGrace = false

        @Option(help: ArgumentHelp("Only episodes whose recovery chance is at least this (0 to 1).", valueName: "x"))
        var minChance: Double?

        @Option(help: ArgumentHelp("Only episodes at least this many days into retry (1 to 60).", valueName: "day"))
        var minDay: Int?

        @Option(help: ArgumentHelp("Order: expected, chance, day or start.", valueName: "order"))
        var sort: OpenEpisodes.Selection.Order = .expected

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Show at most this many episodes (of each group with --group-by).", valueName: "n")
        )
        var limit: Int?

        func validate() throws {
            if inGrace && pastGrace {
                throw ValidationError("--in-grace and --past-grace exclude each other: give at most one.")
            }
            if let minChance, !(0...1).contains(minChance) {
                throw ValidationError("--min-chance must lie between 0 and 1, not \(minChance).")
            }
            if let minDay, !(1...60).contains(minDay) {
                throw ValidationError("--min-day must lie between 1 and 60, not \(minDay).")
            }
            if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more, not \(limit).") }
        }

        func run() throws {
            let selection = OpenEpisodes.Selection(
                inGrace: inGrace ? true : pastGrace ? false : nil, minimumChance: minChance, minimumDay: minDay,
                order: sort
            )
            try options.answer(.openEpisodes, limit: limit, openEpisodes: selection)
        }
    }
}

extension OpenEpisodes.Selection.Order: NameArgument {}
