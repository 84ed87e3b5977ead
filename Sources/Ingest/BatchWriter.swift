import Foundation
import Logging
import PGClient
import Store

/// Writes a file's decoded batches, each in a short transaction of its own, and adds up what they did
/// (``counts``).
///
/// Each batch takes the write lock (``WriteLock``), asks which of its keys are stored already and where they came
/// from, and stores its rows as its ``BatchPlan`` decides: its new rows COPYed straight into `notifications` in
/// binary, the stored copies they replace moved into `notification_copies`, its further copies and its rejections
/// staged for the file's last transaction (``FileBookkeeping``). A batch PostgreSQL refuses goes through the
/// staging table as text, row by row if need be, to find the refused rows (`BatchWriter+RefusedRows.swift`).
final class BatchWriter {
    let connection: PGConnection
    private let lock: WriteLock
    let logger: Logger
    private let quarantine: QuarantineWriter
    /// The file as the load names it, its `source_files` row and the load run.
    let path: String
    let fileID: Int64
    let runID: Int64
    /// How many bytes of a refused record the quarantine keeps.
    let keepBytes: Int
    /// What the batches written so far did.
    private(set) var counts = FileCounts()

    init(
        connection: PGConnection, lock: WriteLock, logger: Logger, path: String, fileID: Int64, runID: Int64,
        keepBytes: Int
    ) {
        self.connection = connection
        self.lock = lock
        self.logger = logger
        self.quarantine = QuarantineWriter(connection: connection)
        self.path = path
        self.fileID = fileID
        self.runID = runID
        self.keepBytes = keepBytes
    }

    /// Writes one batch in a transaction of its own, under the write lock, and commits it.
    /// - Returns: when the write lock was taken (for the log).
    /// - Throws: ``PGError`` or ``IngestError``; the batch's transaction is then rolled back.
    func write(_ batch: EncodedBatch) throws -> Date {
        var locked = Date()
        try connection.withTransaction {
            try lock.acquire()
            locked = Date()
            try writeLocked(batch)
            FaultPoint.reach("load.batch-copied")
        }
        return locked
    }

    /// Writes one encoded batch: its rows into `notifications` (each notification's earliest copy, replacing a stored
    /// copy signed later), its further copies into the copies' staging table, its rejections into the quarantine's.
    private func writeLocked(_ batch: EncodedBatch) throws {
        var rejections = batch.rejections
        if batch.rowCount > 0 || !batch.identical.isEmpty {
            let (plan, refused) = try storeRows(batch)
            rejections.append(contentsOf: refused)
            counts.inserted += plan.added
            counts.resumed += plan.resumed
        }
        let refused = rejections.filter { $0.reason == .rejectedByDatabase }.count
        let accepted = batch.rowCount + batch.identical.count
        counts.staged += accepted - refused
        counts.records += accepted + rejections.count - refused
        counts.notVerifiedAgain += batch.identical.count
        guard !rejections.isEmpty else { return }
        try quarantine.stage(rejections, path: path, fileID: fileID, runID: runID)
        counts.rejected += rejections.count
        for rejection in rejections {
            counts.rejectedByReason[rejection.reason.rawValue, default: 0] += 1
            if counts.samples.count < 20 {
                counts.samples.append(
                    "\(rejection.location(in: path)): \(rejection.reason.rawValue): \(rejection.detail)")
            }
        }
    }

    private static let directCopy =
        "COPY notifications (\(NotificationRow.columns.joined(separator: ", "))) FROM STDIN WITH (FORMAT binary)"

    /// Stores a batch's rows as its ``BatchPlan`` decides: moves the stored copies it replaces into
    /// `notification_copies`, COPYs its rows straight into `notifications`, and stages its further copies.
    ///
    /// The batch's lines byte-identical to stored notifications (``EncodedBatch/identical``) are planned with its
    /// rows, as the rows they would have been: each is a copy of its stored notification (signed no earlier than
    /// the row stored for its key, which only a copy signed earlier ever replaces), or a row an unfinished load of the
    /// file stored from its line, never a row to store.
    ///
    /// When PostgreSQL refuses a row (a value it cannot store), nothing of that attempt stays: the rows go through
    /// staging as text, one at a time if need be, to find the refused ones, and the batch is decided and stored again
    /// without them.
    /// - Returns: the plan carried out, and the rows PostgreSQL refused, as rejections.
    private func storeRows(_ batch: EncodedBatch) throws -> (BatchPlan, [Rejection]) {
        let bytes = batch.rows.bytes
        var rows = BatchPlan.rows(in: bytes)
        let origins = try NotificationKey.stored(
            (rows + batch.identical).map(\.key), loadingPath: path, as: fileID, connection: connection
        )
        var refused: [Rejection] = []
        while true {
            let planned = rows + batch.identical
            let plan = BatchPlan(rows: planned, origins: origins)
            if let index = plan.stored.first(where: { $0 >= rows.count }) {
                throw IngestError.storedNotificationMissing(path: path, line: Int(planned[index].line ?? 0))
            }
            do {
                // Lines stored before only: nothing to store or move, so no savepoint (two round trips) either.
                if plan.stored.isEmpty, plan.replaced.isEmpty {
                    try stageCopies(plan.copies.map { planned[$0] })
                    return (plan, refused)
                }
                try connection.withSavepoint("churn_batch") {
                    try moveToCopies(plan.replaced)
                    guard !plan.stored.isEmpty else { return }
                    try connection.copyIn(Self.directCopy) { writer in
                        if plan.stored.count == rows.count, rows.count == batch.rowCount {
                            try writer.write(bytes)
                        } else {
                            for index in plan.stored { try writer.write(bytes[rows[index].range]) }
                        }
                    }
                }
                try stageCopies(plan.copies.map { planned[$0] })
                return (plan, refused)
            } catch let error as PGError where error.isDataError && refused.isEmpty {
                logger.debug(
                    "a batch was refused; finding the refused rows", metadata: ["pg.message": "\(error.message)"])
                let found = try refusedRows(rows.map { bytes[$0.range] }, batch: batch.records)
                // A refusal the text form does not reproduce is no row's: it stops the run.
                guard !found.isEmpty else { throw error }
                refused = found.map(\.rejection)
                let indices = Set(found.map(\.index))
                rows = rows.enumerated().filter { !indices.contains($0.offset) }.map(\.element)
            }
        }
    }

    /// Moves stored notifications into `notification_copies`: a row of the batch signed earlier replaces each. A
    /// copy stored by an unfinished load of the same path counts as this file's, since the load that completes the
    /// file records the file's copies anew (``FileBookkeeping``).
    private func moveToCopies(_ keys: [NotificationKey]) throws {
        guard !keys.isEmpty else { return }
        try connection.execute(
            """
            WITH moved AS (
                DELETE FROM notifications n
                USING unnest($1, $2) AS k (original_transaction_id, notification_uuid)
                WHERE n.original_transaction_id = k.original_transaction_id
                  AND n.notification_uuid = k.notification_uuid
                RETURNING n.original_transaction_id, n.notification_uuid, n.signed_date, n.source_file_id, n.source_line
            )
            INSERT INTO notification_copies (original_transaction_id, notification_uuid, signed_date, source_file_id,
                source_line)
            SELECT m.original_transaction_id, m.notification_uuid, m.signed_date,
                   CASE WHEN f.sha256 = '' AND f.path = $3 THEN $4 ELSE m.source_file_id END, m.source_line
            FROM moved m JOIN source_files f ON f.id = m.source_file_id
            """,
            [
                PGArray.texts(keys.map(\.subscription)), PGArray.uuids(keys.map(\.uuid)), path,
                fileID,
            ]
        )
    }

    /// Stages a batch's further copies; the file's last transaction records them (``FileBookkeeping``).
    private func stageCopies(_ rows: [BatchPlan.Row]) throws {
        guard !rows.isEmpty else { return }
        var text = CopyText()
        for row in rows {
            try text.append(row.key.subscription)
            try text.append(row.key.uuid)
            if let date = PGTimestamp.text(milliseconds: row.signedDate) {
                text.appendVerbatim(date)
            } else {
                text.appendNull()
            }
            text.append(fileID)
            text.append(row.line)
            text.endRow()
        }
        try connection.copyIn(
            """
            COPY churn_copies_staging (original_transaction_id, notification_uuid, signed_date, source_file_id,
                source_line) FROM STDIN
            """
        ) { writer in try writer.write(text.bytes) }
    }
}
