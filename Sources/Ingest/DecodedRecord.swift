import PGClient

/// What one record became: COPY rows for the notifications it held, and rejections for what was refused.
struct DecodedRecord: Sendable {
    var rows = CopyBinary(reservingCapacity: 4096, declaration: NotificationRow.table)
    var rowCount = 0
    var rejections: [Rejection] = []
}
