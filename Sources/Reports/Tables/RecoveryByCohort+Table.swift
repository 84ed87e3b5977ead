import Analysis

extension RecoveryByCohort {
    package static let fileName = "recovery_by_cohort.csv"
    package static let columns = [
        "cohort", "product_id", "episodes", "recovered", "expired", "cancelled", "other", "open", "recovery_rate",
        "mature_episodes", "mature_recovered", "mature_recovery_rate", "mature_recovery_rate_low",
        "mature_recovery_rate_high",
    ]

    /// `recovery_by_cohort.csv`: one line per ``Row``, `(all)` where it covers all cohorts or all products.
    package static func table(_ rows: [Row]) -> ReportTable {
        ReportTable(
            name: fileName,
            columns: columns,
            rows: rows.map { row in
                [.text(row.cohort?.description ?? ReportTable.total), .text(row.productId ?? ReportTable.total)]
                    + cells(row)
            })
    }

    /// The cells after `cohort` and `product_id`: `episodes … mature_recovery_rate_high`.
    static func cells(_ row: Row) -> [ReportTable.Cell] {
        row.outcomes.cells + row.mature.cells
    }
}
