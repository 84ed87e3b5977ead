/// A value bound to a statement's parameter (`$1`, `$2`, …), sent in PostgreSQL's text format with its type.
///
/// Integers go as `bigint` (`integer` for `Int32`), booleans as `boolean` and instants (``PGInstant``) as
/// `timestamptz`, so the SQL needs no cast for them; text goes untyped, and the server takes the type of the column
/// or operator it meets. ``PGQuery`` binds them where they are written; ``PGConnection/execute(_:_:)`` also takes a
/// list: `[environment, asOf, isTrialConversion]`, `nil` for SQL NULL through an optional.
package protocol PGParameter: Sendable {
    /// The value in PostgreSQL's text format; nil for SQL NULL.
    var parameterText: String? { get }
    /// The type the value is sent as; nil to let the server decide from where the parameter stands.
    static var parameterType: PGType? { get }
    /// The object id of the type the value is sent as (`pg_type.oid`); 0 to let the server decide.
    var parameterTypeOID: UInt32 { get }
}

extension PGParameter {
    package static var parameterType: PGType? { nil }
    package var parameterTypeOID: UInt32 { Self.parameterType?.oid ?? 0 }
}

extension String: PGParameter {
    package var parameterText: String? { self }
}

extension Int: PGParameter {
    package var parameterText: String? { String(self) }
    package static var parameterType: PGType? { .bigint }
}

extension Int64: PGParameter {
    package var parameterText: String? { String(self) }
    package static var parameterType: PGType? { .bigint }
}

extension Int32: PGParameter {
    package var parameterText: String? { String(self) }
    package static var parameterType: PGType? { .integer }
}

extension Bool: PGParameter {
    /// `true` or `false`, which a `boolean` parameter reads.
    package var parameterText: String? { self ? "true" : "false" }
    package static var parameterType: PGType? { .boolean }
}

extension Optional: PGParameter where Wrapped: PGParameter {
    /// The wrapped value's text; nil (SQL NULL) for `nil`.
    package var parameterText: String? { self?.parameterText }
    package static var parameterType: PGType? { Wrapped.parameterType }
}

/// An instant in Unix milliseconds, sent as `timestamptz` (in UTC, to the millisecond): the SQL needs no
/// `to_timestamp($1 / 1000.0)`.
package struct PGInstant: PGParameter, Hashable {
    package var milliseconds: Int64

    package init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// Nil (SQL NULL) for nil.
    package static func optional(milliseconds: Int64?) -> PGInstant? {
        milliseconds.map(PGInstant.init(milliseconds:))
    }

    /// `YYYY-MM-DD HH:MM:SS.mmm+00`; an instant outside the years 1–9999, which no column here holds, goes as its
    /// number of milliseconds, which the server refuses with its own message.
    package var parameterText: String? {
        PGTimestamp.text(milliseconds: milliseconds).map { String(decoding: $0, as: UTF8.self) } ?? String(milliseconds)
    }

    package static var parameterType: PGType? { .timestamptz }
}

/// SQL NULL of no particular type, for a parameter list written out: `[id, PGNull()]`.
package struct PGNull: PGParameter {
    package init() {}

    package var parameterText: String? { nil }
}
