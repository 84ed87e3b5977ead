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
