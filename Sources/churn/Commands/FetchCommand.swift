import AppStoreServerAPI
import ArgumentParser
import Foundation
import HistoryFetch
import Workflows

extension Churn {
    /// `churn fetch`: the notification history from the App Store Server API, into export files.
    struct FetchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Fetch the notification history from the App Store Server API into export files.",
            discussion: """
                Calls Get Notification History with a token signed by your In-App
                Purchase key and writes each page as it comes into --out DIR, as gzip
                JSON Lines of history pages: history-<from>-<to>-<id>-<part>.jsonl.gz,
                500 pages (up to 10,000 notifications) per file. `churn nightly DIR`
                (or `churn load DIR/history-*.jsonl.gz`) then verifies and stores
                them; the files stay as evidence. A file is written under a hidden
                .partial name and renamed when complete, so no load reads one half
                written.

                Range: --from and --to (a day, a date-time or Unix milliseconds;
                --to's day is included). Without them: since the last successful
                fetch (less an hour of overlap; the load stores each notification
                once), or the whole history Apple keeps (180 days in Production, 30
                in Sandbox) the first time.

                Resumable: after each page is durably on disk the table
                fetch_checkpoints records it with the next page's token. A fetch
                stopped in any way resumes there when run again the same way (with
                no range, or the same --from and --to): no page kept is requested
                again. 429 and 5xx answers, Apple's retryable error codes (4040002,
                4040004, 4040006, 5000001), malformed pages and network failures
                are tried again (--max-attempts, --max-retry-wait), honouring
                Retry-After: Apple's is a UNIX time in milliseconds (a number of
                100000000000 or more); a smaller number is delay-seconds, and an
                HTTP date is read too. When it names a time further away than
                --max-retry-wait allows, the fetch stops at once with 75 and says
                when to run again; what it fetched is kept and the next run
                resumes. Malformed pages are kept in DIR/quarantine/.

                Credentials (each also from the environment; the key never on the
                command line): --key-file or CHURN_KEY_FILE (the .p8 file; or its
                text in CHURN_KEY), --key-id or CHURN_KEY_ID, --issuer-id or
                CHURN_ISSUER_ID, --bundle-id or CHURN_BUNDLE_ID. The key and the
                tokens are never printed or logged. A key file readable by other
                users gets a warning.

                After the retries, an API still unreachable ends with 69, and a
                Retry-After past --max-retry-wait with 75 and the time to run again
                (ISO 8601 UTC): either way the next run resumes. 75 also means another
                fetch holds the lock. 77: Apple refused the credentials (wrong key id,
                issuer id or bundle id, or a key without In-App Purchase access).

                \(ExitStatus.paragraph(exitStatuses))

                Examples:
                  export CHURN_KEY_FILE=/etc/churn/AuthKey_2X9R4HXF34.p8
                  export CHURN_KEY_ID=2X9R4HXF34 CHURN_BUNDLE_ID=com.example.app
                  export CHURN_ISSUER_ID=57246542-96fe-1a63-e053-0824d011072a
                  churn fetch --out /srv/exports          # since the last fetch
                  churn nightly /srv/exports              # load, analyze, report
                  churn fetch --out /srv/exports --from 2026-05-03 --to 2026-05-04
                  churn fetch --out /srv/failures --only-failures \\
                      --type DID_FAIL_TO_RENEW
                  churn fetch --environment Sandbox --out /tmp/sandbox
                """
        )

        /// The codes a fetch can end with.
        static let exitStatuses: [ExitStatus] = [
            .success, .failure, .usage, .unavailable, .temporaryFailure, .credentialsRefused, .configuration,
        ]

        @OptionGroup var global: GlobalOptions
        @OptionGroup var api: APIOptions
        @OptionGroup var range: HistoryRangeOptions
        @OptionGroup var destination: ExportDestinationOptions

        @Option(
            name: .customLong("type"),
            help: ArgumentHelp("Only notifications of this type, e.g. DID_FAIL_TO_RENEW.", valueName: "type")
        )
        var notificationType: String?

        @Option(help: ArgumentHelp("Only notifications of this subtype (needs --type).", valueName: "subtype"))
        var subtype: String?

        @Flag(help: "Only notifications that never reached your server (still being retried, or given up).")
        var onlyFailures = false

        @Option(help: ArgumentHelp("Pages per history file.", valueName: "n"))
        var pagesPerFile: Int = 500

        func validate() throws {
            if subtype != nil && notificationType == nil { throw ValidationError("--subtype needs --type.") }
            if pagesPerFile < 1 { throw ValidationError("--pages-per-file must be at least 1.") }
        }

        static func validate(environment: String) throws {
            guard ["Production", "Sandbox"].contains(environment) else {
                throw ValidationError("--environment must be Production or Sandbox, not \(environment).")
            }
        }

        func run() async throws {
            let logger = global.makeLogger()
            let credentials = try api.credentials(bundleID: destination.bundleID)
            let scope = HistoryScope(
                environment: destination.environment, bundleID: credentials.bundleID,
                notificationType: notificationType,
                notificationSubtype: subtype, onlyFailures: onlyFailures
            )
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let job = FetchJob(
                credentials: credentials, baseURL: try api.resolvedBaseURL(environment: destination.environment),
                retry: try api.retryPolicy(),
                scope: scope,
                range: try range.range(
                    now: now, retention: scope.retentionMilliseconds, environment: destination.environment),
                directory: destination.out, pagesPerFile: pagesPerFile, lockTimeout: destination.lockTimeout
            )
            let ranges = try await FetchWorkflow(target: global.target, logger: logger).run(job, now: now)
            print(FetchReport.render(ranges))
        }
    }
}
