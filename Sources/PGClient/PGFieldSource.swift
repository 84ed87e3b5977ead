/// One row of a result, read field by field: a row of ``PGRows`` (an array of text values) or the row a
/// ``CopyTextRowReader`` last read.
///
/// `decode(_:_:)` reads a field as a typed value and names the column when it cannot.
@usableFromInline
package protocol PGFieldSource {
    /// The number of fields of the row.
    var count: Int { get }
    /// Whether the field at `position` is SQL NULL (false for a field the row does not have).
    func isNull(_ position: Int) -> Bool
    /// The field at `position` as text; nil for SQL NULL and for a field the row does not have.
    func text(_ position: Int) -> String?
    /// The field at `position` as a 64-bit integer; nil for SQL NULL, a missing field and text that is not one.
    func int64(_ position: Int) -> Int64?
}

/// Typed reads of one field, for the types stored columns are read as: text, integers, booleans. Each names the
/// column in its error (kind `unexpectedResult`): a field the row does not have, text that is not a value of the
/// type, and, for a non-optional type, NULL.
///
/// They are inlinable and concrete, so a reader in another module gets them compiled for its row type: a hot loop
/// (a COPY of every notification) then costs what reading the fields by position costs, one call a field.
extension PGFieldSource {
    /// The text of `field`.
    @inlinable @inline(__always)
    package func decode(_ type: String.Type, _ field: PGField) throws(PGError) -> String {
        try required(checked(text(field.position), field, String.self), field)
    }

    /// The text of `field`, nil for SQL NULL.
    @inlinable @inline(__always)
    package func decode(_ type: String?.Type, _ field: PGField) throws(PGError) -> String? {
        try checked(text(field.position), field, String.self)
    }

    /// The 64-bit integer of `field`.
    @inlinable @inline(__always)
    package func decode(_ type: Int64.Type, _ field: PGField) throws(PGError) -> Int64 {
        try required(checked(int64(field.position), field, Int64.self), field)
    }

    /// The 64-bit integer of `field`, nil for SQL NULL.
    @inlinable @inline(__always)
    package func decode(_ type: Int64?.Type, _ field: PGField) throws(PGError) -> Int64? {
        try checked(int64(field.position), field, Int64.self)
    }

    /// The integer of `field`.
    @inlinable @inline(__always)
    package func decode(_ type: Int.Type, _ field: PGField) throws(PGError) -> Int {
        try required(checked(int64(field.position).flatMap { Int(exactly: $0) }, field, Int.self), field)
    }

    /// The integer of `field`, nil for SQL NULL.
    @inlinable @inline(__always)
    package func decode(_ type: Int?.Type, _ field: PGField) throws(PGError) -> Int? {
        try checked(int64(field.position).flatMap { Int(exactly: $0) }, field, Int.self)
    }

    /// The 32-bit integer of `field`.
    @inlinable @inline(__always)
    package func decode(_ type: Int32.Type, _ field: PGField) throws(PGError) -> Int32 {
        try required(checked(int64(field.position).flatMap { Int32(exactly: $0) }, field, Int32.self), field)
    }

    /// The 32-bit integer of `field`, nil for SQL NULL.
    @inlinable @inline(__always)
    package func decode(_ type: Int32?.Type, _ field: PGField) throws(PGError) -> Int32? {
        try checked(int64(field.position).flatMap { Int32(exactly: $0) }, field, Int32.self)
    }

    /// The boolean of `field`: `t` or `f` as PostgreSQL prints one, `true` or `false` as `boolean::text` does.
    @inlinable @inline(__always)
    package func decode(_ type: Bool.Type, _ field: PGField) throws(PGError) -> Bool {
        try required(checked(Self.boolean(text(field.position)), field, Bool.self), field)
    }

    /// The boolean of `field`, nil for SQL NULL.
    @inlinable @inline(__always)
    package func decode(_ type: Bool?.Type, _ field: PGField) throws(PGError) -> Bool? {
        try checked(Self.boolean(text(field.position)), field, Bool.self)
    }

    /// The case of `type` whose raw value is the text of `field` (an enum stored as its raw value, such as an
    /// outcome); an error names the column and the text when no case has it.
    @inlinable @inline(__always)
    package func decode<Value: RawRepresentable>(
        _ type: Value.Type, _ field: PGField
    ) throws(PGError) -> Value where Value.RawValue == String {
        try required(checked(text(field.position).flatMap(Value.init(rawValue:)), field, Value.self), field)
    }

    /// The case of `type` whose raw value is the text of `field`, nil for SQL NULL.
    @inlinable @inline(__always)
    package func decode<Value: RawRepresentable>(
        _ type: Value?.Type, _ field: PGField
    ) throws(PGError) -> Value? where Value.RawValue == String {
        try checked(text(field.position).flatMap(Value.init(rawValue:)), field, Value.self)
    }

    /// `value` when the field had one; else nil for SQL NULL, and an error for a missing field or text that is not
    /// a `type`. A value is read with one call; the rest is told apart only after.
    @inlinable @inline(__always)
    func checked<Value>(_ value: Value?, _ field: PGField, _ type: Any.Type) throws(PGError) -> Value? {
        if let value { return value }
        guard field.position < count else { throw field.missingError(fieldCount: count) }
        if isNull(field.position) { return nil }
        throw field.malformedError(text(field.position), as: type)
    }

    /// `value`, or the error for a NULL where a value is required.
    @inlinable @inline(__always)
    func required<Value>(_ value: Value?, _ field: PGField) throws(PGError) -> Value {
        guard let value else { throw field.nullError() }
        return value
    }

    /// A boolean's text as a value.
    @inlinable @inline(__always)
    static func boolean(_ text: String?) -> Bool? {
        switch text {
        case "t", "true": true
        case "f", "false": false
        default: nil
        }
    }
}

extension PGField {
    /// The error for a NULL where a value is required. Not inlined, as errors are rare.
    @usableFromInline
    func nullError() -> PGError {
        PGError(kind: .unexpectedResult, message: "column \(name) is NULL where a value is required")
    }

    /// The error for a row of `fieldCount` fields that has no field at this one's position.
    @usableFromInline
    func missingError(fieldCount: Int) -> PGError {
        PGError(
            kind: .unexpectedResult,
            message: "a row has \(fieldCount) fields, and no column \(name) at position \(position + 1)")
    }

    /// The error for text that is not a value of `type`.
    @usableFromInline
    func malformedError(_ text: String?, as type: Any.Type) -> PGError {
        PGError(kind: .unexpectedResult, message: "column \(name) holds '\((text ?? "").prefix(60))', not \(type)")
    }
}

extension [String?]: PGFieldSource {
    @inlinable @inline(__always)
    package func isNull(_ position: Int) -> Bool {
        position < count && self[position] == nil
    }

    @inlinable @inline(__always)
    package func text(_ position: Int) -> String? {
        position < count ? self[position] : nil
    }

    @inlinable @inline(__always)
    package func int64(_ position: Int) -> Int64? {
        text(position).flatMap { Int64($0) }
    }
}
