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
    /// for one.
    ///
    /// A batch's look-up is asked as soon as it is read, and the batch is decoded once the answer comes, while the
    /// next batch is read: so the look-up's round trip overlaps the reading. The writer takes the messages in the
    /// order they are sent, each batch's look-up after the batch two before it and before the batch before it, so
    /// a look-up finds the rows of every batch written two or more before its own.
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
            let looksUp = !options.checksStoredPayloadsAgain
            var records = try await readRecords(from: &reader, count: options.batchSize, hashing: looksUp)
            var asked = askLookUp(records, to: messages)
            var recordsRead = 0
            while !records.isEmpty {
                recordsRead += records.count
                let bytesRead = source.rawBytesRead
                let current = records
                let currentAsked = asked
                let decodeStarted = Date()
                // The next batch is read (and the file and its lines hashed) while the writer looks this one's lines
                // up and the workers decode it.
                async let decoded = decode(
                    current, lookedUp: currentAsked, answers: answers, decoder: decoder, workers: options.workers
                )
                let next = try await readRecords(from: &reader, count: options.batchSize, hashing: looksUp)
                asked = askLookUp(next, to: messages)
                var batch = try await decoded
                batch.decodeStarted = decodeStarted
                batch.decodeFinished = Date()
                batch.bytesRead = bytesRead
                batch.recordsRead = recordsRead
                // The writer asks once it is done with the batch before: it stopped asking only if it failed.
                guard await requests.next() != nil else { throw CancellationError() }
                messages.yield(.batch(batch))
                records = next
            }
            return SourceDigest(sha256: source.sha256Hex(), bytesRead: source.rawBytesRead)
        }
    }

    /// Asks the writer which of `records`' signed payloads are stored.
    /// - Returns: whether it asked: not when no record has a digest.
    private static func askLookUp(_ records: [RawRecord], to messages: AsyncStream<Message>.Continuation) -> Bool {
        let digests = records.compactMap(\.signedPayloadSHA256)
        guard !digests.isEmpty else { return false }
        messages.yield(.lookUp(digests))
        return true
    }

    /// Decodes `records` but for the lines byte-identical to stored notifications, once the writer has answered
    /// their look-up (the next answer in `answers`, when ``askLookUp(_:to:)`` asked one).
    ///
    /// Each batch's decoding is awaited before the next one's starts, so one task at a time takes an answer.
    private static func decode(
        _ records: [RawRecord], lookedUp: Bool, answers: AsyncStream<Answer>, decoder: RecordDecoder, workers: Int
    ) async throws -> EncodedBatch {
        var stored: [SHA256Digest: StoredPayloads.Match] = [:]
        if lookedUp {
            var iterator = answers.makeAsyncIterator()
            // The writer answers every look-up it takes; it stops answering only if it failed.
            guard let answer = await iterator.next() else { throw CancellationError() }
            stored = try answer.get()
        }
        return await EncodedBatch.decoding(records, stored: stored, decoder: decoder, workers: workers)
    }

    /// The next `count` records, fewer at the end of the input.
    /// - Parameter hashing: whether to compute the SHA-256 of each line's signed payload, when the line holds one
    ///   in a shape read on its bytes (``RecordShape/signedPayloadToken(_:)``), to look it up. Child tasks hash the
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
                group.addTask {
                    var digester = SignedPayloadDigester()
                    return (share.startIndex, share.map { signedPayloadDigest($0, with: &digester) })
                }
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
    private static func signedPayloadDigest(
        _ record: RawRecord, with digester: inout SignedPayloadDigester
    ) -> SHA256Digest? {
        guard record.problem == nil, let token = RecordShape.signedPayloadToken(record.bytes) else { return nil }
        return digester.digest(of: record.bytes, token: token)
    }
}

/// A whole file's digest, as read.
struct SourceDigest: Sendable {
    /// The SHA-256 of the file's bytes as stored (compressed or not), lowercase hex.
    var sha256: String
    var bytesRead: Int64
}
