import Analysis

extension BillingFailures {
    package static let fileName = "billing_failures.csv"
    package static let columns = ["month", "episodes_started", "renewals", "billing_failure_rate"]

    /// `billing_failures.csv`: one row per month, the total as `(all)`; the rate is empty without episodes or
    /// renewals.
    package static func table(_ rows: [Row]) -> ReportTable {
        ReportTable(
            name: fileName,
            columns: columns,
            rows: rows.map { row in
                [
                    .text(row.month?.description ?? ReportTable.total), .integer(row.episodesStarted),
                    .integer(row.renewals), .ratio(row.episodesStarted, row.episodesStarted + row.renewals),
                ]
            })
    }
}
