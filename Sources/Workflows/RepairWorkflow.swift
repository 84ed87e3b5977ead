import HistoryFetch
import Logging
import Store

/// Checks the subscriptions the notifications leave uncertain against Apple's status, and fetches the notification
/// history of those Apple sees otherwise into export files (`churn repair`).
package struct RepairWorkflow {
    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// Runs `job` against the stored episodes and checks, and returns what it did.
    /// - Parameter now: the current time, Unix milliseconds: the end of the history ranges fetched.
    /// - Throws: `FetchError`, `AppStoreServerAPIError`, `PGError`, `EmbeddedClusterError`.
    package func run(_ job: RepairJob, now: Int64) async throws -> RepairJob.Summary {
        let connection = try target.connectMigrated(logger: logger)
        return try await job.run(connection: connection, logger: logger, now: now)
    }
}
