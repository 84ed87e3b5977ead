/// One row of a result, read field by field: a row of ``PGRows`` (an array of text values) or the row a
/// ``CopyTextRowReader`` last read.
///
/// `decode(_:_:)` reads a field as a typed value and names the column when it cannot.
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

extension PGFieldSource {
    /// The value of `field`.
    /// - Throws: ``PGError`` of kind `unexpectedResult`, naming the column, when the row has no such field, the
    ///   field is NULL, or its text is not a `Value`.
    package func decode<Value: PGDecodable>(_ type: Value.Type, _ field: PGField) throws(PGError) -> Value {
        guard let value = try decode(Value?.self, field) else {
            throw PGError(kind: .unexpectedResult, message: "column \(field.name) is NULL where a value is required")
        }
        return value
    }

    /// The value of `field`, nil for SQL NULL.
    /// - Throws: ``PGError`` of kind `unexpectedResult`, naming the column, when the row has no such field or its
    ///   text is not a `Value`.
    package func decode<Value: PGDecodable>(_ type: Value?.Type, _ field: PGField) throws(PGError) -> Value? {
        guard field.position < count else {
            throw PGError(
                kind: .unexpectedResult,
                message: "a row has \(count) fields, and no column \(field.name) at position \(field.position + 1)")
        }
        if isNull(field.position) { return nil }
        guard let value = Value.decode(self, at: field.position) else {
            throw PGError(
                kind: .unexpectedResult,
                message: "column \(field.name) holds '\((text(field.position) ?? "").prefix(60))', not \(Value.self)")
        }
        return value
    }
}

extension [String?]: PGFieldSource {
    package func isNull(_ position: Int) -> Bool {
        position < count && self[position] == nil
    }

    package func text(_ position: Int) -> String? {
        position < count ? self[position] : nil
    }

    package func int64(_ position: Int) -> Int64? {
        text(position).flatMap { Int64($0) }
    }
}
