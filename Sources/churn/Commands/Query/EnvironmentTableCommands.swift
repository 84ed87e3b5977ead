import AppStoreNotifications
import ArgumentParser
import Foundation
import Reports
import Workflows

/// The options of the questions about a whole environment: no episode filters, since their figures are not a
/// selection of episodes.
struct EnvironmentTableOptions: ParsableArguments {
    @OptionGroup var scope: QueryScope

    @Option(help: ArgumentHelp("Output format.", valueName: "format"))
    var format: TableRenderer.Format = .table

    @OptionGroup var global: GlobalOptions

    /// Answers with the report's table and prints it.
    func answer(_ table: EnvironmentTablesWorkflow.Table) throws {
        let answer = try EnvironmentTablesWorkflow(target: global.target, logger: global.makeLogger()).run(
            table, environment: scope.environment.rawValue, asOf: try scope.asOfTime())
        FileHandle.standardOutput.write(Data(TableRenderer.render(answer.table, as: format).utf8))
    }
}

extension Churn.QueryCommand {
    /// `churn query billing-failures`: renewal charges and failures per month.
    struct BillingFailuresCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "billing-failures",
            abstract: "Per month: renewal charges, failed ones, and the share that failed (billing_failures.csv).",
            discussion: """
                The rows of billing_failures.csv for the environment: the renewal
                charges of each month (ordinary renewals plus failed charges) and
                how many failed. It describes every subscription, so it takes no
                episode filters.

                Examples:
                  churn query billing-failures
                  churn query billing-failures --as-of 2025-10-31 --format csv
                """
        )

        @OptionGroup var options: EnvironmentTableOptions

        func run() throws {
            try options.answer(.billingFailures)
        }
    }

    /// `churn query data-quality`: the report's data-quality counts.
    struct DataQualityCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "data-quality",
            abstract: "What the load and the analysis counted, refused or inferred (data_quality.csv).",
            discussion: """
                The rows of data_quality.csv for the environment: copies, filtered
                notifications, orphan closing notifications, inferred ends, refused
                inputs by reason (rejected_<reason>; `churn quarantine list` shows
                them one by one). It describes the whole environment, so it takes
                no episode filters.

                Examples:
                  churn query data-quality
                  churn query data-quality --environment Sandbox --format json
                """
        )

        @OptionGroup var options: EnvironmentTableOptions

        func run() throws {
            try options.answer(.dataQuality)
        }
    }
}
