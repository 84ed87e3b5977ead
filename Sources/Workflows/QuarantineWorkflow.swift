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
    /// - Parameter selection: as the user named the rows (``stored(_:in:)``).
    /// - Throws: ``WorkflowError/unknownQuarantineValue(option:value:known:)``, `PGError`, `EmbeddedClusterError`.
    package func list(_ selection: QuarantineRows.Selection) throws -> [QuarantineRows.Row] {
        let rows = QuarantineRows(connection: try target.connectToStored(logger: logger))
        return try rows.list(try Self.stored(selection, in: rows))
    }

    /// Deletes the selected rows, in one transaction.
    /// - Parameter selection: as the user named the rows (``stored(_:in:)``).
    /// - Returns: how many were deleted.
    /// - Throws: ``WorkflowError/unknownQuarantineValue(option:value:known:)``, `PGError`, `EmbeddedClusterError`.
    package func clear(_ selection: QuarantineRows.Selection) throws -> Int {
        let connection = try target.connectToStored(logger: logger)
        let cleared = try connection.withTransaction {
            let rows = QuarantineRows(connection: connection)
            return try rows.clear(try Self.stored(selection, in: rows))
        }
        logger.info(
            "quarantine rows cleared",
            metadata: ["quarantine.cleared": "\(cleared)", "quarantine.reason": "\(selection.reason ?? "any")"])
        return cleared
    }

    /// The selection in the table's own values, each value the user gave checked against the rows there are.
    ///
    /// A load stores a file's path as it was named (`churn load x.jsonl` stores `x.jsonl`), so a file given in
    /// another spelling of the same path (`/srv/exports/x.jsonl`, `./x.jsonl`, from the directory the load ran in)
    /// selects the stored spelling. A file, reason or id that no row has, resolved or not, is refused with the
    /// values there are: a selection that matched nothing through a typo would otherwise clear nothing and say
    /// only that.
    static func stored(
        _ selection: QuarantineRows.Selection, in rows: QuarantineRows
    ) throws -> QuarantineRows.Selection {
        var stored = selection
        if !selection.files.isEmpty {
            let files = try rows.stored(.file)
            stored.files = []
            for given in selection.files {
                let path = FileAccess.canonicalPath(given)
                let matching = files.map(\.value).filter { $0 == given || FileAccess.canonicalPath($0) == path }
                guard !matching.isEmpty else {
                    throw WorkflowError.unknownQuarantineValue(
                        option: "--file", value: given, known: files.map { "\($0.value) (\($0.rows))" })
                }
                stored.files += matching
            }
        }
        if let reason = selection.reason {
            let reasons = try rows.stored(.reason)
            guard reasons.contains(where: { $0.value == reason }) else {
                throw WorkflowError.unknownQuarantineValue(
                    option: "--reason", value: reason, known: reasons.map { "\($0.value) (\($0.rows))" })
            }
        }
        if !selection.ids.isEmpty {
            let ids = try rows.storedIDs(among: selection.ids)
            if let missing = selection.ids.first(where: { !ids.contains($0) }) {
                throw WorkflowError.unknownQuarantineValue(option: "--id", value: String(missing), known: [])
            }
        }
        return stored
    }
}
