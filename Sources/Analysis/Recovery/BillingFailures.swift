/// The figures of `billing_failures.csv`: per UTC month, episodes started / (episodes started + ordinary renewals).
///
/// Episodes count in the month of their start t0, renewals (`DID_RENEW` not `BILLING_RECOVERY`) in the month of
/// their `signedDate`. Always monthly, whatever the cohort granularity. Rows: months with either, ascending,
/// then the total `(all)`, which is always present.
package enum BillingFailures {
    /// One month's episodes started and ordinary renewals, or those of all months.
    package struct Row: Hashable, Sendable {
        /// The month; nil for all months (the total).
        package var month: CalendarPeriod?
        package var episodesStarted: Int
        package var renewals: Int

        package init(month: CalendarPeriod?, episodesStarted: Int, renewals: Int) {
            self.month = month
            self.episodesStarted = episodesStarted
            self.renewals = renewals
        }
    }

    /// The rows: months ascending, then the total.
    package static func rows(episodes: [Episode], renewals: PeriodCounts) -> [Row] {
        var started = PeriodCounts()
        for episode in episodes {
            started.add(episode.cohort(.month))
        }
        return rows(started: started, renewals: renewals)
    }

    /// The rows: months ascending, then the total.
    ///
    /// - Parameters:
    ///   - started: episodes started, per month of t0.
    ///   - renewals: ordinary renewals, per month of `signedDate`.
    package static func rows(started: PeriodCounts, renewals: PeriodCounts) -> [Row] {
        let months = Set(started.periods).union(renewals.periods).sorted()
        var rows: [Row] = []
        var total = Row(month: nil, episodesStarted: 0, renewals: 0)
        for month in months {
            rows.append(Row(month: month, episodesStarted: started[month], renewals: renewals[month]))
            total.episodesStarted += started[month]
            total.renewals += renewals[month]
        }
        rows.append(total)
        return rows
    }
}
