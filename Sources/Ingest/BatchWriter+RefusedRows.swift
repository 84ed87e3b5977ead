import Logging
import PGClient

extension BatchWriter {
    private static let stagingCopy =
        "COPY churn_staging (\(NotificationRow.columns.joined(separator: ", "))) FROM STDIN"

    /// Finds the rows PostgreSQL refuses: COPYs them into staging as text, one at a time once the whole is refused,
    /// and empties staging again.
    ///
    /// The rows go as text here, so that PostgreSQL's message for a refused row names the value as its text input
    /// reads it.
    /// - Returns: each refused row's index among `binaryRows`, with its rejection.
    func refusedRows(
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
                            raw: Array((record?.bytes ?? []).prefix(keepBytes)),
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
}
