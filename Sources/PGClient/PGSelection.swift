/// The columns a reader reads from one declared table (``PGTable``), and the select list that reads them.
///
/// A reader adds each column it needs and keeps the ``PGField`` it gets back: the field's position follows from the
/// order of the adds, so no list of positions is kept by hand, and a row is read by field (``PGFieldSource``) with no
/// lookup by name per row.
///
/// ```swift
/// var selection = PGSelection(BillingEpisodes.table)
/// let subscription = selection.add("original_transaction_id")
/// let start = selection.add("start_at")        // a timestamptz: read as Unix milliseconds
/// let sql = "SELECT \(selection.list) FROM billing_episodes"
/// let value = try row.decode(Int64.self, start)
/// ```
package struct PGSelection: Sendable {
    /// The table the columns are declared in.
    package let table: PGTable
    /// A table alias to qualify each column with (`n` gives `n.signed_date`); nil for none.
    package let qualifier: String?
    /// The select list's expressions, in order.
    package private(set) var expressions: [String] = []
    /// The fields, in order.
    package private(set) var fields: [PGField] = []

    package init(_ table: PGTable, qualifier: String? = nil) {
        self.table = table
        self.qualifier = qualifier
    }

    /// Adds the column `name` to the select list, read as ``PGColumn/selectExpression(qualifier:)`` reads its type.
    ///
    /// A name the table does not declare is selected as it is, so the server names it if it does not exist; the
    /// test that compares each declaration with its table keeps the declarations complete.
    /// - Parameter expression: an expression to read instead of the column itself (`nullif(n.x, '')`), with the same
    ///   meaning; `name` then names the field.
    /// - Returns: the field to read the column's value by.
    package mutating func add(_ name: String, expression: String? = nil) -> PGField {
        let column = table.column(name)
        expressions.append(
            expression ?? column?.selectExpression(qualifier: qualifier)
                ?? qualifier.map { "\($0).\(name)" } ?? name)
        let field = PGField(name: name, position: fields.count)
        fields.append(field)
        return field
    }

    /// The select list: `a, b, (date_part('epoch', c) * 1000)::int8`.
    package var list: String { expressions.joined(separator: ", ") }

    /// The number of fields a row of the selection has.
    package var count: Int { fields.count }
}
