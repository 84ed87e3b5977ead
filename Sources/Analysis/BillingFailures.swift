/// `billing_failures.csv`: per UTC month, episodes started / (episodes started + ordinary renewals).
///
/// Episodes count in the month of their start t0, renewals (`DID_RENEW` not `BILLING_RECOVERY`) in the month of
/// their `signedDate`. Always monthly, whatever the cohort granularity. Rows: months with either, ascending,
/// then the total `(all)`, which is always present.
package enum BillingFailures {
    package static let fileName = "billing_failures.csv"
    package static let columns = ["month", "episodes_started", "renewals", "billing_failure_rate"]

    package static func table(episodes: [Episode], renewals: PeriodCounts) -> ReportTable {
        var started = PeriodCounts()
        for episode in episodes {
            started.add(episode.cohort(.month))
        }
        let months = Set(started.periods).union(renewals.periods).sorted()
        var table = ReportTable(name: fileName, columns: columns)
        var totalStarted = 0
        var totalRenewals = 0
        for month in months {
            table.rows.append(row(month.description, started[month], renewals[month]))
            totalStarted += started[month]
            totalRenewals += renewals[month]
        }
        table.rows.append(row(ReportTable.total, totalStarted, totalRenewals))
        return table
    }

    private static func row(_ month: String, _ started: Int, _ renewals: Int) -> [ReportTable.Cell] {
        [.text(month), .integer(started), .integer(renewals), .ratio(started, started + renewals)]
    }
}
