import PGClient

/// The session's staging tables: `churn_staging` (the notifications' text path), `churn_copies_staging` (a file's
/// further copies) and `churn_quarantine_staging` (a file's rejections).
///
/// Temporary, so they vanish with the session; no indexes, so COPY into them is cheap. The notifications' staging
/// serves one batch's transaction; the quarantine's and the copies' keep a file's rejections and further copies
/// across its batches' commits until the file's last transaction merges them (``FileBookkeeping``), so a file that
/// never completes adds no quarantine rows and no copies.
final class StagingTables {
    private let connection: PGConnection
    private var isReady = false

    init(connection: PGConnection) {
        self.connection = connection
    }

    /// Makes the tables once per session, and empties the file's ones for a new file.
    /// - Throws: ``PGError``.
    func prepareForFile() throws {
        if !isReady {
            try connection.execute(
                "CREATE TEMP TABLE IF NOT EXISTS churn_staging (LIKE notifications INCLUDING DEFAULTS) ON COMMIT DELETE ROWS"
            )
            try connection.execute(
                """
                CREATE TEMP TABLE IF NOT EXISTS churn_quarantine_staging
                    (LIKE quarantine INCLUDING DEFAULTS) ON COMMIT PRESERVE ROWS
                """
            )
            try connection.execute(
                "CREATE TEMP TABLE IF NOT EXISTS churn_copies_staging (LIKE notification_copies) ON COMMIT PRESERVE ROWS"
            )
            isReady = true
        }
        try connection.execute("TRUNCATE churn_quarantine_staging, churn_copies_staging")
    }
}
