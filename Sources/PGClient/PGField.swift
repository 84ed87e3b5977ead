/// A field of a result row: the column's name (for messages) and its position, resolved once for a whole result or
/// select list (``PGSelection``, ``PGRows/field(_:)``), never per row.
@usableFromInline
package struct PGField: Sendable, Hashable {
    /// The column's name, as the select list or the result names it.
    @usableFromInline
    package var name: String
    /// The field's position in the row, 0 for the first.
    @usableFromInline
    package var position: Int

    /// Fields are made by ``PGSelection`` and ``PGRows/field(_:)`` only: a reader outside this module names its
    /// columns and never counts them.
    init(name: String, position: Int) {
        self.name = name
        self.position = position
    }
}
