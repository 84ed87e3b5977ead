import Reports

/// The formatted cells of a table, one string per row joined by commas (no CSV quoting).
func lines(_ table: ReportTable) -> [String] {
    table.rows.map { $0.map(\.formatted).joined(separator: ",") }
}
