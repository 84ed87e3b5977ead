import CLibPQ

/// Owns one `PGresult` and clears it exactly once.
///
/// Values are copied out into Swift strings before the result dies: no pointer into libpq memory escapes.
struct PGResult: ~Copyable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        PQclear(pointer)
    }

    var status: ExecStatusType { PQresultStatus(pointer) }

    var errorMessage: String {
        guard let message = PQresultErrorMessage(pointer) else { return "" }
        return String(cString: message).trimmingTrailingNewlines()
    }

    var sqlState: String? {
        guard let field = PQresultErrorField(pointer, CLIBPQ_DIAG_SQLSTATE) else { return nil }
        return String(cString: field)
    }

    /// The number of rows a command touched (`PQcmdTuples`), or 0 when it does not say.
    var affectedRows: Int {
        guard let text = PQcmdTuples(pointer) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// Copies every cell into a ``PGRows`` value.
    func rows() -> PGRows {
        let rowCount = Int(PQntuples(pointer))
        let columnCount = Int(PQnfields(pointer))
        var columns: [String] = []
        columns.reserveCapacity(columnCount)
        for column in 0..<columnCount {
            columns.append(PQfname(pointer, Int32(column)).map { String(cString: $0) } ?? "")
        }
        var rows: [[String?]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(columnCount)
            for column in 0..<columnCount {
                if PQgetisnull(pointer, Int32(row), Int32(column)) == 1 {
                    values.append(nil)
                } else {
                    values.append(PQgetvalue(pointer, Int32(row), Int32(column)).map { String(cString: $0) })
                }
            }
            rows.append(values)
        }
        return PGRows(columns: columns, rows: rows, affectedRows: affectedRows)
    }
}

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

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while let last = text.last, last == "\n" || last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
