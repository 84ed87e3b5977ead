/// A statement with its parameters bound where they are written, as postgres-nio's `PostgresQuery` does:
///
///     try connection.execute("UPDATE fetch_checkpoints SET pages = \(bind: pages) WHERE id = \(bind: id)")
///
/// sends `UPDATE fetch_checkpoints SET pages = $1 WHERE id = $2` with `pages` and `id` as typed parameters
/// (``PGParameter``), never spliced into the text. Text that is SQL itself (an identifier already quoted, a column
/// list a declaration made) goes in with `\(sql: …)`, and a condition written once goes into several statements as a
/// query of its own, `\(query: condition)`, its parameters numbered where it lands.
///
/// The labels are the safety: every interpolation of a `PGQuery` has one, and a `String` has none of them, so a
/// statement with any of them can only be a `PGQuery`, never a `String` that ``PGConnection/execute(_:_:)`` would
/// send with the values spliced into its text; and a value interpolated without a label does not compile.
package struct PGQuery: ExpressibleByStringInterpolation, Sendable {
    fileprivate enum Piece: Sendable {
        case sql(String)
        case parameter(any PGParameter)
    }

    fileprivate var pieces: [Piece]

    package init(stringLiteral value: String) {
        pieces = [.sql(value)]
    }

    package init(stringInterpolation: StringInterpolation) {
        pieces = stringInterpolation.pieces
    }

    /// `queries` one after another with `separator` (SQL text) between them, each keeping its parameters: the
    /// conditions of a `WHERE` joined by `AND`, the values of an `IN` list by commas.
    package init(joining queries: [PGQuery], separator: String) {
        pieces = []
        for (index, query) in queries.enumerated() {
            if index > 0 { pieces.append(.sql(separator)) }
            pieces += query.pieces
        }
    }

    /// The statement, its parameters written `$1`, `$2`, … in the order bound.
    package var sql: String {
        var text = ""
        var count = 0
        for piece in pieces {
            switch piece {
            case .sql(let sql): text += sql
            case .parameter:
                count += 1
                text += "$\(count)"
            }
        }
        return text
    }

    /// The values bound, in the order of their numbers.
    package var parameters: [any PGParameter] {
        pieces.compactMap {
            if case .parameter(let value) = $0 { return value }
            return nil
        }
    }

    package struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var pieces: [Piece] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            pieces.reserveCapacity(2 * interpolationCount + 1)
        }

        package mutating func appendLiteral(_ literal: String) {
            pieces.append(.sql(literal))
        }

        /// Binds `value` as the next parameter.
        package mutating func appendInterpolation(bind value: some PGParameter) {
            pieces.append(.parameter(value))
        }

        /// Binds `value` as the next parameter, SQL NULL (of the wrapped type) for nil.
        package mutating func appendInterpolation<Value: PGParameter>(bind value: Value?) {
            pieces.append(.parameter(value))
        }

        /// Appends a query written apart (a condition several statements share), with its parameters.
        package mutating func appendInterpolation(query: PGQuery) {
            pieces += query.pieces
        }

        /// Appends SQL text as it is: never a value from outside.
        package mutating func appendInterpolation(sql text: String) {
            pieces.append(.sql(text))
        }
    }
}
