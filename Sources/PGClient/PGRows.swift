/// The rows of a query, copied into Swift values. `nil` is SQL NULL; every value is in PostgreSQL's text format.
package struct PGRows: Sendable {
    package var columns: [String]
    package var rows: [[String?]]
    /// Rows a command inserted, updated or deleted (from the command tag).
    package var affectedRows: Int

    package init(columns: [String], rows: [[String?]], affectedRows: Int) {
        self.columns = columns
        self.rows = rows
        self.affectedRows = affectedRows
    }

    /// The first row's first value, for single-value queries.
    package var scalar: String? {
        rows.first?.first ?? nil
    }
}

extension PGRows {
    /// The field of the column `name` in this result's rows (``PGFieldSource``), resolved once for all of them.
    /// - Throws: ``PGError`` of kind `unexpectedResult` when the result has no column of that name.
    package func field(_ name: String) throws(PGError) -> PGField {
        guard let position = columns.firstIndex(of: name) else {
            throw PGError(
                kind: .unexpectedResult,
                message: "the result has no column \(name) (it has \(columns.joined(separator: ", ")))")
        }
        return PGField(name: name, position: position)
    }
}
