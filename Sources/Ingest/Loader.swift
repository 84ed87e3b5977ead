import Foundation
import Logging
import PGClient
import Store

/// Loads export files into PostgreSQL: streaming reads, parallel decoding and verification, and COPY of each batch
/// straight into `notifications`, so each `notificationUUID` is stored once. It records the load run and composes,
/// for each file, the parts that do the work:
///
/// - ``FileBookkeeping``: the file's `source_files` row, inserted when the file starts, and its last transaction,
///   which records its copies and quarantined inputs and gives the row the file's SHA-256 once every batch is stored;
/// - ``BatchPipeline``: the file's batches, read and decoded by a child task (``BatchReader``, ``EncodedBatch``)
///   while this task looks up which lines are stored already (``StoredPayloads``) and writes the batch before
///   (``BatchWriter``, deciding by ``BatchPlan``);
/// - ``QuarantineWriter`` and ``StagingTables``: the file's rejections and further copies, staged across its batches'
///   commits until its last transaction merges them.
///
/// Each batch is a short transaction of its own (consecutive batches of stored lines only share one): it takes the
/// write lock (``WriteLock``, transaction-scoped, waited for inside PostgreSQL), asks which of its notificationUUIDs
/// are stored already, COPYs the others into `notifications` and commits. Only that check-and-write is serialized:
/// loads running at once, in one process or on several machines, read, decode and verify in parallel. Each batch's
/// check sees every row committed before it took the lock, and no load holds uncommitted rows while it waits for the
/// lock, so none waits for another's rows or deadlocks with it.
///
/// A file killed mid-way keeps the batches it committed, under its `source_files` row with the empty `sha256`;
/// loading it again stores what is missing, so each notification is still stored once, and counts the kept rows as
/// the file's own (``LoadSummary/File/resumed``), not as duplicates, so the file's counts are those of a load that was
/// never killed.
///
/// A line whose signed payload is byte-identical to a stored notification's (by SHA-256, ``StoredPayloads``) is
/// neither decoded nor verified again: the batch counts it as that notification's copy, with the same bookkeeping as a
/// verified copy. A whole file whose bytes are those of a file stored whole before, by a run that accepted as this
/// one does and refused nothing, is only hashed (``StoredWholeFile``).
package final class Loader {
    private let connection: PGConnection
    private let options: LoadOptions
    private let logger: Logger
    private let staging: StagingTables
    private let lock: WriteLock

    package init(connection: PGConnection, options: LoadOptions, logger: Logger) {
        self.connection = connection
        self.options = options
        self.logger = logger
        self.staging = StagingTables(connection: connection)
        self.lock = WriteLock(connection: connection)
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

    /// The size of a file for progress; nil for standard input or a file whose size cannot be read.
    private static func size(ofFile path: String) -> Int64? {
        guard path != "-" else { return nil }
        return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? nil
    }

    /// The file's record when its bytes are those of a file stored whole by a run that accepted as this one does
    /// (``StoredWholeFile``); nil, after reading it once to hash it only when such a file of its size exists, when
    /// its lines must be read.
    private func storedWhole(_ path: String, size: Int64?, runID: Int64) throws -> LoadSummary.File? {
        guard path != "-", !options.checksStoredPayloadsAgain, let size, size > 0 else { return nil }
        let candidates = try StoredWholeFile.candidates(
            size: size, acceptance: options.acceptance, connection: connection)
        guard !candidates.isEmpty else { return nil }
        let digest = try StoredWholeFile.digest(ofFile: path)
        guard digest.bytesRead == size, let earlier = candidates.first(where: { $0.sha256 == digest.sha256 }) else {
            return nil
        }
        logger.info(
            "file stored whole before: not read again",
            metadata: ["file.path": "\(path)", "file.first_run": .stringConvertible(earlier.firstRun)])
        return try FileBookkeeping(connection: connection, lock: lock).recordStoredWhole(
            path: path, runID: runID, digest: digest, earlier: earlier)
    }

    /// Loads one file: its `source_files` row, then its batches, each committed on its own, then the file's
    /// bookkeeping, committed once every batch is.
    private func loadFile(
        _ path: String,
        size fileSize: Int64?,
        runID: Int64,
        progress: (Int64, Int64?, Int, Int) -> Void
    ) async throws -> LoadSummary.File {
        if let file = try storedWhole(path, size: fileSize, runID: runID) {
            progress(file.sizeBytes, fileSize, file.records, 0)
            return file
        }
        let source = try ByteSource(path: path)
        let displayName = source.displayName
        try staging.prepareForFile()
        let bookkeeping = FileBookkeeping(connection: connection, lock: lock)
        let fileID = try bookkeeping.begin(path: displayName, runID: runID)
        let decoder = RecordDecoder(
            policy: options.policy, fileID: fileID, loadRunID: runID, keepBytes: options.quarantineRawBytes
        )
        let writer = BatchWriter(
            connection: connection, lock: lock, logger: logger, path: displayName, fileID: fileID, runID: runID,
            keepBytes: options.quarantineRawBytes
        )
        let pipeline = BatchPipeline(connection: connection, options: options, decoder: decoder, logger: logger)
        let digest = try await pipeline.run(from: source, writer: writer) { bytesRead, records, rejected in
            progress(bytesRead, fileSize, records, rejected)
        }
        return try bookkeeping.finish(
            path: displayName, fileID: fileID, runID: runID, counts: writer.counts, digest: digest
        )
    }
}
