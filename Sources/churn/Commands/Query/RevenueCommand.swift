import Analysis
import ArgumentParser

extension Churn.QueryCommand {
    /// `churn query revenue`: what retry recovered, grace saved, expiry lost and open episodes still hold.
    struct RevenueCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revenue",
            abstract: "Recovered, saved-in-grace, lost and at-risk amounts, per currency.",
            discussion: """
                The columns of revenue.csv, in currency units (customer prices, before
                the App Store's commission), one row per currency: currencies are
                never added together. Recovered and saved amounts are the recovering
                transactions' prices; lost (expired episodes) and at risk (open
                episodes) are the price the failed renewal would have charged.

                Examples:
                  churn query revenue
                  churn query revenue --group-by product --format csv
                  churn query revenue --from 2025-01 --to 2025-03 --storefront USA
                """
        )

        @OptionGroup var options: QueryOptions

        func run() throws {
            try options.answer(.revenue)
        }
    }
}
