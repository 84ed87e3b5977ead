/// A value bound to a statement's parameter (`$1`, `$2`, …), sent in PostgreSQL's text format.
///
/// Cast the parameter in SQL (`$1::bigint`, `$2::boolean`) where its column or operator does not decide its type.
/// ``PGConnection/execute(_:_:)`` takes a list of them: `[environment, asOf, isTrialConversion]`, `nil` for SQL
/// NULL through an optional.
package protocol PGParameter: Sendable {
    /// The value in PostgreSQL's text format; nil for SQL NULL.
    var parameterText: String? { get }
}

extension String: PGParameter {
    package var parameterText: String? { self }
}

extension Int: PGParameter {
    package var parameterText: String? { String(self) }
}

extension Int64: PGParameter {
    package var parameterText: String? { String(self) }
}

extension Int32: PGParameter {
    package var parameterText: String? { String(self) }
}

extension Bool: PGParameter {
    /// `true` or `false`, which a `boolean` parameter reads.
    package var parameterText: String? { self ? "true" : "false" }
}

extension Optional: PGParameter where Wrapped: PGParameter {
    /// The wrapped value's text; nil (SQL NULL) for `nil`.
    package var parameterText: String? { self?.parameterText }
}

/// SQL NULL of no particular type, for a parameter list written out: `[id, PGNull()]`.
package struct PGNull: PGParameter {
    package init() {}

    package var parameterText: String? { nil }
}
