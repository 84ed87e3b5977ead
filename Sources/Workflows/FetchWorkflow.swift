import EmbeddedPostgres
import HistoryFetch
import Logging

/// Fetches the notification history from the App Store Server API into export files (`churn fetch`).
package struct FetchWorkflow {
    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// Runs `job` against the database's checkpoints, and returns what each range got.
    /// - Parameter now: the current time, Unix milliseconds: the end of a fetch since the last one.
    /// - Throws: `FetchError`, `AppStoreServerAPIError`, `PGError`, `EmbeddedClusterError`.
    package func run(_ job: FetchJob, now: Int64) async throws -> [FetchedRange] {
        let connection = try target.connectMigrated(logger: logger)
        return try await job.run(connection: connection, logger: logger, now: now)
    }
}
