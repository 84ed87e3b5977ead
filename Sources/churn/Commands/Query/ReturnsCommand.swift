import Analysis
import AppStoreNotifications
import ArgumentParser
import Foundation
import Reports
import Workflows

extension Returns.Grouping: NameArgument {}

extension Churn.QueryCommand {
    /// `churn query returns`: of the customers billing retry lost, who came back and how soon.
    struct ReturnsCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "returns",
            abstract: "Of the customers billing retry lost, how many came back, and within 30, 90 and 180 days.",
            discussion: """
                The rows of returns.csv: per month of the expiry (or per product or
                storefront with --group-by), the expired episodes, those whose
                customer came back by the as-of time (the same subscription bought
                again, or another subscription of the same customer: the same
                appTransactionId, appAccountToken, or a migrated subscription), and
                the Kaplan-Meier share back within 30, 90 and 180 days. An expiry
                not yet followed by a return counts as gone only for as long as it
                has been watched; a share no expiry has been watched long enough
                for is empty.

                Examples:
                  churn query returns
                  churn query returns --group-by product --format csv
                  churn query returns --storefront USA --as-of 2025-10-31
                  churn query returns --bundle-id com.example.app
                """
        )

        @OptionGroup var scope: QueryScope

        @Option(help: ArgumentHelp("Group by month (of the expiry), product or storefront.", valueName: "grouping"))
        var groupBy: Returns.Grouping = .month

        @Option(
            name: .customLong("bundle-id"),
            help: ArgumentHelp("Only the expiries of this app (repeat for several; '' for none).", valueName: "id"))
        var bundleIds: [String] = []

        @Option(
            name: .customLong("product"),
            help: ArgumentHelp("Only the expiries of this product (repeat for several; '' for none).", valueName: "id"))
        var products: [String] = []

        @Option(
            name: .customLong("storefront"),
            help: ArgumentHelp("Only the expiries of this storefront (repeat for several).", valueName: "code"))
        var storefronts: [String] = []

        @Option(help: ArgumentHelp("Output format.", valueName: "format"))
        var format: TableRenderer.Format = .table

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let answer = try ReturnsWorkflow(target: global.target, logger: global.makeLogger()).run(
                ReturnsWorkflow.Inputs(
                    environment: scope.environment.rawValue, asOf: try scope.asOfTime(), grouping: groupBy,
                    filter: EpisodeFilter(bundleIds: bundleIds, productIds: products, storefronts: storefronts)))
            FileHandle.standardOutput.write(Data(TableRenderer.render(answer.table, as: format).utf8))
        }
    }
}
