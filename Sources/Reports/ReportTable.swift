/// One report table: the file it is written to, its header and its typed cells.
package struct ReportTable: Hashable, Sendable {
    /// The file name, such as `recovery_by_cohort.csv`.
    package var name: String
    package var columns: [String]
    package var rows: [[Cell]]

    package init(name: String, columns: [String], rows: [[Cell]] = []) {
        self.name = name
        self.columns = columns
        self.rows = rows
    }

    /// The table with only `names`, in that order (a column named twice shows twice).
    /// - Returns: nil when a name is not one of ``columns``.
    package func selecting(_ names: [String]) -> ReportTable? {
        let positions = names.compactMap { columns.firstIndex(of: $0) }
        guard positions.count == names.count else { return nil }
        return ReportTable(name: name, columns: names, rows: rows.map { row in positions.map { row[$0] } })
    }

    /// The value a total row carries in its grouping columns.
    package static let total = "(all)"
}
