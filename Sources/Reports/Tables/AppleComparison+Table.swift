import Analysis
import AppleReports

extension AppleComparison {
    package static let fileName = "apple_comparison.csv"
    package static let columns = [
        "granularity", "period", "metric", "ours", "apple", "difference", "noise_bound", "threshold_allowance",
        "apple_values", "status",
    ]

    /// `apple_comparison.csv`: the weeks, then the months, then the days, each in order of time and metric.
    /// - Parameter includeDays: false for the weeks alone.
    package func table(includeDays: Bool = true) -> ReportTable {
        ReportTable(
            name: Self.fileName,
            columns: Self.columns,
            rows: (weeks + months + (includeDays ? days : [])).map { row in
                [
                    .text(row.granularity), .text(row.period), .text(row.metric.rawValue), .integer(row.ours),
                    .integer(row.apple), .integer(row.difference), .integer(row.noiseBound),
                    .integer(row.thresholdAllowance),
                    .integer(row.appleValues), .text(row.status.rawValue),
                ]
            })
    }
}
