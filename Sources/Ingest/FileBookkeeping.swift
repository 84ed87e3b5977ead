import PGClient
import Store

/// A file's `source_files` row and its last transaction: the row is inserted, with an empty `sha256`, when the file
/// starts, so that its batches' rows can point at it; once every batch is committed, one short transaction (under
/// the write lock) records the file's staged copies in `notification_copies`, moves its staged rejections into
/// `quarantine`, resolves the refusals it mended, and gives the row the file's SHA-256 and counts. So a `sha256`
/// names only files stored whole (``SourceFiles/hasLoaded(sha256:)``), and a kill leaves no quarantine rows.
struct FileBookkeeping {
    let connection: PGConnection
    let lock: WriteLock

    /// Inserts and commits the file's `source_files` row, which its batches' rows point at, with an empty `sha256`
    /// until the file is stored whole.
    /// - Returns: the row's id.
    /// - Throws: ``PGError``.
    func begin(path: String, runID: Int64) throws -> Int64 {
        let id = try connection.execute(
            """
            INSERT INTO source_files (load_run_id, path, size_bytes, sha256, records, loaded, duplicates, rejected)
            VALUES ($1, $2, 0, '', 0, 0, 0, 0) RETURNING id
            """,
            [runID, path]
        ).scalar.flatMap { Int64($0) }
        guard let id else { throw PGError(kind: .unexpectedResult, message: "INSERT … RETURNING id gave no id") }
        return id
    }

    /// Completes a file whose batches are all committed, in one transaction under the write lock: its copies and
    /// rejections recorded, the refusals it mended resolved, its `source_files` row given its SHA-256 and counts.
    /// - Returns: the file's summary.
    /// - Throws: ``PGError``.
    func finish(
        path: String, fileID: Int64, runID: Int64, counts: FileCounts, digest: SourceDigest
    ) throws -> LoadSummary.File {
        let quarantine = QuarantineWriter(connection: connection)
        return try connection.withTransaction {
            // Under the write lock, so that a load of the same content at the same time has committed its
            // bookkeeping (whose quarantined inputs this one then skips) or not begun it.
            try lock.acquire()
            let previousRun = try connection.execute(
                "SELECT min(load_run_id) FROM source_files WHERE sha256 = $1 AND id <> $2",
                [digest.sha256, fileID]
            ).scalar.flatMap { Int64($0) }
            try mergeCopies(sha256: digest.sha256, fileID: fileID, path: path)
            try quarantine.resolveAcceptedRefusals(sha256: digest.sha256, fileID: fileID, runID: runID)
            let quarantined = try quarantine.merge(sha256: digest.sha256, fileID: fileID)
            try quarantine.resolveStoredRefusals(runID: runID)
            FaultPoint.reach("load.file-merged")
            var file = LoadSummary.File(
                path: path,
                sizeBytes: digest.bytesRead,
                sha256: digest.sha256,
                records: counts.records,
                loaded: counts.inserted,
                resumed: counts.resumed,
                duplicates: counts.staged - counts.inserted - counts.resumed,
                rejected: counts.rejected,
                rejectedByReason: counts.rejectedByReason,
                previousRunWithSameContent: previousRun,
                sampleRejections: counts.samples
            )
            file.refusedBefore = counts.rejected - quarantined
            file.notVerifiedAgain = counts.notVerifiedAgain
            try connection.execute(
                """
                UPDATE source_files SET size_bytes = $2, sha256 = $3, records = $4, loaded = $5,
                    duplicates = $6, rejected = $7
                WHERE id = $1
                """,
                [
                    fileID, file.sizeBytes, digest.sha256, file.records,
                    file.loaded + file.resumed, file.duplicates, file.rejected,
                ]
            )
            return file
        }
    }

    /// Records a file whose bytes are those of `earlier`, a file stored whole by a run that accepted as this one
    /// does (``StoredWholeFile``): its `source_files` row, with its SHA-256 and counts, as a load that read it would
    /// have left it: every line already stored, none new, none refused, none verified again.
    /// - Returns: the file's summary.
    /// - Throws: ``PGError``.
    func recordStoredWhole(
        path: String, runID: Int64, digest: SourceDigest, earlier: StoredWholeFile
    ) throws -> LoadSummary.File {
        try connection.execute(
            """
            INSERT INTO source_files (load_run_id, path, size_bytes, sha256, records, loaded, duplicates, rejected)
            VALUES ($1, $2, $3, $4, $5, 0, $5, 0)
            """,
            [runID, path, digest.bytesRead, digest.sha256, earlier.records]
        )
        var file = LoadSummary.File(
            path: path, sizeBytes: digest.bytesRead, sha256: digest.sha256, records: earlier.records, loaded: 0,
            resumed: 0, duplicates: earlier.records, rejected: 0, rejectedByReason: [:],
            previousRunWithSameContent: earlier.firstRun, sampleRejections: []
        )
        file.notVerifiedAgain = earlier.records
        return file
    }

    /// Records the file's staged copies in `notification_copies` and empties their staging. A copy from the same line
    /// of a file with the same content (a load of the file before, stored whole) is recorded once, as either its
    /// stored notification or its copy; the copies an unfinished load of the same path recorded give way to the
    /// file's own.
    private func mergeCopies(sha256: String, fileID: Int64, path: String) throws {
        try connection.execute(
            """
            DELETE FROM notification_copies c USING source_files f
            WHERE f.id = c.source_file_id AND f.sha256 = '' AND f.path = $1 AND f.id <> $2
            """,
            [path, fileID]
        )
        try connection.execute(
            """
            INSERT INTO notification_copies (original_transaction_id, notification_uuid, signed_date, source_file_id,
                source_line)
            SELECT s.original_transaction_id, s.notification_uuid, s.signed_date, s.source_file_id, s.source_line
            FROM churn_copies_staging s
            WHERE NOT EXISTS (
                SELECT 1 FROM notification_copies c JOIN source_files f ON f.id = c.source_file_id
                WHERE f.sha256 = $1 AND f.id <> $2 AND c.source_line IS NOT DISTINCT FROM s.source_line
                  AND c.notification_uuid = s.notification_uuid
            )
            AND NOT EXISTS (
                SELECT 1 FROM notifications n JOIN source_files f ON f.id = n.source_file_id
                WHERE n.original_transaction_id = s.original_transaction_id AND n.notification_uuid = s.notification_uuid
                  AND f.sha256 = $1 AND f.id <> $2 AND n.source_line IS NOT DISTINCT FROM s.source_line
            )
            """,
            [sha256, fileID]
        )
        // A load of the same content under another path that completed first may have recorded as copies lines that
        // this file stored (the two ran at once): each line is one copy or the stored row, once.
        try connection.execute(
            """
            DELETE FROM notification_copies c USING source_files f
            WHERE f.id = c.source_file_id AND f.sha256 = $1 AND f.id <> $2
              AND EXISTS (
                  SELECT 1 FROM notifications n
                  WHERE n.original_transaction_id = c.original_transaction_id
                    AND n.notification_uuid = c.notification_uuid AND n.source_file_id = $2
                    AND n.source_line IS NOT DISTINCT FROM c.source_line
              )
            """,
            [sha256, fileID]
        )
        try connection.execute("TRUNCATE churn_copies_staging")
    }
}
