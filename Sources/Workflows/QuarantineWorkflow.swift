import EmbeddedPostgres
import Ingest
import Logging
import PGClient

/// Lists and clears the refused inputs kept in `quarantine` (`churn quarantine list` and `clear`).
package struct QuarantineWorkflow {
    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// The selected rows, oldest first.
    /// - Throws: `PGError`, `EmbeddedClusterError`.
    package func list(_ selection: QuarantineRows.Selection) throws -> [QuarantineRows.Row] {
        try QuarantineRows(connection: target.connectToStored(logger: logger)).list(selection)
    }

    /// Deletes the selected rows, in one transaction.
    /// - Returns: how many were deleted.
    /// - Throws: `PGError`, `EmbeddedClusterError`.
    package func clear(_ selection: QuarantineRows.Selection) throws -> Int {
        let connection = try target.connectToStored(logger: logger)
        let cleared = try connection.withTransaction { try QuarantineRows(connection: connection).clear(selection) }
        logger.info(
            "quarantine rows cleared",
            metadata: ["quarantine.cleared": "\(cleared)", "quarantine.reason": "\(selection.reason ?? "any")"])
        return cleared
    }
}
