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

/// The decoding is inlinable, so that a reader in another module gets it specialized for its row type and value
/// types: a hot loop (a COPY of every stored episode) then costs what reading the fields by position costs.
extension PGFieldSource {
    /// The value of `field`.
    /// - Throws: ``PGError`` of kind `unexpectedResult`, naming the column, when the row has no such field, the
    ///   field is NULL, or its text is not a `Value`.
    @inlinable @inline(__always)
    package func decode<Value: PGDecodable>(_ type: Value.Type, _ field: PGField) throws(PGError) -> Value {
        guard let value = try decode(Value?.self, field) else { throw field.nullError() }
        return value
    }

    /// The value of `field`, nil for SQL NULL.
    /// - Throws: ``PGError`` of kind `unexpectedResult`, naming the column, when the row has no such field or its
    ///   text is not a `Value`.
    @inlinable @inline(__always)
    package func decode<Value: PGDecodable>(_ type: Value?.Type, _ field: PGField) throws(PGError) -> Value? {
        // A value is read with one call; NULL, a missing field and bad text are told apart only after.
        if let value = Value.decode(self, at: field.position) { return value }
        guard field.position < count else { throw field.missingError(fieldCount: count) }
        if isNull(field.position) { return nil }
        throw field.malformedError(text(field.position), as: Value.self)
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
