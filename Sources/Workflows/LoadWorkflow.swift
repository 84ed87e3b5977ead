import EmbeddedPostgres
import Ingest
import Logging

/// Verifies and stores the notifications of export files (`churn load`).
package struct LoadWorkflow {
    package struct Inputs {
        /// Export files; `-` is standard input.
        package var files: [String]
        package var options: LoadOptions
        /// The most rejected inputs a load may have and still succeed.
        package var maxRejects: Int

        package init(files: [String], options: LoadOptions, maxRejects: Int) {
            self.files = files
            self.options = options
            self.maxRejects = maxRejects
        }
    }

    package struct Result {
        package var summary: LoadSummary
        /// ``WorkflowError/tooManyRejects(rejected:limit:)`` when more inputs were rejected than allowed.
        package var failure: WorkflowError?
    }

    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// Loads the files in one load run.
    /// - Parameter progress: called after each batch is written.
    /// - Throws: `PGError`, `IngestError`, `EmbeddedClusterError`.
    package func run(_ inputs: Inputs, progress: (LoadProgress) -> Void) async throws -> Result {
        let connection = try target.connectMigrated(logger: logger)
        let summary = try await Loader(connection: connection, options: inputs.options, logger: logger).load(
            inputs.files, progress: progress)
        return Result(summary: summary, failure: .rejects(summary.rejected, allowed: inputs.maxRejects))
    }
}
