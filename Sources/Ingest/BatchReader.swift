import Crypto
import Foundation

/// The reading side of a file's load (``BatchPipeline``): reads the records in batches (``RecordReader``), hashes
/// each line's signed payload as it goes, has the writer look the hashes up among the stored notifications, decodes
/// the rest of each batch on the worker tasks (``EncodedBatch/decoding(_:stored:decoder:workers:)``), and hands each
/// batch over when the writer asks for one.
///
/// It runs on Swift's cooperative pool, off the connection's thread, and never touches the connection: what it needs
/// of the database comes as answers to the look-ups it asks for.
enum BatchReader {
    /// What the reader hands the writer.
    enum Message: Sendable {
        /// The SHA-256 of a batch's signed payloads, to look up before the batch is decoded.
        case lookUp([SHA256Digest])
        /// A batch decoded, to write.
        case batch(EncodedBatch)
    }

    /// The writer's answer to a look-up: the stored notifications the load may count lines as copies of.
    typealias Answer = Result<[SHA256Digest: StoredPayloads.Match], any Error>

    /// Reads `source` in batches, has the writer look up each batch's signed payloads among the stored notifications
    /// (`answers`), decodes the rest on the worker tasks, and yields the batch into `messages` when `requests` asks
    /// for one, right after the next batch's look-up.
    /// - Returns: the SHA-256 and size of the file as stored, once read to the end.
    /// - Throws: ``IngestError`` for input that cannot be read, or `CancellationError` when the writer stopped.
    static func read(
        from source: sending ByteSource,
        options: LoadOptions,
        decoder: RecordDecoder,
        requests: AsyncStream<Void>,
        answers: AsyncStream<Answer>,
        into messages: AsyncStream<Message>.Continuation
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
                async let decoded = EncodedBatch.decoding(
                    current, stored: found, decoder: decoder, workers: options.workers
                )
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
        to messages: AsyncStream<Message>.Continuation,
        answers: inout AsyncStream<Answer>.Iterator
    ) async throws -> [SHA256Digest: StoredPayloads.Match] {
        let digests = records.compactMap(\.signedPayloadSHA256)
        if !digests.isEmpty { messages.yield(.lookUp(digests)) }
        if let batch { messages.yield(.batch(batch)) }
        guard !digests.isEmpty else { return [:] }
        // The writer answers every look-up it takes; it stops answering only if it failed.
        guard let answer = await answers.next() else { throw CancellationError() }
        return try answer.get()
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
}

/// A whole file's digest, as read.
struct SourceDigest: Sendable {
    /// The SHA-256 of the file's bytes as stored (compressed or not), lowercase hex.
    var sha256: String
    var bytesRead: Int64
}
