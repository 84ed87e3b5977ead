import Analysis
import AppleReports
import EmbeddedPostgres
import Logging

/// Reads App Store Connect's Subscription Event and Subscription State report files, brings the episodes up to
/// date and sets our billing-issue days beside Apple's (`churn compare-apple FILE…`).
package struct CompareAppleWorkflow {
    package struct Inputs {
        package var environment: String
        /// The time to compare as of, Unix milliseconds; nil for the latest `signedDate` loaded.
        package var asOf: Int64?
        /// Report files, or directories of them; later files (by modification time, then the order given) restate
        /// earlier days.
        package var paths: [String]

        package init(environment: String, asOf: Int64?, paths: [String]) {
            self.environment = environment
            self.asOf = asOf
            self.paths = paths
        }
    }

    package struct Answer {
        package var comparison: AppleComparison
        /// The time the answer is as of, Unix milliseconds.
        package var asOf: Int64
    }

    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// Reads the files first (a file that cannot be read fails before any database work), then streams every
    /// episode of the environment as of `asOf` through our billing-issue days.
    /// - Throws: `AppleReportError`; ``WorkflowError/nothingLoaded(database:)``,
    ///   ``WorkflowError/asOfAfterData(asOf:latest:)``; `PGError`, `EmbeddedClusterError`.
    package func run(_ inputs: Inputs) throws -> Answer {
        let apple = try AppleReportSet.read(paths: inputs.paths)
        logger.info(
            "apple reports read",
            metadata: [
                "apple.files": "\(apple.files.count)", "apple.event_days": "\(apple.eventDays.count)",
                "apple.state_days": "\(apple.stateDays.count)",
            ])
        let episodes = try UpToDateEpisodes(
            target: target, environment: inputs.environment, asOf: inputs.asOf, logger: logger)
        var ours = BillingIssueDays.Tally(asOf: episodes.asOf)
        _ = try ReportWriting.stream(
            episodes.source, environment: inputs.environment, asOf: episodes.asOf, store: episodes.store,
            reader: episodes.reader
        ) { ours.add($0) }
        return Answer(comparison: AppleComparison(ours: ours, apple: apple), asOf: episodes.asOf)
    }
}
