import Analysis
import Logging
import PGClient
import Store

/// Loads an app's message-log files into `message_events` (`churn messages load`): each line read by
/// ``MessageLogParser``, each event stored once (the table's unique index decides; loading a file again adds
/// nothing), each refused line kept in `quarantine` with its file, line, reason and raw text, as an export's are.
///
/// A file is one transaction: its lines stream into a temporary table through COPY, then, under the loads' write lock
/// (``WriteLock``), its events are added and its refusals quarantined through ``QuarantineWriter``, as an export's are,
/// skipping those an earlier load of the same content quarantined and that are still unresolved. A kill at any point
/// leaves the file all stored or not at all, and the next load stores it whole. The run is recorded in `load_runs` as
/// `messages load`, with an acceptance of its own, so that no export load takes a message log's file for one of its own
/// stored whole.
package struct MessageLogLoader {
    /// The `load_runs.command` of a message-log load.
    package static let command = "messages load"
    /// Its `load_runs.acceptance`.
    static let acceptance = "message_log"
    /// The longest line read whole; a longer one is refused (`record_too_large`).
    static let maxLineBytes = 65_536
    /// How much of a refused line the quarantine keeps.
    static let keepBytes = 4_096
    /// Refusals named in the summary, per file.
    static let sampleCount = 5

    let connection: PGConnection
    let logger: Logger

    package init(connection: PGConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Loads the files in order, recording one load run.
    /// - Parameter paths: files to read, optionally gzip-compressed (detected from the content); `-` is standard input.
    /// - Throws: ``PGError`` or ``IngestError`` for failures that stop the run; bad lines never throw.
    package func load(_ paths: [String]) throws -> MessageLogSummary {
        let runs = try LoadRuns(connection: connection)
        try runs.markAbandonedRunsInterrupted()
        let runID = try runs.begin(command: Self.command, verified: false, acceptance: Self.acceptance)
        var summary = MessageLogSummary(loadRunID: runID)
        do {
            for path in paths {
                let file = try loadFile(path, runID: runID)
                summary.files.append(file)
                try runs.record(
                    files: summary.files.count, records: summary.events + summary.rejected, loaded: summary.stored,
                    duplicates: summary.duplicates, rejected: summary.rejected, runID: runID)
                logger.info(
                    "message log loaded",
                    metadata: [
                        "file.path": "\(file.path)", "file.events": .stringConvertible(file.events),
                        "file.stored": .stringConvertible(file.stored),
                        "file.rejected": .stringConvertible(file.rejected),
                    ])
            }
        } catch {
            try? runs.finish(runID: runID, status: "failed", error: String(describing: error))
            throw error
        }
        try runs.finish(runID: runID, status: "succeeded", error: nil)
        return summary
    }

    /// Loads one file in one transaction.
    private func loadFile(_ path: String, runID: Int64) throws -> MessageLogSummary.File {
        let source = try ByteSource(path: path)
        let name = source.displayName
        let lock = WriteLock(connection: connection)
        return try connection.withTransaction {
            let fileID = try FileBookkeeping(connection: connection, lock: lock).begin(path: name, runID: runID)
            try connection.execute(
                """
                CREATE TEMPORARY TABLE churn_message_staging (
                    line bigint NOT NULL, original_transaction_id text, app_account_token text, at timestamptz,
                    action text, arm text, reason text, detail text, raw text, raw_bytes bigint, raw_truncated boolean
                ) ON COMMIT DROP
                """)
            var counts = Counts()
            try connection.copyIn(
                """
                COPY churn_message_staging (line, original_transaction_id, app_account_token, at, action, arm, reason,
                    detail, raw, raw_bytes, raw_truncated) FROM STDIN
                """
            ) { writer in
                var reader = RecordReader(source: source, maxRecordBytes: Self.maxLineBytes, keepBytes: Self.keepBytes)
                var parser = MessageLogParser()
                var rows = CopyText()
                while let record = try reader.next() {
                    let line =
                        record.problem.map { MessageLogParser.Line.refused($0, Self.detail($0, record)) }
                        ?? parser.read(record.bytes)
                    switch line {
                    case .header:
                        continue
                    case .event(let event):
                        counts.events += 1
                        try Self.append(event, line: record.line, to: &rows)
                    case .refused(let reason, let detail):
                        counts.refuse(reason, "\(name):\(record.line): \(reason.rawValue): \(detail)")
                        try Self.append(reason, detail, record, to: &rows)
                    }
                    if rows.bytes.count >= 1 << 20 {
                        try writer.write(rows.bytes)
                        rows.removeAll()
                    }
                }
                try writer.write(rows.bytes)
            }
            // Compressed data cut short ends the lines early: the hash still names every byte of the file.
            try source.skipToEnd()
            FaultPoint.reach("messages.file-copied")
            // Under the write lock, so that a load of the same content at the same time has committed its refusals
            // (which this one then skips) or not begun to write them.
            try lock.acquire()
            let stored = try connection.execute(
                """
                INSERT INTO message_events (original_transaction_id, app_account_token, at, action, arm,
                    source_file_id, source_line)
                SELECT original_transaction_id, app_account_token, at, action, arm, $1, line
                FROM churn_message_staging WHERE reason IS NULL ORDER BY line
                ON CONFLICT DO NOTHING
                """,
                [fileID]
            ).affectedRows
            let sha256 = source.sha256Hex()
            // The refusals go through the loads' own quarantine staging and merge, which skips those an earlier load
            // of the same content left unresolved.
            try StagingTables(connection: connection).prepareForFile()
            try connection.execute(
                """
                INSERT INTO churn_quarantine_staging (load_run_id, source_file_id, file, line, reason, detail, raw,
                    raw_bytes, raw_truncated)
                SELECT $1, $2, $3, line, reason, detail, raw, raw_bytes, raw_truncated
                FROM churn_message_staging WHERE reason IS NOT NULL
                """,
                [runID, fileID, name]
            )
            let quarantined = try QuarantineWriter(connection: connection).merge(sha256: sha256, fileID: fileID)
            let file = MessageLogSummary.File(
                path: name, sizeBytes: source.rawBytesRead, sha256: sha256, events: counts.events, stored: stored,
                rejected: counts.rejected, refusedBefore: counts.rejected - quarantined,
                rejectedByReason: counts.byReason, sampleRejections: counts.samples)
            try connection.execute(
                """
                UPDATE source_files SET size_bytes = $2, sha256 = $3, records = $4, loaded = $5, duplicates = $6,
                    rejected = $7
                WHERE id = $1
                """,
                [
                    fileID, file.sizeBytes, sha256, file.events + file.rejected, file.stored, file.duplicates,
                    file.rejected,
                ]
            )
            return file
        }
    }

    /// A file's counts as its lines are read.
    private struct Counts {
        var events = 0
        var rejected = 0
        var byReason: [String: Int] = [:]
        var samples: [String] = []

        mutating func refuse(_ reason: Rejection.Reason, _ sample: @autoclosure () -> String) {
            rejected += 1
            byReason[reason.rawValue, default: 0] += 1
            if samples.count < MessageLogLoader.sampleCount { samples.append(sample()) }
        }
    }

    /// The sentence of a line the reader itself refused.
    private static func detail(_ problem: Rejection.Reason, _ record: RawRecord) -> String {
        switch problem {
        case .recordTooLarge: return "the line is \(record.length) bytes, more than the \(maxLineBytes) allowed"
        default: return String(decoding: record.bytes, as: UTF8.self)
        }
    }

    private static func append(_ event: MessageEvent, line: Int, to rows: inout CopyText) throws {
        rows.append(line)
        try rows.append(event.originalTransactionId)
        try rows.append(event.appAccountToken)
        if let text = PGTimestamp.text(milliseconds: event.at) {
            rows.appendVerbatim(text)
        } else {
            rows.appendNull()
        }
        try rows.append(event.action.rawValue)
        try rows.append(event.arm)
        for _ in 0..<5 { rows.appendNull() }
        rows.endRow()
    }

    private static func append(
        _ reason: Rejection.Reason, _ detail: String, _ record: RawRecord, to rows: inout CopyText
    ) throws {
        rows.append(record.line)
        for _ in 0..<5 { rows.appendNull() }
        try rows.append(reason.rawValue)
        try rows.append(QuarantineWriter.storableText(Array(detail.utf8)))
        let raw = reason == .truncatedInput ? [] : Array(record.bytes.prefix(keepBytes))
        try rows.append(QuarantineWriter.storableText(raw))
        rows.append(reason == .truncatedInput ? 0 : record.length)
        rows.append(raw.count < record.length && reason != .truncatedInput)
        rows.endRow()
    }
}
