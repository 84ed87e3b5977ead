/// The figures of `message_log.csv` (METRICS.md v2.2, "Billing messages the app showed"): per retry day, the days on
/// which the app showed the billing-issue sheet against the days it did not, over every episode its log covers.
///
/// Retry day d of a covered episode is a *shown day* when a `shown` event of the episode falls in it. For each day d,
/// the episodes at risk on d and their recoveries on d are counted as the life table counts them
/// (``RetryDays``: an episode's grace-end day counts in neither group, an episode with an unknown grace end is left
/// out), in the shown group or the other. A covered episode without any logged event is counted too, all its days
/// in the other group: an episode that ends before the app is opened has no event, and leaving such episodes out
/// would favour shown days. The days of a band (and days 1…60 for the `(all)` row) are pooled by Mantel–Haenszel
/// over the days where both groups have exposure, with the Greenland–Robins interval.
package enum ShownDays {
    /// One row: a band of the message schedule, or days 1…60.
    package struct Row: Hashable, Sendable {
        /// The band's number; nil for the `(all)` row.
        package var band: Int?
        package var firstDay: Int
        package var lastDay: Int
        /// Covered episodes at risk on a day of the row, in either group.
        package var episodes: Int
        /// Episode-days of the row that were shown days.
        package var shownDays: Int
        /// Recoveries over episode-days at risk, on shown days and on the other days.
        package var shown: EventRate
        package var other: EventRate
        /// Shown days against the others, pooled over the row's days.
        package var ratio: RateRatio
    }

    /// The counts, added up one covered episode at a time: two counts per group and day, and per row the episodes
    /// counted on one of its days.
    package struct Tally: Sendable {
        let asOf: Int64
        /// The rows' bands (nil: the `(all)` row) and days.
        private let ranges: [(band: Int?, days: ClosedRange<Int>)]
        private var shown = Array(repeating: EventRate(), count: RetryDays.days.upperBound + 1)
        private var other = Array(repeating: EventRate(), count: RetryDays.days.upperBound + 1)
        private var episodes: [Int]

        /// - Parameters:
        ///   - asOf: the as-of time (Unix ms); open episodes are censored there.
        ///   - schedule: the message schedule whose bands (within days 1…60) make the rows.
        package init(asOf: Int64, schedule: MessageSchedule = .standard) {
            self.asOf = asOf
            let limit = RetryDays.days.upperBound
            ranges =
                schedule.bands.filter { $0.firstDay <= limit }.map { ($0.number, $0.firstDay...min($0.lastDay, limit)) }
                + [(nil, RetryDays.days)]
            episodes = Array(repeating: 0, count: ranges.count)
        }

        /// Adds one covered standard episode with the retry days (1…60) on which a `shown` event of it falls.
        package mutating func add(_ episode: Episode, shownDays: Set<Int>) {
            guard episode.billingPlan == .standard, !episode.isGraceEndUnknown,
                let last = RetryDays.lastDayAtRisk(episode, asOf: asOf)
            else { return }
            let cappedLast = Int(min(last, Int64(RetryDays.days.upperBound)))
            guard cappedLast >= RetryDays.days.lowerBound else { return }
            let graceDay = RetryDays.graceEndDay(episode).flatMap { Int(exactly: $0) }
            let recoveryDay = episode.outcome == .recovered && last <= Int64(cappedLast) ? Int(last) : nil
            var counted: [Int] = []
            for day in RetryDays.days.lowerBound...cappedLast where day != graceDay {
                counted.append(day)
                let counts = EventRate(events: day == recoveryDay ? 1 : 0, atRisk: 1)
                if shownDays.contains(day) { shown[day].add(counts) } else { other[day].add(counts) }
            }
            for (index, range) in ranges.enumerated() where counted.contains(where: range.days.contains) {
                episodes[index] += 1
            }
        }

        /// One row per band, then the `(all)` row.
        package var rows: [Row] {
            ranges.enumerated().map { index, range in
                var shownTotal = EventRate()
                var otherTotal = EventRate()
                var strata: [(compared: EventRate, reference: EventRate)] = []
                for day in range.days {
                    shownTotal.add(shown[day])
                    otherTotal.add(other[day])
                    if shown[day].atRisk > 0, other[day].atRisk > 0 { strata.append((shown[day], other[day])) }
                }
                return Row(
                    band: range.band, firstDay: range.days.lowerBound, lastDay: range.days.upperBound,
                    episodes: episodes[index], shownDays: shownTotal.atRisk, shown: shownTotal, other: otherTotal,
                    ratio: RateRatio(mantelHaenszel: strata))
            }
        }
    }
}
