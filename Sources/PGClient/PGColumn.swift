/// One column of a stored table: its name and its type.
package struct PGColumn: Sendable, Hashable {
    package var name: String
    package var type: PGType

    package init(_ name: String, _ type: PGType) {
        self.name = name
        self.type = type
    }

    /// How a select list reads the column: by name, except a `timestamptz`, which is read as Unix milliseconds
    /// (`int8`, exact for millisecond values), the unit the rest of the code counts time in.
    /// - Parameter qualifier: a table alias to prefix the name with (`n` gives `n.signed_date`).
    package func selectExpression(qualifier: String? = nil) -> String {
        let qualified = qualifier.map { "\($0).\(name)" } ?? name
        switch type {
        case .timestamptz: return "(date_part('epoch', \(qualified)) * 1000)::int8"
        default: return qualified
        }
    }
}
