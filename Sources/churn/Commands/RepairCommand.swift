import AppStoreServerAPI
import ArgumentParser
import Foundation
import HistoryFetch
import Repair
import Workflows

extension Churn {
    /// `churn repair`: the subscriptions the notifications leave uncertain, checked against Apple's status.
    struct RepairCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "repair",
            abstract:
                "Check uncertain subscriptions against Apple's status and fetch the history of those that differ.",
            discussion: """
                Picks the episodes the stored notifications leave uncertain, as a
                report sees them (as of the latest notification loaded): ended by
                inference at the end of the retry window (day 60, 90 under a
                commitment; no closing notification came), open with no
                notification of the subscription for --stale-days days, or open in a
                grace period without a date. For each, up to --limit per run and
                --concurrency at once, it asks the App Store Server API's Get All
                Subscription Statuses and verifies every signed item of the answer
                as the loader verifies notifications (--trust-root, else Apple Root
                CA - G3). Where Apple's status differs from what the notifications
                say, it fetches that subscription's notification history (Get
                Notification History by transaction id) into --out DIR as
                repair-<id>.jsonl.gz; `churn nightly DIR` then loads it and the
                analysis corrects the episode from Apple's own signed notifications.
                No episode is ever changed from a status alone.

                Each check is recorded in the table subscription_checks (what the
                notifications said, what Apple said, what was fetched) and counted
                in data_quality.csv. An episode checked is not checked again for
                --stale-days days. Resumable as `churn fetch` is: each answer is
                recorded before the next request that depends on it, so a run
                stopped in any way goes on with the first request it did not
                record. 429 and 5xx answers, Apple's retryable error codes and
                network failures are tried again (--max-attempts, --max-retry-wait,
                Retry-After as for `churn fetch`). A request Apple refuses for one
                subscription (404, e.g. 4040010 TransactionIdNotFoundError, or a
                retryable error that stays) is recorded on its check with Apple's
                error code (subscription_checks.apple_error_code; a history not
                fetched is state 'failed') and the run goes on with the next.
                `churn nightly --fetch --repair` does all this every night, after
                its load and analysis.

                Credentials, retries and their exit codes as for `churn fetch`.

                \(ExitStatus.paragraph(exitStatuses))

                Examples:
                  churn repair --out /srv/exports
                  churn nightly /srv/exports
                  churn repair --out /srv/exports --limit 20 --stale-days 3
                """
        )

        /// The codes a repair can end with.
        static let exitStatuses: [ExitStatus] = FetchCommand.exitStatuses

        @OptionGroup var global: GlobalOptions
        @OptionGroup var api: APIOptions
        @OptionGroup var repair: RepairOptions
        @OptionGroup var destination: ExportDestinationOptions

        @Option(
            name: .customLong("trust-root"),
            help: ArgumentHelp(
                "A trusted root certificate (DER or PEM); repeatable. Replaces the default Apple Root CA - G3.",
                valueName: "file"
            )
        )
        var trustRoots: [String] = []

        func validate() throws {
            for path in trustRoots {
                if let problem = FileAccess.problem(reading: path) {
                    throw ValidationError("cannot read trust root \(path): \(problem).")
                }
            }
        }

        func run() async throws {
            let logger = global.makeLogger()
            let credentials = try api.credentials(bundleID: destination.bundleID)
            let job = RepairJob(
                credentials: credentials, baseURL: try api.resolvedBaseURL(environment: destination.environment),
                retry: try api.retryPolicy(), environment: destination.environment, directory: destination.out,
                limit: repair.limit,
                concurrency: repair.concurrency, staleDays: repair.staleDays, lockTimeout: destination.lockTimeout,
                verifier: try IngestOptions.verifier(trustRoots: trustRoots)
            )
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let summary = try await RepairWorkflow(target: global.target, logger: logger).run(job, now: now)
            print(RepairReport.render(summary))
        }
    }
}
