import Analysis

extension GraceRevenue {
    package static let fileName = "grace_revenue.csv"
    package static let columns = ["currency", "saved_episodes", "revenue_saved"]

    /// `grace_revenue.csv`: one row per currency, the revenue as currency units with 3 decimals (empty when too
    /// large to add up).
    package static func table(_ rows: [Row]) -> ReportTable {
        ReportTable(
            name: fileName,
            columns: columns,
            rows: rows.map { row in
                [.text(row.currency), .integer(row.saved.episodes), .milliunits(ifDefined: row.saved.revenue)]
            })
    }
}
