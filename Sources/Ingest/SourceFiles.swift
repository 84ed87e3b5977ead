import PGClient

/// The export files committed loads stored, one `source_files` row each, by the SHA-256 of their content.
///
/// A file's row commits with its notifications, so a row means the whole file was stored.
package struct SourceFiles {
    let connection: PGConnection

    package init(connection: PGConnection) {
        self.connection = connection
    }

    /// Whether a committed load stored a file with this content.
    /// - Parameter sha256: the content's SHA-256, lowercase hex, as ``ExportFiles/sha256(ofFile:)`` gives it.
    /// - Throws: ``PGError``.
    package func hasLoaded(sha256: String) throws -> Bool {
        try !connection.execute(
            """
            SELECT 1 FROM source_files f JOIN load_runs r ON r.id = f.load_run_id
            WHERE f.sha256 = $1 LIMIT 1
            """,
            [sha256]
        ).rows.isEmpty
    }
}
