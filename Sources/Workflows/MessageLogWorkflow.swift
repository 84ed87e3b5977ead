import EmbeddedPostgres
import Ingest
import Logging

/// Stores an app's message-log files (`churn messages load`).
package struct MessageLogWorkflow {
    package struct Result {
        package var summary: MessageLogSummary
        /// ``WorkflowError/tooManyRejects(rejected:limit:)`` when more lines were refused than allowed.
        package var failure: WorkflowError?
    }

    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// Loads the files in one load run.
    /// - Parameters:
    ///   - files: message-log files; `-` is standard input.
    ///   - maxRejects: the most refused lines a load may have and still succeed.
    /// - Throws: `PGError`, `IngestError`, `EmbeddedClusterError`.
    package func load(_ files: [String], maxRejects: Int) throws -> Result {
        let connection = try target.connectMigrated(logger: logger)
        let summary = try MessageLogLoader(connection: connection, logger: logger).load(files)
        return Result(summary: summary, failure: .rejects(summary.rejected, allowed: maxRejects))
    }
}
