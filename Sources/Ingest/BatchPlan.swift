import PGClient

/// What the loader does with one batch's rows, given the copies already stored: which rows it stores, which stored
/// rows they replace, which rows are further copies, and which an unfinished load of the same file stored already.
///
/// Of the copies of one notification (one ``NotificationKey``), the stored row is the one signed earliest; copies
/// signed at the same time are the same notification, so the one stored first (else the first in the file) stays. A
/// row signed earlier than the stored copy takes its place, and the stored copy becomes a further copy (METRICS.md,
/// "Copies").
struct BatchPlan: Equatable, Sendable {
    /// One encoded row of the batch: where its bytes are, its key, its line and its `signed_date`.
    struct Row: Equatable, Sendable {
        var range: Range<Int>
        var key: NotificationKey
        var line: Int64?
        /// `signed_date`, Unix milliseconds.
        var signedDate: Int64
    }

    /// The rows to store, by their index in the batch, in batch order.
    var stored: [Int] = []
    /// Stored notifications that rows of the batch replace (they were signed later).
    var replaced: [NotificationKey] = []
    /// Rows of the batch that are further copies, by index, in batch order.
    var copies: [Int] = []
    /// Rows an unfinished load of the same file stored before, from the same lines: a killed attempt's rows, which
    /// are the file's own and no copies. Each stored row counts once, for the first of the batch's rows that matches
    /// it.
    var resumed = 0

    /// Notifications this batch adds: rows stored that replace nothing.
    var added: Int { stored.count - replaced.count }

    /// Decides each row of a batch.
    /// - Parameters:
    ///   - rows: the batch's rows, in file order.
    ///   - origins: where the stored copies of the batch's keys came from.
    init(rows: [Row], origins: [NotificationKey: NotificationKey.Origin]) {
        // The earliest copy of each key so far: a row of the batch (its index), or the stored one (nil).
        var earliest: [NotificationKey: (index: Int?, signedDate: Int64)] = [:]
        for (key, origin) in origins { earliest[key] = (nil, origin.signedDate) }
        var claimed: Set<NotificationKey> = []
        var replaced: Set<NotificationKey> = []
        var copies: [Int] = []
        for (index, row) in rows.enumerated() {
            if let origin = origins[row.key], origin.isUnfinishedLoadOfPath, origin.line == row.line,
                claimed.insert(row.key).inserted
            {
                resumed += 1
                continue
            }
            guard let current = earliest[row.key] else {
                earliest[row.key] = (index, row.signedDate)
                continue
            }
            if row.signedDate < current.signedDate {
                if let earlier = current.index {
                    copies.append(earlier)
                } else {
                    replaced.insert(row.key)
                }
                earliest[row.key] = (index, row.signedDate)
            } else {
                copies.append(index)
            }
        }
        stored = earliest.values.compactMap(\.index).sorted()
        self.replaced = replaced.sorted { ($0.subscription, $0.uuid) < ($1.subscription, $1.uuid) }
        self.copies = copies.sorted()
    }
}

extension BatchPlan {
    /// Each encoded row's bytes, key (the original_transaction_id, and the notificationUUID in lower case, the form
    /// PostgreSQL prints), line and signed date. The UUID is the row's first field, checked by ``UUIDText`` when the
    /// row was encoded.
    static func rows(in bytes: [UInt8]) -> [Row] {
        // One buffer of field ranges for every row, and a slice made only of the four fields read.
        var fields: [Range<Int>?] = []
        return CopyBinary.rowRanges(bytes).map { range in
            let row = bytes[range]
            CopyBinary.fieldRanges(ofRow: row, into: &fields)
            func field(_ index: Int) -> ArraySlice<UInt8> {
                guard index < fields.count, let field = fields[index] else { return [] }
                return row[(row.startIndex + field.lowerBound)..<(row.startIndex + field.upperBound)]
            }
            let uuid = CopyBinary.uuidText(field(0))
            let subscription = String(decoding: field(NotificationRow.subscriptionField), as: UTF8.self)
            return Row(
                range: range, key: NotificationKey(subscription: subscription, uuid: uuid),
                line: CopyBinary.int64(field(NotificationRow.sourceLineField), at: 0),
                signedDate: CopyBinary.int64(field(NotificationRow.signedDateField), at: 0).map {
                    ($0 + CopyBinary.postgresEpochMicroseconds) / 1000
                } ?? 0
            )
        }
    }
}
