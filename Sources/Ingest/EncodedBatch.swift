import Crypto
import Foundation
import PGClient
import Synchronization

/// A batch decoded and encoded, ready for COPY: its rows in binary COPY format, its rejections, and the lines it did
/// not decode because they are byte-identical to stored notifications.
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

    /// Decodes a batch on `workers` child tasks, but for the lines byte-identical to the `stored` notifications, and
    /// joins the results in input order.
    static func decoding(
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
}

extension EncodedBatch {
    /// Whether every line of the batch is byte-identical to a stored notification's: nothing to decode, store or
    /// quarantine, only copies to count.
    var hasStoredLinesOnly: Bool { records.isEmpty && rowCount == 0 && rejections.isEmpty && !identical.isEmpty }

    /// Consecutive batches of stored lines only (``hasStoredLinesOnly``) as one, their lines in file order; its
    /// progress figures are the last batch's.
    init(joining batches: [EncodedBatch]) {
        self.init(
            records: [], rows: CopyBinary(), rowCount: 0, rejections: [], identical: batches.flatMap(\.identical),
            bytesRead: batches.last?.bytesRead ?? 0, recordsRead: batches.last?.recordsRead ?? 0,
            decodeStarted: batches.first?.decodeStarted ?? .distantPast,
            decodeFinished: batches.last?.decodeFinished ?? .distantPast
        )
    }
}

/// Hands out share numbers 0, 1, 2, … to the decoding tasks, each once.
private final class ShareCounter: Sendable {
    private let taken = Atomic<Int>(0)

    func take() -> Int {
        taken.wrappingAdd(1, ordering: .relaxed).oldValue
    }
}
