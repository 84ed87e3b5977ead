/// A value read from one field of a row in PostgreSQL's text format.
///
/// The conformances here are inlinable, as ``PGFieldSource``'s decoding is.
@usableFromInline
package protocol PGDecodable: Sendable {
    /// The value of the field at `position` of `row`; nil for SQL NULL, a field the row does not have, and text that
    /// is not a value of this type.
    static func decode(_ row: some PGFieldSource, at position: Int) -> Self?
}

extension String: PGDecodable {
    @inlinable @inline(__always)
    package static func decode(_ row: some PGFieldSource, at position: Int) -> String? {
        row.text(position)
    }
}

extension Int64: PGDecodable {
    @inlinable @inline(__always)
    package static func decode(_ row: some PGFieldSource, at position: Int) -> Int64? {
        row.int64(position)
    }
}

extension Int: PGDecodable {
    @inlinable @inline(__always)
    package static func decode(_ row: some PGFieldSource, at position: Int) -> Int? {
        row.int64(position).flatMap { Int(exactly: $0) }
    }
}

extension Int32: PGDecodable {
    @inlinable @inline(__always)
    package static func decode(_ row: some PGFieldSource, at position: Int) -> Int32? {
        row.int64(position).flatMap { Int32(exactly: $0) }
    }
}

extension Bool: PGDecodable {
    /// `t` or `f`, as PostgreSQL prints a boolean; also `true` and `false`, as `boolean::text` prints it.
    @inlinable @inline(__always)
    package static func decode(_ row: some PGFieldSource, at position: Int) -> Bool? {
        switch row.text(position) {
        case "t", "true": true
        case "f", "false": false
        default: nil
        }
    }
}
