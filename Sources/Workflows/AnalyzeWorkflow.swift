import AnalysisStore
import EmbeddedPostgres
import Logging

/// Rebuilds the stored billing-retry episodes of the subscriptions new loads touched, or of every one
/// (`churn analyze`).
package struct AnalyzeWorkflow {
    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// Rebuilds the episodes of `environment`; with `full`, of every subscription.
    /// - Throws: `PGError`, `EmbeddedClusterError`.
    package func run(environment: String, full: Bool) throws -> EpisodeAnalyzer.Summary {
        let writer = try target.connectMigrated(logger: logger)
        let reader = try target.connect(logger: logger)
        return try EpisodeAnalyzer(writer: writer, reader: reader, logger: logger)
            .analyze(environment: environment, full: full)
    }
}
