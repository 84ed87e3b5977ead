import Crypto
import Foundation
import Logging
import PGClient
import Store

/// A file's load, batch by batch, in input order: a child task reads and decodes (``BatchReader``) while this task,
/// the only one that uses the connection, answers the reader's look-ups and writes each batch (``BatchWriter``) in a
/// transaction of its own; consecutive batches whose lines are all stored notifications' copies share one, up to
/// ``storedLinesPerWrite`` lines.
///
/// The reader decodes each batch while this task writes the one before, and reads the next batch while the workers
/// decode, so a batch is handed over once the next one is read (from a pipe, once its input has come). It hands a
/// batch over only when this task asks for the next, so at most three batches of lines are in memory (one being
/// written, one being decoded, one being read), whatever the file's size; the batches set aside to be written
/// together hold no lines, only each line's key and signed date. The connection never leaves this task, and the
/// write lock is held only while a batch is checked and written.
///
/// Before a batch is decoded, this task looks up the SHA-256 of its lines' signed payloads among the stored
/// notifications (``StoredPayloads``), outside the write lock: the reader asks as soon as it has read the batch, this
/// task answers the look-ups and writes the batches in the order they were sent (a batch's look-up after the batch
/// two before it is written), and the workers decode the batch, without the lines found, once the answer comes. Each
/// batch written is logged at `debug` (`batch written`, with when its decoding and its write started and ended, when
/// it got the write lock, and how many batches its transaction carried).
struct BatchPipeline {
    let connection: PGConnection
    let options: LoadOptions
    let decoder: RecordDecoder
    let logger: Logger

    /// Reads, decodes and writes one file.
    /// - Parameter progress: called after each batch is written with the bytes and records read up to that batch
    ///   and the rejections written so far.
    /// - Returns: the file's SHA-256 and size once read to the end; the writer holds the file's counts.
    /// - Throws: the reader's or the writer's failure.
    func run(
        from source: sending ByteSource,
        writer: BatchWriter,
        progress: (_ bytesRead: Int64, _ records: Int, _ rejected: Int) -> Void
    ) async throws -> SourceDigest {
        let (messages, messageInput) = AsyncStream.makeStream(of: BatchReader.Message.self)
        let (requests, requestInput) = AsyncStream.makeStream(of: Void.self)
        let (answers, answerInput) = AsyncStream.makeStream(of: BatchReader.Answer.self)
        let options = options
        let decoder = decoder
        async let digest = BatchReader.read(
            from: source, options: options, decoder: decoder, requests: requests, answers: answers,
            into: messageInput
        )
        // Stops the reader if this task leaves early (a failed write): it finds no more requests or answers.
        defer {
            requestInput.finish()
            answerInput.finish()
        }
        var number = 0
        // Batches whose lines are all stored notifications' copies, set aside to be written in one transaction.
        var setAside: [EncodedBatch] = []
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
            if batch.hasStoredLinesOnly {
                setAside.append(batch)
                if setAside.reduce(0, { $0 + $1.identical.count }) < Self.storedLinesPerWrite {
                    requestInput.yield()
                    continue
                }
                try write(setAside, with: writer, after: &number, progress: progress)
                setAside = []
                requestInput.yield()
                continue
            }
            try write(setAside, with: writer, after: &number, progress: progress)
            setAside = []
            try write([batch], with: writer, after: &number, progress: progress)
            requestInput.yield()
        }
        try write(setAside, with: writer, after: &number, progress: progress)
        // The reader's failure, if it stopped early, comes out here.
        return try await digest
    }

    /// The most lines of stored notifications' copies written in one transaction: enough to spare most of the
    /// transactions, few enough that their writes overlap the reading, as other batches' writes do.
    static let storedLinesPerWrite = 2_048

    /// Writes `batches` in one transaction (``BatchWriter/write(_:)``) and logs each as written: one batch, or
    /// batches whose lines are all stored notifications' copies (``EncodedBatch/hasStoredLinesOnly``), which store
    /// nothing and so do not each pay for a transaction of their own.
    /// - Parameter number: the number of the last batch written, advanced by each of `batches`.
    private func write(
        _ batches: [EncodedBatch],
        with writer: BatchWriter,
        after number: inout Int,
        progress: (_ bytesRead: Int64, _ records: Int, _ rejected: Int) -> Void
    ) throws {
        guard let last = batches.last else { return }
        let storedBefore = writer.counts.inserted
        let writeStarted = Date()
        let locked = try writer.write(batches.count == 1 ? last : EncodedBatch(joining: batches))
        let written = Date()
        FaultPoint.reach("load.batch-committed")
        for batch in batches {
            number += 1
            logger.debug(
                "batch written",
                metadata: [
                    "file.path": "\(writer.path)", "batch.number": .stringConvertible(number),
                    "batch.records": .stringConvertible(batch.records.count + batch.identical.count),
                    "batch.stored": .stringConvertible(batches.count == 1 ? writer.counts.inserted - storedBefore : 0),
                    "batch.not_verified_again": .stringConvertible(batch.identical.count),
                    "batch.decode_start": .string(Self.timestamp(batch.decodeStarted)),
                    "batch.decode_end": .string(Self.timestamp(batch.decodeFinished)),
                    "batch.write_start": .string(Self.timestamp(writeStarted)),
                    "batch.locked": .string(Self.timestamp(locked)),
                    "batch.write_end": .string(Self.timestamp(written)),
                    "batch.written_with": .stringConvertible(batches.count),
                ]
            )
        }
        progress(last.bytesRead, last.recordsRead, writer.counts.rejected)
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

    /// A moment as ISO 8601 in UTC with milliseconds, as the log's own `time` field.
    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
