import CivilTime

/// Encodes rows of one declared table (``PGTable``) in PostgreSQL's binary COPY format, each value at its column's
/// declared type: an `Int` given for an `integer` column goes as 4 bytes, for a `bigint` column as 8, and a value
/// that its column cannot hold, or a call of the wrong kind for the column, is refused here with the column's name
/// rather than by the server with a field length.
///
/// Values are given in the table's column order, one call each, each naming its column, and ``endRow()`` closes a
/// row. A debug build checks every name against the declaration (`assert`), so a writer that gives two columns of one
/// type in the wrong order fails its first test instead of storing one in the other:
///
/// ```swift
/// var rows = PGRowEncoder(StoredTables.subscriptionRenewals)   // environment, original_transaction_id, month, renewals
/// try rows.append("Production", column: "environment"); try rows.append("1000", column: "original_transaction_id")
/// try rows.append("2025-01", column: "month"); try rows.append(3, column: "renewals")
/// try rows.endRow()
/// try connection.copyIn(rows.table.copyFromStdin(binary: true)) { out in try out.write(rows.bytes) }
/// ```
package struct PGRowEncoder {
    /// The table whose rows are encoded.
    package let table: PGTable
    private let types: [PGType]
    private var rows = CopyBinary()
    /// The column the next value goes to.
    private var column = 0

    package init(_ table: PGTable) {
        self.table = table
        self.types = table.types
    }

    /// The whole rows encoded so far (no header or trailer: ``PGConnection/copyIn(_:chunkSize:_:)`` adds those).
    package var bytes: [UInt8] { rows.bytes }

    /// Clears the rows, keeping their memory.
    package mutating func removeAll() {
        rows.removeAll()
        column = 0
    }

    /// Appends a `text` or `uuid` value (a UUID in its text form); `nil` appends NULL.
    package mutating func append(_ text: String?, column expected: StaticString? = nil) throws(PGError) {
        let type = try next(expected)
        guard type == .text || type == .uuid else { throw mismatch(type, "a text") }
        guard let text else { return rows.appendNull() }
        if type == .uuid { try rows.append(uuid: text) } else { try rows.append(text) }
    }

    /// Appends an integer at the width of its column (`smallint`, `integer` or `bigint`); `nil` appends NULL.
    /// - Throws: ``PGError`` of kind `invalidValue` when the column's type cannot hold the value.
    package mutating func append<Integer: BinaryInteger>(
        _ value: Integer?, column expected: StaticString? = nil
    ) throws(PGError) {
        guard let value else { return try appendInteger(nil, expected) }
        guard let wide = Int64(exactly: value) else {
            let type = try next(expected)
            throw outOfRange(value, type)
        }
        try appendInteger(wide, expected)
    }

    /// ``append(_:column:)-(Integer?,_)`` of an `Int`, without the generic call's metadata lookups.
    package mutating func append(_ value: Int?, column expected: StaticString? = nil) throws(PGError) {
        try appendInteger(value.map(Int64.init), expected)
    }

    /// ``append(_:column:)-(Integer?,_)`` of an `Int32`.
    package mutating func append(_ value: Int32?, column expected: StaticString? = nil) throws(PGError) {
        try appendInteger(value.map(Int64.init), expected)
    }

    /// ``append(_:column:)-(Integer?,_)`` of an `Int64`.
    package mutating func append(_ value: Int64?, column expected: StaticString? = nil) throws(PGError) {
        try appendInteger(value, expected)
    }

    private mutating func appendInteger(_ value: Int64?, _ expected: StaticString?) throws(PGError) {
        let type = try next(expected)
        guard type == .smallint || type == .integer || type == .bigint else { throw mismatch(type, "an integer") }
        guard let value else { return rows.appendNull() }
        switch type {
        case .smallint:
            guard let narrow = Int16(exactly: value) else { throw outOfRange(value, type) }
            rows.append(narrow)
        case .integer:
            guard let narrow = Int32(exactly: value) else { throw outOfRange(value, type) }
            rows.append(narrow)
        default:
            rows.append(value)
        }
    }

    /// Appends a `boolean`; `nil` appends NULL.
    package mutating func append(_ value: Bool?, column expected: StaticString? = nil) throws(PGError) {
        let type = try next(expected)
        guard type == .boolean else { throw mismatch(type, "a boolean") }
        rows.append(value)
    }

    /// Appends a `timestamptz` given in Unix milliseconds; `nil` appends NULL.
    /// - Throws: ``PGError`` of kind `invalidValue` when the instant lies outside the years 1–9999.
    package mutating func append(milliseconds: Int64?, column expected: StaticString? = nil) throws(PGError) {
        let type = try next(expected)
        guard type == .timestamptz else { throw mismatch(type, "a time") }
        guard rows.appendTimestamp(milliseconds: milliseconds) else {
            throw PGError(
                kind: .invalidValue,
                message: "\(name(of: column - 1)): the time \(milliseconds ?? 0) ms is outside the years 1–9999")
        }
    }

    /// Appends a `timestamptz` given in Unix milliseconds, or NULL when there is none or it lies outside the years
    /// 1–9999.
    package mutating func append(
        millisecondsOrNull milliseconds: Int64?, column expected: StaticString? = nil
    ) throws(PGError) {
        let type = try next(expected)
        guard type == .timestamptz else { throw mismatch(type, "a time") }
        if !rows.appendTimestamp(milliseconds: milliseconds) { rows.appendNull() }
    }

    /// Appends an `interval` of `milliseconds`, as whole days and the rest (psql then shows "20 days 06:00:00"
    /// rather than "486:00:00"); `nil` appends NULL.
    package mutating func append(
        intervalMilliseconds milliseconds: Int64?, column expected: StaticString? = nil
    ) throws(PGError) {
        let type = try next(expected)
        guard type == .interval else { throw mismatch(type, "an interval") }
        guard let milliseconds else { return rows.appendNull() }
        let day = CivilDate.millisecondsPerDay
        guard let days = Int32(exactly: milliseconds / day) else { throw outOfRange(milliseconds, .interval) }
        rows.appendInterval(microseconds: milliseconds % day * 1000, days: days, months: 0)
    }

    /// Ends the row.
    /// - Throws: ``PGError`` of kind `invalidValue` when the row has fewer values than the table has columns.
    package mutating func endRow() throws(PGError) {
        guard column == types.count else {
            throw PGError(
                kind: .invalidValue,
                message: "a row of \(table.name) ended after \(column) of its \(types.count) columns")
        }
        rows.endRow()
        column = 0
    }

    /// The type of the column the next value goes to; moves to the column after. A debug build checks that the
    /// column is the one the writer named.
    private mutating func next(_ expected: StaticString?) throws(PGError) -> PGType {
        guard column < types.count else {
            throw PGError(kind: .invalidValue, message: "a row of \(table.name) has more than \(types.count) values")
        }
        assert(
            expected.map { table.columns[column].name == $0.description } ?? true,
            "\(table.name): a value for \(expected?.description ?? "") where the declaration has \(name(of: column))")
        column += 1
        return types[column - 1]
    }

    /// The error for `given` (a text, an integer, …) appended to the column just passed, of type `type`.
    private func mismatch(_ type: PGType, _ given: String) -> PGError {
        PGError(kind: .invalidValue, message: "\(name(of: column - 1)) is \(type.rawValue), not \(given)")
    }

    private func name(of column: Int) -> String { "\(table.name).\(table.columns[column].name)" }

    private func outOfRange(_ value: some BinaryInteger, _ type: PGType) -> PGError {
        PGError(kind: .invalidValue, message: "\(name(of: column - 1)): \(value) is out of range for \(type.rawValue)")
    }
}
