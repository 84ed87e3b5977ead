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

    /// The value a total row carries in its grouping columns.
    package static let total = "(all)"
}
