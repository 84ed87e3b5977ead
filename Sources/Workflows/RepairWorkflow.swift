import AnalysisStore
import EmbeddedPostgres
import HistoryFetch
import Logging
import Repair

/// Checks the subscriptions the notifications leave uncertain against Apple's status, and fetches the notification
/// history of those Apple sees otherwise into export files (`churn repair`).
package struct RepairWorkflow {
    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// Brings the stored episodes of the job's environment up to date, as a report does, then runs `job` against them
    /// and the checks, and returns what it did.
    /// - Parameter now: the current time, Unix milliseconds: the end of the history ranges fetched.
    /// - Throws: `FetchError`, `AppStoreServerAPIError`, `PGError`, `EmbeddedClusterError`.
    package func run(_ job: RepairJob, now: Int64) async throws -> RepairJob.Summary {
        let connection = try target.connectMigrated(logger: logger)
        let reader = try target.connect(logger: logger)
        try EpisodeAnalyzer(writer: connection, reader: reader, logger: logger).analyze(environment: job.environment)
        return try await job.run(connection: connection, logger: logger, now: now)
    }
}
