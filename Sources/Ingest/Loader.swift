import Crypto
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
/// ``writeBatches(from:displayName:decoder:fileID:runID:progress:)``). A line whose signed payload is byte-identical to
/// a stored notification's (by SHA-256, ``StoredPayloads``) is neither decoded nor verified again: the batch counts
/// it as that notification's copy, with the same bookkeeping as a verified copy. Each batch written is logged at `debug`
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
        let runID = try runs.begin(
            command: options.command, verified: options.policy.verifier != nil, acceptance: options.acceptance
        )
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
                        "file.not_verified_again": .stringConvertible(file.notVerifiedAgain),
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
            try mergeCopies(sha256: digest.sha256, fileID: fileID, path: displayName)
            try resolveAcceptedRefusals(sha256: digest.sha256, fileID: fileID, runID: runID)
            let quarantined = try mergeQuarantine(sha256: digest.sha256, fileID: fileID)
            try resolveStoredRefusals(runID: runID)
            FaultPoint.reach("load.file-merged")
            var file = LoadSummary.File(
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
            file.refusedBefore = counts.rejected - quarantined
            file.notVerifiedAgain = counts.notVerifiedAgain
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
    ///
    /// Before a batch is decoded, this task looks up the SHA-256 of its lines' signed payloads among the stored
    /// notifications (``StoredPayloads``), outside the write lock: the reader hands over the batch it decoded together
    /// with the next batch's hashes, this task answers the look-up first and then writes, and the workers decode the
    /// next batch, without the lines found, while it does.
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
        let (messages, messageInput) = AsyncStream.makeStream(of: ReaderMessage.self)
        let (requests, requestInput) = AsyncStream.makeStream(of: Void.self)
        let (answers, answerInput) = AsyncStream.makeStream(
            of: Result<[SHA256Digest: StoredPayloads.Match], any Error>.self)
        let options = options
        async let digest = Self.readBatches(
            from: source, options: options, decoder: decoder, requests: requests, answers: answers,
            into: messageInput
        )
        // Stops the reader if this task leaves early (a failed write): it finds no more requests or answers.
        defer {
            requestInput.finish()
            answerInput.finish()
        }
        var counts = FileCounts()
        var number = 0
        requestInput.yield()
        for await message in messages {
            let batch: EncodedBatch
            switch message {
            case .lookUp(let digests):
                let found = Result { try storedPayloads(digests) }
                answerInput.yield(found)
                _ = try found.get()
                continue
            case .batch(let next):
                batch = next
            }
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
                    "batch.records": .stringConvertible(batch.records.count + batch.identical.count),
                    "batch.stored": .stringConvertible(counts.inserted - storedBefore),
                    "batch.not_verified_again": .stringConvertible(batch.identical.count),
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
    /// batches, has the writer look up each batch's signed payloads among the stored notifications (`answers`),
    /// decodes the rest on the worker tasks, and yields the batch into `messages` when `requests` asks for one,
    /// right after the next batch's look-up.
    /// - Returns: the SHA-256 and size of the file as stored, once read to the end.
    private static func readBatches(
        from source: sending ByteSource,
        options: LoadOptions,
        decoder: RecordDecoder,
        requests: AsyncStream<Void>,
        answers: AsyncStream<Result<[SHA256Digest: StoredPayloads.Match], any Error>>,
        into messages: AsyncStream<ReaderMessage>.Continuation
    ) async throws -> SourceDigest {
        defer { messages.finish() }
        // Off the loading task's connection thread, onto the pool, and so are the decoding tasks.
        return try await withTaskExecutorPreference(globalConcurrentExecutor) {
            var reader = RecordReader(
                source: source, maxRecordBytes: options.maxRecordBytes, keepBytes: options.quarantineRawBytes
            )
            var requests = requests.makeAsyncIterator()
            var answers = answers.makeAsyncIterator()
            let looksUp = !options.checksStoredPayloadsAgain
            var records = try await readRecords(from: &reader, count: options.batchSize, hashing: looksUp)
            var stored = try await handOver(nil, lookingUp: records, to: messages, answers: &answers)
            var recordsRead = 0
            while !records.isEmpty {
                recordsRead += records.count
                let bytesRead = source.rawBytesRead
                let current = records
                let found = stored
                let decodeStarted = Date()
                // The next batch is read (and the file and its lines hashed) while the workers decode this one.
                async let decoded = encode(current, stored: found, decoder: decoder, workers: options.workers)
                let next = try await readRecords(from: &reader, count: options.batchSize, hashing: looksUp)
                var batch = await decoded
                batch.decodeStarted = decodeStarted
                batch.decodeFinished = Date()
                batch.bytesRead = bytesRead
                batch.recordsRead = recordsRead
                // The writer asks once it is done with the batch before: it stopped asking only if it failed.
                guard await requests.next() != nil else { throw CancellationError() }
                stored = try await handOver(batch, lookingUp: next, to: messages, answers: &answers)
                records = next
            }
            return SourceDigest(sha256: source.sha256Hex(), bytesRead: source.rawBytesRead)
        }
    }

    /// Hands the writer `batch` to write, after asking it which of `records`' signed payloads are stored; waits for
    /// the answer, which comes before the batch's write.
    /// - Returns: the stored notifications of `records`' digests (none when no record has one).
    private static func handOver(
        _ batch: EncodedBatch?,
        lookingUp records: [RawRecord],
        to messages: AsyncStream<ReaderMessage>.Continuation,
        answers: inout AsyncStream<Result<[SHA256Digest: StoredPayloads.Match], any Error>>.Iterator
    ) async throws -> [SHA256Digest: StoredPayloads.Match] {
        let digests = records.compactMap(\.signedPayloadSHA256)
        if !digests.isEmpty { messages.yield(.lookUp(digests)) }
        if let batch { messages.yield(.batch(batch)) }
        guard !digests.isEmpty else { return [:] }
        // The writer answers every look-up it takes; it stops answering only if it failed.
        guard let answer = await answers.next() else { throw CancellationError() }
        return try answer.get()
    }

    /// What the reader hands the writer.
    enum ReaderMessage: Sendable {
        /// The SHA-256 of a batch's signed payloads, to look up before the batch is decoded.
        case lookUp([SHA256Digest])
        /// A batch decoded, to write.
        case batch(EncodedBatch)
    }

    /// The stored notifications among `digests` that this load may count a line as a copy of without checking it
    /// (``LoadOptions/acceptedUnchecked(_:)``).
    private func storedPayloads(_ digests: [SHA256Digest]) throws -> [SHA256Digest: StoredPayloads.Match] {
        let started = Date()
        let stored = try StoredPayloads.lookUp(digests, connection: connection)
        let accepted = options.acceptedUnchecked(stored)
        logger.trace(
            "signed payloads looked up",
            metadata: [
                "lookup.payloads": .stringConvertible(digests.count), "lookup.stored": .stringConvertible(stored.count),
                "lookup.accepted": .stringConvertible(accepted.count),
                "lookup.start": .string(Self.timestamp(started)), "lookup.end": .string(Self.timestamp(Date())),
            ]
        )
        return accepted
    }

    /// The next `count` records, fewer at the end of the input.
    /// - Parameter hashing: whether to compute the SHA-256 of each line's signed payload, when the line holds one
    ///   in a shape read on its bytes (``RecordDecoder/signedPayloadToken(_:)``), to look it up. Child tasks hash the
    ///   lines read, a share at a time, while the reading goes on.
    private static func readRecords(
        from reader: inout RecordReader, count: Int, hashing: Bool
    ) async throws -> [RawRecord] {
        var records: [RawRecord] = []
        records.reserveCapacity(count)
        guard hashing else {
            while records.count < count, let record = try reader.next() { records.append(record) }
            return records
        }
        return try await withThrowingTaskGroup(of: (Int, [SHA256Digest?]).self) { group in
            var hashed = 0
            func hashRest() {
                let share = records[hashed...]
                group.addTask { (share.startIndex, share.map(Self.signedPayloadDigest)) }
                hashed = records.count
            }
            while records.count < count, let record = try reader.next() {
                records.append(record)
                if records.count - hashed == Self.hashingShare { hashRest() }
            }
            if hashed < records.count { hashRest() }
            for try await (start, digests) in group {
                for (offset, digest) in digests.enumerated() { records[start + offset].signedPayloadSHA256 = digest }
            }
            return records
        }
    }

    /// Lines a child task of ``readRecords(from:count:hashing:)`` hashes.
    private static let hashingShare = 64

    /// The SHA-256 of the signed payload a record holds, when it is whole and holds one in a shape read on its bytes.
    private static func signedPayloadDigest(_ record: RawRecord) -> SHA256Digest? {
        guard record.problem == nil, let token = RecordDecoder.signedPayloadToken(record.bytes) else { return nil }
        return StoredPayloads.digest(of: record.bytes[token])
    }

    private struct FileCounts {
        var records = 0
        /// Rows PostgreSQL accepted (stored now or already stored).
        var staged = 0
        /// Notifications this file added (``BatchPlan/added``): rows it stored that replace no stored copy.
        var inserted = 0
        /// Rows an unfinished load of this file stored before, from the same lines (``BatchPlan/resumed``).
        var resumed = 0
        var rejected = 0
        var rejectedByReason: [String: Int] = [:]
        var samples: [String] = []
        /// Lines counted as copies of stored notifications without being decoded or verified (``StoredPayloads``).
        var notVerifiedAgain = 0
    }

    /// A whole file's digest, as read.
    private struct SourceDigest: Sendable {
        var sha256: String
        var bytesRead: Int64
    }

    /// A batch decoded and encoded, ready for COPY.
    struct EncodedBatch: Sendable {
        /// The records decoded (the batch's lines but for ``identical``).
        var records: [RawRecord]
        var rows: CopyBinary
        var rowCount: Int
        var rejections: [Rejection]
        /// The lines byte-identical to stored notifications, not decoded: each as the row it would have been
        /// (key, line and signed date; no bytes), in file order.
        var identical: [BatchPlan.Row] = []
        /// Bytes of the file read when the batch was cut (for progress).
        var bytesRead: Int64 = 0
        /// Records of the file read up to and including this batch (for progress).
        var recordsRead = 0
        /// When the batch's decoding started and ended (for the log).
        var decodeStarted = Date.distantPast
        var decodeFinished = Date.distantPast
    }

    /// Decodes a batch on the worker tasks, but for the lines byte-identical to the `stored` notifications, and
    /// joins the results in input order.
    private static func encode(
        _ batch: [RawRecord], stored: [SHA256Digest: StoredPayloads.Match], decoder: RecordDecoder, workers: Int
    ) async -> EncodedBatch {
        var undecoded: [RawRecord] = []
        var identical: [BatchPlan.Row] = []
        for record in batch {
            if let digest = record.signedPayloadSHA256, let match = stored[digest] {
                identical.append(
                    BatchPlan.Row(range: 0..<0, key: match.key, line: Int64(record.line), signedDate: match.signedDate)
                )
            } else {
                undecoded.append(record)
            }
        }
        let decoded = await decodeInParallel(undecoded, decoder: decoder, workers: workers)
        var encoded = EncodedBatch(
            records: undecoded, rows: CopyBinary(reservingCapacity: decoded.reduce(0) { $0 + $1.rows.count }),
            rowCount: 0,
            rejections: [], identical: identical
        )
        for record in decoded {
            encoded.rows.append(rows: record.rows)
            encoded.rowCount += record.rowCount
            encoded.rejections.append(contentsOf: record.rejections)
        }
        return encoded
    }

    /// Writes one encoded batch: its rows into `notifications` (each notification's earliest copy, replacing a stored
    /// copy signed later), its further copies into the copies' staging table, its rejections into the quarantine's.
    private func write(
        _ batch: EncodedBatch, path: String, fileID: Int64, runID: Int64, counts: inout FileCounts
    ) throws {
        var rejections = batch.rejections
        if batch.rowCount > 0 || !batch.identical.isEmpty {
            let (plan, refused) = try storeRows(batch, path: path, fileID: fileID)
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
        try copyRejections(rejections, path: path, fileID: fileID, runID: runID)
        counts.rejected += rejections.count
        for rejection in rejections {
            counts.rejectedByReason[rejection.reason.rawValue, default: 0] += 1
            if counts.samples.count < 20 {
                counts.samples.append(
                    "\(rejection.location(in: path)): \(rejection.reason.rawValue): \(rejection.detail)")
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
    /// serves one batch's transaction; the quarantine's and the copies' keep a file's rejections and further copies
    /// across its batches' commits until the file's last transaction merges them, so a file that never completes adds
    /// no quarantine rows and no copies.
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
            try connection.execute(
                "CREATE TEMP TABLE IF NOT EXISTS churn_copies_staging (LIKE notification_copies) ON COMMIT PRESERVE ROWS"
            )
            stagingReady = true
        }
        try connection.execute("TRUNCATE churn_quarantine_staging, churn_copies_staging")
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
    private func storeRows(_ batch: EncodedBatch, path: String, fileID: Int64) throws -> (BatchPlan, [Rejection]) {
        let bytes = batch.rows.bytes
        var rows = Self.planRows(bytes)
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
                    try stageCopies(plan.copies.map { planned[$0] }, fileID: fileID)
                    return (plan, refused)
                }
                try connection.withSavepoint("churn_batch") {
                    try moveToCopies(plan.replaced, path: path, fileID: fileID)
                    guard !plan.stored.isEmpty else { return }
                    try connection.copyIn(Self.directCopy) { writer in
                        if plan.stored.count == rows.count, rows.count == batch.rowCount {
                            try writer.write(bytes)
                        } else {
                            for index in plan.stored { try writer.write(bytes[rows[index].range]) }
                        }
                    }
                }
                try stageCopies(plan.copies.map { planned[$0] }, fileID: fileID)
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

    /// Each encoded row's bytes, key (the original_transaction_id, and the notificationUUID in lower case, the form
    /// PostgreSQL prints), line and signed date. The UUID is the row's first field, checked by ``UUIDText`` when the
    /// row was encoded.
    static func planRows(_ bytes: [UInt8]) -> [BatchPlan.Row] {
        CopyBinary.rowRanges(bytes).map { range in
            let fields = CopyBinary.fields(ofRow: bytes[range])
            func field(_ index: Int) -> ArraySlice<UInt8> {
                index < fields.count ? fields[index] ?? [] : []
            }
            let uuid = CopyBinary.uuidText(field(0))
            let subscription = String(decoding: field(NotificationRow.subscriptionField), as: UTF8.self)
            return BatchPlan.Row(
                range: range, key: NotificationKey(subscription: subscription, uuid: uuid),
                line: CopyBinary.int64(field(NotificationRow.sourceLineField), at: 0),
                signedDate: CopyBinary.int64(field(NotificationRow.signedDateField), at: 0).map {
                    ($0 + CopyBinary.postgresEpochMicroseconds) / 1000
                } ?? 0
            )
        }
    }

    /// Moves stored notifications into `notification_copies`: a row of the batch signed earlier replaces each. A
    /// copy stored by an unfinished load of the same path counts as this file's, since the load that completes the
    /// file records the file's copies anew (``mergeCopies(sha256:fileID:path:)``).
    private func moveToCopies(_ keys: [NotificationKey], path: String, fileID: Int64) throws {
        guard !keys.isEmpty else { return }
        try connection.execute(
            """
            WITH moved AS (
                DELETE FROM notifications n
                USING unnest($1::text[], $2::uuid[]) AS k (original_transaction_id, notification_uuid)
                WHERE n.original_transaction_id = k.original_transaction_id
                  AND n.notification_uuid = k.notification_uuid
                RETURNING n.original_transaction_id, n.notification_uuid, n.signed_date, n.source_file_id, n.source_line
            )
            INSERT INTO notification_copies (original_transaction_id, notification_uuid, signed_date, source_file_id,
                source_line)
            SELECT m.original_transaction_id, m.notification_uuid, m.signed_date,
                   CASE WHEN f.sha256 = '' AND f.path = $3 THEN $4::bigint ELSE m.source_file_id END, m.source_line
            FROM moved m JOIN source_files f ON f.id = m.source_file_id
            """,
            [
                PGArray.literal(keys.map(\.subscription)), "{" + keys.map(\.uuid).joined(separator: ",") + "}", path,
                String(fileID),
            ]
        )
    }

    /// Stages a batch's further copies; the file's last transaction records them (``mergeCopies(sha256:fileID:path:)``).
    private func stageCopies(_ rows: [BatchPlan.Row], fileID: Int64) throws {
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

    private static let stagingCopy =
        "COPY churn_staging (\(NotificationRow.columns.joined(separator: ", "))) FROM STDIN"

    /// Finds the rows PostgreSQL refuses: COPYs them into staging as text, one at a time once the whole is refused,
    /// and empties staging again.
    ///
    /// The rows go as text here, so that PostgreSQL's message for a refused row names the value as its text input
    /// reads it.
    /// - Returns: each refused row's index among `binaryRows`, with its rejection.
    private func refusedRows(
        _ binaryRows: [ArraySlice<UInt8>], batch: [RawRecord]
    ) throws -> [(index: Int, rejection: Rejection)] {
        var rows = CopyText(reservingCapacity: binaryRows.reduce(0) { $0 + $1.count } * 5 / 4)
        for row in binaryRows { try rows.append(binaryRows: row, types: NotificationRow.types) }
        defer { _ = try? connection.execute("TRUNCATE churn_staging") }
        do {
            try connection.withSavepoint("churn_rows") {
                try connection.copyIn(Self.stagingCopy) { writer in try writer.write(rows.bytes) }
            }
            return []
        } catch let error as PGError where error.isDataError {
            logger.debug("a batch was refused; retrying row by row", metadata: ["pg.message": "\(error.message)"])
        }
        var refused: [(index: Int, rejection: Rejection)] = []
        for (index, line) in rows.bytes.split(separator: 0x0A, omittingEmptySubsequences: true).enumerated() {
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
                refused.append(
                    (
                        index,
                        Rejection(
                            reason: .rejectedByDatabase,
                            detail: "PostgreSQL refused the notification: \(error.message)",
                            line: sourceLine,
                            raw: Array((record?.bytes ?? []).prefix(options.quarantineRawBytes)),
                            rawLength: record?.length ?? 0
                        )
                    )
                )
            }
        }
        return refused
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
    private static func storableText(_ bytes: [UInt8]) -> String {
        guard bytes.contains(0) else { return String(decoding: bytes, as: UTF8.self) }
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            if byte == 0 { cleaned += [0xEF, 0xBF, 0xBD] } else { cleaned.append(byte) }
        }
        return String(decoding: cleaned, as: UTF8.self)
    }

    /// Records the file's staged copies in `notification_copies` and empties their staging. A copy from the same line
    /// of a file with the same content (a load of the file before, stored whole) is recorded once, as either its
    /// stored notification or its copy; the copies an unfinished load of the same path recorded give way to the
    /// file's own.
    private func mergeCopies(sha256: String, fileID: Int64, path: String) throws {
        try connection.execute(
            """
            DELETE FROM notification_copies c USING source_files f
            WHERE f.id = c.source_file_id AND f.sha256 = '' AND f.path = $1 AND f.id <> $2::bigint
            """,
            [path, String(fileID)]
        )
        try connection.execute(
            """
            INSERT INTO notification_copies (original_transaction_id, notification_uuid, signed_date, source_file_id,
                source_line)
            SELECT s.original_transaction_id, s.notification_uuid, s.signed_date, s.source_file_id, s.source_line
            FROM churn_copies_staging s
            WHERE NOT EXISTS (
                SELECT 1 FROM notification_copies c JOIN source_files f ON f.id = c.source_file_id
                WHERE f.sha256 = $1 AND f.id <> $2::bigint AND c.source_line IS NOT DISTINCT FROM s.source_line
                  AND c.notification_uuid = s.notification_uuid
            )
            AND NOT EXISTS (
                SELECT 1 FROM notifications n JOIN source_files f ON f.id = n.source_file_id
                WHERE n.original_transaction_id = s.original_transaction_id AND n.notification_uuid = s.notification_uuid
                  AND f.sha256 = $1 AND f.id <> $2::bigint AND n.source_line IS NOT DISTINCT FROM s.source_line
            )
            """,
            [sha256, String(fileID)]
        )
        // A load of the same content under another path that completed first may have recorded as copies lines that
        // this file stored (the two ran at once): each line is one copy or the stored row, once.
        try connection.execute(
            """
            DELETE FROM notification_copies c USING source_files f
            WHERE f.id = c.source_file_id AND f.sha256 = $1 AND f.id <> $2::bigint
              AND EXISTS (
                  SELECT 1 FROM notifications n
                  WHERE n.original_transaction_id = c.original_transaction_id
                    AND n.notification_uuid = c.notification_uuid AND n.source_file_id = $2::bigint
                    AND n.source_line IS NOT DISTINCT FROM c.source_line
              )
            """,
            [sha256, String(fileID)]
        )
        try connection.execute("TRUNCATE churn_copies_staging")
    }

    /// Resolves the refusals of the same lines of files with the same content that this load accepted (its own
    /// refusals are still staged, so a line not among them was accepted).
    private func resolveAcceptedRefusals(sha256: String, fileID: Int64, runID: Int64) throws {
        try connection.execute(
            """
            UPDATE quarantine q SET resolved_by_run = $3::bigint
            FROM source_files f
            WHERE f.id = q.source_file_id AND f.sha256 = $1 AND f.id <> $2::bigint AND q.resolved_by_run IS NULL
              AND NOT EXISTS (
                  SELECT 1 FROM churn_quarantine_staging s
                  WHERE s.line IS NOT DISTINCT FROM q.line AND s.item IS NOT DISTINCT FROM q.item
              )
            """,
            [sha256, String(fileID), String(runID)]
        )
    }

    /// Resolves the refusals for a mendable reason (``Rejection/Reason/mendable``) whose notification is now stored,
    /// by this load or an earlier one. A bad signature stays: the stored notification is not the tampered copy.
    private func resolveStoredRefusals(runID: Int64) throws {
        try connection.execute(
            """
            UPDATE quarantine q SET resolved_by_run = $1::bigint
            WHERE q.resolved_by_run IS NULL AND q.notification_uuid IS NOT NULL AND q.reason = ANY($2::text[])
              AND EXISTS (
                  SELECT 1 FROM notifications n
                  WHERE n.original_transaction_id = q.original_transaction_id
                    AND n.notification_uuid = q.notification_uuid
              )
            """,
            [String(runID), PGArray.literal(Rejection.Reason.mendable.map(\.rawValue).sorted())]
        )
    }

    /// Moves staged rejections into `quarantine`, skipping those quarantined, and not resolved, from identical content.
    /// - Returns: how many it moved.
    private func mergeQuarantine(sha256: String, fileID: Int64) throws -> Int {
        let moved = try connection.execute(
            """
            INSERT INTO quarantine (load_run_id, source_file_id, file, line, item, reason, detail, raw, raw_bytes,
                raw_truncated, original_transaction_id, notification_uuid, signed_date, environment)
            SELECT s.load_run_id, s.source_file_id, s.file, s.line, s.item, s.reason, s.detail, s.raw, s.raw_bytes,
                s.raw_truncated, s.original_transaction_id, s.notification_uuid, s.signed_date, s.environment
            FROM churn_quarantine_staging s
            WHERE NOT EXISTS (
                SELECT 1 FROM quarantine q JOIN source_files f ON f.id = q.source_file_id
                WHERE f.sha256 = $1 AND f.id <> $2::bigint AND q.resolved_by_run IS NULL
                  AND q.line IS NOT DISTINCT FROM s.line AND q.item IS NOT DISTINCT FROM s.item
            )
            ORDER BY s.line, s.item
            """,
            [sha256, String(fileID)]
        ).affectedRows
        try connection.execute("TRUNCATE churn_quarantine_staging")
        return moved
    }
}
