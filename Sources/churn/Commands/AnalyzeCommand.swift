import AnalysisStore
import AppStoreNotifications
import ArgumentParser
import Foundation
import Workflows

extension Churn {
    /// `churn analyze`: rebuild the stored billing-retry episodes for what new loads touched.
    struct AnalyzeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "analyze",
            abstract: "Rebuild the billing_episodes table for the subscriptions that new loads touched.",
            usage: "churn analyze [<options>]",
            discussion: """
                Only subscriptions with notifications from files not analyzed yet are
                rebuilt (each from its whole history), so the nightly cost follows the
                new data. A file still being loaded waits for the next analysis.
                `churn report` and `churn nightly` run this themselves.

                From psql:  SELECT outcome, count(*) FROM billing_episodes GROUP BY 1;
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Environment whose episodes to build (Production, Sandbox).", valueName: "name"))
        var environment: Environment = .production

        @Flag(help: "Rebuild every subscription, not just the touched ones.")
        var full = false

        func run() throws {
            let logger = global.makeLogger()
            let summary = try AnalyzeWorkflow(target: global.target, logger: logger)
                .run(environment: environment.rawValue, full: full)
            let counts =
                "\(summary.subscriptionsRebuilt) subscription(s) from \(summary.notificationsRead) notifications "
                + "into \(summary.episodesWritten) episode(s) " + String(format: "in %.1f s", summary.seconds)
            if full {
                print(
                    "\(environment.rawValue): rebuilt every subscription of \(summary.filesAnalyzed) file(s): \(counts)"
                )
            } else if summary.filesAnalyzed == 0 {
                print("\(environment.rawValue): episodes are current (no new files since the last analysis)")
            } else {
                print("\(environment.rawValue): \(summary.filesAnalyzed) new file(s); rebuilt \(counts)")
            }
        }
    }
}
