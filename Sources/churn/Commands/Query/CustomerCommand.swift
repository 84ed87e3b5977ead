import AppStoreNotifications
import ArgumentParser
import Foundation
import Reports
import Workflows

extension Churn.QueryCommand {
    /// `churn query customer ID`: what happened to one customer.
    struct CustomerCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "customer",
            abstract: "Every subscription, episode, return and notification of one customer.",
            discussion: """
                Finds the customer by any of its ids: an original transaction id, an
                appTransactionId (one per Apple Account and app) or an
                appAccountToken (your app's own user id), matched exactly. A
                customer is every subscription linked to it by those ids or by a
                migration (previousOriginalTransactionId), transitively.

                Prints three tables: the subscriptions (with their ids and the one
                each continues after a migration), the billing-retry episodes (with
                a refund's revocation_type and revocation_percentage when one ended
                the episode, and for an expiry the customer's return: when and how
                many days after), and every notification in signed order, partial
                refunds (REFUND_PRORATED, revocation_percentage in percent) and
                12-month commitment plans included. As of the latest notification
                loaded.

                --format csv prints each table after a line "# <table>"; json prints
                one object with the three tables as arrays.

                Examples:
                  churn query customer 2000000123456789
                  churn query customer 7c3d1f1e-4a5b-4c2d-9e8f-0a1b2c3d4e5f
                  churn query customer 704000000000000123 --format json
                """
        )

        @Argument(
            help: ArgumentHelp("An original transaction id, appTransactionId or appAccountToken.", valueName: "id"))
        var id: String

        @Option(help: ArgumentHelp("Environment to look in (Production, Sandbox).", valueName: "name"))
        var environment: Environment = .production

        @Option(help: ArgumentHelp("Output format.", valueName: "format"))
        var format: TableRenderer.Format = .table

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let answer = try CustomerWorkflow(target: global.target, logger: global.makeLogger()).run(
                id: id, environment: environment.rawValue)
            let tables = answer.tables
            var output = ""
            switch format {
            case .json:
                output = "{\"customer_id\": " + TableRenderer.jsonString(answer.customerId) + ",\n"
                output += tables.map { table in
                    TableRenderer.jsonString(table.name) + ": "
                        + TableRenderer.json(table).trimmingCharacters(in: .whitespacesAndNewlines)
                }.joined(separator: ",\n")
                output += "}\n"
            case .csv:
                output = tables.map { "# \($0.name)\n" + TableRenderer.render($0, as: .csv) }.joined(separator: "\n")
            case .table, .markdown:
                let heading = format == .markdown ? "## " : ""
                output =
                    "Customer \(answer.customerId) (\(environment.rawValue)), as of "
                    + "\(UTCTime.minute(answer.asOf)): \(answer.subscriptions) subscription(s), "
                    + "\(answer.episodes) episode(s)\n"
                for table in tables {
                    output += "\n\(heading)\(table.name)\n\n" + TableRenderer.render(table, as: format)
                }
            }
            FileHandle.standardOutput.write(Data(output.utf8))
        }
    }
}
