import Foundation
import Logging
import PGClient
import Store
import Synchronization

/// Loads export files into PostgreSQL: streaming reads, parallel decoding and verification, and COPY of each batch
/// straight into `notifications`, so each `notificationUUID` is stored once.
///
/// Each batch is a short transaction of its own: it takes the write lock (``AdvisoryLockKey/loadWrite``,
/// transaction-scoped, waited for inside PostgreSQL), asks which of its notificationUUIDs are stored already, COPYs
/// the others into `notifications` and commits. Only that check-and-write is serialized: loads running at once, in
/// one process or on several machines, read, decode and verify in parallel. Each batch's check sees every row
/// committed before it took the lock, and no load holds uncommitted rows while it waits for the lock, so none waits
/// for another's rows or deadlocks with it. A batch PostgreSQL refuses anyway goes through a staging table and an
/// `INSERT … ON CONFLICT DO NOTHING` instead, row by row if need be, in the batch's transaction.
///
/// A file's bookkeeping commits once the whole file is stored, in a last short transaction (under the write lock
/// too): its `source_files` row, inserted with an empty `sha256` when the file starts so that its rows can point at
/// it, gets the file's SHA-256 and counts, and its quarantined inputs, gathered meanwhile in a temporary table of the
/// session, move into `quarantine`. So a `sha256` names only files stored whole (``SourceFiles/hasLoaded(sha256:)``,
/// nightly's skip), and a kill leaves no quarantine rows. A file killed mid-way keeps the batches it committed, under
/// its `source_files` row with the empty `sha256`; loading it again stores what is missing, so each notification is
/// still stored once, and counts the kept rows as the file's own (``LoadSummary/File/resumed``), not as duplicates,
/// so the file's counts are those of a load that was never killed.
///
/// Within a file, a child task reads the records and decodes and verifies each batch on `workers` child tasks of its
/// own, on Swift's cooperative pool, while the loading task, the only one that ever uses the connection, writes the
/// batch before on a thread of its own (``ConnectionExecutor``; see
/// ``writeBatches(from:displayName:decoder:fileID:runID:progress:)``). Each batch written is logged at `debug`
/// (`batch written`, with when its decoding and its write started and ended, and when it got the write lock).
package final class Loader {
    private let connection: PGConnection
    private let options: LoadOptions
    private let logger: Logger
    private var stagingReady = false
    private var writeLock: Int64?

    package init(connection: PGConnection, options: LoadOptions, logger: Logger) {
        self.connection = connection
        self.options = options
        self.logger = logger
    }

    /// Marks runs whose process died (status `running`, lock free) as `interrupted`.
    package static func markAbandonedRuns(connection: PGConnection) throws {
        try LoadRunLocks(connection: connection).markAbandonedRunsInterrupted()
    }

    /// Loads the files in order, recording one load run.
    /// - Parameters:
    ///   - paths: files to read; `-` is standard input.
    ///   - progress: called after each batch is written, in the calling task.
    /// - Throws: ``PGError`` or ``IngestError`` for failures that stop the run; bad records never throw.
    package func load(_ paths: [String], progress: (LoadProgress) -> Void = { _ in }) async throws -> LoadSummary {
        // The connection's blocking calls run on a thread of their own, off the cooperative pool.
        try await withTaskExecutorPreference(ConnectionExecutor()) {
            try await loadFiles(paths, progress: progress)
        }
    }

    private func loadFiles(_ paths: [String], progress: (LoadProgress) -> Void) async throws -> LoadSummary {
        let started = Date()
        let runs = try LoadRuns(connection: connection)
        try runs.markAbandonedRunsInterrupted()
        let runID = try runs.begin(command: options.command, verified: options.policy.verifier != nil)
        var summary = LoadSummary(loadRunID: runID, verified: options.policy.verifier != nil)
        let sizes = paths.map(Self.size(ofFile:))
        let totalSize: Int64? = sizes.contains(nil) ? nil : sizes.reduce(0) { $0 + ($1 ?? 0) }
        var bytesBefore: Int64 = 0
        do {
            for (index, path) in paths.enumerated() {
                let before = bytesBefore
                let file = try await loadFile(path, size: sizes[index], runID: runID) {
                    bytes, size, records, rejected in
                    progress(
                        LoadProgress(
                            file: path, fileIndex: index, fileCount: paths.count, bytesRead: bytes, fileSize: size,
                            records: records, rejected: rejected, totalBytesRead: before + bytes,
                            totalSize: totalSize
                        )
                    )
                }
                bytesBefore += file.sizeBytes
                summary.files.append(file)
                FaultPoint.reach("load.file-committed")
                try runs.record(summary, runID: runID)
                logger.info(
                    "file loaded",
                    metadata: [
                        "file.path": "\(path)", "file.records": .stringConvertible(file.records),
                        "file.loaded": .stringConvertible(file.loaded),
                        "file.resumed": .stringConvertible(file.resumed),
                        "file.duplicates": .stringConvertible(file.duplicates),
                        "file.rejected": .stringConvertible(file.rejected),
                    ]
                )
            }
        } catch {
            summary.seconds = Date().timeIntervalSince(started)
            try? runs.finish(runID: runID, status: "failed", error: String(describing: error))
            throw error
        }
        summary.seconds = Date().timeIntervalSince(started)
        try runs.finish(runID: runID, status: "succeeded", error: nil)
        // A run killed just before this one may have held its lock until its server session noticed; by now it
        // has, so mark it too.
        try runs.markAbandonedRunsInterrupted()
        return summary
    }

    // MARK: - One file

    /// The size of a file for progress; nil for standard input or a file whose size cannot be read.
    private static func size(ofFile path: String) -> Int64? {
        guard path != "-" else { return nil }
        return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? nil
    }

    /// Loads one file: its `source_files` row, then its batches, each committed on its own, then the file's
    /// bookkeeping, committed once every batch is.
    private func loadFile(
        _ path: String,
        size fileSize: Int64?,
        runID: Int64,
        progress: (Int64, Int64?, Int, Int) -> Void
    ) async throws -> LoadSummary.File {
        let source = try ByteSource(path: path)
        let displayName = source.displayName
        try prepareStaging()
        let fileID = try insertSourceFile(path: displayName, runID: runID)
        let decoder = RecordDecoder(
            policy: options.policy, fileID: fileID, loadRunID: runID, keepBytes: options.quarantineRawBytes
        )
        let (counts, digest) = try await writeBatches(
            from: source, displayName: displayName, decoder: decoder, fileID: fileID, runID: runID
        ) { bytesRead, records, rejected in progress(bytesRead, fileSize, records, rejected) }

        return try connection.withTransaction {
            // Under the write lock, so that a load of the same content at the same time has committed its
            // bookkeeping (whose quarantined inputs this one then skips) or not begun it.
            try lockWrites()
            let previousRun = try connection.execute(
                "SELECT min(load_run_id) FROM source_files WHERE sha256 = $1 AND id <> $2::bigint",
                [digest.sha256, String(fileID)]
            ).scalar.flatMap { Int64($0) }
            try mergeQuarantine(sha256: digest.sha256, fileID: fileID)
            FaultPoint.reach("load.file-merged")
            let file = LoadSummary.File(
                path: displayName,
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
            try connection.execute(
                """
                UPDATE source_files SET size_bytes = $2::bigint, sha256 = $3, records = $4::bigint, loaded = $5::bigint,
                    duplicates = $6::bigint, rejected = $7::bigint
                WHERE id = $1::bigint
                """,
                [
                    String(fileID), String(file.sizeBytes), digest.sha256, String(file.records),
                    String(file.loaded + file.resumed), String(file.duplicates), String(file.rejected),
                ]
            )
            return file
        }
    }

    /// Reads, decodes and COPYs one file, batch by batch, in input order, each batch in a transaction of its own.
    ///
    /// A child task reads the file and decodes each batch while this task writes the one before, and reads the next
    /// batch while the workers decode, so a batch is handed over once the next one is read (from a pipe, once its
    /// input has come). The reader hands a batch over only when this task asks for the next, so at most three batches
    /// are in memory (one being written, one being decoded, one being read), whatever the file's size. The connection
    /// never leaves this task, and the write lock is held only while a batch is checked and written.
    /// - Parameter progress: called after each batch is written with the bytes and records read up to that batch
    ///   and the rejections written so far.
    /// - Returns: the file's counts, and its SHA-256 and size once read to the end.
    private func writeBatches(
        from source: sending ByteSource,
        displayName: String,
        decoder: RecordDecoder,
        fileID: Int64,
        runID: Int64,
        progress: (_ bytesRead: Int64, _ records: Int, _ rejected: Int) -> Void
    ) async throws -> (FileCounts, SourceDigest) {
        let (batches, batchInput) = AsyncStream.makeStream(of: EncodedBatch.self)
        let (requests, requestInput) = AsyncStream.makeStream(of: Void.self)
        let options = options
        async let digest = Self.readBatches(
            from: source, options: options, decoder: decoder, requests: requests, into: batchInput
        )
        // Stops the reader if this task leaves early (a failed write): it finds no more requests.
        defer { requestInput.finish() }
        var counts = FileCounts()
        var number = 0
        requestInput.yield()
        for await batch in batches {
            number += 1
            let storedBefore = counts.inserted
            let writeStarted = Date()
            var locked = writeStarted
            try connection.withTransaction {
                try lockWrites()
                locked = Date()
                try write(batch, path: displayName, fileID: fileID, runID: runID, counts: &counts)
                FaultPoint.reach("load.batch-copied")
            }
            let written = Date()
            FaultPoint.reach("load.batch-committed")
            requestInput.yield()
            logger.debug(
                "batch written",
                metadata: [
                    "file.path": "\(displayName)", "batch.number": .stringConvertible(number),
                    "batch.records": .stringConvertible(batch.records.count),
                    "batch.stored": .stringConvertible(counts.inserted - storedBefore),
                    "batch.decode_start": .string(Self.timestamp(batch.decodeStarted)),
                    "batch.decode_end": .string(Self.timestamp(batch.decodeFinished)),
                    "batch.write_start": .string(Self.timestamp(writeStarted)),
                    "batch.locked": .string(Self.timestamp(locked)),
                    "batch.write_end": .string(Self.timestamp(written)),
                ]
            )
            progress(batch.bytesRead, batch.recordsRead, counts.rejected)
        }
        // The reader's failure, if it stopped early, comes out here.
        return (counts, try await digest)
    }

    /// A moment as ISO 8601 in UTC with milliseconds, as the log's own `time` field.
    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// The reading side of ``writeBatches(from:displayName:decoder:fileID:runID:progress:)``: reads `source` in
    /// batches, decodes each on the worker tasks, and yields it into `batches` when `requests` asks for one.
    /// - Returns: the SHA-256 and size of the file as stored, once read to the end.
    private static func readBatches(
        from source: sending ByteSource,
        options: LoadOptions,
        decoder: RecordDecoder,
        requests: AsyncStream<Void>,
        into batches: AsyncStream<EncodedBatch>.Continuation
    ) async throws -> SourceDigest {
        defer { batches.finish() }
        // Off the loading task's connection thread, onto the pool, and so are the decoding tasks.
        return try await withTaskExecutorPreference(globalConcurrentExecutor) {
            var reader = RecordReader(
                source: source, maxRecordBytes: options.maxRecordBytes, keepBytes: options.quarantineRawBytes
            )
            var requests = requests.makeAsyncIterator()
            var records = try readRecords(from: &reader, count: options.batchSize)
            var recordsRead = 0
            while !records.isEmpty {
                recordsRead += records.count
                let bytesRead = source.rawBytesRead
                let current = records
                let decodeStarted = Date()
                // The next batch is read (and the file hashed) while the workers decode this one.
                async let decoded = encode(current, decoder: decoder, workers: options.workers)
                let next = try readRecords(from: &reader, count: options.batchSize)
                var batch = await decoded
                batch.decodeStarted = decodeStarted
                batch.decodeFinished = Date()
                batch.bytesRead = bytesRead
                batch.recordsRead = recordsRead
                // The writer asks once it is done with the batch before: it stopped asking only if it failed.
                guard await requests.next() != nil else { throw CancellationError() }
                batches.yield(batch)
                records = next
            }
            return SourceDigest(sha256: source.sha256Hex(), bytesRead: source.rawBytesRead)
        }
    }

    /// The next `count` records, fewer at the end of the input.
    private static func readRecords(from reader: inout RecordReader, count: Int) throws -> [RawRecord] {
        var records: [RawRecord] = []
        records.reserveCapacity(count)
        while records.count < count, let record = try reader.next() {
            records.append(record)
        }
        return records
    }

    private struct FileCounts {
        var records = 0
        /// Rows PostgreSQL accepted (stored now or already stored).
        var staged = 0
        /// Rows stored by this file.
        var inserted = 0
        /// Rows an unfinished load of this file stored before, from the same lines (``resumedCount(_:_:)``).
        var resumed = 0
        var rejected = 0
        var rejectedByReason: [String: Int] = [:]
        var samples: [String] = []
    }

    /// A whole file's digest, as read.
    private struct SourceDigest: Sendable {
        var sha256: String
        var bytesRead: Int64
    }

    /// A batch decoded and encoded, ready for COPY.
    struct EncodedBatch: Sendable {
        var records: [RawRecord]
        var rows: CopyBinary
        var rowCount: Int
        var rejections: [Rejection]
        /// Bytes of the file read when the batch was cut (for progress).
        var bytesRead: Int64 = 0
        /// Records of the file read up to and including this batch (for progress).
        var recordsRead = 0
        /// When the batch's decoding started and ended (for the log).
        var decodeStarted = Date.distantPast
        var decodeFinished = Date.distantPast
    }

    /// Decodes a batch on the worker tasks and joins the results in input order.
    private static func encode(_ batch: [RawRecord], decoder: RecordDecoder, workers: Int) async -> EncodedBatch {
        let decoded = await decodeInParallel(batch, decoder: decoder, workers: workers)
        var encoded = EncodedBatch(
            records: batch, rows: CopyBinary(reservingCapacity: decoded.reduce(0) { $0 + $1.rows.count }), rowCount: 0,
            rejections: []
        )
        for record in decoded {
            encoded.rows.append(rows: record.rows)
            encoded.rowCount += record.rowCount
            encoded.rejections.append(contentsOf: record.rejections)
        }
        return encoded
    }

    /// Writes one encoded batch: its new rows into `notifications`, its rejections into the quarantine staging table.
    private func write(
        _ batch: EncodedBatch, path: String, fileID: Int64, runID: Int64, counts: inout FileCounts
    ) throws {
        var rejections = batch.rejections
        if batch.rowCount > 0 {
            let copied = try copyNewRows(batch.rows, path: path, fileID: fileID)
            counts.resumed += copied.resumed
            if let stored = copied.stored {
                counts.inserted += stored
            } else {
                rejections.append(contentsOf: try copyRows(batch.rows, count: batch.rowCount, batch: batch.records))
                counts.inserted += try mergeStaging()
            }
        }
        let refused = rejections.filter { $0.reason == .rejectedByDatabase }.count
        counts.staged += batch.rowCount - refused
        counts.records += batch.rowCount + rejections.count - refused
        guard !rejections.isEmpty else { return }
        try copyRejections(rejections, path: path, fileID: fileID, runID: runID)
        counts.rejected += rejections.count
        for rejection in rejections {
            counts.rejectedByReason[rejection.reason.rawValue, default: 0] += 1
            if counts.samples.count < 20 {
                counts.samples.append("\(rejection.location(in: path)): \(rejection.reason.rawValue): \(rejection.detail)")
            }
        }
    }

    /// Decodes records on `workers` child tasks, keeping their order.
    ///
    /// The workers take small shares of the batch in turn, so that one slowed down (by the reader or the server on
    /// its core) leaves the rest of the batch to the others instead of keeping them waiting for its half.
    static func decodeInParallel(_ batch: [RawRecord], decoder: RecordDecoder, workers: Int) async -> [DecodedRecord] {
        if workers <= 1 || batch.count < 2 {
            return batch.map(decoder.decode)
        }
        let share = max(1, min(16, batch.count / (workers * 4)))
        let shares = (batch.count + share - 1) / share
        let counter = ShareCounter()
        return await withTaskGroup(of: [(Int, [DecodedRecord])].self) { group in
            for _ in 0..<min(workers, shares) {
                group.addTask {
                    var decoded: [(Int, [DecodedRecord])] = []
                    while case let index = counter.take(), index < shares {
                        let records = batch[(index * share)..<min((index + 1) * share, batch.count)]
                        decoded.append((index, records.map { decoder.decode($0) }))
                    }
                    return decoded
                }
            }
            var parts = [[DecodedRecord]](repeating: [], count: shares)
            for await decoded in group {
                for (index, records) in decoded { parts[index] = records }
            }
            return parts.flatMap { $0 }
        }
    }

    /// Hands out share numbers 0, 1, 2, … to the decoding tasks, each once.
    private final class ShareCounter: Sendable {
        private let taken = Atomic<Int>(0)

        func take() -> Int {
            taken.wrappingAdd(1, ordering: .relaxed).oldValue
        }
    }

    // MARK: - SQL

    /// Makes the session's staging tables, and empties the quarantine's for a new file.
    ///
    /// Temporary, so they vanish with the session; no indexes, so COPY into them is cheap. The notifications' staging
    /// serves one batch's transaction; the quarantine's keeps a file's rejections across its batches' commits until
    /// the file's last transaction merges them, so a file that never completes adds no quarantine rows.
    private func prepareStaging() throws {
        if !stagingReady {
            try connection.execute(
                "CREATE TEMP TABLE IF NOT EXISTS churn_staging (LIKE notifications INCLUDING DEFAULTS) ON COMMIT DELETE ROWS"
            )
            try connection.execute(
                """
                CREATE TEMP TABLE IF NOT EXISTS churn_quarantine_staging
                    (LIKE quarantine INCLUDING DEFAULTS) ON COMMIT PRESERVE ROWS
                """
            )
            stagingReady = true
        }
        try connection.execute("TRUNCATE churn_quarantine_staging")
    }

    /// Inserts and commits the file's `source_files` row, which its batches' rows point at, with an empty `sha256`
    /// until the file is stored whole.
    private func insertSourceFile(path: String, runID: Int64) throws -> Int64 {
        let id = try connection.execute(
            """
            INSERT INTO source_files (load_run_id, path, size_bytes, sha256, records, loaded, duplicates, rejected)
            VALUES ($1::bigint, $2, 0, '', 0, 0, 0, 0) RETURNING id
            """,
            [String(runID), path]
        ).scalar.flatMap { Int64($0) }
        guard let id else { throw PGError(kind: .unexpectedResult, message: "INSERT … RETURNING id gave no id") }
        return id
    }

    /// Waits until no other load is writing into this schema, then holds that lock until the transaction ends.
    private func lockWrites() throws {
        let key: Int64
        if let writeLock {
            key = writeLock
        } else {
            key = try AdvisoryLockKey.scoped(AdvisoryLockKey.loadWrite, on: connection)
            writeLock = key
        }
        try connection.execute("SELECT pg_advisory_xact_lock($1::bigint)", [String(key)])
    }

    private static let directCopy =
        "COPY notifications (\(NotificationRow.columns.joined(separator: ", "))) FROM STDIN WITH (FORMAT binary)"

    /// COPYs the rows whose key (subscription and notificationUUID) is neither stored yet nor earlier in the batch
    /// straight into `notifications`.
    /// - Returns: how many rows were stored, or nil when PostgreSQL refused the batch (none of it stays); and how
    ///   many of the others an unfinished load of the file stored before (``resumedCount(_:_:)``).
    private func copyNewRows(_ rows: CopyBinary, path: String, fileID: Int64) throws -> (stored: Int?, resumed: Int) {
        let spans = Self.rowSpans(rows.bytes)
        var resumed = 0
        do {
            let stored = try connection.withSavepoint("churn_batch") {
                let origins = try NotificationKey.stored(
                    spans.map(\.key), loadingPath: path, as: fileID, connection: connection
                )
                resumed = Self.resumedCount(spans, origins)
                var seen = Set(origins.keys)
                let kept = spans.filter { seen.insert($0.key).inserted }
                guard !kept.isEmpty else { return 0 }
                try connection.copyIn(Self.directCopy) { writer in
                    if kept.count == spans.count {
                        try writer.write(rows.bytes)
                    } else {
                        for span in kept { try writer.write(rows.bytes[span.range]) }
                    }
                }
                return kept.count
            }
            return (stored, resumed)
        } catch let error as PGError where error.isDataError {
            logger.debug("a batch was refused; loading it through staging", metadata: ["pg.message": "\(error.message)"])
            return (nil, resumed)
        }
    }

    /// Each encoded row's bytes, its key (the original_transaction_id, and the notificationUUID in lower case, the
    /// form PostgreSQL prints) and its line. The UUID is the row's first field, checked by ``UUIDText`` when the row
    /// was encoded.
    static func rowSpans(_ bytes: [UInt8]) -> [(range: Range<Int>, key: NotificationKey, line: Int64?)] {
        CopyBinary.rowRanges(bytes).map { range in
            let fields = CopyBinary.fields(ofRow: bytes[range])
            func field(_ index: Int) -> ArraySlice<UInt8> {
                index < fields.count ? fields[index] ?? [] : []
            }
            let uuid = CopyBinary.uuidText(field(0))
            let subscription = String(decoding: field(NotificationRow.subscriptionField), as: UTF8.self)
            let line = CopyBinary.int64(field(NotificationRow.sourceLineField), at: 0)
            return (range, NotificationKey(subscription: subscription, uuid: uuid), line)
        }
    }

    /// How many of a batch's rows an unfinished load of the same file stored already, from the same line: a killed
    /// attempt's rows, which are the file's own and no resends. Each stored row counts once, for the first of the
    /// batch's rows that matches it; a later copy is a duplicate, as in a load that was never killed.
    static func resumedCount(
        _ spans: [(range: Range<Int>, key: NotificationKey, line: Int64?)],
        _ origins: [NotificationKey: NotificationKey.Origin]
    ) -> Int {
        guard !origins.isEmpty else { return 0 }
        var claimed: Set<NotificationKey> = []
        var count = 0
        for span in spans {
            guard let origin = origins[span.key], origin.isUnfinishedLoadOfPath, origin.line == span.line,
                claimed.insert(span.key).inserted
            else { continue }
            count += 1
        }
        return count
    }

    private static let stagingCopy = "COPY churn_staging (\(NotificationRow.columns.joined(separator: ", "))) FROM STDIN"

    /// COPYs a batch of rows into staging. When PostgreSQL refuses some row (a value it cannot store), the batch is
    /// retried one row at a time and only the refused rows come back, as rejections.
    ///
    /// The rows go as text here, so that PostgreSQL's message for a refused row names the value as its text input
    /// reads it.
    private func copyRows(_ binaryRows: CopyBinary, count: Int, batch: [RawRecord]) throws -> [Rejection] {
        var rows = CopyText(reservingCapacity: binaryRows.count + binaryRows.count / 4)
        try rows.append(binaryRows: binaryRows.bytes[...], types: NotificationRow.types)
        do {
            try connection.withSavepoint("churn_batch") {
                try connection.copyIn(Self.stagingCopy) { writer in try writer.write(rows.bytes) }
            }
            return []
        } catch let error as PGError where error.isDataError {
            logger.debug("a batch was refused; retrying row by row", metadata: ["pg.message": "\(error.message)"])
        }
        var rejections: [Rejection] = []
        for line in rows.bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
            do {
                try connection.withSavepoint("churn_row") {
                    try connection.copyIn(Self.stagingCopy) { writer in
                        try writer.write(line)
                        try writer.write([0x0A])
                    }
                }
            } catch let error as PGError where error.isDataError {
                let sourceLine = Self.sourceLine(ofRow: line)
                let record = batch.first { $0.line == sourceLine }
                rejections.append(
                    Rejection(
                        reason: .rejectedByDatabase,
                        detail: "PostgreSQL refused the notification: \(error.message)",
                        line: sourceLine,
                        raw: Array((record?.bytes ?? []).prefix(options.quarantineRawBytes)),
                        rawLength: record?.length ?? 0
                    )
                )
            }
        }
        return rejections
    }

    /// The `source_line` column of an encoded row.
    private static func sourceLine(ofRow row: ArraySlice<UInt8>) -> Int {
        let text = row.withUnsafeBytes { CopyTextParser.field($0, at: NotificationRow.sourceLineField) }
        return text.flatMap { Int($0) } ?? 0
    }

    private func copyRejections(_ rejections: [Rejection], path: String, fileID: Int64, runID: Int64) throws {
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
            rows.endRow()
        }
        try connection.copyIn(
            """
            COPY churn_quarantine_staging (load_run_id, source_file_id, file, line, item, reason, detail, raw, raw_bytes,
                raw_truncated) FROM STDIN
            """
        ) { writer in try writer.write(rows.bytes) }
    }

    /// Text PostgreSQL can store: invalid UTF-8 becomes U+FFFD, and so does NUL.
    private static func storableText(_ bytes: [UInt8]) -> String {
        guard bytes.contains(0) else { return String(decoding: bytes, as: UTF8.self) }
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            if byte == 0 { cleaned += [0xEF, 0xBF, 0xBD] } else { cleaned.append(byte) }
        }
        return String(decoding: cleaned, as: UTF8.self)
    }

    /// Moves staged notifications into `notifications`, once per key (subscription and notificationUUID), and empties
    /// staging.
    /// - Returns: how many were new.
    private func mergeStaging() throws -> Int {
        let columns = NotificationRow.columns.joined(separator: ", ")
        let inserted = try connection.execute(
            """
            INSERT INTO notifications (\(columns))
            SELECT DISTINCT ON (original_transaction_id, notification_uuid) \(columns) FROM churn_staging
            ORDER BY original_transaction_id, notification_uuid, source_line
            ON CONFLICT (original_transaction_id, notification_uuid) DO NOTHING
            """
        ).affectedRows
        try connection.execute("TRUNCATE churn_staging")
        return inserted
    }

    /// Moves staged rejections into `quarantine`, skipping those already quarantined from identical content.
    private func mergeQuarantine(sha256: String, fileID: Int64) throws {
        try connection.execute(
            """
            INSERT INTO quarantine (load_run_id, source_file_id, file, line, item, reason, detail, raw, raw_bytes,
                raw_truncated)
            SELECT s.load_run_id, s.source_file_id, s.file, s.line, s.item, s.reason, s.detail, s.raw, s.raw_bytes,
                s.raw_truncated
            FROM churn_quarantine_staging s
            WHERE NOT EXISTS (
                SELECT 1 FROM quarantine q JOIN source_files f ON f.id = q.source_file_id
                WHERE f.sha256 = $1 AND f.id <> $2::bigint
                  AND q.line IS NOT DISTINCT FROM s.line AND q.item IS NOT DISTINCT FROM s.item
            )
            ORDER BY s.line, s.item
            """,
            [sha256, String(fileID)]
        )
        try connection.execute("TRUNCATE churn_quarantine_staging")
    }
}
