import PGClient

/// The export files loads stored, one `source_files` row each, by the SHA-256 of their content.
///
/// A file's row gets its SHA-256 in the transaction that completes the file, after every batch of its notifications
/// committed, so a row with a SHA-256 means the whole file was stored. A row whose `sha256` is empty is a file still
/// being loaded, or one whose load died or failed (the batches it committed stay).
package struct SourceFiles {
    let connection: PGConnection

    package init(connection: PGConnection) {
        self.connection = connection
    }

    /// Whether a load stored a file with this content whole.
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
