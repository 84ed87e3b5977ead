import PGClient

/// The quarantine as a load writes it: a file's rejections staged batch by batch (`churn_quarantine_staging`), then
/// moved into `quarantine` by the file's last transaction, which also resolves the refusals this load mended.
struct QuarantineWriter {
    let connection: PGConnection

    /// Stages a batch's rejections; ``merge(sha256:fileID:)`` moves them into `quarantine` once the file is stored.
    /// - Throws: ``PGError``.
    func stage(_ rejections: [Rejection], path: String, fileID: Int64, runID: Int64) throws {
        var rows = CopyText()
        for rejection in rejections {
            rows.append(runID)
            rows.append(fileID)
            try rows.append(path)
            rows.append(rejection.line)
            rows.append(rejection.item)
            try rows.append(rejection.reason.rawValue)
            try rows.append(Self.storableText(Array(rejection.detail.utf8)))
            try rows.append(Self.storableText(rejection.raw))
            rows.append(rejection.rawLength)
            rows.append(rejection.raw.count < rejection.rawLength)
            let notification = rejection.notification
            try rows.append(notification?.subscription)
            try rows.append(notification?.uuid)
            if let text = notification.flatMap({ PGTimestamp.text(milliseconds: $0.signedDate) }) {
                rows.appendVerbatim(text)
            } else {
                rows.appendNull()
            }
            try rows.append(notification?.environment)
            rows.endRow()
        }
        try connection.copyIn(
            """
            COPY churn_quarantine_staging (load_run_id, source_file_id, file, line, item, reason, detail, raw, raw_bytes,
                raw_truncated, original_transaction_id, notification_uuid, signed_date, environment) FROM STDIN
            """
        ) { writer in try writer.write(rows.bytes) }
    }

    /// Text PostgreSQL can store: invalid UTF-8 becomes U+FFFD, and so does NUL.
    static func storableText(_ bytes: [UInt8]) -> String {
        guard bytes.contains(0) else { return String(decoding: bytes, as: UTF8.self) }
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            if byte == 0 { cleaned += [0xEF, 0xBF, 0xBD] } else { cleaned.append(byte) }
        }
        return String(decoding: cleaned, as: UTF8.self)
    }

    /// Moves staged rejections into `quarantine`, skipping those quarantined, and not resolved, from identical content.
    /// - Returns: how many it moved.
    func merge(sha256: String, fileID: Int64) throws -> Int {
        let moved = try connection.execute(
            """
            INSERT INTO quarantine (load_run_id, source_file_id, file, line, item, reason, detail, raw, raw_bytes,
                raw_truncated, original_transaction_id, notification_uuid, signed_date, environment)
            SELECT s.load_run_id, s.source_file_id, s.file, s.line, s.item, s.reason, s.detail, s.raw, s.raw_bytes,
                s.raw_truncated, s.original_transaction_id, s.notification_uuid, s.signed_date, s.environment
            FROM churn_quarantine_staging s
            WHERE NOT EXISTS (
                SELECT 1 FROM quarantine q JOIN source_files f ON f.id = q.source_file_id
                WHERE f.sha256 = $1 AND f.id <> $2 AND q.resolved_by_run IS NULL
                  AND q.line IS NOT DISTINCT FROM s.line AND q.item IS NOT DISTINCT FROM s.item
            )
            ORDER BY s.line, s.item
            """,
            [sha256, fileID]
        ).affectedRows
        try connection.execute("TRUNCATE churn_quarantine_staging")
        return moved
    }

    /// Resolves the refusals of the same lines of files with the same content that this load accepted (its own
    /// refusals are still staged, so a line not among them was accepted).
    func resolveAcceptedRefusals(sha256: String, fileID: Int64, runID: Int64) throws {
        try connection.execute(
            """
            UPDATE quarantine q SET resolved_by_run = $3
            FROM source_files f
            WHERE f.id = q.source_file_id AND f.sha256 = $1 AND f.id <> $2 AND q.resolved_by_run IS NULL
              AND NOT EXISTS (
                  SELECT 1 FROM churn_quarantine_staging s
                  WHERE s.line IS NOT DISTINCT FROM q.line AND s.item IS NOT DISTINCT FROM q.item
              )
            """,
            [sha256, fileID, runID]
        )
    }

    /// Resolves the refusals for a mendable reason (``Rejection/Reason/mendable``) whose notification is now stored,
    /// by this load or an earlier one. A bad signature stays: the stored notification is not the tampered copy.
    func resolveStoredRefusals(runID: Int64) throws {
        try connection.execute(
            """
            UPDATE quarantine q SET resolved_by_run = $1
            WHERE q.resolved_by_run IS NULL AND q.notification_uuid IS NOT NULL AND q.reason = ANY($2)
              AND EXISTS (
                  SELECT 1 FROM notifications n
                  WHERE n.original_transaction_id = q.original_transaction_id
                    AND n.notification_uuid = q.notification_uuid
              )
            """,
            [runID, PGArray.texts(Rejection.Reason.mendable.map(\.rawValue).sorted())]
        )
    }
}
