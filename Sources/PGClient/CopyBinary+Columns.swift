/// Appending values that name their columns: a writer of a declared table (``CopyBinary/declaration``) gives each
/// value with its column's name, and a debug build checks the name against the column the declaration has at that
/// position, so two values of one type given in the wrong order fail the first test that writes a row. Release
/// builds check nothing: each call is the unnamed append it wraps.
///
/// ```swift
/// var rows = CopyBinary(declaration: StoredTables.notifications)
/// try rows.append(uuid: uuid, column: "notification_uuid")
/// try rows.append(type, column: "notification_type")
/// ```
extension CopyBinary {
    /// ``append(_:)-(String?)`` to the column `name`.
    package mutating func append(_ text: String?, column name: StaticString) throws(PGError) {
        checkColumn(name)
        try append(text)
    }

    /// ``append(uuid:)`` to the column `name`.
    package mutating func append(uuid text: String, column name: StaticString) throws(PGError) {
        checkColumn(name)
        try append(uuid: text)
    }

    /// ``append(_:)-(Int16?)`` to the column `name`.
    package mutating func append(_ value: Int16?, column name: StaticString) {
        checkColumn(name)
        append(value)
    }

    /// ``append(_:)-(Int32?)`` to the column `name`.
    package mutating func append(_ value: Int32?, column name: StaticString) {
        checkColumn(name)
        append(value)
    }

    /// ``append(_:)-(Int64?)`` to the column `name`.
    package mutating func append(_ value: Int64?, column name: StaticString) {
        checkColumn(name)
        append(value)
    }

    /// ``append(_:)-(Bool?)`` to the column `name`.
    package mutating func append(_ value: Bool?, column name: StaticString) {
        checkColumn(name)
        append(value)
    }

    /// ``append(bytea:)`` to the column `name`.
    package mutating func append<Bytes: Collection<UInt8>>(bytea value: Bytes?, column name: StaticString) {
        checkColumn(name)
        append(bytea: value)
    }

    /// ``appendJSONB(utf8:)`` to the column `name`.
    package mutating func appendJSONB(utf8 source: UnsafeRawBufferPointer, column name: StaticString) throws(PGError) {
        checkColumn(name)
        try appendJSONB(utf8: source)
    }

    /// ``appendNull()`` to the column `name`.
    package mutating func appendNull(column name: StaticString) {
        checkColumn(name)
        appendNull()
    }

    /// ``appendTimestamp(milliseconds:)`` to the column `name`.
    package mutating func appendTimestamp(milliseconds: Int64?, column name: StaticString) -> Bool {
        checkColumn(name)
        return appendTimestamp(milliseconds: milliseconds)
    }

    /// In a debug build, stops when the declaration's column at the next field's position is not `name`.
    private func checkColumn(_ name: StaticString) {
        assert(
            declaration == nil || declaredColumn == "\(name)",
            "\(declaration?.name ?? ""): a value for \(name) where the declaration has \(declaredColumn ?? "no column")"
        )
    }

    /// The declaration's column at the next field's position; nil past its last column or without a declaration.
    private var declaredColumn: String? {
        guard let columns = declaration?.columns, columns.indices.contains(Int(fieldsInRow)) else { return nil }
        return columns[Int(fieldsInRow)].name
    }
}
